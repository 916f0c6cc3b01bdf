// Teeth segmentation of one jaw (issue 16), PROTOTYPE: the loops run in JS
// while the method is measured (test/bench/teeth-measure.ts, figures in
// docs/teeth-notes.md); the hot loops move to assembly/ once it holds.
//
// Method (v0):
//  1. straighten() gives the canonical frame (occlusal plane z = 0, incisors
//     towards -y, midline x = 0, patient's left at +x); h = height towards the
//     opposing jaw (z for a lower jaw, -z for an upper one).
//  2. Per-vertex curvature from the umbrella operator: c = -2 (mean of the
//     neighbours - v) . n / mean(|e|^2), which is 1/R on a sphere of radius R
//     (mm^-1, positive convex), smoothed by a few neighbour-averaging passes.
//  3. Crown candidates: vertices not concave (c > -CONCAVE) and above the
//     lowest plausible gum line (h > -MAX_CROWN_HEIGHT); their connected
//     components. Crowns: components that reach the occlusal band
//     (max h > -TIP_BAND) and are big enough (area > MIN_CROWN_AREA).
//  4. Numbering: crowns ordered by angle around a point behind the incisors;
//     counted from the midline on each side (x < 0: patient's right).

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
/** Crowns stand at most this far below the occlusal plane (clinical crowns: 7-11 mm; 14 for slack). */
const MAX_CROWN_HEIGHT = 14;
/** A crown's highest point lies within this of the occlusal plane (an extruded molar stands ~3 mm off). */
const TIP_BAND = 5;
/** Smallest crown area: a lower incisor's crown has ~40 mm^2; papillae and gum bumps have less. */
const MIN_CROWN_AREA = 15;

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
    const l = Math.hypot(N[3 * v]!, N[3 * v + 1]!, N[3 * v + 2]!) || 1;
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
  // crown candidates and their components
  const concave = options.concave ?? 0.15;
  const comp = new Int32Array(V).fill(-1);
  const stack = new Int32Array(V);
  const comps: { area: number; maxH: number; verts: number[]; cx: number; cy: number; cz: number }[] = [];
  for (let s = 0; s < V; s++) {
    if (comp[s] !== -1 || curv[s]! <= -concave || X[3 * s + 2]! < -MAX_CROWN_HEIGHT) continue;
    const id = comps.length;
    const rec = { area: 0, maxH: -Infinity, verts: [] as number[], cx: 0, cy: 0, cz: 0 };
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
        if (comp[w] !== -1 || curv[w]! <= -concave || X[3 * w + 2]! < -MAX_CROWN_HEIGHT) continue;
        comp[w] = id; stack[top++] = w;
      }
    }
  }
  const crowns = comps.filter((c) => c.maxH > -TIP_BAND && c.area > MIN_CROWN_AREA);
  for (const c of crowns) { c.cx /= c.area; c.cy /= c.area; c.cz /= c.area; }
  timings.components = performance.now() - t0;
  // numbering: from the midline outwards on each side, by angle around a point behind the incisors
  let cy0 = 0;
  for (const c of crowns) cy0 += c.cy;
  cy0 = crowns.length ? cy0 / crowns.length : 0;
  const ang = (c: { cx: number; cy: number }): number => Math.atan2(c.cx, -(c.cy - cy0));
  const right = crowns.filter((c) => c.cx < 0).sort((a, b) => ang(b) - ang(a)); // from the midline outwards
  const left = crowns.filter((c) => c.cx >= 0).sort((a, b) => ang(a) - ang(b));
  const labels = new Uint8Array(V);
  const teeth: ToothInfo[] = [];
  const inv = frame.inverse;
  const assign = (list: typeof crowns, num: (k: number) => number): void => {
    list.forEach((c, i) => {
      if (i >= 8) return;
      const n = num(i + 1);
      for (const v of c.verts) labels[v] = n;
      const x = c.cx, y = c.cy, z = sign * c.cz;
      teeth.push({
        number: n, vertexCount: c.verts.length,
        centroid: [inv[0]! * x + inv[4]! * y + inv[8]! * z + inv[12]!, inv[1]! * x + inv[5]! * y + inv[9]! * z + inv[13]!, inv[2]! * x + inv[6]! * y + inv[10]! * z + inv[14]!],
      });
    });
  };
  if (options.jaw === 'upper') { assign(right, (k) => 9 - k); assign(left, (k) => 8 + k); }
  else { assign(left, (k) => 25 - k); assign(right, (k) => 24 + k); }
  teeth.sort((a, b) => a.number - b.number);
  return { labels, teeth, frame, timings };
}
