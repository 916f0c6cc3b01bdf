// Whole-mesh passes over an indexed mesh that the worker used to run in JS:
// area-weighted vertex normals, the binary STL writer's records and bounds.
// A mesh is xyz f32 per vertex and three u32 indices per triangle (see
// workers/kernels/mesh.ts). Positions must be followed by 4 addressable
// bytes (arena allocations are): whole-vector loads of one vertex read the
// next vertex's x.

import { arenaAlloc, arenaMark, arenaRelease } from './arena';
import { addToCorners, faceCross, isDegenerate, storeUnitNormal } from './vertex-normals';

/** A triangle refers to a vertex that does not exist (meshOpsBadTriangle() tells which). */
const MOPS_BAD_INDEX: i32 = -1;
/** No room for the scratch. */
const MOPS_NO_MEMORY: i32 = -2;

let badTriangle: i32 = -1;
/** Bounds: min x, y, z, max x, y, z (f32). */
const BOUNDS = memory.data(32, 16);

/** The triangle a kernel of this file last rejected for an index out of range (-1: none). */
export function meshOpsBadTriangle(): i32 {
  return badTriangle;
}

/**
 * Area-weighted unit vertex normals into `out` (xyz f32 per vertex, 12 bytes
 * each): per vertex the sum of the unnormalised face cross products of its
 * triangles, normalised; (0, 0, 1) for a vertex that only degenerate
 * triangles touch, or none (the definition of assembly/stl.ts). The sums go
 * to a scratch of 16 bytes per vertex, released before returning: whole-vector
 * loads and stores that never straddle two vertices (on the 12-byte layout a
 * vertex's load would wait for the previous store to its neighbour). Returns
 * the number of degenerate triangles, MOPS_BAD_INDEX when a triangle refers
 * to a vertex >= vertexCount, or MOPS_NO_MEMORY.
 */
export function meshVertexNormals(pos: usize, idx: usize, vertexCount: u32, triCount: u32, out: usize): i32 {
  badTriangle = -1;
  const mark = arenaMark();
  const accBytes = (<usize>vertexCount) << 4;
  const acc = arenaAlloc(accBytes);
  if (acc == 0) return MOPS_NO_MEMORY;
  memory.fill(acc, 0, accBytes);
  let degenerate: i32 = 0;
  for (let t: u32 = 0; t < triCount; t++) {
    const tp = idx + (<usize>t) * 12;
    const ia = load<u32>(tp), ib = load<u32>(tp, 4), ic = load<u32>(tp, 8);
    if (ia >= vertexCount || ib >= vertexCount || ic >= vertexCount) {
      badTriangle = <i32>t;
      arenaRelease(mark);
      return MOPS_BAD_INDEX;
    }
    const n = faceCross(v128.load(pos + (<usize>ia) * 12), v128.load(pos + (<usize>ib) * 12), v128.load(pos + (<usize>ic) * 12));
    if (isDegenerate(ia, ib, ic, n)) {
      degenerate++;
      continue;
    }
    addToCorners(acc, ia, ib, ic, n);
  }
  for (let v: u32 = 0; v < vertexCount; v++) storeUnitNormal(acc + ((<usize>v) << 4), out + (<usize>v) * 12);
  arenaRelease(mark);
  return degenerate;
}

/**
 * Binary STL records of triangles [start, end) at `out`, 50 bytes each
 * (record of triangle t at out + (t - start) * 50): unit face normal along
 * the winding ((0, 0, 0) for a degenerate triangle), the three vertices, a
 * zero attribute word, all little-endian. The 80-byte header and the count
 * are the caller's. Returns 0, or MOPS_BAD_INDEX when a triangle refers to a
 * vertex >= vertexCount (records before it are written).
 */
export function stlWriteRecords(pos: usize, idx: usize, vertexCount: u32, start: u32, end: u32, out: usize): i32 {
  badTriangle = -1;
  let o = out;
  for (let t = start; t < end; t++) {
    const tp = idx + (<usize>t) * 12;
    const ia = load<u32>(tp), ib = load<u32>(tp, 4), ic = load<u32>(tp, 8);
    if (ia >= vertexCount || ib >= vertexCount || ic >= vertexCount) {
      badTriangle = <i32>t;
      return MOPS_BAD_INDEX;
    }
    const a = v128.load(pos + (<usize>ia) * 12);
    const b = v128.load(pos + (<usize>ib) * 12);
    const c = v128.load(pos + (<usize>ic) * 12);
    let n = faceCross(a, b, c);
    // The length in f64: squares of small f32 cross products would underflow.
    const nx = <f64>f32x4.extract_lane(n, 0), ny = <f64>f32x4.extract_lane(n, 1), nz = <f64>f32x4.extract_lane(n, 2);
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    n = len > 0 && len < Infinity ? f32x4.mul(n, f32x4.splat(<f32>(1.0 / len))) : f32x4.splat(0);
    // 48 bytes as three vectors: (n, ax), (ay, az, bx, by), (bz, c).
    v128.store(o, i32x4.shuffle(n, a, 0, 1, 2, 4));
    v128.store(o, i32x4.shuffle(a, b, 1, 2, 4, 5), 16);
    v128.store(o, i32x4.shuffle(b, c, 2, 4, 5, 6), 32);
    store<u16>(o, 0, 48);
    o += 50;
  }
  return 0;
}

/**
 * Bounds of `vertexCount` positions (xyz f32): min x, y, z, max x, y, z as
 * f32 at the returned pointer (valid until the next call). NaN coordinates
 * are ignored; no vertices gives +Infinity / -Infinity.
 */
export function meshBounds(pos: usize, vertexCount: u32): usize {
  const inf = f32x4.splat(Infinity);
  const ninf = f32x4.splat(-Infinity);
  // Four vertices are 12 floats, three vectors whose lanes hold
  // (x y z x) (y z x y) (z x y z); one min and one max per vector.
  let lo0 = inf, lo1 = inf, lo2 = inf;
  let hi0 = ninf, hi1 = ninf, hi2 = ninf;
  const groups = vertexCount >>> 2;
  let p = pos;
  // pmin(acc, v) is v < acc ? v : acc: a NaN never replaces the bound.
  for (let g: u32 = 0; g < groups; g++) {
    const v0 = v128.load(p), v1 = v128.load(p, 16), v2 = v128.load(p, 32);
    lo0 = f32x4.pmin(lo0, v0);
    hi0 = f32x4.pmax(hi0, v0);
    lo1 = f32x4.pmin(lo1, v1);
    hi1 = f32x4.pmax(hi1, v1);
    lo2 = f32x4.pmin(lo2, v2);
    hi2 = f32x4.pmax(hi2, v2);
    p += 48;
  }
  let minX = minOf4(f32x4.extract_lane(lo0, 0), f32x4.extract_lane(lo0, 3), f32x4.extract_lane(lo1, 2), f32x4.extract_lane(lo2, 1));
  let minY = minOf4(f32x4.extract_lane(lo0, 1), f32x4.extract_lane(lo1, 0), f32x4.extract_lane(lo1, 3), f32x4.extract_lane(lo2, 2));
  let minZ = minOf4(f32x4.extract_lane(lo0, 2), f32x4.extract_lane(lo1, 1), f32x4.extract_lane(lo2, 0), f32x4.extract_lane(lo2, 3));
  let maxX = maxOf4(f32x4.extract_lane(hi0, 0), f32x4.extract_lane(hi0, 3), f32x4.extract_lane(hi1, 2), f32x4.extract_lane(hi2, 1));
  let maxY = maxOf4(f32x4.extract_lane(hi0, 1), f32x4.extract_lane(hi1, 0), f32x4.extract_lane(hi1, 3), f32x4.extract_lane(hi2, 2));
  let maxZ = maxOf4(f32x4.extract_lane(hi0, 2), f32x4.extract_lane(hi1, 1), f32x4.extract_lane(hi2, 0), f32x4.extract_lane(hi2, 3));
  for (let v = groups << 2; v < vertexCount; v++) {
    const x = load<f32>(p), y = load<f32>(p, 4), z = load<f32>(p, 8);
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
    p += 12;
  }
  store<f32>(BOUNDS, minX);
  store<f32>(BOUNDS, minY, 4);
  store<f32>(BOUNDS, minZ, 8);
  store<f32>(BOUNDS, maxX, 12);
  store<f32>(BOUNDS, maxY, 16);
  store<f32>(BOUNDS, maxZ, 20);
  return BOUNDS;
}

@inline function minOf4(a: f32, b: f32, c: f32, d: f32): f32 {
  const ab = b < a ? b : a;
  const cd = d < c ? d : c;
  return cd < ab ? cd : ab;
}

@inline function maxOf4(a: f32, b: f32, c: f32, d: f32): f32 {
  const ab = b > a ? b : a;
  const cd = d > c ? d : c;
  return cd > ab ? cd : ab;
}
