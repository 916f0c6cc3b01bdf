// The acrylic base's outline drawn from a jaw's segmented teeth, as a designer would click it
// (surface picks on the model, model frame). Worked out in the canonical frame of the design's
// straightening, in arch coordinates: s along a curve through the crown centroids (extended past
// the last teeth), δ across it towards the palate / tongue. Per 1 mm of s:
//  - the tooth-side border lies GUM_MARGIN lingual of the innermost crown vertex seen from the
//    occlusal side (the crown's lingual bulge, not only its gum line), so the plate stays on the
//    gum and covers no crown, cusp or occlusal surface;
//  - the tags of the jaw's wires pull it towards the teeth (and push the inner border and the
//    ends away) so that every tag corner lies TAG_MARGIN inside; near a tag that may be on the
//    crown's lingual side (above its survey line: the plate is a height field along the insertion
//    direction, so it fills no undercut), never nearer than OCCLUSAL_CLEAR in plan to the crowns'
//    occlusal surfaces (occlusal.ts, as autodesign-goals-base.ts judges them);
//  - upper jaw: the ends run DISTAL_EXTENSION past the last molars and join straight across the
//    palate. A scan without a palate (an open intraoral scan: the rays along the insertion
//    direction miss too much of it) gets the horseshoe instead;
//  - horseshoe (lower jaw, open upper scans): an inner border FLANGE_WIDTH further in, cut back to
//    where the scanned surface ends or drops more than MAX_FLANGE_DROP below the gum (further only
//    where a tag needs it), closing
//    behind the last molars. So the outline stays within the scanned surface.
// Each outline point is the first surface hit along the insertion direction, as the base kernel
// projects its outline.
import { segmentDistance, type Xyz } from '../../common/pose.ts';
import { polygonProblem } from '../kernels/base-grid.ts';
import { MIN_OUTLINE_POINTS, type OutlinePoint } from '../kernels/base.ts';
import { bvhBounds, raycastFirst, type Bvh } from '../kernels/bvh.ts';
import { OCCLUSAL_CLEAR } from './occlusal.ts';

type Jaw = 'upper' | 'lower';

/** Plan-view gap between the crowns and the border, mm. */
export const GUM_MARGIN = 1;
/** Least plan-view distance of a tag corner from the outline, mm (1 mm inside, and room for the slot). */
export const TAG_MARGIN = 1.5;
/** The posterior border lies this far behind the last crowns, mm. */
const DISTAL_EXTENSION = 2;
/** The horseshoe's flange: its plan-view width from the tooth-side border, mm. */
const FLANGE_WIDTH = 7;
/** Least flange width kept where the surface allows it, mm. */
const MIN_FLANGE = 3;
/** Least plan width of the horseshoe anywhere, mm. */
const MIN_WIDTH = 2;
/** Least plan width of the horseshoe where the scan ends within OCCLUSAL_CLEAR of the crowns' occlusal surfaces, mm. */
const MIN_PINCH = 0.25;
/** The flange stops where the surface drops this far below the gum line (the floor of the mouth), mm. */
const MAX_FLANGE_DROP = 10;
/** Share of the palate the rays must find for the plate to cross it. */
const PALATE_COVERAGE = 0.9;
/** Sampling along the arch, and between outline points, mm. */
const STEP = 1;
/** Samples either side of a crown's centroid its vertices are searched among (a crown is at most ~12 mm wide). */
const CROWN_REACH = 15;
const OUTLINE_SPACING = 2;
/** Samples (along the arch) an occlusal vertex bounds the border at: its segment's ends and, near one, the next (the labels' and the grid's error). */
const OCCLUSAL_REACH = 1.25;
/** Step (mm) to which the scanned surface's edge is found where a tag needs the flange past it. */
const EDGE_STEP = 0.05;

export class OutlineError extends Error {
  override name = 'OutlineError';
}

export interface OutlineInput {
  jaw: Jaw;
  /** Model vertices and their tooth labels (Universal numbers, 0 gum). */
  positions: Float32Array;
  labels: Uint8Array;
  teeth: readonly { number: number; centroid: Xyz }[];
  /** Model → canonical, column-major 4 × 4 (the design's straightening). */
  matrix: ArrayLike<number>;
  /** Insertion direction, canonical frame (default: the jaw's occlusal axis). */
  direction?: Xyz;
  /** Tag corners of the jaw's wires, model frame, one list per tag. */
  tags: readonly (readonly Xyz[])[];
  /** Per tag, its plan margin inside the outline (default TAG_MARGIN): more where a base made with less left it short. */
  tagMargins?: readonly number[];
  /** Per model vertex, 1 on a crown's occlusal surface (occlusal.ts): the border stays OCCLUSAL_CLEAR off them. */
  occlusal?: Uint8Array;
  /** The jaw's arch coordinates, made from this input (jawArch) where a caller makes several outlines of one jaw; made here when absent. */
  arch?: JawArch;
}

export interface BaseOutline {
  outline: OutlinePoint[];
  shape: 'palate' | 'horseshoe';
}

/** The arch as a polyline sampled every STEP mm, with its inward unit normals. */
interface Arch {
  x: number[];
  y: number[];
  nx: number[];
  ny: number[];
  /** Radius of curvature per sample (Infinity where straight). */
  radius: number[];
}

/** What the arch coordinates are made from: the jaw, its labelled model, the straightening and the insertion direction. */
export type ArchInput = Pick<OutlineInput, 'jaw' | 'positions' | 'labels' | 'teeth' | 'matrix' | 'direction' | 'occlusal'>;

/** The jaw in arch coordinates, with its crowns' extent per sample (read only: an outline works on its own copy of `border`). */
export interface JawArch {
  arch: Arch;
  d: Xyz;
  toCanonical: (x: number, y: number, z: number) => Xyz;
  toPlan: (x: number, y: number, z: number) => Xyz;
  /** Per sample: the innermost crown vertex's δ, GUM_MARGIN added and smoothed (the tooth-side border before the tags). */
  border: Float64Array;
  /** Per sample: minus the lowest crown level along d (the gum line's depth). */
  gumDepth: Float64Array;
  /** Per sample: the least δ of the tooth-side border, OCCLUSAL_CLEAR inside the occlusal crown vertices within OCCLUSAL_REACH (-Infinity: none). */
  least: Float64Array;
  /** The crowns' first and last samples. */
  sLo: number;
  sHi: number;
}

/** The jaw in arch coordinates. Throws OutlineError when the teeth give no arch. */
export function jawArch(input: ArchInput): JawArch {
  const m = input.matrix;
  const toCanonical = (x: number, y: number, z: number): Xyz => [
    m[0]! * x + m[4]! * y + m[8]! * z + m[12]!,
    m[1]! * x + m[5]! * y + m[9]! * z + m[13]!,
    m[2]! * x + m[6]! * y + m[10]! * z + m[14]!,
  ];
  const d = unit(input.direction ?? (input.jaw === 'upper' ? [0, 0, -1] : [0, 0, 1]));
  if (Math.abs(d[2]) < 0.5) throw new OutlineError(`the insertion direction is ${Math.round((Math.acos(Math.abs(d[2])) * 180) / Math.PI)}° from the occlusal axis`);
  // Plan coordinates: a canonical point moved along d onto the occlusal plane (z = 0), where the
  // rays start and the base kernel sees the outline, the crowns and the tags along d; z stays.
  const flat = (c: Xyz): Xyz => [c[0] - (c[2] * d[0]) / d[2], c[1] - (c[2] * d[1]) / d[2], c[2]];
  const toPlan = (x: number, y: number, z: number): Xyz => flat(toCanonical(x, y, z));
  const ordered = [...input.teeth].sort((a, b) => a.number - b.number).map((t) => toPlan(...t.centroid));
  if (ordered.length < 2) throw new OutlineError(`${ordered.length} teeth detected: at least 2 are needed to follow the arch`);
  const arch = archOf(ordered);
  const N = arch.x.length;

  // Crown vertices in arch coordinates: the tooth-side border per sample.
  const border = new Float64Array(N).fill(-Infinity);
  const gumDepth = new Float64Array(N).fill(-Infinity); // minus the lowest crown level along d: the gum line's
  const occlusal = new Float64Array(N).fill(-Infinity); // the innermost occlusal crown vertex
  let sLo = Infinity, sHi = -Infinity;
  const P = input.positions;
  // A crown's vertices lie within CROWN_REACH of its centroid along the arch: only that stretch is searched.
  const near = new Map(input.teeth.map((t) => {
    const c = toPlan(...t.centroid);
    return [t.number, project(arch, c[0], c[1])[0]] as const;
  }));
  for (let v = 0; v < input.labels.length; v++) {
    const at0 = near.get(input.labels[v]!);
    if (at0 === undefined) continue;
    const c = toCanonical(P[3 * v]!, P[3 * v + 1]!, P[3 * v + 2]!);
    const [px, py] = flat(c);
    const [i, delta, place] = project(arch, px, py, at0 - CROWN_REACH, at0 + CROWN_REACH);
    if (delta > border[i]!) border[i] = delta;
    // the border's straights either side of an occlusal vertex pass it: it bounds the samples within OCCLUSAL_REACH of it
    if (input.occlusal?.[v]) {
      for (let j = Math.max(0, Math.ceil(place - OCCLUSAL_REACH)); j <= Math.min(N - 1, Math.floor(place + OCCLUSAL_REACH)); j++) if (delta > occlusal[j]!) occlusal[j] = delta;
    }
    gumDepth[i] = Math.max(gumDepth[i]!, -(c[0] * d[0] + c[1] * d[1] + c[2] * d[2]));
    sLo = Math.min(sLo, i);
    sHi = Math.max(sHi, i);
  }
  if (!(sHi > sLo)) throw new OutlineError('the crowns have no extent along the arch');
  fillGaps(border);
  fillGaps(gumDepth);
  for (let i = 0; i < N; i++) border[i] = border[i]! + GUM_MARGIN;
  // Smoothed, never towards the teeth: the mean over ±2 mm, and no less than the sample itself.
  const smooth = movingMean(border, 2);
  for (let i = 0; i < N; i++) border[i] = Math.max(border[i]!, smooth[i]!);
  // The least border: clear of the occlusal surfaces by OCCLUSAL_CLEAR, also between the samples (OCCLUSAL_REACH).
  const least = Float64Array.from(occlusal, (o) => o + OCCLUSAL_CLEAR);
  return { arch, d, toCanonical, toPlan, border, gumDepth, least, sLo, sHi };
}

/** The jaw in arch coordinates, or null when the teeth give no arch (no outline can be drawn then). */
export function jawArchOrNone(input: ArchInput): JawArch | null {
  try {
    return jawArch(input);
  } catch (e) {
    if (e instanceof OutlineError) return null;
    throw e;
  }
}

/**
 * How far (mm, in plan along the insertion direction) a model point lies inside the least
 * tooth-side border the outline may draw: OCCLUSAL_CLEAR off the occlusal surfaces as the
 * outline bounds it, per sample along the arch and straight between the samples. 0 on the
 * teeth's side of it; Infinity where no occlusal surface bounds it nearby, and everywhere without
 * an arch (jawArchOrNone's null). The tags' room uses it: a tag corner nearer that border than it
 * needs cannot be held inside by the outline.
 */
export function toothSideRoom(jaw: JawArch | null): (p: Xyz) => number {
  if (!jaw) return () => Infinity;
  const { arch, toPlan, least } = jaw;
  const N = arch.x.length;
  return (p) => {
    const [x, y] = toPlan(...p);
    const [i, delta, place] = project(arch, x, y);
    const j = Math.min(N - 2, Math.floor(place)), f = place - j;
    const a = least[j]!, b = least[j + 1]!;
    const here = Number.isFinite(a) && Number.isFinite(b) ? a + (b - a) * f : Math.max(a, b);
    if (delta <= here) return 0;
    let room = Infinity;
    for (let k = Math.max(0, i - 4); k <= Math.min(N - 1, i + 4); k++) {
      if (!Number.isFinite(least[k]!)) continue;
      const [ax, ay] = at(arch, k, least[k]!);
      const next = k + 1 < N && Number.isFinite(least[k + 1]!) ? at(arch, k + 1, least[k + 1]!) : null;
      room = Math.min(room, next ? segmentDistance([x, y, 0], [ax, ay, 0], [next[0], next[1], 0]) : Math.hypot(x - ax, y - ay));
    }
    return room;
  };
}

/** The outline for the jaw's base. Throws OutlineError when the teeth or the surface do not allow one. */
export function baseOutline(bvh: Bvh, input: OutlineInput): BaseOutline {
  const { arch, d, toCanonical, toPlan, border: made, gumDepth, least, sLo, sHi } = input.arch ?? jawArch(input);
  // the tags and a narrow strip move the border: this outline's own copy
  const border = made.slice();
  const N = arch.x.length;
  let lo = Math.max(0, Math.floor(sLo - DISTAL_EXTENSION / STEP)), hi = Math.min(N - 1, Math.ceil(sHi + DISTAL_EXTENSION / STEP));

  // The tags: inside by their margin (corners and the segments between them, every half millimetre).
  const inner = new Float64Array(N).fill(-Infinity); // least inner border the tags need
  for (const [g, tag] of input.tags.entries()) {
    const margin = input.tagMargins?.[g] ?? TAG_MARGIN;
    for (let c = 0; c < tag.length; c++) {
      const a = toPlan(...tag[c]!), b = toPlan(...tag[Math.min(c + 1, tag.length - 1)]!);
      const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / 0.5));
      for (let k = 0; k <= n; k++) {
        const [i, delta] = project(arch, a[0] + ((b[0] - a[0]) * k) / n, a[1] + ((b[1] - a[1]) * k) / n);
        const reach = Math.ceil(margin / STEP) + 2;
        for (let j = Math.max(0, i - reach); j <= Math.min(N - 1, i + reach); j++) {
          border[j] = Math.max(least[j]!, Math.min(border[j]!, delta - margin));
          inner[j] = Math.max(inner[j]!, delta + margin);
        }
        lo = Math.min(lo, Math.max(0, i - reach));
        hi = Math.max(hi, Math.min(N - 1, i + reach));
      }
    }
  }

  const rays = new Rays(bvh, toCanonical, d);
  const outerRing: [number, number][] = [];
  for (let i = lo; i <= hi; i++) outerRing.push(at(arch, i, border[i]!));
  if (input.jaw === 'upper' && rays.coverage(outerRing) >= PALATE_COVERAGE) {
    const outline = rays.picks(outerRing, new Set());
    if (polygonOk(outline)) return { outline: outline.map((p) => p.pick), shape: 'palate' };
  }
  // Horseshoe (also where the line across the palate would cross the border): the flange as deep as the surface and the arch's curvature allow.
  const flange = new Float64Array(N);
  const limit = new Float64Array(N); // the deepest δ over scanned surface, at most the wanted width
  for (let i = lo; i <= hi; i++) {
    const want = Math.max(border[i]! + FLANGE_WIDTH, inner[i]!);
    let reached = border[i]!;
    const steps: number[] = [];
    for (let delta = border[i]! + 0.5; delta <= want + 1e-9; delta += 0.5) steps.push(delta);
    const levels = rays.levels(steps.map((delta) => at(arch, i, delta)));
    let edge = false;
    for (const [k, level] of levels.entries()) {
      // Past the floor of the mouth only as far as a tag needs (the plate then drapes down the wall).
      if (!Number.isFinite(level)) {
        edge = true;
        break;
      }
      if (-gumDepth[i]! - level > MAX_FLANGE_DROP && steps[k]! > inner[i]!) break;
      reached = steps[k]!;
    }
    // Where the scanned surface ends short of a tag's need, its edge is found to EDGE_STEP (the
    // plate reaches it, not the last half millimetre before it).
    if (edge && (reached < inner[i]! || reached - least[i]! < MIN_WIDTH)) {
      const finer: number[] = [];
      for (let delta = reached + EDGE_STEP; delta < reached + 0.5 - 1e-9; delta += EDGE_STEP) finer.push(delta);
      for (const [k, level] of rays.levels(finer.map((delta) => at(arch, i, delta))).entries()) {
        if (!Number.isFinite(level)) break;
        reached = finer[k]!;
      }
    }
    limit[i] = reached;
    // Too narrow a strip of scanned gum (an open scan cut short): the border gives way towards the teeth.
    // and where the scan ends at the occlusal surfaces' clearance, the plate still keeps MIN_PINCH (else the outline would pinch shut)
    if (reached - border[i]! < MIN_WIDTH) border[i] = Math.min(Math.max(least[i]!, reached - MIN_WIDTH), reached - MIN_PINCH);
    // The tags' need first, then the least flange, within what the surface and the arch's curvature allow.
    flange[i] = Math.min(limit[i]!, Math.max(inner[i]!, border[i]! + MIN_FLANGE, Math.min(reached - 0.5, 0.8 * arch.radius[i]!)));
  }
  // Smoothed towards the teeth (a notch in the flange would be a notch in the plate), never past the tags' need.
  const smoothFlange = movingMean(flange.subarray(lo, hi + 1), 3);
  for (let i = lo; i <= hi; i++) flange[i] = Math.min(limit[i]!, Math.max(inner[i]!, border[i]! + MIN_WIDTH, Math.min(flange[i]!, smoothFlange[i - lo]!)));
  outerRing.length = 0;
  for (let i = lo; i <= hi; i++) outerRing.push(at(arch, i, border[i]!));
  const ring = [...outerRing];
  for (let i = hi; i >= lo; i--) ring.push(at(arch, i, flange[i]!));
  const outline = rays.picks(ring, new Set([outerRing.length - 1, outerRing.length]));
  if (!polygonOk(outline)) throw new OutlineError('the horseshoe outline crosses itself');
  return { outline: outline.map((p) => p.pick), shape: 'horseshoe' };
}

/** Whether the picks, seen along the canonical occlusal axis, make a simple polygon of enough points. */
function polygonOk(points: { xy: [number, number] }[]): boolean {
  if (points.length < MIN_OUTLINE_POINTS) return false;
  return polygonProblem(Float64Array.from(points, (p) => p.xy[0]), Float64Array.from(points, (p) => p.xy[1]), 0.5) === null;
}

/** The curve through the crown centroids (in their numbering order, smoothed), extended 15 mm past each end, resampled every STEP mm. */
function archOf(centroids: readonly Xyz[]): Arch {
  let px = centroids.map((c) => c[0]), py = centroids.map((c) => c[1]);
  for (let pass = 0; pass < 2 && px.length > 2; pass++) {
    px = px.map((x, i) => (i === 0 || i === px.length - 1 ? x : 0.25 * px[i - 1]! + 0.5 * x + 0.25 * px[i + 1]!));
    py = py.map((y, i) => (i === 0 || i === py.length - 1 ? y : 0.25 * py[i - 1]! + 0.5 * y + 0.25 * py[i + 1]!));
  }
  const extend = (i: number, j: number): [number, number] => {
    const l = Math.hypot(px[i]! - px[j]!, py[i]! - py[j]!) || 1;
    return [px[i]! + ((px[i]! - px[j]!) * 15) / l, py[i]! + ((py[i]! - py[j]!) * 15) / l];
  };
  const n = px.length;
  const head = extend(0, 1), tail = extend(n - 1, n - 2);
  const cx = [head[0], ...px, tail[0]], cy = [head[1], ...py, tail[1]];
  const x: number[] = [], y: number[] = [];
  let carry = 0;
  for (let k = 0; k + 1 < cx.length; k++) {
    const len = Math.hypot(cx[k + 1]! - cx[k]!, cy[k + 1]! - cy[k]!);
    let s = carry;
    for (; s < len; s += STEP) {
      x.push(cx[k]! + ((cx[k + 1]! - cx[k]!) * s) / len);
      y.push(cy[k]! + ((cy[k + 1]! - cy[k]!) * s) / len);
    }
    carry = s - len;
  }
  x.push(cx.at(-1)!);
  y.push(cy.at(-1)!);
  // Tangents from the neighbours, smoothed over ±3 mm; the inward side: towards the middle of the ends' chord.
  const N = x.length;
  const tx: number[] = [], ty: number[] = [];
  for (let i = 0; i < N; i++) {
    const a = Math.max(0, i - 3), b = Math.min(N - 1, i + 3);
    const l = Math.hypot(x[b]! - x[a]!, y[b]! - y[a]!) || 1;
    tx.push((x[b]! - x[a]!) / l);
    ty.push((y[b]! - y[a]!) / l);
  }
  const mid = Math.floor(N / 2);
  const chord = [(x[0]! + x[N - 1]!) / 2 - x[mid]!, (y[0]! + y[N - 1]!) / 2 - y[mid]!];
  const sign = -ty[mid]! * chord[0]! + tx[mid]! * chord[1]! >= 0 ? 1 : -1;
  const nx = tx.map((_, i) => -ty[i]! * sign), ny = tx.map((t) => t * sign);
  const radius = x.map((_, i) => {
    const a = Math.max(0, i - 5), b = Math.min(N - 1, i + 5);
    const turn = Math.abs(Math.atan2(tx[a]! * ty[b]! - ty[a]! * tx[b]!, tx[a]! * tx[b]! + ty[a]! * ty[b]!));
    return turn > 1e-6 ? ((b - a) * STEP) / turn : Infinity;
  });
  return { x, y, nx, ny, radius };
}

/**
 * The nearest sample of the arch (by its segment, among samples from..to) and the signed distance
 * inwards; third, its place along the arch in samples (fractional).
 */
function project(arch: Arch, px: number, py: number, from = 0, to = arch.x.length - 1): [number, number, number] {
  let best = Infinity, at = 0, delta = 0, place = 0;
  for (let i = Math.max(0, from); i + 1 <= Math.min(to, arch.x.length - 1); i++) {
    const ax = arch.x[i]!, ay = arch.y[i]!, bx = arch.x[i + 1]! - ax, by = arch.y[i + 1]! - ay;
    const l2 = bx * bx + by * by || 1;
    const t = Math.max(0, Math.min(1, ((px - ax) * bx + (py - ay) * by) / l2));
    const qx = ax + bx * t, qy = ay + by * t;
    const dist = Math.hypot(px - qx, py - qy);
    if (dist < best) {
      best = dist;
      at = t < 0.5 ? i : i + 1;
      place = i + t;
      delta = (px - qx) * arch.nx[at]! + (py - qy) * arch.ny[at]!;
    }
  }
  return [at, delta, place];
}

/** The point δ inwards of sample i (canonical x, y). */
function at(arch: Arch, i: number, delta: number): [number, number] {
  return [arch.x[i]! + arch.nx[i]! * delta, arch.y[i]! + arch.ny[i]! * delta];
}

/** Samples without a value (-Infinity) take the straight line between their neighbours, or the nearest one past the ends. */
function fillGaps(v: Float64Array): void {
  const known: number[] = [];
  v.forEach((x, i) => Number.isFinite(x) && known.push(i));
  if (known.length === 0) return;
  for (let i = 0; i < v.length; i++) {
    if (Number.isFinite(v[i]!)) continue;
    const after = known.findIndex((k) => k > i);
    if (after <= 0) v[i] = v[known[after < 0 ? known.length - 1 : 0]!]!;
    else {
      const a = known[after - 1]!, b = known[after]!;
      v[i] = v[a]! + ((v[b]! - v[a]!) * (i - a)) / (b - a);
    }
  }
}

/** Mean over ±half samples. */
function movingMean(v: Float64Array, half: number): Float64Array {
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) {
    let sum = 0, n = 0;
    for (let j = Math.max(0, i - half); j <= Math.min(v.length - 1, i + half); j++) {
      sum += v[j]!;
      n++;
    }
    out[i] = sum / n;
  }
  return out;
}

function unit(v: Xyz): Xyz {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}

/** Rays along -d from the appliance side, from canonical plan points onto the model. */
class Rays {
  private readonly inverse: (p: Xyz) => Xyz;
  private readonly dir: Xyz;
  private readonly top: number;
  constructor(
    private readonly bvh: Bvh,
    toCanonical: (x: number, y: number, z: number) => Xyz,
    private readonly d: Xyz,
  ) {
    // The inverse of a rigid transform: the rotation's transpose after the translation.
    const o = toCanonical(0, 0, 0);
    const ex = toCanonical(1, 0, 0), ey = toCanonical(0, 1, 0), ez = toCanonical(0, 0, 1);
    const cols = [ex, ey, ez].map((e) => [e[0] - o[0], e[1] - o[1], e[2] - o[2]] as const);
    this.inverse = (p) => {
      const q = [p[0] - o[0], p[1] - o[1], p[2] - o[2]];
      return [cols[0]![0] * q[0]! + cols[0]![1] * q[1]! + cols[0]![2] * q[2]!, cols[1]![0] * q[0]! + cols[1]![1] * q[1]! + cols[1]![2] * q[2]!, cols[2]![0] * q[0]! + cols[2]![1] * q[1]! + cols[2]![2] * q[2]!];
    };
    const dm = this.inverse([o[0] - d[0], o[1] - d[1], o[2] - d[2]]);
    this.dir = dm;
    const b = bvhBounds(bvh);
    this.top = b ? Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) + Math.hypot(...b.max) + Math.hypot(...b.min) : 100;
  }

  /** First hits of rays through canonical plan points (x, y); NaN t where none. */
  private cast(points: readonly [number, number][]): { t: Float32Array; triangle: Int32Array; rays: Float32Array } {
    const rays = new Float32Array(points.length * 6);
    points.forEach(([x, y], i) => {
      const origin = this.inverse([x + this.d[0] * this.top, y + this.d[1] * this.top, this.d[2] * this.top]);
      rays.set([origin[0], origin[1], origin[2], this.dir[0], this.dir[1], this.dir[2]], i * 6);
    });
    const hits = raycastFirst(this.bvh, rays);
    return { t: hits.t, triangle: hits.triangle, rays };
  }

  /** Levels (canonical position along d) of the first surface at plan points: higher is nearer the appliance side; NaN over a hole. */
  levels(points: readonly [number, number][]): number[] {
    if (points.length === 0) return [];
    const { t } = this.cast(points);
    return points.map((p, i) => (Number.isFinite(t[i]!) ? p[0] * this.d[0] + p[1] * this.d[1] + this.top - t[i]! : Number.NaN));
  }

  /** Share of a 2 mm grid inside the polygon whose rays find the surface. */
  coverage(ring: readonly [number, number][]): number {
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const [x, y] of ring) {
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
    const inside: [number, number][] = [];
    for (let y = y0 + 1; y < y1; y += 2) for (let x = x0 + 1; x < x1; x += 2) if (insidePolygon(ring, x, y)) inside.push([x, y]);
    if (inside.length === 0) return 0;
    const { t } = this.cast(inside);
    let hit = 0;
    for (const v of t) if (Number.isFinite(v)) hit++;
    return hit / inside.length;
  }

  /** The ring's points every OUTLINE_SPACING mm (and its corners `keep`) as surface picks (model frame); points over a hole are left out. */
  picks(ring: readonly [number, number][], keep: ReadonlySet<number>): { pick: OutlinePoint; xy: [number, number] }[] {
    const dense: [number, number][] = [];
    let since = Infinity;
    ring.forEach((p, i) => {
      const q = ring[(i + 1) % ring.length]!;
      if (since >= OUTLINE_SPACING || keep.has(i) || i === ring.length - 1) {
        dense.push(p);
        since = 0;
      }
      since += Math.hypot(q[0] - p[0], q[1] - p[1]);
    });
    const { t, triangle, rays } = this.cast(dense);
    const out: { pick: OutlinePoint; xy: [number, number] }[] = [];
    dense.forEach((xy, i) => {
      const h = t[i]!;
      if (!Number.isFinite(h)) return;
      const o = i * 6;
      const point: [number, number, number] = [rays[o]! + rays[o + 3]! * h, rays[o + 1]! + rays[o + 4]! * h, rays[o + 2]! + rays[o + 5]! * h];
      out.push({ pick: { point, triangle: triangle[i]! }, xy });
    });
    return out;
  }
}

function insidePolygon(ring: readonly [number, number][], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!, [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
