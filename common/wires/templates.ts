// Wire templates: the first shape of each wire type from the designer's clicks on the teeth,
// laid out in the jaw's local frame (local.ts: the canonical frame with the teeth up) and carried
// back to the model frame. The parts that rest on teeth are corners kept off the surface by the
// wire's radius plus its clearance (`surface` picks); the tag held in the base is free corners
// on the lingual (palatal) side, inside where the base is. Every template leaves room for the
// bending die (straights longer than its tangent lengths, start and end straights of 5-100 mm,
// turns under 160°), so it passes the bending checks as placed.
import type { SurfacePick, WirePoint, WireType } from './types.ts';
import { keepOff, type SurfaceQuery } from './surface.ts';
import { add, dist, dot, norm, scale, sub, type Xyz } from '../pose.ts';
import { LocalSurface, at, flat, tangentLength, type WireFrame } from './local.ts';
import {
  clamp,
  DIE_RADIUS,
  buccalProfile,
  envelope,
  finish,
  heightsAt,
  mesialOf,
  mirrored,
  openSide,
  placeFree,
  placeOff,
  probeTooth,
  rayHits,
  tagOffset,
  widthAt,
  type Corner,
  type ToothProbe,
} from './shape.ts';

export type { WireFrame } from './local.ts';

/** Clicks on the teeth each template needs (in order; see placeTemplate). */
export const TEMPLATE_CLICKS: Record<WireType, number> = {
  singleArmClasp: 1,
  arrowClasp: 1,
  labialBow: 2,
  wraparoundBow: 2,
};

/** The contact a single-arm clasp crosses into the base. */
export type ClaspCrossing = 'mesial' | 'distal';

export interface WireOptions {
  diameter: number;
  clearance: number;
  /** The bending die's radius the corners make room for (the device's; default 1 mm). */
  dieRadius?: number;
  /**
   * A single-arm clasp's contact its arm crosses into the base (default mesial). Distal: the
   * mirror image, the tip in the mesiobuccal undercut, the tag on along the distal neighbour's
   * lingual (where the gum lingual of the mesial contact is too narrow to hold it).
   */
  crossing?: ClaspCrossing;
}

export interface PlacedWire {
  points: WirePoint[];
  /** Corner indices [from, to] of the tag held in the base (for two tags: the one at the first-fed end). */
  tag: [number, number];
  /** Every tag (the bows have one at each end). */
  tags: [number, number][];
}

export class TemplateError extends Error {
  constructor(
    readonly code: 'TEMPLATE_CLICKS' | 'TEMPLATE_FAILED',
    message: string,
  ) {
    super(message);
  }
}

/**
 * How much closer than the offset a straight may pass the surface between its corners (mm): most
 * of the clearance (at most 0.15 mm), so that the wire itself never enters a tooth.
 */
export const tolerance = (clearance: number): number => Math.max(0.02, Math.min(0.15, clearance * 0.9));

/**
 * Places a template on the clicked teeth:
 * - singleArmClasp: 1 click, the buccal face of the clasped tooth. A C-shaped arm round the
 *   buccal in the gingival third (tip distal, in the undercut), up over the contact with the mesial
 *   neighbour, down the lingual into the base.
 * - arrowClasp: 1 click, buccal, at the contact between two teeth. From the base over that
 *   contact, down into the buccal embrasure, an arrowhead (two corners close together) pressed into
 *   the interproximal undercut, the end resting on the next tooth.
 * - labialBow: 2 clicks, the labial faces of both canines. Across the incisors at mid-crown, a
 *   U-loop on each canine, over the contact between canine and first premolar into the base on
 *   both sides (two tags; `tag` is the first-fed one).
 * - wraparoundBow: 2 clicks, the buccal faces of the last molars. Along the buccal of every tooth,
 *   round the distal of both last molars into the base (two tags, short first straight).
 * `frame.matrix` is the straightening (model → canonical; identity when not straightened) and
 * `frame.jaw` the wire's jaw. Points are in the model frame, fed from the first.
 */
export async function placeTemplate(type: WireType, anchors: SurfacePick[], frame: WireFrame, surface: SurfaceQuery, wire: WireOptions): Promise<PlacedWire> {
  const need = TEMPLATE_CLICKS[type];
  if (anchors.length < need) throw new TemplateError('TEMPLATE_CLICKS', `the ${type} template needs ${need} clicks on the teeth`);
  const local = new LocalSurface(surface, frame);
  const offset = wire.diameter / 2 + wire.clearance;
  const tol = tolerance(wire.clearance);
  const R = wire.dieRadius ?? DIE_RADIUS;
  const clicks = anchors.slice(0, need).map((a) => local.local(a.point));
  let corners: Corner[];
  switch (type) {
    case 'singleArmClasp':
      corners = await singleArmClasp(local, clicks[0]!, offset, tol, R, wire.crossing ?? 'mesial');
      break;
    case 'arrowClasp':
      corners = await arrowClasp(local, clicks[0]!, offset, tol, R);
      break;
    case 'labialBow':
      corners = await labialBow(local, clicks[0]!, clicks[1]!, offset, tol, R);
      break;
    case 'wraparoundBow':
      corners = await wraparoundBow(local, clicks[0]!, clicks[1]!, offset, tol, R);
      break;
  }
  return toModel(local, corners, offset, surface);
}

/** Local corners → the design's points (model frame), surface corners kept off once more there. */
export async function toModel(local: LocalSurface, corners: Corner[], offset: number, surface: SurfaceQuery): Promise<PlacedWire> {
  if (corners.length < 2) throw new TemplateError('TEMPLATE_FAILED', 'the template found no teeth there');
  const tags = tagRanges(corners);
  if (tags.length === 0) throw new TemplateError('TEMPLATE_FAILED', 'the template has no tag');
  return { points: await cornersToPoints(local, corners, offset, surface), tag: tags[0]!, tags };
}

/** Local corners → wire points in the model frame; corners on the surface are kept off it there. */
export async function cornersToPoints(local: LocalSurface, corners: Corner[], offset: number, surface: SurfaceQuery): Promise<WirePoint[]> {
  const points: WirePoint[] = corners.map((c) =>
    c.on && c.s ? { point: local.modelPoint(c.p), surface: { point: local.modelPoint(c.s), triangle: c.triangle ?? 0 } } : { point: local.modelPoint(c.p) },
  );
  return keepOff(points, offset, surface);
}

function tagRanges(corners: Corner[]): [number, number][] {
  const out: [number, number][] = [];
  corners.forEach((c, i) => {
    if (!c.tag) return;
    const last = out[out.length - 1];
    if (last && last[1] === i - 1) last[1] = i;
    else out.push([i, i]);
  });
  // A tag is a run of at least two corners (one straight in the base).
  return out.filter(([a, b]) => b > a);
}

// ---------------------------------------------------------------- the templates

/** The crossing over the contact of a tooth with its mesial or distal neighbour: buccal, over, lingual. */
async function crossing(ls: LocalSurface, t: ToothProbe, side: 'mesial' | 'distal', offset: number): Promise<{ corners: Corner[]; s: number; h: number; dir: Xyz }> {
  const { s, h } = side === 'mesial' ? t.mesialContact : t.distalContact;
  const dir = side === 'mesial' ? t.mesial : scale(t.mesial, -1);
  const half = t.width / 2;
  const [b, over, l] = await placeOff(ls, [at(t.centre, dir, s, t.buccal, half + offset, h - 1.4), at(t.centre, dir, s, t.buccal, 0, h + 1), at(t.centre, dir, s, t.buccal, -(half + offset), h - 1.4)], offset);
  return { corners: [b!, over!, l!], s, h, dir };
}

/** Turns of a clasp's tag from its tooth's mesial towards the palate or tongue, tried in order (degrees). */
const TAG_TURNS = [30, 20, 10, 0, -10];
/** Turns of a bow's tag from its canine's distal towards the palate or tongue (degrees): 30° first, the premolars stand further out. */
const BOW_TAG_TURNS = [30, 40, 50, 20, 10];
/** Scanned surface wanted round a tag's corner in plan, within TAG_DROP below the tag (mm), the most first: the base's margin round it (1.5 mm in plan) and some. */
const TAG_ROOM_TIERS = [2, 1.5, 1];
const TAG_DROP = 10;
/** Shifts of a tag's start away from the teeth tried in order (mm; negative: towards them; the nearest first). */
const TAG_SHIFTS = Array.from({ length: 21 }, (_, k) => (k % 2 ? -1 : 1) * Math.ceil(k / 2) * 0.25).filter((k) => k >= -2);
/** Plan radius round a tag corner over which the surface must lie below it (mm): the base grid's cell and some tilt of the insertion direction. */
const TAG_CLEAR = 0.5;
/** A tag corner is under a crown where the surface over it lies higher than this under the crown's top (mm): a lingual height of contour. */
const TAG_CROWN = 5.5;

/**
 * The corner over a contact, raised (then free, so the keep-off leaves it there) until both
 * straights to it pass the marginal ridges at the offset: they are too short for a corner more
 * between them and the die's arcs.
 */
async function overClear(ls: LocalSurface, b: Corner, over: Corner, l: Corner, offset: number): Promise<Corner> {
  const F = Array.from({ length: 15 }, (_, i) => (i + 1) / 16);
  let p = over.p, raised = 0;
  for (let round = 0; round < 10; round++) {
    const samples = [b.p, l.p].flatMap((e) => F.map((f) => add(e, scale(sub(p, e), f))));
    const r = await ls.closest(new Float32Array(samples.flat()));
    let short = 0;
    samples.forEach((q, i) => {
      if (r.triangle[i]! >= 0) short = Math.max(short, offset - Math.hypot(q[0] - r.point[3 * i]!, q[1] - r.point[3 * i + 1]!, q[2] - r.point[3 * i + 2]!));
    });
    if (short <= 1e-3) break;
    raised += short * 2 + 0.02;
    p = add(over.p, [0, 0, raised]);
  }
  return raised > 0 ? { p, on: false } : over;
}

/**
 * The tag: down the lingual from the crossing at `s` along `dir`, then `run` mm (signed, along
 * dir) along the arch, turned towards the palate or tongue (the arch curves inwards; a straight
 * run along the tangent would leave it), both corners inside the base. The start moves across
 * the arch (TAG_SHIFTS) out from under a crown's lingual bulge (a plate that slides off upwards
 * cannot hold a wire in the undercut under it) and towards the teeth where the gum lingual of it
 * ends (a lower molar's narrow strip above a steep lingual wall), by `roomiest`; the end: tagEnd.
 */
async function tagFrom(ls: LocalSurface, t: ToothProbe, dir: Xyz, s: number, run: number, offset: number): Promise<Corner[]> {
  const z = t.top - 7;
  const starts = await tagCorners(ls, t, TAG_SHIFTS.map((k) => at(t.centre, dir, s - 0.3 * Math.sign(run || 1), t.buccal, -(t.width / 2 + 1 + k), z)), offset);
  const start = starts[await roomiest(ls, starts, starts.map(() => [scale(t.buccal, -1)]), z)]!.corner;
  return [start, await tagEnd(ls, t, start, dir, run, offset, TAG_TURNS)];
}

/**
 * A tag's end `run` mm (signed, along `dir`) from its start, turned towards the palate or tongue:
 * the first of `turns` (degrees) whose end is clear of the crowns with scanned gum beyond it and
 * lingual of it (a lower jaw's steep lingual wall, an open scan's border, a rotated tooth whose
 * own mesial points into the palate), by `roomiest`.
 */
async function tagEnd(ls: LocalSurface, t: ToothProbe, start: Corner, dir: Xyz, run: number, offset: number, turns: readonly number[]): Promise<Corner> {
  const z = t.top - 7;
  const tries = turns.map((deg) => {
    const turn = (deg * Math.PI) / 180;
    const along = norm(add(scale(dir, Math.sign(run || 1) * Math.cos(turn)), scale(t.buccal, -Math.sin(turn))));
    let lingual: Xyz = [along[1], -along[0], 0];
    if (dot(lingual, t.buccal) > 0) lingual = scale(lingual, -1);
    return { along, lingual, end: add([start.p[0], start.p[1], z], scale(along, Math.abs(run))) };
  });
  const ends = await tagCorners(ls, t, tries.map((c) => c.end), offset);
  return ends[await roomiest(ls, ends, tries.map((c) => [c.along, c.lingual]), z)]!.corner;
}

/**
 * The first of the candidates clear of the crowns with scanned gum (within TAG_DROP below `z`)
 * TAG_ROOM_TIERS round it in each of its directions, the most first; else the one with the most;
 * the first where none is clear.
 */
async function roomiest(ls: LocalSurface, candidates: { corner: Corner; clear: boolean }[], dirs: Xyz[][], z: number): Promise<number> {
  const steps = Array.from({ length: 2 * TAG_ROOM_TIERS[0]! }, (_, k) => (k + 1) / 2);
  const probes = candidates.flatMap((c, i) => dirs[i]!.flatMap((d) => steps.map((r) => add(c.corner.p, scale(d, r)))));
  const levels = await heightsAt(ls, probes, z + 40);
  let from = 0;
  const room = candidates.map((c, i) => {
    let least = steps.length;
    for (let d = 0; d < dirs[i]!.length; d++, from += steps.length) {
      const k = levels.slice(from, from + steps.length).findIndex((h) => !(h >= z - TAG_DROP));
      if (k >= 0) least = Math.min(least, k);
    }
    return c.clear ? steps[least - 1] ?? 0 : -1;
  });
  for (const need of TAG_ROOM_TIERS) {
    const i = room.findIndex((r) => r >= need);
    if (i >= 0) return i;
  }
  return Math.max(0, room.indexOf(Math.max(...room)));
}

/**
 * Tag corners at plan positions, kept off the surface: from the guess, or where that is under a
 * crown, from the surface seen from above (the gum the plate lies on); `clear` where no crown
 * stands over the corner within TAG_CLEAR (the surface there, seen from above, lies below the
 * corner and TAG_CROWN or more under the crown's top).
 */
async function tagCorners(ls: LocalSurface, t: ToothProbe, guesses: Xyz[], offset: number): Promise<{ corner: Corner; clear: boolean }[]> {
  const from = t.top + 40;
  const below = await heightsAt(ls, guesses, from);
  const placed = await placeFree(ls, [...guesses, ...guesses.map((g, i) => (Number.isFinite(below[i]!) ? [g[0], g[1], below[i]! + tagOffset(offset)] as Xyz : g))], tagOffset(offset));
  const clear = await clearOfCrowns(ls, t, placed.map((c) => c.p));
  return guesses.map((_, i) => {
    const k = clear[i] || !clear[i + guesses.length] ? i : i + guesses.length;
    return { corner: placed[k]!, clear: clear[k]! };
  });
}

/** Whether no crown stands over each point within TAG_CLEAR (see tagCorners). */
async function clearOfCrowns(ls: LocalSurface, t: ToothProbe, points: Xyz[]): Promise<boolean[]> {
  const ring: [number, number][] = [[0, 0]];
  for (let k = 0; k < 8; k++) ring.push([Math.cos((k * Math.PI) / 4) * TAG_CLEAR, Math.sin((k * Math.PI) / 4) * TAG_CLEAR]);
  const h = await heightsAt(ls, points.flatMap((p) => ring.map(([x, y]) => [p[0] + x, p[1] + y, p[2]] as Xyz)), t.top + 40);
  return points.map((p, i) => h.slice(i * ring.length, (i + 1) * ring.length).every((v) => !(v > p[2]) && !(v > t.top - TAG_CROWN)));
}

/**
 * A bow's tag: straight down the lingual from the crossing at `s` (its start kept, the die's room
 * to the crossing's lingual corner), then 7 mm along `dir` turned towards the palate or tongue
 * (the premolars stand further out along the arch): the end as a clasp's, clear of the premolar's
 * lingual bulge, under which a plate cannot hold it.
 */
async function bowTag(ls: LocalSurface, t: ToothProbe, dir: Xyz, s: number, offset: number): Promise<Corner[]> {
  const [start] = await placeFree(ls, [at(t.centre, dir, s - 0.3, t.buccal, -(t.width / 2 + 1), t.top - 7)], tagOffset(offset));
  return [start!, await tagEnd(ls, t, start!, dir, 7, offset, BOW_TAG_TURNS)];
}

async function singleArmClasp(ls: LocalSurface, click: Xyz, offset: number, tol: number, R: number, side: ClaspCrossing): Promise<Corner[]> {
  const probed = await probeTooth(ls, click);
  // Laid from the distal contact: the same clasp on the tooth seen the other way along the arch.
  const t = side === 'distal' ? mirrored(probed) : probed;
  const r = t.width / 2 + offset;
  const z = t.top - clamp(t.top - click[2], 4.5, 6);
  const m = t.mesial;
  const cross = await crossing(ls, t, 'mesial', offset);
  // Angles round the tooth from its buccal towards mesial: the tip at the distobuccal line angle
  // (deepest in the undercut), the first corner a start straight's length away, the last short of
  // the contact, the corners between about 20° apart, rising towards the contact.
  const contact = (Math.atan2(cross.s, r) * 180) / Math.PI;
  const tipAngle = -65;
  const first = tipAngle + (2 * Math.asin(Math.min(1, 3.1 / r)) * 180) / Math.PI;
  const last = Math.max(first, contact - 10);
  const n = Math.max(1, Math.round((last - first) / 20) + 1);
  const angles = [tipAngle, ...Array.from({ length: n }, (_, i) => (n === 1 ? first : first + ((last - first) * i) / (n - 1)))];
  const dirOf = (deg: number): Xyz => norm(add(scale(t.buccal, Math.cos((deg * Math.PI) / 180)), scale(m, Math.sin((deg * Math.PI) / 180))));
  const arm = await placeOff(
    ls,
    angles.map((a, i) => {
      const d = dirOf(a);
      return [t.centre[0] + d[0] * r, t.centre[1] + d[1] * r, z - 0.3 + (i / Math.max(1, angles.length - 1)) * 1.5] as Xyz;
    }),
    offset,
    { soft: true },
  );
  // The tip is the free end of the start straight (moved out where the straight would cut into the tooth).
  const tip: Corner = { p: arm[0]!.p, on: false };
  // From the mesial contact the tag runs back along the clasped tooth; from the distal one on along its neighbour.
  const tag = await tagFrom(ls, t, m, cross.s, side === 'mesial' ? -7.5 : 7.5, offset);
  let corners: Corner[] = [tip, ...arm.slice(1), ...cross.corners, ...tag];
  return finish(ls, corners, offset, tol, R);
}

async function arrowClasp(ls: LocalSurface, click: Xyz, offset: number, tol: number, R: number): Promise<Corner[]> {
  // The click is in the buccal embrasure: its direction, the notch nearest to it along the arch
  // (the deepest point of the buccal face), the height over the contact there.
  const buccal = await openSide(ls, click);
  const m = mesialOf(buccal, click);
  const steps: number[] = [];
  for (let s = -3; s <= 3 + 1e-9; s += 0.25) steps.push(s);
  const depth = await buccalProfile(ls, click, buccal, m, click[2], steps);
  let best = Math.floor(steps.length / 2);
  depth.forEach((d, i) => {
    if (Number.isFinite(d) && d > depth[best]! + 1e-3 && Math.abs(steps[i]!) <= 2.5) best = i;
  });
  const notch = at(click, m, steps[best]!, buccal, 0, click[2]);
  // The contact's centre line: half way to the lingual embrasure straight across.
  const width = await widthAt(ls, notch, buccal);
  const k = at(notch, buccal, -width / 2, buccal, 0, click[2]);
  const across = [-0.35, -0.2, -0.1, 0, 0.1, 0.2, 0.35].map((s) => at(k, buccal, s * width, m, 0, 0));
  const heights = (await heightsAt(ls, across, click[2] + 40)).filter(Number.isFinite);
  const around = (await heightsAt(ls, [-3.5, -2.5, 2.5, 3.5].map((s) => at(k, m, s, buccal, 0, 0)), click[2] + 40)).filter(Number.isFinite);
  const hc = heights.length ? Math.max(...heights) : click[2] + 3;
  const top = around.length ? Math.max(hc + 0.5, ...around) : hc + 1.5;
  const t = { buccal, width };
  const half = t.width / 2;
  const out = (d: number): number => half + offset + d;
  // Feed order: the tag first (the start straight in the base), over the contact, the arrowhead, the end arm.
  const tag = await placeFree(ls, [at(k, m, -7, t.buccal, -(half + 1), top - 7), at(k, m, -0.3, t.buccal, -(half + 1), top - 7)], tagOffset(offset));
  const [lq, over] = await placeOff(ls, [at(k, m, 0, t.buccal, -out(0), hc - 1.4), at(k, m, 0, t.buccal, 0, hc + 1)], offset);
  // The arrowhead, found from outside with rays (the embrasure's walls): a leg down each side of
  // the embrasure, the tip (two corners a double bend apart) deeper in and lower, in the undercut
  // below the contact. Widened until every straight has room for the die's arcs.
  const legs: [number, number][] = [[-2.2, hc - 1.8], [-1.25, hc - 4], [1.25, hc - 4], [2.2, hc - 1.8]];
  const endAt: [number, number] = [8.5, hc - 3];
  let head: Corner[] = [];
  for (let round = 0; round < 12; round++) {
    const spots = [...legs, endAt];
    const hits = await rayHits(ls, spots.map(([s, z]) => ({ o: at(k, m, s, t.buccal, 10, z), d: scale(t.buccal, -1) })), 20);
    const guesses = hits.map((h, i) => add(h ?? at(k, m, spots[i]![0], t.buccal, out(0), spots[i]![1]), scale(t.buccal, offset)));
    head = await placeOff(ls, guesses, offset);
    const path = [over!, ...head].map((c) => c.p);
    const room = (i: number): boolean => {
      const tA = i > 0 ? tangentLength(path[i - 1]!, path[i]!, path[i + 1]!, R) : 0;
      const tB = i + 2 < path.length ? tangentLength(path[i]!, path[i + 1]!, path[i + 2]!, R) : 0;
      return dist(path[i]!, path[i + 1]!) >= tA + tB + 0.3;
    };
    const legsOk = room(1) && room(3) && room(0);
    const tipOk = room(2) && dist(path[2]!, path[3]!) - tangentLength(path[1]!, path[2]!, path[3]!, R) - tangentLength(path[2]!, path[3]!, path[4]!, R) <= 1.9;
    if (legsOk && tipOk) break;
    if (!room(2)) {
      legs[1]![0] -= 0.15;
      legs[2]![0] += 0.15;
    }
    if (!legsOk) {
      legs[0]![0] -= 0.2;
      legs[3]![0] += 0.2;
      legs[0]![1] += 0.15;
      legs[3]![1] += 0.15;
      legs[1]![1] -= 0.15;
      legs[2]![1] -= 0.15;
    }
  }
  const [d1, t1, t2, d2, end] = head;
  const corners: Corner[] = [...tag, lq!, over!, d1!, t1!, t2!, d2!, { ...end!, on: false }];
  return finish(ls, corners, offset, tol, R);
}

/**
 * Notches along the incisors narrower than this (mm) are bridged by the labial bow (the embrasures);
 * a wider one is an incisor set back in the arch, whose labial face the bow follows.
 */
const NOTCH = 3;

/** Least distance (mm) between the U-loop's legs. */
const LOOP_SPAN = 4.6;

/** Front of the arch: the labial faces of the central incisors beside the midpoint of two clicks (seen from inside the arch) and their incisal edges. */
async function archFront(ls: LocalSurface, a: Xyz, b: Xyz): Promise<{ mid: Xyz; across: Xyz; forward: Xyz; front: Xyz; top: number }> {
  const across = flat(sub(b, a));
  let forward: Xyz = [-across[1], across[0], 0];
  if (forward[1] > 0) forward = scale(forward, -1);
  const mid = scale(add(a, b), 0.5);
  const z = Math.max(a[2], b[2]);
  const from: Xyz = [mid[0], mid[1], z];
  // the centrals' labial faces beside the midline, seen from inside the arch (on the midline a ray
  // passes between them), their mean depth; seen from in front only where no tooth is found
  const depths: number[] = [];
  for (const s of [-3, -2, 2, 3]) {
    const h = await labialFrom(ls, add(from, scale(across, s)), forward);
    if (h) depths.push(dot(sub(h, from), forward));
  }
  const hit = depths.length
    ? add(from, scale(forward, depths.reduce((a, b) => a + b, 0) / depths.length))
    : (await rayHits(ls, [{ o: add(from, scale(forward, 70)), d: scale(forward, -1) }], 140))[0];
  const front: Xyz = hit ?? add(mid, scale(forward, 10));
  // The incisal edges: the highest of a few points behind the labial faces (the midline itself is an embrasure).
  const behind = add(front, scale(forward, -1.5));
  const tops = (await heightsAt(ls, [-4, -3, -2, -1, 0, 1, 2, 3, 4].map((s) => add(behind, scale(across, s))), z + 40)).filter(Number.isFinite);
  return { mid, across, forward, front, top: tops.length ? Math.max(...tops) : front[2] + 4 };
}

/**
 * The labial face in front of `from` (between the canines) seen from inside the arch: where a ray
 * along `forward` leaves a tooth (entering it through its lingual face), within 15 mm. From the
 * front, a model's rim standing before the incisors (a cast's land, the lip's fold) would be hit
 * first. Null when the ray leaves no tooth.
 */
async function labialFrom(ls: LocalSurface, from: Xyz, forward: Xyz): Promise<Xyz | null> {
  let o = from;
  for (let k = 0; k < 4; k++) {
    const [h] = await rayHits(ls, [{ o, d: forward }], 15);
    if (!h || dist(h, from) > 15) return null;
    const n = await ls.closest(new Float32Array(h));
    if (n.normal[0]! * forward[0] + n.normal[1]! * forward[1] + n.normal[2]! * forward[2] > 0) return h;
    o = add(h, scale(forward, 0.05));
  }
  return null;
}

/** Samples of a half ellipse from `a` round `front` to `b` (horizontal), with their outward directions and heights. */
function archSamples(a: Xyz, b: Xyz, front: Xyz, forward: Xyz, step: number, z: (f: number) => number): { p: Xyz; out: Xyz }[] {
  const across = flat(sub(b, a));
  const centre = scale(add(a, b), 0.5);
  const ha = Math.hypot(b[0] - a[0], b[1] - a[1]) / 2;
  const rel = sub(front, centre);
  const depth = Math.max(2, rel[0] * forward[0] + rel[1] * forward[1]);
  const arc = (Math.PI * (ha + depth)) / 2;
  const n = Math.max(8, Math.ceil(arc / step));
  const out: { p: Xyz; out: Xyz }[] = [];
  for (let i = 0; i <= n; i++) {
    const phi = (Math.PI * i) / n;
    const x = -ha * Math.cos(phi), y = depth * Math.sin(phi);
    const f = Math.sin(phi);
    const p: Xyz = [centre[0] + across[0] * x + forward[0] * y, centre[1] + across[1] * x + forward[1] * y, z(f)];
    // Outward normal of the ellipse: (x / ha², y / depth²).
    const nx = x / (ha * ha), ny = y / (depth * depth);
    out.push({ p, out: flat([across[0] * nx + forward[0] * ny, across[1] * nx + forward[1] * ny, 0]) });
  }
  return out;
}

async function labialBow(ls: LocalSurface, c1: Xyz, c2: Xyz, offset: number, tol: number, R: number): Promise<Corner[]> {
  // Feed from the canine with the smaller x.
  const [ra, la] = c1[0] <= c2[0] ? [c1, c2] : [c2, c1];
  const arch = await archFront(ls, ra, la);
  const right = await probeTooth(ls, ra);
  const left = await probeTooth(ls, la);
  const zMid = arch.top - 4.5;
  // The incisor part: from each canine's mesial third, round the labial faces.
  const mesialThird = (t: ToothProbe): Xyz => at(t.centre, t.mesial, 1.4, t.buccal, t.width / 2, zMid);
  const samples = archSamples(mesialThird(right), mesialThird(left), arch.front, arch.forward, 0.8, () => zMid);
  // The U-loop's size leaves room for the die: legs 2R + 1.2 mm apart, 2R + 1 mm high; and at
  // least LOOP_SPAN apart, so that the wire coming down to it, bent back by the loop, passes the
  // feed tube's housing (2.5 mm round the feed axis, its corners 3.5 mm) as the head turns it.
  const loopTop = zMid - (2 * R + 1);
  const widen = Math.max(0, LOOP_SPAN - (2 * R + 1.2)) / 2;
  const legM = R + 0.4 + widen, legD = -(R + 0.8 + widen);
  // Only the part of the envelope mesial of both loops.
  const mesialOfLoop = (c: Corner, t: ToothProbe): boolean => dot(sub(c.p, t.centre), t.mesial) > legM + 1.2;
  const front = (await envelope(ls, samples, offset, tol, NOTCH)).filter((c) => mesialOfLoop(c, right) && mesialOfLoop(c, left)).map((c) => ({ ...c, soft: true }));
  const side = async (t: ToothProbe): Promise<Corner[]> => {
    const cr = await crossing(ls, t, 'distal', offset);
    cr.corners[1] = await overClear(ls, cr.corners[0]!, cr.corners[1]!, cr.corners[2]!, offset);
    const distal = cr.dir;
    // The U-loop: up the distal third (towards the gum), across, down the mesial third to mid-crown;
    // flat, in a plane across the canine's labial face clear of the face and the gum it spans.
    const [ld, lm, lb] = await loopCorners(ls, t, legD, legM, loopTop, zMid, offset, R);
    const tag = await bowTag(ls, t, distal, cr.s, offset);
    // From the base: tag end, tag start, lingual, over the contact, buccal, the loop.
    return [...tag.reverse(), ...cr.corners.slice().reverse(), ld!, lm!, lb!];
  };
  const r = await side(right);
  const l = (await side(left)).reverse();
  const corners = [...r, ...front, ...l];
  return finish(ls, corners, offset, tol, R);
}

/**
 * How far out along the canine's buccal direction (from its centre) the U-loop's plane lies: the
 * wire's offset outside the most labial point of the face between its legs, from `zFrom` to `zTo`
 * (horizontal rays over the loop's span). A loop in one plane asks the bending head for no
 * rotation between its corners, and no corner is pulled into an embrasure or onto the gum's slope.
 */
async function loopPlane(ls: LocalSurface, t: ToothProbe, sFrom: number, sTo: number, zFrom: number, zTo: number, offset: number): Promise<number> {
  const rays: { o: Xyz; d: Xyz }[] = [];
  for (let s = sFrom - 0.5; s <= sTo + 0.5 + 1e-9; s += 0.5) for (let k = 0; k <= 4; k++) rays.push({ o: at(t.centre, t.mesial, s, t.buccal, 15, zFrom + ((zTo - zFrom) * k) / 4), d: scale(t.buccal, -1) });
  const hits = (await rayHits(ls, rays, 30)).filter((h): h is Xyz => h !== null).map((h) => dot(sub(h, t.centre), t.buccal));
  return (hits.length ? Math.max(...hits) : t.width / 2) + offset;
}

/**
 * The U-loop's three corners (distal leg at the gum, mesial leg at the gum, mesial leg at `zMid`),
 * free, in the loop's plane (loopPlane over the crown), moved further out while the loop passes
 * closer than the offset anywhere (the gum under it, a neighbour standing out): its legs shortened
 * first (down to the die's room), then the plane moved out.
 */
async function loopCorners(ls: LocalSurface, t: ToothProbe, legD: number, legM: number, loopTop: number, zMid: number, offset: number, R: number): Promise<Corner[]> {
  // the plane from the crown's face above the gum (horizontal rays would find a flaring gum far out)
  let out = await loopPlane(ls, t, legD, legM, (loopTop + zMid) / 2, zMid, offset), top = loopTop;
  const place = (): Xyz[] => [at(t.centre, t.mesial, legD, t.buccal, out, top), at(t.centre, t.mesial, legM, t.buccal, out, top), at(t.centre, t.mesial, legM, t.buccal, out, zMid)];
  for (let round = 0; round < 16; round++) {
    const c = place();
    const samples = [0, 1].flatMap((i) => Array.from({ length: 9 }, (_, k) => add(c[i]!, scale(sub(c[i + 1]!, c[i]!), k / 8))));
    const r = await ls.closest(new Float32Array(samples.flat()));
    let short = 0;
    samples.forEach((q, i) => {
      if (r.triangle[i]! >= 0) short = Math.max(short, offset - Math.hypot(q[0] - r.point[3 * i]!, q[1] - r.point[3 * i + 1]!, q[2] - r.point[3 * i + 2]!));
    });
    if (short <= 1e-3) break;
    // shorter legs first (down to the die's room), then out of the gum's way
    const step = short * 1.5 + 0.02;
    const room = Math.abs(zMid - top) - (2 * R + 0.4);
    if (room > 1e-3) top += Math.sign(zMid - loopTop) * Math.min(step, room);
    else out += step;
  }
  return place().map((p) => ({ p, on: false }));
}

async function wraparoundBow(ls: LocalSurface, c1: Xyz, c2: Xyz, offset: number, tol: number, R: number): Promise<Corner[]> {
  const [ra, la] = c1[0] <= c2[0] ? [c1, c2] : [c2, c1];
  const arch = await archFront(ls, ra, la);
  const right = await probeTooth(ls, ra);
  const left = await probeTooth(ls, la);
  const zMolar = Math.max(right.top, left.top) - 3.8;
  const zFront = arch.top - 4.5;
  const buccalOf = (t: ToothProbe): Xyz => at(t.centre, t.buccal, t.width / 2, t.mesial, 0, zMolar);
  const samples = archSamples(buccalOf(right), buccalOf(left), arch.front, arch.forward, 0.8, (f) => zMolar + (zFront - zMolar) * f);
  const buccal = await envelope(ls, samples, offset, tol);
  const wrap = async (t: ToothProbe): Promise<Corner[]> => {
    const distal = scale(t.mesial, -1);
    const z = t.top - 4.5;
    // The distal face of the last molar, from behind.
    const [d] = await rayHits(ls, [{ o: at(t.centre, distal, 15, t.buccal, 0, z), d: t.mesial }], 15);
    const reach = d ? Math.hypot(d[0] - t.centre[0], d[1] - t.centre[1]) : 5;
    const round = await placeOff(
      ls,
      [at(t.centre, distal, reach + offset, t.buccal, 0, z), at(t.centre, distal, (reach + offset) * 0.75, t.buccal, (t.width / 2 + offset) * 0.75, z + 0.3)],
      offset,
    );
    const tagZ = t.top - 7;
    const tag = await placeFree(ls, [at(t.centre, t.mesial, 3, t.buccal, -(t.width / 2 + 1), tagZ), at(t.centre, distal, reach * 0.7, t.buccal, -(t.width / 2) * 0.8, tagZ)], tagOffset(offset));
    return [...tag, ...round];
  };
  const r = await wrap(right);
  const l = (await wrap(left)).reverse();
  const corners = [...r, ...buccal.map((c) => ({ ...c, soft: true })), ...l];
  return finish(ls, corners, offset, tol, R);
}

