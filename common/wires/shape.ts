// Building blocks of the wire templates and of auto-fit, in the local frame of local.ts (teeth
// up, incisors towards -y): probing a tooth (its centre, buccal and mesial directions, top, the
// contact with its neighbour), placing corners off the surface, the convex envelope of the teeth
// along an arch, and the clean-up that makes a corner list bendable (straights longer than the
// die's tangent lengths, end straights of at least 5 mm, no chord cutting into a tooth).
import { offsetPoints, type SurfaceQuery } from './surface.ts';
import { add, cross, dist, dot, len, norm, scale, segmentDistance, sub, type Xyz } from '../pose.ts';
import { at, flat, tangentLength } from './local.ts';

/** A corner being designed: `on` corners are kept off the surface (their surface point is `s`). */
export interface Corner {
  p: Xyz;
  on: boolean;
  s?: Xyz;
  triangle?: number;
  /** May be dropped to make the wire bendable (arm corners; not the crossings, loops or tags). */
  soft?: boolean;
  /** Part of a tag held in the base. */
  tag?: boolean;
}

const UP: Xyz = [0, 0, 1];
/** Bending die radius the templates make room for unless told another (mm). */
export const DIE_RADIUS = 1;
/** Start and end straights are made at least this long (the rule is 5 mm). */
const END_STRAIGHT = 5.6;
/** How far a tag's corners sit off the model, inside the base (mm): at least the wire's radius plus 0.7. */
export const tagOffset = (offset: number): number => Math.max(offset + 0.6, 1.1);

export const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** Corners at `offset` off the surface from first guesses (batch). */
export async function placeOff(surface: SurfaceQuery, guesses: Xyz[], offset: number, extra: Partial<Corner> = {}): Promise<Corner[]> {
  if (guesses.length === 0) return [];
  const r = await offsetPoints(new Float32Array(guesses.flat()), offset, surface);
  return guesses.map((g, i) => {
    const tri = r.triangle[i]!;
    if (tri < 0) return { p: g, on: false, ...extra };
    const p: Xyz = [r.point[i * 3]!, r.point[i * 3 + 1]!, r.point[i * 3 + 2]!];
    return { p, on: true, s: [r.surface[i * 3]!, r.surface[i * 3 + 1]!, r.surface[i * 3 + 2]!], triangle: tri, ...extra };
  });
}

/** Free corners (tags inside the base) at `offset` off the surface. */
export async function placeFree(surface: SurfaceQuery, guesses: Xyz[], offset: number): Promise<Corner[]> {
  const c = await placeOff(surface, guesses, offset);
  return c.map((k) => ({ p: k.p, on: false, tag: true }));
}

/** Heights of the surface seen from above at horizontal positions (NaN where nothing is below). */
export async function heightsAt(surface: SurfaceQuery, xy: Xyz[], from: number): Promise<number[]> {
  const rays = new Float32Array(xy.length * 6);
  xy.forEach((p, i) => rays.set([p[0], p[1], from, 0, 0, -1], i * 6));
  const r = await surface.raycast(rays);
  return xy.map((_, i) => (Number.isFinite(r.t[i]!) ? r.point[i * 3 + 2]! : NaN));
}

/** First hits of horizontal rays (NaN vector on a miss beyond `maxT`). */
export async function rayHits(surface: SurfaceQuery, rays: { o: Xyz; d: Xyz }[], maxT: number): Promise<(Xyz | null)[]> {
  const buf = new Float32Array(rays.length * 6);
  rays.forEach((r, i) => buf.set([...r.o, ...norm(r.d)], i * 6));
  const h = await surface.raycast(buf);
  // A miss is t = Infinity, which `<= maxT` alone would let through when maxT is Infinity.
  return rays.map((_, i) => (Number.isFinite(h.t[i]!) && h.t[i]! <= maxT ? [h.point[i * 3]!, h.point[i * 3 + 1]!, h.point[i * 3 + 2]!] : null));
}

export interface Contact {
  /** Distance from the tooth's centre along the direction (mm). */
  s: number;
  /** Height of the highest point across the contact (marginal ridges, the contact itself): what a wire crosses over. */
  h: number;
  /** A neighbour is there (else the crown just ends: a last molar's distal, a gap). */
  neighbour: boolean;
}

export interface ToothProbe {
  /** Centre of the crown (horizontal position; z the probe height). */
  centre: Xyz;
  /** Outward (buccal or labial), horizontal. */
  buccal: Xyz;
  /** Along the arch towards the midline (mesial), horizontal. */
  mesial: Xyz;
  /** Buccolingual width at the probe height. */
  width: number;
  /** Highest point of the crown (cusp tips or incisal edge). */
  top: number;
  /** The contacts with the mesial and the distal neighbour. */
  mesialContact: Contact;
  distalContact: Contact;
}

/** The tooth seen the other way along the arch: its distal as `mesial` (a clasp laid from the distal contact is the mirror image of one laid from the mesial). */
export function mirrored(t: ToothProbe): ToothProbe {
  return { ...t, mesial: scale(t.mesial, -1), mesialContact: t.distalContact, distalContact: t.mesialContact };
}

/** Mesial of the two horizontal tangents at a point of the arch (incisors towards -y, midline near x = 0). */
export function mesialOf(buccal: Xyz, position: Xyz): Xyz {
  let m = norm(cross(UP, buccal));
  const front: Xyz = flat([-position[0], -Math.max(Math.abs(position[0]), 10), 0]);
  if (dot(m, front) < 0) m = scale(m, -1);
  return m;
}

/** Highest surface point over a small disc (the occlusal surface has fossae). */
async function crownTop(surface: SurfaceQuery, centre: Xyz, radius: number, from: number): Promise<number> {
  const pts: Xyz[] = [centre];
  for (let k = 0; k < 8; k++) pts.push(add(centre, [Math.cos((k * Math.PI) / 4) * radius, Math.sin((k * Math.PI) / 4) * radius, 0]));
  const h = (await heightsAt(surface, pts, from)).filter(Number.isFinite);
  return h.length ? Math.max(...h) : NaN;
}

/**
 * Depth of the buccal face along the arch: horizontal rays from outside towards the arch at
 * each s along `dir`. Between two crowns the ray goes deeper (the embrasure): a notch.
 */
export async function buccalProfile(surface: SurfaceQuery, centre: Xyz, buccal: Xyz, dir: Xyz, z: number, steps: number[]): Promise<number[]> {
  const reach = 20;
  const hits = await rayHits(
    surface,
    steps.map((s) => ({ o: at(centre, dir, s, buccal, reach, z), d: scale(buccal, -1) })),
    reach * 2,
  );
  // Depth measured from the outside: larger is deeper in.
  return hits.map((h, i) => (h ? reach - dot(sub(h, at(centre, dir, steps[i]!, buccal, 0, z)), buccal) : Infinity));
}

/** The first notch (local maximum of depth) of a profile beyond index `from` going up; -1 when none. */
function firstNotch(depth: number[], from: number, baseline: number): number {
  for (let i = from + 1; i + 1 < depth.length; i++) {
    const d = depth[i]!;
    // The crown ended: nothing there, or the face falls away far behind (no neighbour).
    if (!Number.isFinite(d) || d > baseline + 5) return -(i + 2);
    if (d > depth[i - 1]! + 1e-3 && d >= depth[i + 1]! && d > baseline + 0.4) return i;
  }
  return -1;
}

/** The tooth under a click on its buccal (or labial) face: centre, directions, top, both contacts. */
export async function probeTooth(surface: SurfaceQuery, anchor: Xyz, buccalHint?: Xyz): Promise<ToothProbe> {
  const buccal = buccalHint ?? (await openSide(surface, anchor));
  const width = await widthAt(surface, anchor, buccal);
  let centre = at(anchor, buccal, -width / 2, buccal, 0, anchor[2]);
  const mesial = mesialOf(buccal, centre);
  let top = await crownTop(surface, centre, 1.8, anchor[2] + 40);
  if (!Number.isFinite(top)) top = anchor[2] + 5;
  // Along the buccal face at the height of contour: the notches either side are the embrasures.
  const z = Math.min(anchor[2], top - 2.5);
  const STEP = 0.25, RANGE = 9;
  const steps: number[] = [];
  for (let s = -RANGE; s <= RANGE + 1e-9; s += STEP) steps.push(s);
  const depth = await buccalProfile(surface, centre, buccal, mesial, z, steps);
  const zero = Math.round(RANGE / STEP);
  const base = depth[zero]!;
  const notchM = firstNotch(depth, zero, Number.isFinite(base) ? base : 0);
  const notchD = firstNotch(depth.slice().reverse(), zero, Number.isFinite(base) ? base : 0);
  const sOf = (i: number, reversed: boolean): { s: number; neighbour: boolean } => {
    if (i >= 0) return { s: Math.abs(steps[reversed ? depth.length - 1 - i : i]!), neighbour: true };
    if (i < -1) return { s: Math.max(2, Math.abs(steps[reversed ? depth.length - 1 - (-i - 2) : -i - 2]!) - 0.5), neighbour: false };
    return { s: 4.5, neighbour: false };
  };
  const m = sOf(notchM, false), d = sOf(notchD, true);
  // Centre between the two embrasures.
  const shift = (m.s - d.s) / 2;
  centre = add(centre, scale(mesial, shift));
  const half = (m.s + d.s) / 2;
  const contact = async (dir: Xyz, n: { neighbour: boolean }): Promise<Contact> => {
    const across = [-0.35, -0.2, -0.1, 0, 0.1, 0.2, 0.35].map((k) => at(centre, dir, half, buccal, k * width, 0));
    const h = (await heightsAt(surface, across, top + 20)).filter(Number.isFinite);
    return { s: half, h: h.length ? Math.min(top - 0.3, Math.max(...h)) : top - 2, neighbour: n.neighbour };
  };
  const finalTop = await crownTop(surface, centre, Math.min(2.5, half * 0.5), anchor[2] + 40);
  return {
    centre,
    buccal,
    mesial,
    width,
    top: Number.isFinite(finalTop) ? finalTop : top,
    mesialContact: await contact(mesial, m),
    distalContact: await contact(scale(mesial, -1), d),
  };
}

/** Buccolingual width of the crown at a buccal point: the lingual face straight across. */
export async function widthAt(surface: SurfaceQuery, anchor: Xyz, buccal: Xyz): Promise<number> {
  const reach = 16;
  const [lingual] = await rayHits(surface, [{ o: sub(anchor, scale(buccal, reach)), d: buccal }], reach - 0.5);
  let width = 8;
  if (lingual && dist(lingual, anchor) > 2.5) width = Math.hypot(anchor[0] - lingual[0], anchor[1] - lingual[1]);
  return clamp(width, 4, 13);
}

/**
 * The horizontal direction a point on the surface is open to: the mean of the directions from
 * which a horizontal ray reaches it unobstructed (36 of them). On a convex face that is its
 * normal; in an embrasure, the bisector of the notch, where a surface normal would be either
 * tooth's. Falls back to the surface normal.
 */
export async function openSide(surface: SurfaceQuery, p: Xyz): Promise<Xyz> {
  const rays: { o: Xyz; d: Xyz }[] = [];
  const dirs: Xyz[] = [];
  const R = 10;
  for (let k = 0; k < 36; k++) {
    const a = (k * Math.PI) / 18;
    const d: Xyz = [Math.cos(a), Math.sin(a), 0];
    dirs.push(d);
    // Aimed at p itself: landing within 0.6 mm of p counts as reaching it; a miss passed p by a
    // hair (p on the silhouette seen from there) and counts as open too.
    rays.push({ o: add(p, scale(d, R)), d: scale(d, -1) });
  }
  const hits = await rayHits(surface, rays, Infinity);
  let sum: Xyz = [0, 0, 0];
  hits.forEach((h, k) => {
    if (!h || dist(h, p) < 0.6) sum = add(sum, dirs[k]!);
  });
  if (len(sum) > 0.5) return flat(sum);
  return outwardAt(surface, p);
}

/**
 * Horizontal outward direction at a point near the surface: the surface normal's horizontal part
 * (or `also` added, to average two), falling back to the direction away from the arch's middle.
 */
async function outwardAt(surface: SurfaceQuery, p: Xyz, also?: Xyz): Promise<Xyz> {
  const r = await surface.closest(new Float32Array(p));
  const n: Xyz = [r.normal[0]!, r.normal[1]!, 0];
  const sum = also ? add(norm(n), also) : n;
  if (len(sum) > 0.3) return flat(sum);
  return flat([p[0], p[1] + 15, 0]);
}

/**
 * The outer (buccal) envelope of the teeth along a path: horizontal rays from outside towards
 * the path at each sample, the hits moved `offset` off the surface, then only the points on the
 * convex outer side kept (a wire bridges the embrasures instead of dipping into them), then
 * simplified so that no dropped point lies more than `tol` outside its chord.
 */
export async function envelope(surface: SurfaceQuery, samples: { p: Xyz; out: Xyz }[], offset: number, tol: number, bridge?: number): Promise<Corner[]> {
  const hits = await rayHits(surface, samples.map((s) => ({ o: add(s.p, scale(s.out, 8)), d: scale(s.out, -1) })), 16);
  const guesses: Xyz[] = [];
  const outs: Xyz[] = [];
  const from: Xyz[] = [];
  hits.forEach((h, i) => {
    if (!h) return;
    guesses.push(add(h, scale(samples[i]!.out, offset)));
    outs.push(samples[i]!.out);
    from.push(samples[i]!.p);
  });
  const all = await placeOff(surface, guesses, offset);
  const placed = all.filter((c) => c.on);
  if (placed.length < 2) return placed;
  if (bridge !== undefined) {
    const on = all.flatMap((c, i) => (c.on ? [i] : []));
    return simplify(bridgeNotches(placed, on.map((i) => from[i]!), on.map((i) => dot(sub(all[i]!.p, from[i]!), outs[i]!)), bridge), tol);
  }
  // Which side is outside, seen from above, for this direction of travel.
  const mid = Math.floor(placed.length / 2);
  const travel = sub(placed[Math.min(placed.length - 1, mid + 1)]!.p, placed[Math.max(0, mid - 1)]!.p);
  const sign = Math.sign(cross(travel, outs[Math.floor(outs.length / 2)]!)[2]) || 1;
  const hull: Corner[] = [];
  for (const c of placed) {
    while (hull.length >= 2) {
      const a = hull[hull.length - 2]!, b = hull[hull.length - 1]!;
      // b is inside the chord a → c (towards the teeth): drop it.
      const z = cross(sub(c.p, a.p), sub(b.p, a.p))[2];
      if (z * sign <= 0) hull.pop();
      else break;
    }
    hull.push(c);
  }
  return simplify(hull, tol);
}

/**
 * The corners of a path along the teeth without those in notches narrower than `width` (mm, along
 * the path): the embrasures between two crowns are bridged, a crown set back from its neighbours
 * (wider than `width`) is followed. `along`: each corner's point on the path, `out`: its distance
 * outwards from there (a morphological closing of it over `width` keeps the corners on top).
 */
function bridgeNotches(c: Corner[], along: Xyz[], out: number[], width: number): Corner[] {
  // along the path the rays were cast from (a corner in an embrasure slides sideways)
  const s = [0];
  for (let i = 1; i < c.length; i++) s.push(s[i - 1]! + dist(along[i - 1]!, along[i]!));
  const over = (v: number[], f: (a: number, b: number) => number): number[] =>
    v.map((_, i) => {
      let r = v[i]!;
      for (let j = i - 1; j >= 0 && s[i]! - s[j]! <= width / 2; j--) r = f(r, v[j]!);
      for (let j = i + 1; j < v.length && s[j]! - s[i]! <= width / 2; j++) r = f(r, v[j]!);
      return r;
    });
  const closed = over(over(out, Math.max), Math.min);
  return c.filter((_, i) => out[i]! >= closed[i]! - 0.02);
}

/** Douglas-Peucker on corners (3D distance of dropped corners to their chord). */
export function simplify(pts: Corner[], tol: number): Corner[] {
  if (pts.length <= 2) return pts;
  const keep = new Uint8Array(pts.length);
  keep[0] = keep[pts.length - 1] = 1;
  const stack: [number, number][] = [[0, pts.length - 1]];
  while (stack.length) {
    const [i, j] = stack.pop()!;
    let worst = -1, wd = tol;
    for (let k = i + 1; k < j; k++) {
      const d = segmentDistance(pts[k]!.p, pts[i]!.p, pts[j]!.p);
      if (d > wd) {
        wd = d;
        worst = k;
      }
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push([i, worst], [worst, j]);
    }
  }
  return pts.filter((_, i) => keep[i]);
}


/**
 * Makes a corner list bendable with a die of `radius`: drops soft corners that leave no straight
 * between two arcs (or sit closer than `minGap` to a neighbour), then lengthens the first and the last straight to
 * END_STRAIGHT (a free end grows along its segment; an end on the surface gets a free tip).
 */
export function bendable(corners: Corner[], radius = DIE_RADIUS, minGap = 0.3): Corner[] {
  let c = corners.slice();
  for (let pass = 0; pass < 20; pass++) {
    let bad = -1;
    for (let i = 0; i + 1 < c.length && bad < 0; i++) {
      const tA = i > 0 ? tangentLength(c[i - 1]!.p, c[i]!.p, c[i + 1]!.p, radius) : 0;
      const tB = i + 2 < c.length ? tangentLength(c[i]!.p, c[i + 1]!.p, c[i + 2]!.p, radius) : 0;
      if (dist(c[i]!.p, c[i + 1]!.p) < tA + tB + minGap) {
        // Drop the softer of the two (never an end).
        const cands = [i, i + 1].filter((k) => k > 0 && k < c.length - 1 && c[k]!.soft);
        bad = cands.length ? cands.reduce((a, b) => (tangentAt(c, a, radius) <= tangentAt(c, b, radius) ? a : b)) : -2;
      }
    }
    if (bad === -1) break;
    if (bad === -2) break;
    c.splice(bad, 1);
  }
  c = stretchEnd(c, radius);
  c = stretchEnd(c.reverse(), radius).reverse();
  return c;
}

function tangentAt(c: Corner[], i: number, radius: number): number {
  return tangentLength(c[i - 1]!.p, c[i]!.p, c[i + 1]!.p, radius);
}

/** Lengthens the straight at the start of `c` to END_STRAIGHT beyond the first arc's tangent. */
function stretchEnd(c: Corner[], radius: number): Corner[] {
  if (c.length < 2) return c;
  const t = c.length > 2 ? tangentLength(c[0]!.p, c[1]!.p, c[2]!.p, radius) : 0;
  const want = END_STRAIGHT + t;
  const l = dist(c[0]!.p, c[1]!.p);
  if (l >= want) return c;
  const dir = norm(sub(c[0]!.p, c[1]!.p));
  const tip: Corner = { p: add(c[1]!.p, scale(dir, want)), on: false, ...(c[0]!.tag ? { tag: true } : {}) };
  return [tip, ...c.slice(1)];
}

/**
 * Straights must not cut into the teeth: a chord between two corners on a convex tooth passes
 * closer than its ends. Where a chord comes closer than `offset - tol` (sampled at a quarter, half
 * and three quarters), a corner is put at its worst point (kept off); a free end corner is moved
 * out instead, far enough for that point. Three passes.
 */
export async function clearChords(surface: SurfaceQuery, corners: Corner[], offset: number, tol: number): Promise<Corner[]> {
  const FRACTIONS = [0.25, 0.5, 0.75];
  let c = corners.slice();
  for (let pass = 0; pass < 3; pass++) {
    const segs: number[] = [];
    // Every straight with a corner on the surface (a tag's straights in the base are the base's business).
    for (let i = 0; i + 1 < c.length; i++) if ((c[i]!.on || c[i + 1]!.on) && !(c[i]!.tag && c[i + 1]!.tag)) segs.push(i);
    if (segs.length === 0) break;
    const samples = segs.flatMap((i) => FRACTIONS.map((f) => add(c[i]!.p, scale(sub(c[i + 1]!.p, c[i]!.p), f))));
    const r = await surface.closest(new Float32Array(samples.flat()));
    const inserts: { at: number; corner: Xyz }[] = [];
    const moved = new Map<number, Xyz>();
    segs.forEach((i, k) => {
      // The worst of the segment's samples (signed: inside the tooth is negative).
      let worst = -1, wd = offset - tol, wn: Xyz = [0, 0, 0], ws: Xyz = [0, 0, 0];
      FRACTIONS.forEach((_, f) => {
        const q = k * FRACTIONS.length + f;
        if (r.triangle[q]! < 0) return;
        const sp: Xyz = [r.point[q * 3]!, r.point[q * 3 + 1]!, r.point[q * 3 + 2]!];
        const normal: Xyz = [r.normal[q * 3]!, r.normal[q * 3 + 1]!, r.normal[q * 3 + 2]!];
        const away = sub(samples[q]!, sp);
        const d = dot(away, normal) < 0 ? -len(away) : len(away);
        if (d < wd) {
          wd = d;
          worst = f;
          wn = d > 1e-4 ? norm(away) : normal;
          ws = sp;
        }
      });
      if (worst < 0) return;
      const frac = FRACTIONS[worst]!;
      if (i === 0 && !c[0]!.on && !c[0]!.tag) moved.set(0, add(c[0]!.p, scale(wn, (offset - wd) / (1 - frac))));
      else if (i + 1 === c.length - 1 && !c[i + 1]!.on && !c[i + 1]!.tag) moved.set(i + 1, add(c[i + 1]!.p, scale(wn, (offset - wd) / frac)));
      else if (dist(c[i]!.p, c[i + 1]!.p) > 1) inserts.push({ at: i + 1, corner: add(ws, scale(wn, offset)) });
    });
    if (inserts.length === 0 && moved.size === 0) break;
    for (const [i, p] of moved) c[i] = { ...c[i]!, p };
    const placed = await placeOff(surface, inserts.map((x) => x.corner), offset, { soft: true });
    for (let k = inserts.length - 1; k >= 0; k--) c.splice(inserts[k]!.at, 0, placed[k]!);
  }
  return c;
}

/** clearChords then bendable (for a die of `radius`), repeated while the first still finds a chord to fix (at most 3 times). */
export async function finish(surface: SurfaceQuery, corners: Corner[], offset: number, tol: number, radius = DIE_RADIUS): Promise<Corner[]> {
  let c = corners;
  for (let round = 0; round < 3; round++) {
    const cleared = await clearChords(surface, c, offset, tol);
    const same = cleared.length === c.length && cleared.every((k, i) => k.p === c[i]!.p);
    c = bendable(cleared, radius);
    if (same) break;
  }
  return c;
}
