// Room in the base for a wire's tags. The base is made along the jaw's insertion direction and
// only over the scanned surface (base-outline.ts), so a tag corner is held 1 mm inside its rim only
// where there is scanned surface that far round it, seen along that direction; the templates judge
// a tag's room along the jaw's axis and towards the tongue only (a lower molar's narrow strip of
// gum above a steep lingual wall, an open scan's border just past a tag's end). Each tag corner
// with less room than TAG_ROOM is moved to the nearest place that has it, seen along the insertion
// direction, and where nothing stands over it: the tag's start across and along its straight by
// up to START_REACH (FAR_REACH where that finds no such place: roomyWays), then its free end turned round the start and shortened, its end straight kept
// at least WIRE_END_MIN long after the die's share: a little first, then any way round short of
// folding back along the straight it is bent from (a bow's tag beside a lower first premolar, where
// the scan ends near the crowns, turns to the wide gum lingual of the incisors). A corner keeps
// its height above the surface; one hanging more than MAX_HEIGHT over it (out over a steep lingual
// wall, held only by acrylic on the crowns) is moved and may go down to the surface, KEEP_OFF off it.
// Where no place has the room, the roomiest one that is clear is taken when it has more. The room
// ends where the scan does and, given the crowns' occlusal triangles, OCCLUSAL_CLEAR short of them
// (the base stays off the occlusal surfaces, base-outline.ts), and where the outline's tooth-side
// border can come no nearer the teeth (base-outline.ts toothSideRoom: it bounds that border per
// millimetre along the arch, wider than the occlusal triangles themselves).
import { WIRE_END_MIN } from '../../common/bend-program.ts';
import { across, add, cross, dot, len, norm, scale, sub, type Xyz } from '../../common/pose.ts';
import type { SurfaceQuery } from '../../common/wires/surface.ts';
import { wireTags, type WireDesign } from '../../common/wires/types.ts';
import { tangentLength } from '../../common/wires/local.ts';
import { OCCLUSAL_CLEAR } from './occlusal.ts';

/** Scanned surface wanted round a tag corner in plan (mm): the base's 1 mm and the rim's error at the scan's edge. */
export const TAG_ROOM = 1.4;
/** How far the room is probed (mm), and the probes' spacing in plan. */
const REACH = 2;
const PROBE = 0.25;
const DIRECTIONS = 16;
/** Plan radius round a corner over which the surface must lie below it (mm): the base grid's cell and some. */
const CLEAR = 0.5;
/** Rays start this far out along the insertion direction (mm). */
const ABOVE = 60;
/** A tag's start moved up to this far (mm), in steps of START_STEP; up to FAR_REACH where that finds no place with the room. */
const START_REACH = 1;
const FAR_REACH = 2;
const START_STEP = 0.5;
/** A free end's turns round the start (degrees) and its shortenings (share of the straight kept): the near turns first, then the wide ones (any way round). */
const END_TURNS = [0, 8, -8, 16, -16, 24, -24, 32, -32];
const WIDE_TURNS = [48, -48, 64, -64, 80, -80, 96, -96, 112, -112, 128, -128, 144, -144, 160, -160, 176, -176];
const END_KEEP = [1, 0.92, 0.84, 0.76];
/** Least angle (degrees, in plan) between a free end and the straight it is bent from: it does not fold back along it. */
const MIN_FOLD = 60;
/** A corner's move must gain this much room (mm) where the room wanted is not reached. */
const GAIN = 0.1;
/** Spacing (mm) of the samples of a moved tag's straight that must lie above the surface. */
const SAMPLE = 0.5;
/** A moved corner stays at most this much higher, and FALL lower, along the insertion direction than it was (mm). */
const RISE = 1;
const FALL = 2;
/** Most height (mm) over the surface a moved corner keeps (one hanging over a wall is seated at TAG_HEIGHT). */
const MAX_HEIGHT = 2;
/** Height along the insertion direction over the surface (mm) of a corner moved from under something. */
const TAG_HEIGHT = 1.1;
/** Least distance (mm) of a moved corner from the surface: the wire's radius, its clearance and some. */
const KEEP_OFF = 0.8;

/** What bounds a tag's room besides the scan's end. */
export interface KeepOff {
  /** Per triangle of the surface, 1 on a crown's occlusal surface (occlusal.ts): the room ends OCCLUSAL_CLEAR short of it. */
  occlusal?: Uint8Array;
  /** A corner's room (mm) from the tooth-side border the outline may draw at most (base-outline.ts toothSideRoom). */
  toothSide?: (p: Xyz) => number;
}

interface Place {
  p: Xyz;
  room: number;
  clear: boolean;
}

/**
 * The wire with its tags' corners moved where the base has room round them along `direction`
 * (model frame, from the model towards the appliance); the wire itself where none moved. `room`:
 * the least room (mm) of its end tags' corners as laid (negative: one not clear or hanging; Infinity: no such tag). `radius`:
 * the checks' die radius (the end straight's share at the tag's start); `keepOff`: what else bounds
 * the room (KeepOff).
 */
export async function roomForTags(wire: WireDesign, direction: Xyz, surface: SurfaceQuery, radius: number, keepOff: KeepOff = {}, reach = START_REACH): Promise<{ wire: WireDesign; room: number }> {
  const d = norm(direction);
  const u = norm(cross(d, Math.abs(d[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  const w = cross(d, u);
  const points = wire.points.map((p) => ({ ...p }));
  const last = points.length - 1;
  let moved = false;
  let least = Infinity;
  for (const [a, b] of wireTags(wire)) {
    // A tag of two corners at one end of the wire: its start follows the arm, its end is free.
    if (b - a !== 1 || (a !== 0 && b !== last)) continue;
    const [s, e, before]: [number, number, number] = b === last ? [a, b, a - 1] : [b, a, b + 1];
    if (before < 0 || before > last) continue;
    const prev = points[before]!.point as Xyz;
    const prev2 = points[b === last ? before - 1 : before + 1]?.point as Xyz | undefined;
    // the straight from the arm to the start keeps room for the die's arcs at both its ends
    const bendable = (st: Xyz, en: Xyz): boolean => !prev2 || len(sub(st, prev)) - tangentLength(prev2, prev, st, radius) - tangentLength(prev, st, en, radius) >= 0.05;
    const start0 = points[s]!.point as Xyz, end0 = points[e]!.point as Xyz;
    const [h0, h1] = await heights(surface, d, [start0, end0]);
    const [lift0, lift1] = [h0!, h1!].map((h) => (h > 0 && h <= MAX_HEIGHT ? h : TAG_HEIGHT));
    // a corner hanging higher than MAX_HEIGHT over the surface (out over a steep wall) is not held by the plate: it is moved, and may go down to the surface
    const [fall0, fall1] = [h0!, h1!].map((h) => (h > MAX_HEIGHT ? h : FALL));
    const [startNow, endNow] = await places(surface, d, u, w, keepOff, [start0, end0]);
    const score = (p: Place, q: Place): number => (p.clear && q.clear ? Math.min(p.room, q.room) : -1);
    const now = h0! > MAX_HEIGHT || h1! > MAX_HEIGHT ? -1 : score(startNow!, endNow!);
    if (now >= TAG_ROOM) {
      least = Math.min(least, now);
      continue;
    }
    // the start: where it is, then across and along its straight, the nearest first
    const along = norm(across(sub(end0, start0), d)), sideways = cross(d, along);
    const offsets: [number, number][] = [];
    for (let x = -reach; x <= reach + 1e-9; x += START_STEP) for (let y = -reach; y <= reach + 1e-9; y += START_STEP) if (x || y) offsets.push([x, y]);
    offsets.sort((p, q) => Math.hypot(...p) - Math.hypot(...q));
    const seatedStarts = band(await seated(surface, d, offsets.map(([x, y]) => add(start0, add(scale(along, x), scale(sideways, y)))), lift0!), start0, d, fall0!);
    const startsOver = await overSurface(surface, d, seatedStarts.map((p) => [p, end0]));
    const starts = [startNow!, ...(await places(surface, d, u, w, keepOff, seatedStarts.filter((_, i) => startsOver[i])))];
    // for each start, the end as it is, then turned round the start and shortened (its straight long enough for the checks)
    let best = { start: startNow!, end: endNow!, score: now };
    for (const st of starts) {
      if (!st.clear) continue;
      const v = across(sub(end0, st.p), d);
      const guesses: Xyz[] = [];
      const back = norm(across(sub(prev, st.p), d));
      for (const turns of [END_TURNS, WIDE_TURNS]) {
        for (const keep of END_KEEP) {
          for (const deg of turns) {
            const t = (deg * Math.PI) / 180;
            const to = add(scale(v, Math.cos(t)), scale(cross(d, v), Math.sin(t)));
            if (deg !== 0 && dot(norm(to), back) > Math.cos((MIN_FOLD * Math.PI) / 180)) continue;
            guesses.push(add(st.p, scale(to, keep)));
          }
        }
      }
      const long = band(await seated(surface, d, st === startNow ? guesses.slice(1) : guesses, lift1!), end0, d, fall1!).filter((p) => len(sub(p, st.p)) - tangentLength(prev, st.p, p, radius) >= WIRE_END_MIN + 0.1);
      const over = await overSurface(surface, d, long.map((p) => [st.p, p]));
      const ends = await places(surface, d, u, w, keepOff, long.filter((_, i) => over[i]));
      if (st === startNow) ends.unshift(endNow!);
      for (const en of ends) {
        const sc = bendable(st.p, en.p) ? score(st, en) : -1;
        if (sc > best.score) best = { start: st, end: en, score: sc };
        if (sc >= TAG_ROOM) break;
      }
      if (best.score >= TAG_ROOM) break;
    }
    // the nearest place with the room wanted, else the roomiest clear one when it gains GAIN
    if (best.score < TAG_ROOM && best.score < now + GAIN && now >= 0) {
      least = Math.min(least, now);
      continue;
    }
    least = Math.min(least, best.score);
    const start = best.start.p, end = best.end.p;
    if (start === start0 && end === end0) continue;
    moved = true;
    points[s] = { point: [start[0], start[1], start[2]] };
    points[e] = { point: [end[0], end[1], end[2]] };
  }
  return { wire: moved ? { ...wire, points } : wire, room: least };
}

/**
 * The wire's tags moved where the base has room, best first: with their starts moved up to
 * START_REACH and, where that leaves less than TAG_ROOM, also up to FAR_REACH first when it gains
 * GAIN (a start further from its crossing changes the straight to it more: the nearer one is the
 * fallback when the further fails the checks). Empty where no tag moved; `room` as roomForTags
 * gives it for the first way (else the wire as laid).
 */
export async function roomyWays(wire: WireDesign, direction: Xyz, surface: SurfaceQuery, radius: number, keepOff: KeepOff = {}): Promise<{ ways: WireDesign[]; room: number }> {
  const near = await roomForTags(wire, direction, surface, radius, keepOff);
  const ways = near.wire === wire ? [] : [near.wire];
  if (near.room >= TAG_ROOM) return { ways, room: near.room };
  const far = await roomForTags(wire, direction, surface, radius, keepOff, FAR_REACH);
  if (far.wire === wire || far.room < near.room + GAIN) return { ways, room: near.room };
  return { ways: [far.wire, ...ways], room: far.room };
}

/** The points no higher along d than RISE over `from`, nor lower than `fall` under it (a tag stays on the gum, not up a crown or down a wall). */
function band(points: Xyz[], from: Xyz, d: Xyz, fall = FALL): Xyz[] {
  const level = dot(from, d);
  return points.filter((p) => dot(p, d) <= level + RISE && dot(p, d) >= level - fall);
}

/** Whether each straight [a, b] lies above the surface along d at samples every SAMPLE mm (a tag's straight stays in the plate, not in the gum). */
async function overSurface(surface: SurfaceQuery, d: Xyz, pairs: readonly [Xyz, Xyz][]): Promise<boolean[]> {
  const samples: Xyz[] = [];
  const counts = pairs.map(([a, b]) => {
    const n = Math.max(1, Math.ceil(len(sub(b, a)) / SAMPLE));
    for (let k = 1; k < n; k++) samples.push(add(a, scale(sub(b, a), k / n)));
    return n - 1;
  });
  const l = samples.length ? await levels(surface, d, samples) : [];
  let at = 0;
  return pairs.map((_, i) => {
    const ok = samples.slice(at, at + counts[i]!).every((q, k) => !(l[at + k]! >= dot(q, d)));
    at += counts[i]!;
    return ok;
  });
}

/** Rays from the appliance side through each point along -d: the first hits' levels along d (NaN on a miss). */
async function levels(surface: SurfaceQuery, d: Xyz, points: readonly Xyz[]): Promise<number[]> {
  return (await hits(surface, d, points)).levels;
}

/** The first hits' levels along d (NaN on a miss) and triangles (-1 on a miss). */
async function hits(surface: SurfaceQuery, d: Xyz, points: readonly Xyz[]): Promise<{ levels: number[]; triangles: Int32Array }> {
  const rays = new Float32Array(points.length * 6);
  points.forEach((p, i) => rays.set([p[0] + d[0] * ABOVE, p[1] + d[1] * ABOVE, p[2] + d[2] * ABOVE, -d[0], -d[1], -d[2]], i * 6));
  const hit = await surface.raycast(rays);
  return { levels: points.map((p, i) => (Number.isFinite(hit.t[i]!) ? dot(p, d) + ABOVE - hit.t[i]! : Number.NaN)), triangles: hit.triangle };
}

/** Each point's height along d above the surface under it. */
async function heights(surface: SurfaceQuery, d: Xyz, points: readonly Xyz[]): Promise<number[]> {
  const l = await levels(surface, d, points);
  return points.map((p, i) => dot(p, d) - l[i]!);
}

/** The points moved along d to `height` above the surface under them; those over no surface left out. */
async function seated(surface: SurfaceQuery, d: Xyz, points: readonly Xyz[], height: number): Promise<Xyz[]> {
  if (!Number.isFinite(height)) return [];
  const l = await levels(surface, d, points);
  const out: Xyz[] = [];
  points.forEach((p, i) => {
    if (Number.isFinite(l[i]!)) out.push(add(p, scale(d, l[i]! + height - dot(p, d))));
  });
  // over a steep wall the height along d is little distance from it: such a point is pushed off it along its normal
  if (out.length === 0) return out;
  const near = await surface.closest(new Float32Array(out.flat()));
  return out.map((p, i) => {
    const q: Xyz = [near.point[3 * i]!, near.point[3 * i + 1]!, near.point[3 * i + 2]!];
    const gap = len(sub(p, q));
    if (!(gap < KEEP_OFF) || near.triangle[i]! < 0) return p;
    return add(q, scale([near.normal[3 * i]!, near.normal[3 * i + 1]!, near.normal[3 * i + 2]!], KEEP_OFF));
  });
}

/** Each point's room (the least plan distance to where the surface ends, OCCLUSAL_CLEAR short of an occlusal triangle or to the tooth-side border's limit, up to REACH) and whether it is clear. */
async function places(surface: SurfaceQuery, d: Xyz, u: Xyz, w: Xyz, { occlusal, toothSide }: KeepOff, points: readonly Xyz[]): Promise<Place[]> {
  if (points.length === 0) return [];
  const dirs = Array.from({ length: DIRECTIONS }, (_, k) => add(scale(u, Math.cos((2 * Math.PI * k) / DIRECTIONS)), scale(w, Math.sin((2 * Math.PI * k) / DIRECTIONS))));
  const radii = Array.from({ length: Math.round(REACH / PROBE) }, (_, k) => (k + 1) * PROBE);
  const ring = Array.from({ length: 8 }, (_, k) => scale(dirs[2 * k]!, CLEAR));
  const per = 1 + ring.length + dirs.length * radii.length;
  const probes: Xyz[] = [];
  for (const p of points) {
    probes.push(p, ...ring.map((r) => add(p, r)));
    for (const dir of dirs) for (const r of radii) probes.push(add(p, scale(dir, r)));
  }
  const { levels: l, triangles } = await hits(surface, d, probes);
  return points.map((p, i) => {
    const at = i * per, level = dot(p, d);
    const clear = l.slice(at, at + 1 + ring.length).every((h) => h < level);
    let room = REACH;
    for (let k = 0; k < dirs.length; k++) {
      const from = at + 1 + ring.length + k * radii.length;
      const miss = l.slice(from, from + radii.length).findIndex((h) => Number.isNaN(h));
      if (miss >= 0) room = Math.min(room, radii[miss]! - PROBE);
      const crown = occlusal ? triangles.subarray(from, from + radii.length).findIndex((t) => t >= 0 && occlusal[t] === 1) : -1;
      if (crown >= 0) room = Math.min(room, radii[crown]! - PROBE - OCCLUSAL_CLEAR);
    }
    if (toothSide) room = Math.min(room, toothSide(p));
    return { p, room: Math.max(0, room), clear };
  });
}
