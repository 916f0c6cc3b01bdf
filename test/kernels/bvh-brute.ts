// Brute-force references for the BVH tests: every triangle, in f64.

import type { IndexedMesh, Vec3 } from '../fixtures/meshes.ts';
import { random } from '../fixtures/random.ts';

export interface BruteHit {
  t: number;
  triangle: number;
}

function corner(m: IndexedMesh, tri: number, c: number): Vec3 {
  const v = m.indices[tri * 3 + c]!;
  return [m.positions[v * 3]!, m.positions[v * 3 + 1]!, m.positions[v * 3 + 2]!];
}

/** Möller-Trumbore, both sides; t or -Infinity. */
function rayTri(o: Vec3, d: Vec3, a: Vec3, b: Vec3, c: Vec3): number {
  const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  const p = [d[1] * e2[2]! - d[2] * e2[1]!, d[2] * e2[0]! - d[0] * e2[2]!, d[0] * e2[1]! - d[1] * e2[0]!];
  const det = e1[0]! * p[0]! + e1[1]! * p[1]! + e1[2]! * p[2]!;
  if (det === 0) return -Infinity;
  const s = [o[0] - a[0], o[1] - a[1], o[2] - a[2]];
  const u = (s[0]! * p[0]! + s[1]! * p[1]! + s[2]! * p[2]!) / det;
  if (u < 0 || u > 1) return -Infinity;
  const q = [s[1]! * e1[2]! - s[2]! * e1[1]!, s[2]! * e1[0]! - s[0]! * e1[2]!, s[0]! * e1[1]! - s[1]! * e1[0]!];
  const v = (d[0] * q[0]! + d[1] * q[1]! + d[2] * q[2]!) / det;
  if (v < 0 || u + v > 1) return -Infinity;
  return (e2[0]! * q[0]! + e2[1]! * q[1]! + e2[2]! * q[2]!) / det;
}

/** Every hit with t > tMin, nearest first. */
export function bruteHits(m: IndexedMesh, o: Vec3, d: Vec3, tMin = 0): BruteHit[] {
  const hits: BruteHit[] = [];
  const n = m.indices.length / 3;
  for (let i = 0; i < n; i++) {
    const t = rayTri(o, d, corner(m, i, 0), corner(m, i, 1), corner(m, i, 2));
    if (t > tMin) hits.push({ t, triangle: i });
  }
  return hits.sort((x, y) => x.t - y.t);
}

/** Closest point of triangle abc to p (Ericson 5.1.5). */
export function closestOnTriangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3): Vec3 {
  const sub = (x: Vec3, y: Vec3): Vec3 => [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
  const dot = (x: Vec3, y: Vec3): number => x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const bp = sub(p, b);
  const d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const vc = d1 * d4 - d3 * d2;
  const at = (u: number, v: number): Vec3 => [a[0] + ab[0] * u + ac[0] * v, a[1] + ab[1] * u + ac[1] * v, a[2] + ab[2] * u + ac[2] * v];
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return at(d1 / (d1 - d3), 0);
  const cp = sub(p, c);
  const d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return at(0, d2 / (d2 - d6));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return [b[0] + (c[0] - b[0]) * w, b[1] + (c[1] - b[1]) * w, b[2] + (c[2] - b[2]) * w];
  }
  const denom = 1 / (va + vb + vc);
  return at(vb * denom, vc * denom);
}

/** Distance from p to the mesh and the triangle that achieves it. */
export function bruteClosest(m: IndexedMesh, p: Vec3): { distance: number; triangle: number } {
  let best = Infinity;
  let triangle = -1;
  const n = m.indices.length / 3;
  for (let i = 0; i < n; i++) {
    const q = closestOnTriangle(p, corner(m, i, 0), corner(m, i, 1), corner(m, i, 2));
    const d = Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
    if (d < best) {
      best = d;
      triangle = i;
    }
  }
  return { distance: best, triangle };
}

export { random };

/** `count` rays (origin xyz, unit direction xyz) with origins in the cube [-size, size]^3. */
export function randomRays(count: number, size: number, seed: number): Float32Array<ArrayBuffer> {
  const rnd = random(seed);
  const rays = new Float32Array(count * 6);
  for (let i = 0; i < count; i++) {
    let dx = 0, dy = 0, dz = 0, len = 0;
    do {
      dx = rnd() * 2 - 1;
      dy = rnd() * 2 - 1;
      dz = rnd() * 2 - 1;
      len = Math.hypot(dx, dy, dz);
    } while (len > 1 || len < 0.1);
    rays.set([(rnd() * 2 - 1) * size, (rnd() * 2 - 1) * size, (rnd() * 2 - 1) * size, dx / len, dy / len, dz / len], i * 6);
  }
  return rays;
}

/** The mesh's triangle `tri` hit point from barycentrics (u: weight of v1, v: of v2). */
export function pointAt(m: IndexedMesh, tri: number, u: number, v: number): Vec3 {
  const a = corner(m, tri, 0), b = corner(m, tri, 1), c = corner(m, tri, 2);
  const w = 1 - u - v;
  return [a[0] * w + b[0] * u + c[0] * v, a[1] * w + b[1] * u + c[1] * v, a[2] * w + b[2] * u + c[2] * v];
}
