// Teeth segmentation of one jaw: the per-vertex phases run in
// assembly/teeth.ts (raw exports typed in teeth-abi.ts); this driver merges
// the crown cores, numbers the crowns and fits the arch (one record per core
// or crown). Measured with test/bench/teeth-measure.ts; figures and open
// problems in docs/teeth-notes.md.
//
// Method:
//  1. straighten() gives the canonical frame (occlusal plane z = 0, incisors
//     towards -y, midline x = 0, patient's left at +x); h = height towards the
//     opposing jaw (z for a lower jaw, -z for an upper one, whose normals are
//     then flipped: the mirror turns the winding).
//  2. Taubin denoising of a copy of the positions, then per-vertex curvature
//     from the umbrella operator: c = -2 (mean of the neighbours - v) . n /
//     mean(|e|^2), which is 1/R on a sphere of radius R (mm^-1, positive
//     convex), smoothed by neighbour-averaging passes; pass counts from the
//     median edge length (SMOOTH_MM) and the scanner noise (NOISE_MM),
//     estimated from the umbrella distance (noiseSigma).
//  3. Crown cores: connected non-concave vertices (c > -CORE_CONCAVE) within
//     CORE_DEPTH of the occlusal plane; cores whose centroids lie within
//     MERGE_XY in the plane are one tooth (cusps split by fissures); a crown's
//     core holds a cusp, tip or edge (CUSP_CURVATURE), a gum bump does not.
//  4. Marker-controlled watershed (Meyer) on the concavity -c: the crown cores
//     and the gum seeds (h < -GUM_DEPTH, open borders, and whatever lies beyond
//     every crown's reach) flood the surface in order of increasing
//     concavity, so regions meet on the concave crests: the gingival margin
//     and the interproximal grooves, whatever their exact depth. A crown
//     claims nothing beyond MAX_CROWN_RADIUS from its core's centre. Then the
//     crest pass: a gum vertex beside a crown and more concave than it joins
//     the crown (the seam lies on the crest).
//  5. Numbering: per side, crowns ordered from the midline outwards and placed
//     in the 8 slots by their widths and the gaps between them (placeInSlots),
//     the two sides' first crowns together (the gap across the midline), so a
//     missing tooth keeps its neighbours' numbers; left/right from the frame,
//     so a mirrored patient is numbered by the side each tooth is on.
//  6. Per tooth: FDI, type, centroid, tip, mesio-distal width; the arch curve;
//     the landmarks (teeth-landmarks.ts).

import type { MeshRef } from './mesh.ts';
import { KernelError, type JobOptions } from './job.ts';
import { meshViews } from './mesh.ts';
import { straighten, type StraightenResult } from './straighten.ts';
import { addLandmarks } from './teeth-landmarks.ts';
import type { ToothLandmarkFields } from '../../common/teeth.ts';

export interface TeethOptions extends Pick<JobOptions, 'onProgress' | 'shouldCancel'> {
  jaw: 'upper' | 'lower';
  /** Concavity (mm^-1) that stops a crown core (default CORE_CONCAVE). */
  concave?: number;
  smoothPasses?: number;
  /** Taubin passes on a copy of the positions before the curvature (scanner noise). */
  denoise?: number;
  /** mm; default MAX_CROWN_RADIUS. */
  maxCrownRadius?: number;
  /** Crest passes after the flood (default 1): a gum vertex beside a crown, more concave than it, joins it (the seam lies on the crest). */
  dilate?: number;
}

/** Landmarks (gum line, axis, FA point, cusps, directions): teeth-landmarks.ts. */
export interface ToothInfo extends ToothLandmarkFields {
  /** Universal number 1-32. */
  number: number;
  vertexCount: number;
  /** FDI (ISO 3950) number. */
  fdi: number;
  type: 'incisor' | 'canine' | 'premolar' | 'molar';
  /** Area-weighted centroid of the crown's vertices, model coordinates. */
  centroid: [number, number, number];
  /** Crown vertex farthest towards the opposing jaw, model coordinates. */
  tip: [number, number, number];
  /** Extent of the crown along the arch tangent, mm. */
  mesioDistalWidth: number;
}

export interface TeethResult {
  labels: Uint8Array;
  teeth: ToothInfo[];
  frame: StraightenResult;
  /**
   * The arch: quartic y(x) least-squares fitted through the crown centroids in the occlusal plane of the
   * canonical frame, sampled at 65 points over the crowns' x range, in model coordinates (empty with
   * fewer than 5 crowns).
   */
  arch: [number, number, number][];
  timings: Record<string, number>;
}

// Constants (mm, mm^-1), each with its reason:
/** A crown's highest point lies within this of the occlusal plane (an extruded molar stands ~3 mm off). */
const TIP_BAND = 5;
/** Smallest crown area: a lower incisor's crown has ~40 mm^2; papillae and gum bumps have less. */
const MIN_CROWN_AREA = 5;
/** Crown cores: within this of the occlusal plane (above every gum margin: clinical crowns are 7+ mm tall). */
const CORE_DEPTH = 4;
/**
 * Crown cores stop at this concavity (mm^-1). Crowded teeth (overlapping their neighbours by ~1 mm) meet on
 * creases whose ends, on the buccal and lingual faces, are barely concave: at 0.15 their cores joined
 * through them (generated jaws); the study models give the same labels for any value from 0 to 0.3.
 */
const CORE_CONCAVE = 0.05;
/**
 * A crown's core holds a cusp, tip or incisal edge sharper than this (mm^-1, radius 3.3 mm): the study
 * models' crowns reach 0.54-2 (decimated, noisy too), generated ones 0.43+; a retromolar pad or a healed
 * ridge standing near the occlusal plane is rounder (0.2 on the generated jaws, where it made a crown).
 */
const CUSP_CURVATURE = 0.3;
/** Core pieces smaller than this (mm^2) are noise. */
const MIN_CORE_AREA = 0.5;
/** Cusps of one tooth lie within this of each other in the plane; neighbouring teeth's centres are 5+ mm apart. */
const MERGE_XY = 3.5;
/** Below this depth the surface is gum, palate or plinth (seed of the gum region). */
const GUM_DEPTH = 12;
/**
 * Curvature smoothing scale (mm): neighbour-averaging passes = (SMOOTH_MM / median edge)^2 (a diffusion
 * spreads ~ edge * sqrt(passes)); Taubin denoising passes = 3/4 of that. 0.36 mm gives the 4 + 3 passes
 * measured best on the 0.18 mm study models, and 2 + 1 on them decimated to a quarter.
 */
const SMOOTH_MM = 0.4;

/**
 * Scanner noise scale (mm): the smoothing passes grow by (1 + (sigma / NOISE_MM)^2), 4 + 3 -> 8 + 6 at
 * sigma 0.05 mm on the study models (the passes' curvature then meets the goals; 4 + 3 left gum 88-94 %).
 */
const NOISE_MM = 0.05;
/** The umbrella distance on a smooth scan is ~ this x edge^2 (0.0043 mm at 0.198 mm edges, 0.015 at 0.43): curvature, not noise. */
const CURVATURE_RESIDUAL = 0.1;

function medianEdge(mesh: MeshRef): number {
  const { positions: P, indices: I } = meshViews(mesh);
  const step = Math.max(1, Math.floor(mesh.triangleCount / 20000));
  const e: number[] = [];
  for (let t = 0; t < mesh.triangleCount; t += step) {
    for (let c = 0; c < 3; c++) {
      const a = I[3 * t + c]! * 3, b = I[3 * t + ((c + 1) % 3)]! * 3;
      e.push(Math.hypot(P[a]! - P[b]!, P[a + 1]! - P[b + 1]!, P[a + 2]! - P[b + 2]!));
    }
  }
  e.sort((x, y) => x - y);
  return e[e.length >> 1] || 1;
}
/**
 * Scanner noise (mm): the median distance of a vertex from the mean of its neighbours along its normal
 * (umbrella operator, from the triangle list: no adjacency needed), over a sample of vertices, / 0.73 (the
 * median of that distance on a noisy plane with six neighbours is 0.73 sigma). Smooth surfaces at the
 * study models' resolution give ~0.003 mm (curvature, not noise).
 */
function noiseSigma(mesh: MeshRef): number {
  const { positions: P, indices: I } = meshViews(mesh);
  const V = mesh.vertexCount;
  const step = Math.max(1, Math.floor(V / 20000));
  const n = Math.ceil(V / step);
  const sum = new Float64Array(n * 3), nrm = new Float64Array(n * 3), cnt = new Float64Array(n);
  const add = (v: number, o1: number, o2: number, nx: number, ny: number, nz: number): void => {
    if (v % step) return;
    const i = v / step;
    sum[3 * i]! += P[3 * o1]! + P[3 * o2]!; sum[3 * i + 1]! += P[3 * o1 + 1]! + P[3 * o2 + 1]!; sum[3 * i + 2]! += P[3 * o1 + 2]! + P[3 * o2 + 2]!;
    nrm[3 * i]! += nx; nrm[3 * i + 1]! += ny; nrm[3 * i + 2]! += nz;
    cnt[i]! += 2;
  };
  for (let t = 0; t < mesh.triangleCount; t++) {
    const a = I[3 * t]!, b = I[3 * t + 1]!, c = I[3 * t + 2]!;
    if (a % step && b % step && c % step) continue;
    const ux = P[3 * b]! - P[3 * a]!, uy = P[3 * b + 1]! - P[3 * a + 1]!, uz = P[3 * b + 2]! - P[3 * a + 2]!;
    const vx = P[3 * c]! - P[3 * a]!, vy = P[3 * c + 1]! - P[3 * a + 1]!, vz = P[3 * c + 2]! - P[3 * a + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    add(a, b, c, nx, ny, nz); add(b, c, a, nx, ny, nz); add(c, a, b, nx, ny, nz);
  }
  const d: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!cnt[i]) continue;
    const v = i * step, l = Math.hypot(nrm[3 * i]!, nrm[3 * i + 1]!, nrm[3 * i + 2]!) || 1;
    d.push(Math.abs(((sum[3 * i]! / cnt[i]! - P[3 * v]!) * nrm[3 * i]! + (sum[3 * i + 1]! / cnt[i]! - P[3 * v + 1]!) * nrm[3 * i + 1]! + (sum[3 * i + 2]! / cnt[i]! - P[3 * v + 2]!) * nrm[3 * i + 2]!) / l));
  }
  d.sort((x, y) => x - y);
  return (d[d.length >> 1] ?? 0) / 0.73;
}

/**
 * No crown reaches farther than this in the plane from its core's centre: the largest crown, a lower
 * first molar, is ~11.5 x 10.5 mm (half diagonal ~7.8 mm), plus slack for a core off the crown's middle.
 */
const MAX_CROWN_RADIUS = 9;

/** Quartic y(x) through the crown centroids (normal equations, 5 x 5, Gaussian elimination), sampled. */
function fitArch(crowns: { cx: number; cy: number }[], toModel: (x: number, y: number, h: number) => [number, number, number]): [number, number, number][] {
  if (crowns.length < 5) return [];
  const M = Array.from({ length: 5 }, () => new Array<number>(6).fill(0));
  let x0 = Infinity, x1 = -Infinity;
  for (const c of crowns) {
    x0 = Math.min(x0, c.cx); x1 = Math.max(x1, c.cx);
    const p = [1, c.cx, c.cx ** 2, c.cx ** 3, c.cx ** 4];
    for (let r = 0; r < 5; r++) { for (let q = 0; q < 5; q++) M[r]![q]! += p[r]! * p[q]!; M[r]![5]! += p[r]! * c.cy; }
  }
  for (let col = 0; col < 5; col++) {
    let piv = col;
    for (let r = col + 1; r < 5; r++) if (Math.abs(M[r]![col]!) > Math.abs(M[piv]![col]!)) piv = r;
    [M[col], M[piv]] = [M[piv]!, M[col]!];
    const d = M[col]![col]!;
    if (Math.abs(d) < 1e-12) return [];
    for (let r = 0; r < 5; r++) {
      if (r === col) continue;
      const f = M[r]![col]! / d;
      for (let q = col; q < 6; q++) M[r]![q]! -= f * M[col]![q]!;
    }
  }
  const a = M.map((row, i) => row[5]! / row[i]!);
  const out: [number, number, number][] = [];
  for (let i = 0; i <= 64; i++) {
    const x = x0 + ((x1 - x0) * i) / 64;
    out.push(toModel(x, a[0]! + a[1]! * x + a[2]! * x * x + a[3]! * x ** 3 + a[4]! * x ** 4, 0));
  }
  return out;
}

/**
 * Typical mesio-distal crown widths (mm), central incisor to third molar (textbook means, e.g. Wheeler's
 * Dental Anatomy; patients vary by about +-10 %, which the costs below allow).
 */
const UPPER_WIDTHS = [8.5, 6.5, 7.5, 7.0, 6.5, 10.0, 9.0, 8.5];
const LOWER_WIDTHS = [5.0, 5.5, 7.0, 7.0, 7.0, 11.0, 10.5, 10.0];
/** Spread (mm) of a measured width and of a measured gap around the expected ones. */
const SIGMA_WIDTH = 1.5;
const SIGMA_GAP = 2.0;

type SideCrown = { cx: number; cy: number; verts: number[] };

/**
 * One side's crowns, ordered from the midline, against the 8 slots (1 central incisor .. 8 third molar):
 * widths (extent along the arch tangent, the direction between the neighbours' centroids), and the
 * cost-to-go of placing crown j in slot k with the crowns after it in later slots. The cost adds, per
 * crown, (measured width - slot width)^2 / SIGMA_WIDTH^2 and, per pair of neighbours, (measured gap -
 * widths of the slots skipped between them)^2 / SIGMA_GAP^2 (gap: centroid distance minus half widths).
 */
function sideCosts(list: SideCrown[], X: Float64Array, W: number[]): { w: number[]; go: Float64Array[]; next: Int32Array[] } {
  const m = list.length;
  const w: number[] = [], gap: number[] = [];
  for (let j = 0; j < m; j++) {
    const c = list[j]!;
    const prev = j > 0 ? list[j - 1]! : { cx: -c.cx, cy: c.cy };
    const next = j + 1 < m ? list[j + 1]! : { cx: 2 * c.cx - prev.cx, cy: 2 * c.cy - prev.cy };
    let tx = next.cx - prev.cx, ty = next.cy - prev.cy;
    const tl = Math.hypot(tx, ty) || 1; tx /= tl; ty /= tl;
    let lo = Infinity, hi = -Infinity;
    for (const v of c.verts) {
      const d = (X[3 * v]! - c.cx) * tx + (X[3 * v + 1]! - c.cy) * ty;
      if (d < lo) lo = d; if (d > hi) hi = d;
    }
    w.push(hi - lo);
    if (j > 0) { const p = list[j - 1]!; gap.push(Math.hypot(c.cx - p.cx, c.cy - p.cy) - (w[j]! + w[j - 1]!) / 2); } else gap.push(0);
  }
  const S = W.length;
  const skipped = (from: number, to: number): number => { let t = 0; for (let k = from; k < to; k++) t += W[k]!; return t; };
  // go[j][k]: cost of crowns j..m-1 with crown j in slot k (0-based); next[j][k]: crown j+1's slot
  const go = Array.from({ length: m }, () => new Float64Array(S).fill(Infinity));
  const nextSlot = Array.from({ length: m }, () => new Int32Array(S).fill(-1));
  for (let j = m - 1; j >= 0; j--) {
    for (let k = j; k < S - (m - 1 - j); k++) {
      const wc = ((w[j]! - W[k]!) / SIGMA_WIDTH) ** 2;
      if (j === m - 1) { go[j]![k] = wc; continue; }
      for (let q = k + 1; q < S; q++) {
        const c = wc + ((gap[j + 1]! - skipped(k + 1, q)) / SIGMA_GAP) ** 2 + go[j + 1]![q]!;
        if (c < go[j]![k]!) { go[j]![k] = c; nextSlot[j]![k] = q; }
      }
    }
  }
  return { w, go, next: nextSlot };
}

/**
 * Slots (1..8, 0: more crowns than slots) of both sides' crowns, each list ordered from the midline. The
 * two first crowns are placed together: the distance between their centroids should be the slot widths
 * from one centre to the other (half of each, plus the slots skipped on both sides), so a missing central
 * incisor shows as a gap whichever side of a slightly misplaced midline it was on. With one side empty,
 * the first crown's gap is its distance from the midline (x = 0).
 */
function placeInSlots(right: SideCrown[], left: SideCrown[], X: Float64Array, W: number[]): { slots: number[]; widths: number[] }[] {
  const S = W.length;
  const sides = [right.slice(0, S), left.slice(0, S)].map((list) => ({ list, ...sideCosts(list, X, W) }));
  const skipped = (to: number): number => { let t = 0; for (let k = 0; k < to; k++) t += W[k]!; return t; };
  const first = [-1, -1];
  const [r, l] = sides as [(typeof sides)[0], (typeof sides)[0]];
  if (r.list.length && l.list.length) {
    const a = r.list[0]!, b = l.list[0]!;
    const d = Math.hypot(a.cx - b.cx, a.cy - b.cy);
    let best = Infinity;
    for (let kr = 0; kr < S; kr++) for (let kl = 0; kl < S; kl++) {
      const expect = W[kr]! / 2 + W[kl]! / 2 + skipped(kr) + skipped(kl);
      const c = r.go[0]![kr]! + l.go[0]![kl]! + ((d - expect) / SIGMA_GAP) ** 2;
      if (c < best) { best = c; first[0] = kr; first[1] = kl; }
    }
  } else {
    sides.forEach((side, i) => {
      if (!side.list.length) return;
      let minAbsX = Infinity;
      for (const v of side.list[0]!.verts) minAbsX = Math.min(minAbsX, Math.abs(X[3 * v]!));
      let best = Infinity;
      for (let k = 0; k < S; k++) {
        const c = side.go[0]![k]! + ((minAbsX - skipped(k)) / SIGMA_GAP) ** 2;
        if (c < best) { best = c; first[i] = k; }
      }
    });
  }
  return sides.map((side, i) => {
    const slots = new Array<number>(i === 0 ? right.length : left.length).fill(0);
    for (let j = 0, k = first[i]!; j < side.list.length && k >= 0; j++) { slots[j] = k + 1; k = side.next[j]![k]!; }
    return { slots, widths: side.w.concat(new Array<number>(slots.length - side.w.length).fill(0)) };
  });
}


export async function segmentTeeth(mesh: MeshRef, options: TeethOptions): Promise<TeethResult> {
  const timings: Record<string, number> = {};
  // progress at the phases' ends (their shares of the time on the study models); a cancel between them
  const reached = (fraction: number): void => {
    if (options.shouldCancel?.()) throw new KernelError('ABORTED', 'cancelled');
    options.onProgress?.(fraction);
  };
  let t0 = performance.now();
  const frame = await straighten(mesh, { jaw: options.jaw, onProgress: (f) => options.onProgress?.(0.15 * f), shouldCancel: options.shouldCancel });
  timings.straighten = performance.now() - t0;
  reached(0.15);
  t0 = performance.now();
  const k = mesh.k;
  const V = mesh.vertexCount;
  const sign = options.jaw === 'upper' ? -1 : 1;
  const mark = k.arenaMark() >>> 0;
  try {
    new Float64Array(k.memory.buffer, k.teethMatrixPtr() >>> 0, 16).set(frame.matrix);
    // smoothing scale in millimetres, not rings: passes from the median edge length
    // noise: the umbrella estimate less what the curvature gives at this edge length; noise lengthens
    // the edges too (by 6 sigma^2 in the square), so the spacing is the median edge less that
    const measured = medianEdge(mesh);
    const sigma = Math.sqrt(Math.max(0, noiseSigma(mesh) ** 2 - (CURVATURE_RESIDUAL * measured * measured) ** 2));
    const edge = Math.sqrt(Math.max(measured * measured - 6 * sigma * sigma, (measured * measured) / 4));
    const passes = options.smoothPasses ?? Math.max(2, Math.min(16, Math.round((SMOOTH_MM / edge) ** 2 * (1 + (sigma / NOISE_MM) ** 2))));
    const denoise = options.denoise ?? Math.max(1, Math.floor(passes * 0.75));
    timings.medianEdge = edge;
    timings.noiseSigma = sigma;
    const st = k.teethPrepare(mesh.positionsPtr, mesh.indicesPtr, V, mesh.triangleCount, sign, passes, denoise);
    if (st === -1) throw new KernelError('OUT_OF_MEMORY', 'no room for the teeth segmentation');
    if (st < 0) throw new KernelError('BAD_INPUT', 'the mesh is empty or has bad indices');
    timings.curvature = performance.now() - t0;
    reached(0.55);
    t0 = performance.now();
    // crown cores: non-concave vertices near the occlusal plane, their components
    const count = k.teethCores(options.concave ?? CORE_CONCAVE, CORE_DEPTH);
    const stats = new Float64Array(k.memory.buffer, k.teethStatsPtr() >>> 0, count * 5);
    const compOf = new Int32Array(k.memory.buffer, k.teethComponentPtr() >>> 0, V);
    type Comp = { id: number; area: number; maxH: number; cx: number; cy: number; cz: number; parent: number };
    const comps: Comp[] = [];
    for (let i = 0; i < count; i++) {
      const a = stats[5 * i]!;
      comps.push({ id: i, area: a, cx: stats[5 * i + 1]! / a, cy: stats[5 * i + 2]! / a, cz: stats[5 * i + 3]! / a, maxH: stats[5 * i + 4]!, parent: i });
    }
    // cores of one tooth (cusps split by fissures): merged when their centroids lie within MERGE_XY in the plane
    const cores = comps.filter((c) => c.area > MIN_CORE_AREA).sort((a, b) => b.area - a.area);
    const find = (c: Comp): Comp => { while (comps[c.parent] !== c) c = comps[c.parent]!; return c; };
    for (let i = 0; i < cores.length; i++) for (let j = 0; j < i; j++) {
      const a = cores[i]!, b = cores[j]!;
      if (Math.hypot(a.cx - b.cx, a.cy - b.cy) < MERGE_XY) { const ra = find(a), rb = find(b); if (ra !== rb) ra.parent = rb.id; }
    }
    const groups = new Map<Comp, { area: number; maxH: number; members: number[] }>();
    for (const c of cores) {
      const r = find(c);
      let g = groups.get(r);
      if (!g) { g = { area: 0, maxH: -Infinity, members: [] }; groups.set(r, g); }
      g.area += c.area; g.maxH = Math.max(g.maxH, c.maxH); g.members.push(c.id);
    }
    // a crown has a cusp, a tip or an incisal edge: its core's sharpest convexity
    const curv = new Float64Array(k.memory.buffer, k.teethCurvaturePtr() >>> 0, V);
    const sharpest = new Float64Array(count).fill(-Infinity);
    for (let v = 0; v < V; v++) { const c = compOf[v]!; if (c >= 0 && curv[v]! > sharpest[c]!) sharpest[c] = curv[v]!; }
    const kept = [...groups.values()].filter((g) => g.maxH > -TIP_BAND && g.area > MIN_CROWN_AREA && g.members.some((id) => sharpest[id]! > CUSP_CURVATURE));
    const seedOf = new Int32Array(count).fill(-1);
    kept.forEach((g, i) => { for (const id of g.members) seedOf[id] = i; });
    const region = new Int32Array(k.memory.buffer, k.teethRegionPtr() >>> 0, V);
    for (let v = 0; v < V; v++) { const c = compOf[v]!; region[v] = c >= 0 ? seedOf[c]! : -1; }
    timings.components = performance.now() - t0;
    reached(0.65);
    t0 = performance.now();
    // marker-controlled watershed on the concavity: crowns and the gum meet on the concave crests
    const GUM = kept.length;
    const centers = new Float64Array(k.memory.buffer, k.teethCentersPtr() >>> 0, 128);
    kept.slice(0, 64).forEach((g, i) => {
      let a = 0, x = 0, y = 0;
      for (const id of g.members) { const c = comps[id]!; a += c.area; x += c.area * c.cx; y += c.area * c.cy; }
      centers[2 * i] = x / a; centers[2 * i + 1] = y / a;
    });
    k.teethWatershed(GUM_DEPTH, GUM, options.maxCrownRadius ?? MAX_CROWN_RADIUS);
    for (let i = 0; i < (options.dilate ?? 1); i++) k.teethDilate(GUM);
    timings.watershed = performance.now() - t0;
    reached(0.85);
    const buf = k.memory.buffer;
    const X = new Float64Array(buf, k.teethXPtr() >>> 0, V * 3).slice();
    const area = new Float64Array(buf, k.teethAreaPtr() >>> 0, V).slice();
    const regions = new Int32Array(buf, k.teethRegionPtr() >>> 0, V);
    const crowns = kept.map(() => ({ area: 0, cx: 0, cy: 0, cz: 0, verts: [] as number[] }));
    for (let v = 0; v < V; v++) { const r = regions[v]!; if (r >= 0 && r < GUM) crowns[r]!.verts.push(v); }
    const result = finish(crowns, X, area, V, sign, frame, options, timings);
    addLandmarks(mesh, result, options.jaw);
    options.onProgress?.(1);
    return result;
  } finally {
    k.arenaRelease(mark);
  }
}

type Crown = { area: number; cx: number; cy: number; cz: number; verts: number[] };

function finish(crowns: Crown[], X: Float64Array, area: Float64Array, V: number, sign: number, frame: StraightenResult, options: TeethOptions, timings: Record<string, number>): TeethResult {
  // crown centroids from the grown regions
  for (const c of crowns) {
    let a = 0, x = 0, y = 0, z = 0;
    for (const v of c.verts) { a += area[v]!; x += area[v]! * X[3 * v]!; y += area[v]! * X[3 * v + 1]!; z += area[v]! * X[3 * v + 2]!; }
    c.area = a; c.cx = x / a; c.cy = y / a; c.cz = z / a;
  }
  // numbering: per side, crowns ordered from the midline outwards (angle around a point behind the
  // incisors), then placed in the 8 slots (central incisor .. third molar) by their widths and the gaps
  let cy0 = 0;
  for (const c of crowns) cy0 += c.cy;
  cy0 = crowns.length ? cy0 / crowns.length : 0;
  const ang = (c: { cx: number; cy: number }): number => Math.atan2(c.cx, -(c.cy - cy0));
  const rightSide = crowns.filter((c) => c.cx < 0).sort((a, b) => ang(b) - ang(a));
  const leftSide = crowns.filter((c) => c.cx >= 0).sort((a, b) => ang(a) - ang(b));
  const widths = options.jaw === 'upper' ? UPPER_WIDTHS : LOWER_WIDTHS;
  const right = rightSide.map((c) => ({ c, slot: 0, width: 0 }));
  const left = leftSide.map((c) => ({ c, slot: 0, width: 0 }));
  const placed = placeInSlots(rightSide, leftSide, X, widths);
  for (const [i, side] of [right, left].entries()) side.forEach((c, j) => { c.slot = placed[i]!.slots[j]!; c.width = placed[i]!.widths[j]!; });
  const labels = new Uint8Array(V);
  const teeth: ToothInfo[] = [];
  const inv = frame.inverse;
  const toModel = (x: number, y: number, h: number): [number, number, number] => {
    const z = sign * h;
    return [inv[0]! * x + inv[4]! * y + inv[8]! * z + inv[12]!, inv[1]! * x + inv[5]! * y + inv[9]! * z + inv[13]!, inv[2]! * x + inv[6]! * y + inv[10]! * z + inv[14]!];
  };
  const TYPES = ['incisor', 'incisor', 'canine', 'premolar', 'premolar', 'molar', 'molar', 'molar'] as const;
  const assign = (list: { c: (typeof crowns)[number]; slot: number; width: number }[], num: (k: number) => number, quadrant: number): void => {
    for (const { c, slot, width } of list) {
      if (slot < 1) continue;
      const n = num(slot);
      let tipV = c.verts[0]!;
      for (const v of c.verts) { labels[v] = n; if (X[3 * v + 2]! > X[3 * tipV + 2]!) tipV = v; }
      teeth.push({
        number: n, fdi: quadrant * 10 + slot, type: TYPES[slot - 1]!, vertexCount: c.verts.length,
        centroid: toModel(c.cx, c.cy, c.cz),
        tip: toModel(X[3 * tipV]!, X[3 * tipV + 1]!, X[3 * tipV + 2]!),
        mesioDistalWidth: width,
      });
    }
  };
  // FDI quadrants: 1 upper right, 2 upper left, 3 lower left, 4 lower right
  if (options.jaw === 'upper') { assign(right, (k) => 9 - k, 1); assign(left, (k) => 8 + k, 2); }
  else { assign(left, (k) => 25 - k, 3); assign(right, (k) => 24 + k, 4); }
  teeth.sort((a, b) => a.number - b.number);
  return { labels, teeth, frame, arch: fitArch(crowns, toModel), timings };
}
