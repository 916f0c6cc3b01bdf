// Undercut and distance maps on a BVH, and the colour ramp of their heatmaps.
// Every kernel works on a range of vertices [start, end) so the JS driver
// can slice a long job (progress, cancellation).

import { bvhTris, TRI_BYTES } from './bvh-layout';
import { castAny, castFirst, closestCore, closestD2, closestIdx, lastHitT, setRay, sideOf } from './bvh-query';

/**
 * Per-vertex area weights: a third of the area of every incident triangle
 * (f32 per vertex at `out`). Their sum is the mesh's area.
 */
export function meshVertexAreas(positions: usize, indices: usize, triCount: u32, vertexCount: u32, out: usize): f64 {
  memory.fill(out, 0, <usize>vertexCount * 4);
  let total: f64 = 0;
  for (let i: u32 = 0; i < triCount; i++) {
    const tri = indices + <usize>i * 12;
    const ia = load<u32>(tri), ib = load<u32>(tri, 4), ic = load<u32>(tri, 8);
    if (ia >= vertexCount || ib >= vertexCount || ic >= vertexCount) continue;
    const a = positions + <usize>ia * 12, b = positions + <usize>ib * 12, c = positions + <usize>ic * 12;
    const ax = load<f32>(a), ay = load<f32>(a, 4), az = load<f32>(a, 8);
    const ux = load<f32>(b) - ax, uy = load<f32>(b, 4) - ay, uz = load<f32>(b, 8) - az;
    const vx = load<f32>(c) - ax, vy = load<f32>(c, 4) - ay, vz = load<f32>(c, 8) - az;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const area: f32 = 0.5 * Mathf.sqrt(nx * nx + ny * ny + nz * nz);
    total += <f64>area;
    const third: f32 = area / 3;
    store<f32>(out + <usize>ia * 4, load<f32>(out + <usize>ia * 4) + third);
    store<f32>(out + <usize>ib * 4, load<f32>(out + <usize>ib * 4) + third);
    store<f32>(out + <usize>ic * 4, load<f32>(out + <usize>ic * 4) + third);
  }
  return total;
}

/**
 * Sets the ray of vertex v for insertion direction d: its origin moved eps along d, and, when
 * the vertex faces along d or across it (n.d > -TANGENT), also nEps out along its normal. A ray
 * from a vertex on a wall parallel to d would otherwise run along the wall's own edges and hit
 * them: vertical walls would read as deep undercuts. Vertices facing away from d keep the plain
 * origin so the ray still crosses the model behind them (their depth).
 */
@inline function setVertexRay(positions: usize, normals: usize, v: u32, dx: f32, dy: f32, dz: f32, eps: f32, nEps: f32): void {
  const p = positions + <usize>v * 12;
  let ox = load<f32>(p) + dx * eps;
  let oy = load<f32>(p, 4) + dy * eps;
  let oz = load<f32>(p, 8) + dz * eps;
  if (normals) {
    const q = normals + <usize>v * 12;
    const nx = load<f32>(q);
    const ny = load<f32>(q, 4);
    const nz = load<f32>(q, 8);
    if (nx * dx + ny * dy + nz * dz > -TANGENT) {
      ox += nx * nEps;
      oy += ny * nEps;
      oz += nz * nEps;
    }
  }
  setRay(ox, oy, oz, dx, dy, dz);
}

/** |n.d| below this counts as a wall parallel to d (about 1.1 degrees). */
const TANGENT: f32 = 0.002;

/**
 * Undercut of vertices [start, end) for the insertion direction d (unit):
 * a vertex is in undercut when the ray from it (origin moved eps along d, so
 * its own triangles are behind it, and for vertices not facing away from d
 * nEps along the unit vertex normal at `normals`, when not 0: see
 * setVertexRay) towards +d hits the model. Writes the
 * depth (distance from the vertex to the blocking surface along d; 0 when
 * free) as f32 at `depthOut` and the flag (1/0) as u8 at `flagsOut`, both
 * indexed by vertex. Returns the summed `weights` (f32 per vertex, e.g.
 * meshVertexAreas) of the undercut vertices in the range.
 */
export function undercutMap(
  bvh: usize,
  positions: usize,
  normals: usize,
  weights: usize,
  start: u32,
  end: u32,
  dx: f32,
  dy: f32,
  dz: f32,
  eps: f32,
  nEps: f32,
  depthOut: usize,
  flagsOut: usize,
): f64 {
  let area: f64 = 0;
  for (let v = start; v < end; v++) {
    setVertexRay(positions, normals, v, dx, dy, dz, eps, nEps);
    if (castFirst(bvh, 0, Infinity)) {
      store<f32>(depthOut + <usize>v * 4, lastHitT() + eps);
      store<u8>(flagsOut + <usize>v, 1);
      area += <f64>load<f32>(weights + <usize>v * 4);
    } else {
      store<f32>(depthOut + <usize>v * 4, 0);
      store<u8>(flagsOut + <usize>v, 0);
    }
  }
  return area;
}

/**
 * Undercut score of direction d over sample vertices: for i in [start, end),
 * vertex ids[i] (u32) with weight sampleWeights[i] (f32); returns the summed
 * weights of the samples in undercut (any-hit rays, cheaper than
 * undercutMap). With ids 0 the samples are the vertices themselves (vertex
 * i, weight sampleWeights[i]). Used to search for the best direction.
 */
export function undercutScore(
  bvh: usize,
  positions: usize,
  normals: usize,
  ids: usize,
  sampleWeights: usize,
  start: u32,
  end: u32,
  dx: f32,
  dy: f32,
  dz: f32,
  eps: f32,
  nEps: f32,
): f64 {
  let area: f64 = 0;
  for (let i = start; i < end; i++) {
    const v = ids ? load<u32>(ids + <usize>i * 4) : i;
    setVertexRay(positions, normals, v, dx, dy, dz, eps, nEps);
    if (castAny(bvh, 0, Infinity)) area += <f64>load<f32>(sampleWeights + <usize>i * 4);
  }
  return area;
}

/**
 * Signed distance from points [start, end) (xyz f32 each) to the mesh of
 * `bvh`: the distance to the closest point, negative when the point lies
 * behind the face at that point (inside a closed, outward-oriented mesh).
 * Points farther than maxDistance get NaN. Writes f32 per point at `out`
 * and, when `triOut` is not 0, the closest triangle (i32, -1) per point.
 * Returns the number of points within maxDistance.
 */
export function distanceMap(bvh: usize, points: usize, start: u32, end: u32, maxDistance: f32, out: usize, triOut: usize): u32 {
  const maxD2: f32 = maxDistance == Infinity ? Infinity : maxDistance * maxDistance;
  let found: u32 = 0;
  let seed: i32 = -1;
  for (let i = start; i < end; i++) {
    const p = points + <usize>i * 12;
    const px = load<f32>(p), py = load<f32>(p, 4), pz = load<f32>(p, 8);
    if (closestCore(bvh, px, py, pz, maxD2, seed)) {
      const idx = closestIdx();
      seed = idx;
      found++;
      store<f32>(out + <usize>i * 4, Mathf.sqrt(closestD2()) * sideOf(bvh, idx, px, py, pz));
      if (triOut) store<i32>(triOut + <usize>i * 4, <i32>load<u32>(bvhTriPtr(bvh, idx), 12));
    } else {
      store<f32>(out + <usize>i * 4, NaN);
      if (triOut) store<i32>(triOut + <usize>i * 4, -1);
    }
  }
  return found;
}

@inline function bvhTriPtr(bvh: usize, idx: i32): usize {
  return bvhTris(bvh) + <usize>idx * TRI_BYTES;
}

// ---------------------------------------------------------------- colour ramp

// Stops at 0, 1/3, 2/3, 1: blue, green, yellow, red (linear RGB between).
const RAMP = memory.data<f32>([0, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 0]);

/**
 * RGBA f32 per value at `out` (4 floats each) on the ramp blue → green →
 * yellow → red over [lo, hi]; values outside are clamped to the ends, NaN
 * gets the neutral grey (0.6, 0.6, 0.6). Alpha is 1.
 */
export function rampColors(values: usize, count: u32, lo: f32, hi: f32, out: usize): void {
  const span = hi - lo;
  const inv: f32 = span > 0 ? 1 / span : 0;
  for (let i: u32 = 0; i < count; i++) {
    const x = load<f32>(values + <usize>i * 4);
    const o = out + <usize>i * 16;
    if (isNaN(x)) {
      store<f32>(o, 0.6);
      store<f32>(o, 0.6, 4);
      store<f32>(o, 0.6, 8);
      store<f32>(o, 1, 12);
      continue;
    }
    let t: f32 = span > 0 ? (x - lo) * inv : x > lo ? 1 : x < lo ? 0 : 0.5;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    const s = t * 3;
    let seg = <i32>s;
    if (seg > 2) seg = 2;
    const f = s - <f32>seg;
    const a = RAMP + <usize>seg * 12;
    store<f32>(o, load<f32>(a) + (load<f32>(a, 12) - load<f32>(a)) * f);
    store<f32>(o, load<f32>(a, 4) + (load<f32>(a, 16) - load<f32>(a, 4)) * f, 4);
    store<f32>(o, load<f32>(a, 8) + (load<f32>(a, 20) - load<f32>(a, 8)) * f, 8);
    store<f32>(o, 1, 12);
  }
}
