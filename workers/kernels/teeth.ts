// Teeth segmentation of one jaw (issue 16), PROTOTYPE: the loops run in JS
// while the method is measured (test/bench/teeth-measure.ts, figures in
// docs/teeth-notes.md); the hot loops move to assembly/ once it holds.
//
// Method:
//  1. straighten() gives the canonical frame (occlusal plane z = 0, incisors
//     towards -y, midline x = 0, patient's left at +x); h = height towards the
//     opposing jaw (z for a lower jaw, -z for an upper one, whose normals are
//     then flipped: the mirror turns the winding).
//  2. Per-vertex curvature from the umbrella operator: c = -2 (mean of the
//     neighbours - v) . n / mean(|e|^2), which is 1/R on a sphere of radius R
//     (mm^-1, positive convex), smoothed by a few neighbour-averaging passes.
//  3. Crown cores: connected non-concave vertices (c > -concave) within
//     CORE_DEPTH of the occlusal plane; cores whose centroids lie within
//     MERGE_XY in the plane are one tooth (cusps split by fissures).
//  4. Marker-controlled watershed (Meyer) on the concavity -c: the crown cores
//     and a gum seed (h < -GUM_DEPTH) flood the surface in order of increasing
//     concavity, so regions meet on the concave crests: the gingival margin
//     and the interproximal grooves, whatever their exact depth.
//  5. Numbering: crowns ordered by angle around a point behind the incisors,
//     counted from the midline outwards on each side (x < 0: patient's right).
//     Missing teeth are NOT yet detected (a gap shifts the numbers behind it).

import type { MeshRef } from './mesh.ts';
import { meshViews } from './mesh.ts';
import { straighten, type StraightenResult } from './straighten.ts';

export interface TeethOptions {
  jaw: 'upper' | 'lower';
  /** Concavity (mm^-1) that stops a crown: the gingival margin and the interproximal grooves. */
  concave?: number;
  smoothPasses?: number;
}

export interface ToothInfo {
  /** Universal number 1-32. */
  number: number;
  vertexCount: number;
  /** Area-weighted centroid of the crown's vertices, model coordinates. */
  centroid: [number, number, number];
}

export interface TeethResult {
  labels: Uint8Array;
  teeth: ToothInfo[];
  frame: StraightenResult;
  timings: Record<string, number>;
}

// Constants (mm, mm^-1), each with its reason:
/** A crown's highest point lies within this of the occlusal plane (an extruded molar stands ~3 mm off). */
const TIP_BAND = 5;
/** Smallest crown area: a lower incisor's crown has ~40 mm^2; papillae and gum bumps have less. */
const MIN_CROWN_AREA = 5;
/** Crown cores: within this of the occlusal plane (above every gum margin: clinical crowns are 7+ mm tall). */
const CORE_DEPTH = 4;
/** Core pieces smaller than this (mm^2) are noise. */
const MIN_CORE_AREA = 0.5;
/** Cusps of one tooth lie within this of each other in the plane; neighbouring teeth's centres are 5+ mm apart. */
const MERGE_XY = 3.5;
/** Below this depth the surface is gum, palate or plinth (seed of the gum region). */
const GUM_DEPTH = 12;

/**
 * Typical mesio-distal crown widths (mm), central incisor to third molar (textbook means, e.g. Wheeler's
 * Dental Anatomy; patients vary by about +-10 %, which the costs below allow).
 */
const UPPER_WIDTHS = [8.5, 6.5, 7.5, 7.0, 6.5, 10.0, 9.0, 8.5];
const LOWER_WIDTHS = [5.0, 5.5, 7.0, 7.0, 7.0, 11.0, 10.5, 10.0];
/** Spread (mm) of a measured width and of a measured gap around the expected ones. */
const SIGMA_WIDTH = 1.5;
const SIGMA_GAP = 2.0;

/**
 * Slot (1 central incisor .. 8 third molar) of each crown of one side, ordered from the midline; 0 when
 * there are more crowns than slots fit. Dynamic programming over monotone assignments: the cost adds,
 * per crown, (measured width - slot width)^2 / SIGMA_WIDTH^2 and (measured gap before it - widths of the
 * slots skipped)^2 / SIGMA_GAP^2. Width: extent of the crown along the arch tangent (direction between
 * its neighbours' centroids); gap: centroid distance minus half widths; the first crown's gap is its
 * distance from the midline (x = 0).
 */
function placeInSlots(list: { cx: number; cy: number; verts: number[] }[], X: Float64Array, W: number[]): number[] {
  const m = list.length;
  if (m === 0) return [];
  const w: number[] = [], gap: number[] = [];
  for (let j = 0; j < m; j++) {
    const c = list[j]!;
    const prev = j > 0 ? list[j - 1]! : { cx: -c.cx, cy: c.cy };
    const next = j + 1 < m ? list[j + 1]! : { cx: 2 * c.cx - prev.cx, cy: 2 * c.cy - prev.cy };
    let tx = next.cx - prev.cx, ty = next.cy - prev.cy;
    const tl = Math.hypot(tx, ty) || 1; tx /= tl; ty /= tl;
    let lo = Infinity, hi = -Infinity, minAbsX = Infinity;
    for (const v of c.verts) {
      const d = (X[3 * v]! - c.cx) * tx + (X[3 * v + 1]! - c.cy) * ty;
      if (d < lo) lo = d; if (d > hi) hi = d;
      minAbsX = Math.min(minAbsX, Math.abs(X[3 * v]!));
    }
    w.push(hi - lo);
    if (j === 0) gap.push(minAbsX);
    else { const p = list[j - 1]!; gap.push(Math.hypot(c.cx - p.cx, c.cy - p.cy) - (w[j]! + w[j - 1]!) / 2); }
  }
  const S = W.length;
  const skipped = (from: number, to: number): number => { let s = 0; for (let k = from; k < to; k++) s += W[k]!; return s; };
  // best[j][k]: cost of crowns 0..j with crown j in slot k (0-based)
  const best = Array.from({ length: m }, () => new Float64Array(S).fill(Infinity));
  const from = Array.from({ length: m }, () => new Int32Array(S).fill(-1));
  const wc = (j: number, k: number): number => ((w[j]! - W[k]!) / SIGMA_WIDTH) ** 2;
  for (let k = 0; k < S; k++) best[0]![k] = wc(0, k) + ((gap[0]! - skipped(0, k)) / SIGMA_GAP) ** 2;
  for (let j = 1; j < m; j++) for (let k = j; k < S; k++) for (let q = j - 1; q < k; q++) {
    const c = best[j - 1]![q]! + wc(j, k) + ((gap[j]! - skipped(q + 1, k)) / SIGMA_GAP) ** 2;
    if (c < best[j]![k]!) { best[j]![k] = c; from[j]![k] = q; }
  }
  const out = new Array<number>(m).fill(0);
  const last = Math.min(m, S) - 1;
  let k = -1, bc = Infinity;
  for (let q = 0; q < S; q++) if (best[last]![q]! < bc) { bc = best[last]![q]!; k = q; }
  for (let j = last; j >= 0 && k >= 0; j--) { out[j] = k + 1; k = from[j]![k]!; }
  return out;
}

class MinHeap {
  keys: Float64Array; vals: Int32Array; size = 0;
  constructor(n: number) { this.keys = new Float64Array(n); this.vals = new Int32Array(n); }
  push(v: number, key: number): void {
    let i = this.size++;
    while (i > 0) { const p = (i - 1) >> 1; if (this.keys[p]! <= key) break; this.keys[i] = this.keys[p]!; this.vals[i] = this.vals[p]!; i = p; }
    this.keys[i] = key; this.vals[i] = v;
  }
  pop(): number {
    const top = this.vals[0]!; const n = --this.size; const key = this.keys[n]!, val = this.vals[n]!;
    let i = 0;
    for (;;) { let c = 2 * i + 1; if (c >= n) break; if (c + 1 < n && this.keys[c + 1]! < this.keys[c]!) c++; if (this.keys[c]! >= key) break; this.keys[i] = this.keys[c]!; this.vals[i] = this.vals[c]!; i = c; }
    this.keys[i] = key; this.vals[i] = val;
    return top;
  }
}

export async function segmentTeeth(mesh: MeshRef, options: TeethOptions): Promise<TeethResult> {
  const timings: Record<string, number> = {};
  let t0 = performance.now();
  const frame = await straighten(mesh, { jaw: options.jaw });
  timings.straighten = performance.now() - t0;
  t0 = performance.now();
  const { positions: P, indices: I } = meshViews(mesh);
  const V = mesh.vertexCount, T = mesh.triangleCount;
  const m = frame.matrix;
  const sign = options.jaw === 'upper' ? -1 : 1;
  // canonical positions; z -> h (teeth up)
  const X = new Float64Array(V * 3);
  for (let v = 0; v < V; v++) {
    const x = P[3 * v]!, y = P[3 * v + 1]!, z = P[3 * v + 2]!;
    X[3 * v] = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
    X[3 * v + 1] = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
    X[3 * v + 2] = sign * (m[2]! * x + m[6]! * y + m[10]! * z + m[14]!);
  }
  // vertex normals (area weighted) and vertex areas (1/3 of the triangles')
  const N = new Float64Array(V * 3);
  const area = new Float64Array(V);
  const deg = new Int32Array(V + 1);
  for (let t = 0; t < T; t++) {
    const a = I[3 * t]!, b = I[3 * t + 1]!, c = I[3 * t + 2]!;
    const ux = X[3 * b]! - X[3 * a]!, uy = X[3 * b + 1]! - X[3 * a + 1]!, uz = X[3 * b + 2]! - X[3 * a + 2]!;
    const vx = X[3 * c]! - X[3 * a]!, vy = X[3 * c + 1]! - X[3 * a + 1]!, vz = X[3 * c + 2]! - X[3 * a + 2]!;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const ar = Math.hypot(nx, ny, nz) / 6;
    for (const w of [a, b, c]) { N[3 * w]! += nx; N[3 * w + 1]! += ny; N[3 * w + 2]! += nz; area[w]! += ar; deg[w + 1]! += 2; }
  }
  for (let v = 0; v < V; v++) {
    // z -> sign * z mirrors an upper jaw, which turns the triangles' winding: sign keeps the normals outwards
    const l = sign * (Math.hypot(N[3 * v]!, N[3 * v + 1]!, N[3 * v + 2]!) || 1);
    N[3 * v]! /= l; N[3 * v + 1]! /= l; N[3 * v + 2]! /= l;
  }
  // neighbour lists (CSR, with duplicates: each edge seen from both triangles; harmless for averages)
  for (let v = 0; v < V; v++) deg[v + 1]! += deg[v]!;
  const adj = new Int32Array(deg[V]!);
  const fill = deg.slice(0, V);
  for (let t = 0; t < T; t++) {
    const a = I[3 * t]!, b = I[3 * t + 1]!, c = I[3 * t + 2]!;
    adj[fill[a]!++] = b; adj[fill[a]!++] = c;
    adj[fill[b]!++] = c; adj[fill[b]!++] = a;
    adj[fill[c]!++] = a; adj[fill[c]!++] = b;
  }
  timings.setup = performance.now() - t0;
  t0 = performance.now();
  // curvature
  let curv = new Float64Array(V);
  for (let v = 0; v < V; v++) {
    let sx = 0, sy = 0, sz = 0, se = 0;
    const n = deg[v + 1]! - deg[v]!;
    if (n === 0) continue;
    for (let j = deg[v]!; j < deg[v + 1]!; j++) {
      const w = adj[j]!;
      const dx = X[3 * w]! - X[3 * v]!, dy = X[3 * w + 1]! - X[3 * v + 1]!, dz = X[3 * w + 2]! - X[3 * v + 2]!;
      sx += dx; sy += dy; sz += dz; se += dx * dx + dy * dy + dz * dz;
    }
    curv[v] = (-2 * (sx * N[3 * v]! + sy * N[3 * v + 1]! + sz * N[3 * v + 2]!)) / (se || 1);
  }
  const passes = options.smoothPasses ?? 4;
  let tmp = new Float64Array(V);
  for (let p = 0; p < passes; p++) {
    for (let v = 0; v < V; v++) {
      let s = curv[v]!, c = 1;
      for (let j = deg[v]!; j < deg[v + 1]!; j++) { s += curv[adj[j]!]!; c++; }
      tmp[v] = s / c;
    }
    [curv, tmp] = [tmp, curv];
  }
  timings.curvature = performance.now() - t0;
  t0 = performance.now();
  // crown cores: non-concave vertices near the occlusal plane (h > -CORE_DEPTH), their components
  const concave = options.concave ?? 0.15;
  const comp = new Int32Array(V).fill(-1);
  const stack = new Int32Array(V);
  type Comp = { area: number; maxH: number; verts: number[]; cx: number; cy: number; cz: number; parent: number };
  const comps: Comp[] = [];
  const inCore = (v: number): boolean => curv[v]! > -concave && X[3 * v + 2]! > -CORE_DEPTH;
  for (let s = 0; s < V; s++) {
    if (comp[s] !== -1 || !inCore(s)) continue;
    const id = comps.length;
    const rec: Comp = { area: 0, maxH: -Infinity, verts: [], cx: 0, cy: 0, cz: 0, parent: id };
    comps.push(rec);
    let top = 0;
    stack[top++] = s; comp[s] = id;
    while (top) {
      const v = stack[--top]!;
      rec.verts.push(v);
      rec.area += area[v]!;
      rec.cx += area[v]! * X[3 * v]!; rec.cy += area[v]! * X[3 * v + 1]!; rec.cz += area[v]! * X[3 * v + 2]!;
      if (X[3 * v + 2]! > rec.maxH) rec.maxH = X[3 * v + 2]!;
      for (let j = deg[v]!; j < deg[v + 1]!; j++) {
        const w = adj[j]!;
        if (comp[w] !== -1 || !inCore(w)) continue;
        comp[w] = id; stack[top++] = w;
      }
    }
  }
  for (const c of comps) { c.cx /= c.area; c.cy /= c.area; c.cz /= c.area; }
  // cores of one tooth (cusps split by fissures): merged when their centroids lie within MERGE_XY in the plane
  let cores = comps.filter((c) => c.area > MIN_CORE_AREA);
  const find = (c: Comp): Comp => { while (comps[c.parent] !== c) c = comps[c.parent]!; return c; };
  cores.sort((a, b) => b.area - a.area);
  for (let i = 0; i < cores.length; i++) for (let j = 0; j < i; j++) {
    const a = cores[i]!, b = cores[j]!;
    if (Math.hypot(a.cx - b.cx, a.cy - b.cy) < MERGE_XY) { const ra = find(a), rb = find(b); if (ra !== rb) ra.parent = comps.indexOf(rb); }
  }
  const roots = new Map<Comp, Comp>();
  for (const c of cores) {
    const r = find(c);
    let g = roots.get(r);
    if (!g) { g = { area: 0, maxH: -Infinity, verts: [], cx: 0, cy: 0, cz: 0, parent: -1 }; roots.set(r, g); }
    g.cx = (g.cx * g.area + c.cx * c.area) / (g.area + c.area); g.cy = (g.cy * g.area + c.cy * c.area) / (g.area + c.area); g.cz = (g.cz * g.area + c.cz * c.area) / (g.area + c.area);
    g.area += c.area; g.maxH = Math.max(g.maxH, c.maxH); for (const v of c.verts) g.verts.push(v);
  }
  const crowns = [...roots.values()].filter((c) => c.maxH > -TIP_BAND && c.area > MIN_CROWN_AREA);
  timings.components = performance.now() - t0;
  t0 = performance.now();
  // marker-controlled watershed (Meyer) on the concavity: crowns and the gum (h < -GUM_DEPTH) flood
  // the surface in order of increasing concavity; regions meet on the concave crests (gum line, grooves)
  const region = new Int32Array(V).fill(-1);
  const heap = new MinHeap(V);
  crowns.forEach((c, i) => { for (const v of c.verts) region[v] = i; });
  const GUM = crowns.length;
  for (let v = 0; v < V; v++) if (region[v] === -1 && X[3 * v + 2]! < -GUM_DEPTH) region[v] = GUM;
  // an open scan's border (and a hole where a tooth was cut away) is gum: an edge seen from one triangle only
  for (let v = 0; v < V; v++) {
    if (region[v] !== -1) continue;
    const a = deg[v]!, b = deg[v + 1]!;
    for (let j = a; j < b && region[v] === -1; j++) {
      let n = 0;
      for (let q = a; q < b; q++) if (adj[q] === adj[j]) n++;
      if (n === 1) region[v] = GUM;
    }
  }
  for (let v = 0; v < V; v++) {
    if (region[v] === -1) continue;
    for (let j = deg[v]!; j < deg[v + 1]!; j++) if (region[adj[j]!] === -1) { heap.push(v, -curv[v]!); break; }
  }
  while (heap.size) {
    const v = heap.pop();
    for (let j = deg[v]!; j < deg[v + 1]!; j++) {
      const w = adj[j]!;
      if (region[w] !== -1) continue;
      region[w] = region[v]!;
      heap.push(w, -curv[w]!);
    }
  }
  for (let i = 0; i < crowns.length; i++) crowns[i]!.verts = [];
  for (let v = 0; v < V; v++) { const r = region[v]!; if (r >= 0 && r < GUM) crowns[r]!.verts.push(v); }
  timings.watershed = performance.now() - t0;
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
  const slotsOf = (list: typeof crowns): number[] => placeInSlots(list, X, widths);
  const right = rightSide.map((c, i) => ({ c, slot: 0, i }));
  const left = leftSide.map((c, i) => ({ c, slot: 0, i }));
  slotsOf(rightSide).forEach((s, i) => { right[i]!.slot = s; });
  slotsOf(leftSide).forEach((s, i) => { left[i]!.slot = s; });
  const labels = new Uint8Array(V);
  const teeth: ToothInfo[] = [];
  const inv = frame.inverse;
  const assign = (list: { c: (typeof crowns)[number]; slot: number }[], num: (k: number) => number): void => {
    for (const { c, slot } of list) {
      if (slot < 1) continue;
      const n = num(slot);
      for (const v of c.verts) labels[v] = n;
      const x = c.cx, y = c.cy, z = sign * c.cz;
      teeth.push({
        number: n, vertexCount: c.verts.length,
        centroid: [inv[0]! * x + inv[4]! * y + inv[8]! * z + inv[12]!, inv[1]! * x + inv[5]! * y + inv[9]! * z + inv[13]!, inv[2]! * x + inv[6]! * y + inv[10]! * z + inv[14]!],
      });
    }
  };
  if (options.jaw === 'upper') { assign(right, (k) => 9 - k); assign(left, (k) => 8 + k); }
  else { assign(left, (k) => 25 - k); assign(right, (k) => 24 + k); }
  teeth.sort((a, b) => a.number - b.number);
  return { labels, teeth, frame, timings };
}
