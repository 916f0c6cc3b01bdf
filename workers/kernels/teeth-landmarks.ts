// Landmarks per tooth from per-vertex labels, for placing clasps and bows:
// gum line, long axis, facial-axis (FA) point, cusp tips, and the survey of a
// crown for an insertion direction (height of contour, undercut depth, the
// point at a requested undercut depth). Pure TypeScript over the mesh arrays,
// the labels and the straightened frame, so it runs again after every
// correction of the labels; about a crown's worth of work per tooth.
//
// Method (model coordinates throughout; "up" is the occlusal normal of the
// frame, towards the opposing jaw; heights are along up):
//  - Crown: the triangles whose 3 vertices carry the tooth's number (as the
//    study models' truth counts them); vertex normals from every triangle at
//    a crown vertex, turned outwards if the crown's winding is inside out.
//  - Buccal / mesial: the horizontal normal and tangent of a quartic y(x)
//    fitted through the crown centroids in the frame's occlusal plane (the
//    arch; the neighbours' chord with fewer than 5 teeth). The arch opens
//    towards +y, so out of the arch is (y', -1); mesial points to the midline.
//  - Gum line: the longest loop of gumLines() (teeth-gumline.ts).
//  - Long axis: from the crown's area centroid to the gum line's centre
//    (length-weighted): both lie on the axis of a crown that is roughly
//    symmetric about it, tilted or not, and neither depends on the frame
//    (tried: the occlusal third's centroid along up, once or iterated: it
//    follows the frame, and iterated it drifts to 40+ degrees on the study
//    models' lower molars; the gum line's plane: these models' generated gum
//    lines are level whatever the tooth). More than 60 degrees from -up
//    means a broken crown or gum line: -up instead.
//  - FA point (Andrews; the study models' truth uses the same rule): cut the
//    crown with the plane through the middle of its mesio-distal extent
//    (normal = mesial); of the cut on the buccal side of the centroid, the
//    lowest and highest points bound the clinical crown's facial profile;
//    the FA point is where the profile crosses half that height (the most
//    buccal crossing).
//  - Cusp tips (premolars, molars): heights smoothed by one-ring averaging,
//    peaks by topological prominence (a union-find sweep from the top: where
//    two peaks' regions meet, the lower peak's prominence is its height
//    above that saddle), kept with prominence >= 0.1 mm within 3.5 mm of the
//    tip, at least 1.5 mm apart, at most 3 (premolar) or 5 (molar).
//  - Survey for insertion direction d (default up): the crown seen along d,
//    in angular sectors around its centroid; per sector the vertex farthest
//    out is on the outline, where the surface is parallel to d (the height of
//    contour, as a surveyor's rod finds it). The survey line joins, per
//    sector, the vertex within 0.03 mm of the outline nearest the running
//    median of the outline's heights (a wall parallel to d is all outline:
//    the farthest vertex alone zigzags by up to 4 mm between sectors). A
//    crown point below the line is in undercut by its distance across d from
//    the outline (the survey line's cylinder along d): what a clasp's
//    undercut gauge measures. The BVH undercut map (undercut.ts) measures a
//    different thing, the depth along d to the surface that blocks a vertex,
//    so it is not reused here.
//  - Undercut point: on the buccal or lingual profile (a plane cut like the
//    FA point's, at 1/4, 1/2 or 3/4 of the mesio-distal extent), the highest
//    place where the undercut reaches the requested depth, at least
//    minGumClearance above the profile's gingival end.

import type { CuspTip, Jaw, ToothLandmarkFields, ToothType, Xyz } from '../../common/teeth.ts';
import { universalToFdi } from '../../common/teeth.ts';
import { gumLines } from './teeth-gumline.ts';
import { meshViews, type MeshRef } from './mesh.ts';

export type MeshArrays = { positions: Float32Array; indices: Uint32Array };

/** The straightened frame (straighten()): model to canonical and back, column-major 4x4. */
export interface LandmarkFrame {
  matrix: ArrayLike<number>;
  inverse: ArrayLike<number>;
}

export interface LandmarkOptions {
  /** One-ring averaging passes of the heights before the cusp search (default 2). */
  cuspSmoothing?: number;
  /** Smallest prominence of a cusp tip, mm (default 0.1). */
  minProminence?: number;
  /** Cusp tips lie within this of the crown tip's height, mm (default 3.5). */
  cuspDepth?: number;
  /** Least distance between two cusp tips, mm (default 1.5). */
  cuspSeparation?: number;
}

/** One crown, ready for the landmarks and surveys: its own copies, local vertex numbers. */
export interface CrownPatch {
  number: number;
  type: ToothType;
  /** Welded vertex ids of the crown (label = number). */
  vertices: Uint32Array;
  /** xyz per crown vertex (model coordinates). */
  positions: Float64Array;
  /** Unit outward normal per crown vertex. */
  normals: Float64Array;
  /** Crown triangles, local vertex numbers. */
  triangles: Uint32Array;
  /** A third of the area of the crown triangles at each vertex. */
  areas: Float64Array;
  /** Area-weighted centroid of the crown triangles. */
  centroid: Xyz;
  /** Occlusal normal of the frame, towards the opposing jaw. */
  up: Xyz;
  /** Horizontal unit directions: out of the arch, and along it towards the midline. */
  buccal: Xyz;
  mesial: Xyz;
  /** The main gum line, flat xyz (empty when the crown has no seam). */
  gumLine: Float32Array;
}

export interface ToothLandmarks {
  number: number;
  type: ToothType;
  centroid: Xyz;
  tip: Xyz;
  gumLine: number[];
  axis: Xyz;
  faPoint: Xyz | null;
  /** Premolars and molars (empty otherwise), most prominent first. */
  cusps: CuspTip[];
  buccal: Xyz;
  mesial: Xyz;
}

export interface ToothSurvey {
  number: number;
  /** Unit insertion direction (the appliance leaves the teeth along it). */
  direction: Xyz;
  /** Height of contour: closed polyline around the crown, flat xyz. */
  line: number[];
  /** Per crown vertex (CrownPatch.vertices order): undercut depth across the direction, mm (0 above the line). */
  depth: Float32Array;
  maxDepth: number;
  /** Undercut depth of any point (mm): 0 above the survey line or outside the outline. */
  depthAt(p: Xyz): number;
  /** Height (along the direction) of the survey line above the point's place on the outline. */
  heightAt(p: Xyz): number;
}

export type UndercutPlace = 'mesial' | 'middle' | 'distal';
/**
 * A place for a clasp tip: the surface point, its unit outward normal, the undercut depth there, and how far
 * (along the insertion direction, mm) it lies below the survey line and above the profile's gingival end.
 */
export type UndercutPoint =
  | { point: Xyz; normal: Xyz; depth: number; belowSurvey: number; aboveGum: number }
  | { point: null; reason: string };

/** A long axis farther than this from -up comes from a broken crown or gum line. */
const MAX_AXIS_TILT = (60 * Math.PI) / 180;
/** Sectors of the outline (3 degrees: on a 5 mm crown the polygon is within 0.002 mm of the circle). */
const SURVEY_SECTORS = 120;
/**
 * The survey line may lie this far (mm) inside the outline: less than any clasp's undercut (0.25 mm), and
 * on a wall parallel to the insertion direction it lets the line keep its neighbours' height.
 */
const SURVEY_BAND = 0.03;
/** Half-window (sectors) of the running median of the outline's heights that the line follows. */
const SURVEY_MEDIAN = 3;
/** A cusp within this (mm) of the crown's middle is neither buccal nor lingual (mesial nor distal). */
const SIDE_DEADBAND = 0.25;

const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const norm = (a: Xyz): Xyz => {
  const l = Math.hypot(a[0], a[1], a[2]) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};
const cross = (a: Xyz, b: Xyz): Xyz => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

function arrays(mesh: MeshRef | MeshArrays): MeshArrays {
  return 'k' in mesh ? meshViews(mesh) : mesh;
}

/** Slot (1 central incisor .. 8 third molar) to type. */
function typeOf(n: number): ToothType {
  const slot = universalToFdi(n) % 10;
  return slot <= 2 ? 'incisor' : slot === 3 ? 'canine' : slot <= 5 ? 'premolar' : 'molar';
}

/** Teeth on the patient's right: upper 1-8, lower 25-32 (canonical x < 0). */
const onRight = (n: number): boolean => n <= 8 || n >= 25;

/** Least-squares polynomial coefficients (degree d) of y(x); null when singular. */
function polyFit(xs: number[], ys: number[], d: number): number[] | null {
  const m = d + 1;
  const M = Array.from({ length: m }, () => new Array<number>(m + 1).fill(0));
  xs.forEach((x, i) => {
    const p = Array.from({ length: m }, (_, k) => x ** k);
    for (let r = 0; r < m; r++) { for (let q = 0; q < m; q++) M[r]![q]! += p[r]! * p[q]!; M[r]![m]! += p[r]! * ys[i]!; }
  });
  for (let c = 0; c < m; c++) {
    let piv = c;
    for (let r = c + 1; r < m; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[piv]![c]!)) piv = r;
    [M[c], M[piv]] = [M[piv]!, M[c]!];
    const dd = M[c]![c]!;
    if (Math.abs(dd) < 1e-12) return null;
    for (let r = 0; r < m; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / dd;
      for (let q = c; q <= m; q++) M[r]![q]! -= f * M[c]![q]!;
    }
  }
  return M.map((row, i) => row[m]! / row[i]!);
}

/**
 * One pass over the triangles (its own small function, so the JIT optimises the loop): area-weighted
 * normals and vertex areas of every vertex that is on a tooth, and per crown triangle (3 corners on one
 * tooth) its tooth's slot, the crown triangle counts and the area-weighted centroid sums.
 */
function accumulate(
  P: Float32Array, I: Uint32Array, slot: Int8Array, Nall: Float64Array, Aall: Float64Array, cen: Float64Array, crownTri: Int32Array, triCount: Int32Array,
): void {
  for (let t = 0; t + 2 < I.length; t += 3) {
    const a = I[t]!, b = I[t + 1]!, c = I[t + 2]!;
    const sa = slot[a]!, sb = slot[b]!, sc = slot[c]!;
    if (sa < 0 && sb < 0 && sc < 0) continue;
    const ax = P[3 * a]!, ay = P[3 * a + 1]!, az = P[3 * a + 2]!;
    const bx = P[3 * b]!, by = P[3 * b + 1]!, bz = P[3 * b + 2]!;
    const cx = P[3 * c]!, cy = P[3 * c + 1]!, cz = P[3 * c + 2]!;
    const ux = bx - ax, uy = by - ay, uz = bz - az, wx = cx - ax, wy = cy - ay, wz = cz - az;
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    Nall[3 * a]! += nx; Nall[3 * a + 1]! += ny; Nall[3 * a + 2]! += nz;
    Nall[3 * b]! += nx; Nall[3 * b + 1]! += ny; Nall[3 * b + 2]! += nz;
    Nall[3 * c]! += nx; Nall[3 * c + 1]! += ny; Nall[3 * c + 2]! += nz;
    if (sa >= 0 && sa === sb && sb === sc) {
      const area = Math.sqrt(nx * nx + ny * ny + nz * nz) / 2;
      crownTri[t / 3] = sa; triCount[sa]!++;
      Aall[a]! += area / 3; Aall[b]! += area / 3; Aall[c]! += area / 3;
      cen[4 * sa]! += area; cen[4 * sa + 1]! += (area * (ax + bx + cx)) / 3;
      cen[4 * sa + 2]! += (area * (ay + by + cy)) / 3; cen[4 * sa + 3]! += (area * (az + bz + cz)) / 3;
    }
  }
}

/**
 * The crowns of the given teeth (or of every label present) with their normals, centroids, arch
 * directions and gum lines. The arch is fitted through every labelled crown, whichever are returned.
 */
export function crownPatches(mesh: MeshRef | MeshArrays, labels: Uint8Array, frame: LandmarkFrame, jaw: Jaw, numbers?: readonly number[]): CrownPatch[] {
  const { positions: P, indices: I } = arrays(mesh);
  const V = labels.length;
  const count = new Int32Array(256);
  for (let v = 0; v < V; v++) count[labels[v]!]!++;
  // every labelled tooth takes part (the arch needs them all); `numbers` picks the ones returned
  const wanted = [...Array(32).keys()].map((i) => i + 1).filter((n) => count[n]! > 0);
  const slotOf = new Int32Array(256).fill(-1); // labels above 32 are no tooth
  wanted.forEach((n, i) => { slotOf[n] = i; });
  const local = new Int32Array(V);
  const verts = wanted.map((n) => new Uint32Array(count[n]!));
  const fill = new Int32Array(wanted.length);
  for (let v = 0; v < V; v++) {
    const s = slotOf[labels[v]!]!;
    if (s >= 0) { local[v] = fill[s]!; verts[s]![fill[s]!++] = v; }
  }
  // one pass over the triangles into per-vertex arrays of the whole mesh (no per-tooth lookups in the loop)
  const slot = new Int8Array(V);
  for (let v = 0; v < V; v++) slot[v] = slotOf[labels[v]!]!;
  const Nall = new Float64Array(3 * V), Aall = new Float64Array(V);
  const cen = new Float64Array(4 * wanted.length);
  const crownTri = new Int32Array(I.length / 3).fill(-1);
  const triCount = new Int32Array(wanted.length);
  accumulate(P, I, slot, Nall, Aall, cen, crownTri, triCount);
  const tris = wanted.map((_, s) => new Uint32Array(3 * triCount[s]!));
  triCount.fill(0);
  for (let t = 0; t < crownTri.length; t++) {
    const s = crownTri[t]!;
    if (s < 0) continue;
    const T = tris[s]!, o = 3 * triCount[s]!++;
    T[o] = local[I[3 * t]!]!; T[o + 1] = local[I[3 * t + 1]!]!; T[o + 2] = local[I[3 * t + 2]!]!;
  }
  const M = frame.matrix, inv = frame.inverse;
  const sign = jaw === 'upper' ? -1 : 1;
  const up = norm([sign * inv[8]!, sign * inv[9]!, sign * inv[10]!]);
  const centroids = wanted.map((_, s): Xyz => {
    const w = cen[4 * s]!;
    if (w > 0) return [cen[4 * s + 1]! / w, cen[4 * s + 2]! / w, cen[4 * s + 3]! / w];
    const vs = verts[s]!;
    const out: Xyz = [0, 0, 0];
    for (const v of vs) for (let i = 0; i < 3; i++) out[i]! += P[3 * v + i]! / vs.length;
    return out;
  });
  // arch directions in the canonical plane
  const canon = centroids.map((c) => [M[0]! * c[0] + M[4]! * c[1] + M[8]! * c[2] + M[12]!, M[1]! * c[0] + M[5]! * c[1] + M[9]! * c[2] + M[13]!] as const);
  const quartic = wanted.length >= 5 ? polyFit(canon.map((c) => c[0]), canon.map((c) => c[1]), 4) : null;
  const toModelDir = (x: number, y: number): Xyz => norm([inv[0]! * x + inv[4]! * y, inv[1]! * x + inv[5]! * y, inv[2]! * x + inv[6]! * y]);
  const lines = new Map(gumLines(P, I, labels).map((g) => [g.number, g.loops[0] ?? new Float32Array(0)]));
  const picked = new Set(numbers ?? wanted);
  return wanted.flatMap((n, s) => {
    if (!picked.has(n)) return [];
    let tx: number, ty: number;
    if (quartic) {
      const x = canon[s]![0];
      tx = 1; ty = quartic[1]! + 2 * quartic[2]! * x + 3 * quartic[3]! * x * x + 4 * quartic[4]! * x ** 3;
    } else {
      const a = canon[Math.max(0, s - 1)]!, b = canon[Math.min(wanted.length - 1, s + 1)]!;
      tx = b[0] - a[0]; ty = b[1] - a[1];
      if (tx < 0) { tx = -tx; ty = -ty; }
      if (tx === 0 && ty === 0) tx = 1;
    }
    const buccal = toModelDir(ty, -tx);
    const t = toModelDir(tx, ty);
    const mesial: Xyz = onRight(n) ? t : [-t[0], -t[1], -t[2]];
    const vs = verts[s]!;
    const X = new Float64Array(vs.length * 3), N = new Float64Array(vs.length * 3), areas = new Float64Array(vs.length);
    for (let i = 0; i < vs.length; i++) {
      const v = vs[i]!;
      areas[i] = Aall[v]!;
      for (let q = 0; q < 3; q++) { X[3 * i + q] = P[3 * v + q]!; N[3 * i + q] = Nall[3 * v + q]!; }
    }
    // outwards: the normals point away from the centroid on the whole (a crown is a cap around it)
    const c = centroids[s]!;
    let out = 0;
    for (let i = 0; i < vs.length; i++) out += (X[3 * i]! - c[0]) * N[3 * i]! + (X[3 * i + 1]! - c[1]) * N[3 * i + 1]! + (X[3 * i + 2]! - c[2]) * N[3 * i + 2]!;
    const flip = out < 0 ? -1 : 1;
    for (let i = 0; i < vs.length; i++) {
      const l = Math.sqrt(N[3 * i]! ** 2 + N[3 * i + 1]! ** 2 + N[3 * i + 2]! ** 2) || 1;
      for (let q = 0; q < 3; q++) N[3 * i + q] = (flip * N[3 * i + q]!) / l;
    }
    return [{
      number: n, type: typeOf(n), vertices: vs, positions: X, normals: N, triangles: tris[s]!, areas,
      centroid: c, up, buccal, mesial, gumLine: lines.get(n) ?? new Float32Array(0),
    }];
  });
}

const at = (X: ArrayLike<number>, i: number): Xyz => [X[3 * i]!, X[3 * i + 1]!, X[3 * i + 2]!];

function tipIndex(c: CrownPatch): number {
  let best = 0, bh = -Infinity;
  const X = c.positions, u = c.up;
  for (let i = 0; i < c.vertices.length; i++) {
    const h = X[3 * i]! * u[0] + X[3 * i + 1]! * u[1] + X[3 * i + 2]! * u[2];
    if (h > bh) { bh = h; best = i; }
  }
  return best;
}

/** Length-weighted centre and mean height of a closed loop; null for an empty one. */
function loopCentre(loop: Float32Array): Xyz | null {
  const n = loop.length / 3;
  if (n < 3) return null;
  let w = 0;
  const s: Xyz = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const l = Math.hypot(loop[3 * j]! - loop[3 * i]!, loop[3 * j + 1]! - loop[3 * i + 1]!, loop[3 * j + 2]! - loop[3 * i + 2]!);
    for (let q = 0; q < 3; q++) s[q]! += (l * (loop[3 * i + q]! + loop[3 * j + q]!)) / 2;
    w += l;
  }
  return w > 0 ? [s[0] / w, s[1] / w, s[2] / w] : null;
}

/**
 * Long axis (unit, crown towards root): from the crown's area centroid to the gum line's centre. Both lie
 * on the axis of a crown symmetric about it, whatever the tilt, and neither depends on the frame.
 */
export function longAxis(c: CrownPatch): Xyz {
  const down: Xyz = [-c.up[0], -c.up[1], -c.up[2]];
  const gc = loopCentre(c.gumLine);
  if (!gc) return down;
  const axis = norm([gc[0] - c.centroid[0], gc[1] - c.centroid[1], gc[2] - c.centroid[2]]);
  return Math.acos(Math.min(1, dot(axis, down))) > MAX_AXIS_TILT ? down : axis;
}

interface CutPoint { p: Xyz; n: Xyz }

/**
 * The crown cut by the plane (x - c.centroid) . c.mesial = s: segments (pairs of points with normals
 * interpolated along the cut edges) on the side where (x - centroid) . side > 0.
 */
function planeCut(c: CrownPatch, s: number, side: Xyz): [CutPoint, CutPoint][] {
  const X = c.positions, N = c.normals, T = c.triangles, m = c.mesial, o = c.centroid;
  const F = new Float64Array(c.vertices.length);
  for (let i = 0; i < F.length; i++) F[i] = (X[3 * i]! - o[0]) * m[0] + (X[3 * i + 1]! - o[1]) * m[1] + (X[3 * i + 2]! - o[2]) * m[2] - s;
  const out: [CutPoint, CutPoint][] = [];
  const edge = (a: number, b: number, fa: number, fb: number): CutPoint => {
    const t = fa / (fa - fb);
    const p: Xyz = [0, 0, 0], n: Xyz = [0, 0, 0];
    for (let q = 0; q < 3; q++) { p[q] = X[3 * a + q]! + t * (X[3 * b + q]! - X[3 * a + q]!); n[q] = N[3 * a + q]! + t * (N[3 * b + q]! - N[3 * a + q]!); }
    return { p, n: norm(n) };
  };
  for (let t = 0; t < T.length; t += 3) {
    const f0 = F[T[t]!]! < 0, f1 = F[T[t + 1]!]! < 0, f2 = F[T[t + 2]!]! < 0;
    if (f0 === f1 && f1 === f2) continue;
    const v = [T[t]!, T[t + 1]!, T[t + 2]!], fv = v.map((i) => F[i]!);
    const pts: CutPoint[] = [];
    for (let e = 0; e < 3; e++) {
      const a = v[e]!, b = v[(e + 1) % 3]!, fa = fv[e]!, fb = fv[(e + 1) % 3]!;
      if ((fa < 0) !== (fb < 0)) pts.push(edge(a, b, fa, fb));
    }
    if (pts.length !== 2) continue;
    const mid: Xyz = [(pts[0]!.p[0] + pts[1]!.p[0]) / 2 - o[0], (pts[0]!.p[1] + pts[1]!.p[1]) / 2 - o[1], (pts[0]!.p[2] + pts[1]!.p[2]) / 2 - o[2]];
    if (dot(mid, side) > 0) out.push([pts[0]!, pts[1]!]);
  }
  return out;
}

/** Mesio-distal extent of the crown: [min, max] of (x - centroid) . mesial. */
function mesialExtent(c: CrownPatch): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < c.vertices.length; i++) {
    const d = (c.positions[3 * i]! - c.centroid[0]) * c.mesial[0] + (c.positions[3 * i + 1]! - c.centroid[1]) * c.mesial[1] + (c.positions[3 * i + 2]! - c.centroid[2]) * c.mesial[2];
    if (d < lo) lo = d; if (d > hi) hi = d;
  }
  return [lo, hi];
}

/** FA point: the facial profile in the mid-mesio-distal plane, at half its height; the most buccal crossing. */
export function faPoint(c: CrownPatch): Xyz | null {
  const [lo, hi] = mesialExtent(c);
  const segs = planeCut(c, (lo + hi) / 2, c.buccal);
  if (!segs.length) return null;
  let hMin = Infinity, hMax = -Infinity;
  for (const sg of segs) for (const q of sg) { const h = dot(q.p, c.up); hMin = Math.min(hMin, h); hMax = Math.max(hMax, h); }
  const hMid = (hMin + hMax) / 2;
  let best: Xyz | null = null, bb = -Infinity;
  for (const [a, b] of segs) {
    const ha = dot(a.p, c.up) - hMid, hb = dot(b.p, c.up) - hMid;
    if ((ha < 0) === (hb < 0)) continue;
    const t = ha / (ha - hb);
    const p: Xyz = [a.p[0] + t * (b.p[0] - a.p[0]), a.p[1] + t * (b.p[1] - a.p[1]), a.p[2] + t * (b.p[2] - a.p[2])];
    const bp = dot(p, c.buccal);
    if (bp > bb) { bb = bp; best = p; }
  }
  return best;
}

/** Neighbour lists (CSR) of the crown's vertices over its triangles. */
function neighbours(c: CrownPatch): { start: Int32Array; list: Int32Array } {
  const n = c.vertices.length, T = c.triangles;
  const start = new Int32Array(n + 1);
  for (let t = 0; t < T.length; t++) start[T[t]! + 1]! += 2;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const list = new Int32Array(start[n]!), fill = start.slice(0, n);
  for (let t = 0; t < T.length; t += 3) for (let e = 0; e < 3; e++) {
    const a = T[t + e]!, b = T[t + ((e + 1) % 3)]!, d = T[t + ((e + 2) % 3)]!;
    list[fill[a]!++] = b; list[fill[a]!++] = d;
  }
  return { start, list };
}

/** Indices of h from the highest: a plain numeric sort of keys that carry the index (heights to 1e-4 mm). */
function descending(h: Float64Array): Int32Array {
  const n = h.length, B = 2 ** 20, key = new Float64Array(n);
  for (let i = 0; i < n; i++) key[i] = Math.round(-h[i]! * 1e4) * B + i;
  key.sort();
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) { const k = key[i]!; out[i] = k - Math.floor(k / B) * B; }
  return out;
}

/** Cusp tips: prominent maxima of the smoothed height (see the method at the top). */
export function cuspTips(c: CrownPatch, options: LandmarkOptions = {}): CuspTip[] {
  if (c.type !== 'premolar' && c.type !== 'molar') return [];
  const n = c.vertices.length;
  if (!n) return [];
  const { start, list } = neighbours(c);
  const X = c.positions, u = c.up;
  let h = new Float64Array(n);
  for (let i = 0; i < n; i++) h[i] = X[3 * i]! * u[0] + X[3 * i + 1]! * u[1] + X[3 * i + 2]! * u[2];
  const raw = h, hTip = Math.max(...h);
  for (let pass = 0; pass < (options.cuspSmoothing ?? 2); pass++) {
    const g = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let s = h[i]!, k = 1;
      for (let j = start[i]!; j < start[i + 1]!; j++) { s += h[list[j]!]!; k++; }
      g[i] = s / k;
    }
    h = g;
  }
  // persistence: sweep from the top, union-find; a merge ends the lower peak's region
  const order = descending(h);
  const parent = new Int32Array(n).fill(-1), peak = new Int32Array(n);
  const prominence = new Float64Array(n).fill(-1);
  const find = (i: number): number => { while (parent[i] !== i) { parent[i] = parent[parent[i]!]!; i = parent[i]!; } return i; };
  for (const v of order) {
    parent[v] = v; peak[v] = v;
    for (let j = start[v]!; j < start[v + 1]!; j++) {
      const u = list[j]!;
      if (parent[u]! < 0) continue;
      const a = find(u), b = find(v);
      if (a === b) continue;
      const aHigher = h[peak[a]!]! >= h[peak[b]!]!;
      const hiR = aHigher ? a : b, loR = aHigher ? b : a;
      if (peak[loR] !== v) prominence[peak[loR]!] = h[peak[loR]!]! - h[v]!;
      parent[loR] = hiR;
    }
  }
  const top = peak[find(order[0]!)]!;
  prominence[top] = h[top]! - h[order[n - 1]!]!;
  const maxCount = c.type === 'molar' ? 5 : 3;
  const sep = options.cuspSeparation ?? 1.5;
  const cands = Array.from(order).filter((v) => prominence[v]! >= (options.minProminence ?? 0.1) && hTip - raw[v]! <= (options.cuspDepth ?? 3.5))
    .sort((a, b) => prominence[b]! - prominence[a]!);
  const kept: number[] = [];
  for (const v of cands) {
    if (kept.length >= maxCount) break;
    const p = at(c.positions, v);
    if (kept.every((k) => Math.hypot(...at(c.positions, k).map((x, q) => x - p[q]!)) >= sep)) kept.push(v);
  }
  const side = (p: Xyz, d: Xyz): boolean | null => {
    const x = (p[0] - c.centroid[0]) * d[0] + (p[1] - c.centroid[1]) * d[1] + (p[2] - c.centroid[2]) * d[2];
    return Math.abs(x) < SIDE_DEADBAND ? null : x > 0;
  };
  return kept.map((v) => {
    const p = at(c.positions, v);
    return { point: p, prominence: prominence[v]!, buccal: side(p, c.buccal), mesial: side(p, c.mesial) };
  });
}

/** Every landmark of one crown. */
export function crownLandmarks(c: CrownPatch, options: LandmarkOptions = {}): ToothLandmarks {
  return {
    number: c.number, type: c.type, centroid: c.centroid, tip: at(c.positions, tipIndex(c)),
    gumLine: Array.from(c.gumLine), axis: longAxis(c), faPoint: faPoint(c), cusps: cuspTips(c, options),
    buccal: c.buccal, mesial: c.mesial,
  };
}

/** Landmarks of the teeth (all labelled teeth when `teeth` is omitted), in Universal order. */
export function toothLandmarks(
  mesh: MeshRef | MeshArrays, labels: Uint8Array, teeth: readonly { number: number }[] | undefined, frame: LandmarkFrame, jaw: Jaw, options: LandmarkOptions = {},
): ToothLandmarks[] {
  return crownPatches(mesh, labels, frame, jaw, teeth?.map((t) => t.number)).map((c) => crownLandmarks(c, options));
}

/** Survey of one crown for the insertion direction (unit or not; default the frame's occlusal normal). */
export interface SurveyOptions {
  /**
   * Fill the outline from the crown's edges where a sector holds no vertex on the widest band (a
   * coarse or decimated mesh). Off for the insertion search, whose scores compare directions on
   * the same vertices.
   */
  edges?: boolean;
}

export function surveyTooth(c: CrownPatch, insertion: Xyz = c.up, options: SurveyOptions = {}): ToothSurvey {
  const d = norm(insertion);
  const e1 = norm(cross(Math.abs(d[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0], d)), e2 = cross(d, e1);
  const cx = dot(c.centroid, e1), cy = dot(c.centroid, e2);
  const n = c.vertices.length, X = c.positions;
  const K = SURVEY_SECTORS;
  const best = new Int32Array(K).fill(-1), bestR = new Float64Array(K).fill(-1);
  const Pu = new Float64Array(n), Pv = new Float64Array(n), Ph = new Float64Array(n), Pr = new Float64Array(n);
  const sector = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const x = X[3 * i]!, y = X[3 * i + 1]!, z = X[3 * i + 2]!;
    const u = x * e1[0] + y * e1[1] + z * e1[2] - cx, v = x * e2[0] + y * e2[1] + z * e2[2] - cy;
    Pu[i] = u; Pv[i] = v; Ph[i] = x * d[0] + y * d[1] + z * d[2]; Pr[i] = Math.hypot(u, v);
    const k = (sector[i] = Math.min(K - 1, Math.floor(((Math.atan2(v, u) + Math.PI) / (2 * Math.PI)) * K)));
    if (Pr[i]! > bestR[k]!) { bestR[k] = Pr[i]!; best[k] = i; }
  }
  // Where a sector holds no vertex on the crown's widest band (a coarse or decimated mesh: a vertex
  // there only every few sectors), its farthest vertex lies lower and would notch the outline: the
  // crown's edges crossing the sector's middle ray stand in for it where they reach farther.
  const edgeR = new Float64Array(K).fill(-1), edgeP = new Float64Array(4 * K);
  const T = options.edges ? c.triangles : new Uint32Array(0);
  const crossing = (a: number, b: number): void => {
    const ua = Pu[a]!, va = Pv[a]!, ub = Pu[b]!, vb = Pv[b]!;
    let ka = sector[a]!, kb = sector[b]!;
    if (ka === kb) return;
    // the short way round, at most a quarter turn (an edge across the middle says nothing of the outline)
    if ((kb - ka + K) % K > K / 2) [ka, kb] = [kb, ka];
    const span = (kb - ka + K) % K;
    if (span > K / 4) return;
    for (let q = 1; q <= span; q++) {
      const k = (ka + q) % K, phi = -Math.PI + ((k + 0.5) * 2 * Math.PI) / K;
      const cx1 = Math.cos(phi), cy1 = Math.sin(phi);
      // the segment a-b meets the ray at phi where its component across the ray is 0
      const sa = ua * cy1 - va * cx1, sb = ub * cy1 - vb * cx1;
      if (sa === sb || sa * sb > 0) continue;
      const t = sa / (sa - sb), r = (ua + t * (ub - ua)) * cx1 + (va + t * (vb - va)) * cy1;
      if (r <= edgeR[k]!) continue;
      edgeR[k] = r;
      edgeP[4 * k] = t; edgeP[4 * k + 1] = a; edgeP[4 * k + 2] = b; edgeP[4 * k + 3] = phi;
    }
  };
  for (let f = 0; f + 2 < T.length; f += 3) {
    crossing(T[f]!, T[f + 1]!); crossing(T[f + 1]!, T[f + 2]!); crossing(T[f + 2]!, T[f]!);
  }
  // the outline in the plane across d (u, v, angle, ascending): per sector the farthest vertex, or
  // the edge point where it reaches beyond it by more than the band; `vertexOf` -1 for edge points
  const fromEdge = (k: number): boolean => edgeR[k]! > bestR[k]! + SURVEY_BAND;
  const sectors: number[] = [];
  for (let k = 0; k < K; k++) if (best[k]! >= 0 || edgeR[k]! > 0) sectors.push(k);
  const m = sectors.length;
  const U = new Float64Array(m), W = new Float64Array(m), A = new Float64Array(m), H = new Float64Array(m);
  const far = new Float64Array(m), vertexOf = new Int32Array(m);
  sectors.forEach((k, j) => {
    if (best[k]! >= 0 && !fromEdge(k)) {
      const i = best[k]!;
      U[j] = Pu[i]!; W[j] = Pv[i]!; A[j] = Math.atan2(Pv[i]!, Pu[i]!); far[j] = Ph[i]!; vertexOf[j] = i;
    } else {
      const phi = edgeP[4 * k + 3]!;
      U[j] = edgeR[k]! * Math.cos(phi); W[j] = edgeR[k]! * Math.sin(phi); A[j] = phi; vertexOf[j] = -1;
      const t = edgeP[4 * k]!, a = edgeP[4 * k + 1]!, b = edgeP[4 * k + 2]!;
      far[j] = Ph[a]! + t * (Ph[b]! - Ph[a]!);
    }
  });
  // the line's point per sector: of the vertices within SURVEY_BAND of the outline (on a wall parallel to
  // d, many), the one nearest the running median of the farthest ones' heights, so the line does not zigzag
  const ref = new Float64Array(K).fill(NaN);
  const slot = new Int32Array(K).fill(-1);
  sectors.forEach((k, j) => { slot[k] = j; });
  for (let j = 0; j < m; j++) {
    const win: number[] = [];
    for (let q = -SURVEY_MEDIAN; q <= SURVEY_MEDIAN; q++) win.push(far[(j + q + m) % m]!);
    win.sort((a, b) => a - b);
    ref[sectors[j]!] = win[SURVEY_MEDIAN]!;
  }
  const pick = Array.from(vertexOf), off = new Float64Array(K).fill(Infinity);
  for (let i = 0; i < n; i++) {
    const k = sector[i]!;
    if (slot[k]! < 0 || pick[slot[k]!]! < 0 || Pr[i]! < bestR[k]! - SURVEY_BAND) continue;
    const e = Math.abs(Ph[i]! - ref[k]!);
    if (e < off[k]!) { off[k] = e; pick[slot[k]!] = i; }
  }
  const line: number[] = [];
  pick.forEach((i, j) => {
    if (i >= 0) { line.push(X[3 * i]!, X[3 * i + 1]!, X[3 * i + 2]!); H[j] = Ph[i]!; return; }
    // the edge point of the sector: along its edge a-b at t
    const k = sectors[j]!, t = edgeP[4 * k]!, a = edgeP[4 * k + 1]!, b = edgeP[4 * k + 2]!;
    for (let q = 0; q < 3; q++) line.push(X[3 * a + q]! + t * (X[3 * b + q]! - X[3 * a + q]!));
    H[j] = far[j]!;
  });
  // outline edge (point j to j + 1) that the ray at angle a crosses, and where along it
  let bj = 0, bt = 0;
  const bracket = (a: number): void => {
    let lo = 0, hi = m - 1;
    if (a < A[0]! || a >= A[m - 1]!) {
      // the edge from the last point round to the first
      const x = a < A[0]! ? a + 2 * Math.PI : a, span = A[0]! + 2 * Math.PI - A[m - 1]!;
      bj = m - 1; bt = span > 0 ? (x - A[m - 1]!) / span : 0;
      return;
    }
    while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (A[mid]! <= a) lo = mid; else hi = mid; }
    bj = lo; bt = A[hi]! > A[lo]! ? (a - A[lo]!) / (A[hi]! - A[lo]!) : 0;
  };
  const surveyHeight = (): number => H[bj]! + bt * (H[(bj + 1) % m]! - H[bj]!);
  const depthUV = (u: number, v: number, h: number): number => {
    if (m < 3) return 0;
    bracket(Math.atan2(v, u));
    if (h >= surveyHeight()) return 0;
    // inside the outline: the ray from the centre meets edge bj beyond the point
    const j = bj, k = (j + 1) % m;
    const ex = U[k]! - U[j]!, ey = W[k]! - W[j]!;
    const den = u * ey - v * ex;
    if (den === 0 || (U[j]! * ey - W[j]! * ex) / den <= 1) return 0;
    let best2 = Infinity;
    for (let q = 0; q < m; q++) {
      const q1 = q + 1 < m ? q + 1 : 0;
      const fx = U[q1]! - U[q]!, fy = W[q1]! - W[q]!, gx = u - U[q]!, gy = v - W[q]!;
      const l2 = fx * fx + fy * fy;
      const tt = l2 > 0 ? Math.max(0, Math.min(1, (gx * fx + gy * fy) / l2)) : 0;
      const dx = gx - tt * fx, dy = gy - tt * fy;
      const e = dx * dx + dy * dy;
      if (e < best2) best2 = e;
    }
    return Math.sqrt(best2);
  };
  const depthAt = (p: Xyz): number => depthUV(dot(p, e1) - cx, dot(p, e2) - cy, dot(p, d));
  const heightAt = (p: Xyz): number => {
    if (m < 3) return -Infinity;
    bracket(Math.atan2(dot(p, e2) - cy, dot(p, e1) - cx));
    return surveyHeight();
  };
  const depth = new Float32Array(n);
  let maxDepth = 0;
  for (let i = 0; i < n; i++) { depth[i] = depthUV(Pu[i]!, Pv[i]!, Ph[i]!); maxDepth = Math.max(maxDepth, depth[i]!); }
  return { number: c.number, direction: d, line, depth, maxDepth, depthAt, heightAt };
}

export interface UndercutPointOptions {
  /** The point lies at least this far (along the insertion direction) above the profile's gingival end, mm (default 0.5). */
  minGumClearance?: number;
}

/**
 * The place on the buccal or lingual surface where the undercut reaches `depth` (0.25 mm for a cast
 * clasp arm, 0.5 mm for a ball or arrow): on the profile cut at the mesial quarter, the middle or the
 * distal quarter of the crown's mesio-distal extent, the highest such place (nearest the survey line).
 */
export function undercutPoint(c: CrownPatch, survey: ToothSurvey, depth: number, side: 'buccal' | 'lingual' = 'buccal', where: UndercutPlace = 'middle', options: UndercutPointOptions = {}): UndercutPoint {
  const [lo, hi] = mesialExtent(c);
  const f = where === 'middle' ? 0.5 : where === 'mesial' ? 0.75 : 0.25;
  const dir: Xyz = side === 'buccal' ? c.buccal : [-c.buccal[0], -c.buccal[1], -c.buccal[2]];
  const segs = planeCut(c, lo + f * (hi - lo), dir);
  if (!segs.length) return { point: null, reason: `no ${side} crown surface at the ${where}` };
  const d = survey.direction;
  let gum = Infinity;
  for (const sg of segs) for (const q of sg) gum = Math.min(gum, dot(q.p, d));
  const clearance = options.minGumClearance ?? 0.5;
  let best: CutPoint | null = null, bh = -Infinity, deepest = 0;
  for (const [a, b] of segs) {
    const da = survey.depthAt(a.p), db = survey.depthAt(b.p);
    deepest = Math.max(deepest, da, db);
    if ((da < depth) === (db < depth)) continue;
    const t = (depth - da) / (db - da);
    const p: Xyz = [a.p[0] + t * (b.p[0] - a.p[0]), a.p[1] + t * (b.p[1] - a.p[1]), a.p[2] + t * (b.p[2] - a.p[2])];
    const h = dot(p, d);
    if (h - gum < clearance) continue;
    if (h > bh) { bh = h; best = { p, n: norm([a.n[0] + t * (b.n[0] - a.n[0]), a.n[1] + t * (b.n[1] - a.n[1]), a.n[2] + t * (b.n[2] - a.n[2])]) }; }
  }
  if (!best) {
    return {
      point: null,
      reason: deepest < depth
        ? `the ${side} undercut at the ${where} is at most ${deepest.toFixed(2)} mm`
        : `a ${depth} mm undercut at the ${where} lies within ${clearance} mm of the gum line`,
    };
  }
  return { point: best.p, normal: best.n, depth, belowSurvey: survey.heightAt(best.p) - bh, aboveGum: bh - gum };
}

/** Adds the landmarks to the teeth of a segmentation (in place) and times them. */
export function addLandmarks(
  mesh: MeshRef | MeshArrays,
  result: { labels: Uint8Array; teeth: ({ number: number } & ToothLandmarkFields)[]; frame: LandmarkFrame; timings?: Record<string, number> },
  jaw: Jaw,
  options: LandmarkOptions = {},
): void {
  const t0 = performance.now();
  const marks = new Map(toothLandmarks(mesh, result.labels, result.teeth, result.frame, jaw, options).map((l) => [l.number, l]));
  for (const t of result.teeth) {
    const l = marks.get(t.number);
    if (!l) continue;
    t.gumLine = l.gumLine; t.axis = l.axis; t.cusps = l.cusps; t.buccal = l.buccal; t.mesial = l.mesial;
    if (l.faPoint) t.faPoint = l.faPoint;
  }
  if (result.timings) result.timings.landmarks = performance.now() - t0;
}
