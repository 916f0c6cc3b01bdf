// Queries on a BVH (layout: bvh-layout.ts): first-hit, any-hit and all-hit
// ray casts, closest point. Rays are double-sided (a triangle is hit from
// either side). Traversal is iterative with a stack in static memory; both
// children of a node are tested (SIMD slab test) and the nearer is visited
// first, the farther pushed with its entry distance so it can be skipped
// once a closer hit is known.

import { MAX_DEPTH, NODE_BYTES, TRI_BYTES, bvhNodes, bvhTris, H_TRIANGLES } from './bvh-layout';

const STACK_ENTRIES: i32 = MAX_DEPTH * 2 + 8;
const stack = memory.data(STACK_ENTRIES * 8, 16);

// Results of the last single query (multiple return values).
let hitT: f32 = 0;
let hitIdx: i32 = -1;
let hitU: f32 = 0;
let hitV: f32 = 0;
let triU: f32 = 0;
let triV: f32 = 0;

// Ray state shared by the traversals (set by setRay).
let rox: f32 = 0, roy: f32 = 0, roz: f32 = 0;
let rdx: f32 = 0, rdy: f32 = 0, rdz: f32 = 0;
let rayO: v128 = f32x4.splat(0);
let rayInv: v128 = f32x4.splat(0);
// The watertight triangle test's frame (Woop, Benthin, Wald 2013): kz the
// direction's largest axis, kx and ky the other two (byte offsets), and the
// shear that takes the direction to +z.
let kxOff: usize = 0, kyOff: usize = 4, kzOff: usize = 8;
let shx: f32 = 0, shy: f32 = 0, shz: f32 = 1;
let orgX: f32 = 0, orgY: f32 = 0, orgZ: f32 = 0; // the origin on kx, ky, kz

@inline function safeInv(d: f32): f32 {
  // Near-zero components get a huge finite inverse instead of infinity, so
  // the slab test never computes 0 * inf (NaN) for a ray in a box's plane.
  if (Mathf.abs(d) < 1e-20) return d < 0 ? -1e20 : 1e20;
  return 1 / d;
}

@inline export function setRay(ox: f32, oy: f32, oz: f32, dx: f32, dy: f32, dz: f32): void {
  rox = ox;
  roy = oy;
  roz = oz;
  rdx = dx;
  rdy = dy;
  rdz = dz;
  let o = f32x4.splat(ox);
  o = f32x4.replace_lane(o, 1, oy);
  o = f32x4.replace_lane(o, 2, oz);
  rayO = f32x4.replace_lane(o, 3, 0);
  let inv = f32x4.splat(safeInv(dx));
  inv = f32x4.replace_lane(inv, 1, safeInv(dy));
  inv = f32x4.replace_lane(inv, 2, safeInv(dz));
  rayInv = f32x4.replace_lane(inv, 3, 0);
  const ax = Mathf.abs(dx), ay = Mathf.abs(dy), az = Mathf.abs(dz);
  let kz: i32 = ax > ay ? (ax > az ? 0 : 2) : ay > az ? 1 : 2;
  let kx = kz == 2 ? 0 : kz + 1;
  let ky = kx == 2 ? 0 : kx + 1;
  const d = kz == 0 ? dx : kz == 1 ? dy : dz;
  // Keep the winding (the test is two-sided, but the signs of the edge
  // functions then agree with the triangle's own orientation).
  if (d < 0) {
    const swap = kx;
    kx = ky;
    ky = swap;
  }
  kxOff = <usize>kx << 2;
  kyOff = <usize>ky << 2;
  kzOff = <usize>kz << 2;
  orgX = kx == 0 ? ox : kx == 1 ? oy : oz;
  orgY = ky == 0 ? ox : ky == 1 ? oy : oz;
  orgZ = kz == 0 ? ox : kz == 1 ? oy : oz;
  const dkx = kx == 0 ? dx : kx == 1 ? dy : dz;
  const dky = ky == 0 ? dx : ky == 1 ? dy : dz;
  // A zero direction gives non-finite shears; every triangle test then fails.
  shx = dkx / d;
  shy = dky / d;
  shz = 1 / d;
}

/** Entry distance of the ray into the box at `p`, or Infinity when it misses [tmin, tmax]. */
@inline function boxNear(p: usize, tmin: f32, tmax: f32): f32 {
  const t1 = f32x4.mul(f32x4.sub(v128.load(p), rayO), rayInv);
  const t2 = f32x4.mul(f32x4.sub(v128.load(p, 16), rayO), rayInv);
  const mn = f32x4.pmin(t1, t2);
  const mx = f32x4.pmax(t1, t2);
  const near = Mathf.max(Mathf.max(f32x4.extract_lane(mn, 0), f32x4.extract_lane(mn, 1)), Mathf.max(f32x4.extract_lane(mn, 2), tmin));
  const far = Mathf.min(Mathf.min(f32x4.extract_lane(mx, 0), f32x4.extract_lane(mx, 1)), Mathf.min(f32x4.extract_lane(mx, 2), tmax));
  return near <= far ? near : Infinity;
}

// Entry distances of the two children at c and c + 32 (set by boxPair).
let near0: f32 = 0;
let near1: f32 = 0;

/**
 * Slab test of both children of a node at once: returns a 2-bit mask (bit 0:
 * child at c, bit 1: child at c + 32) of the boxes the ray enters within
 * [tmin, tmax], their entry distances in near0/near1. Lane 3 (the child and
 * count fields) is never read.
 */
@inline function boxPair(c: usize, tmin: f32, tmax: f32): i32 {
  const o = rayO, inv = rayInv;
  const a1 = f32x4.mul(f32x4.sub(v128.load(c), o), inv);
  const a2 = f32x4.mul(f32x4.sub(v128.load(c, 16), o), inv);
  const b1 = f32x4.mul(f32x4.sub(v128.load(c, 32), o), inv);
  const b2 = f32x4.mul(f32x4.sub(v128.load(c, 48), o), inv);
  const mnA = f32x4.pmin(a1, a2), mxA = f32x4.pmax(a1, a2);
  const mnB = f32x4.pmin(b1, b2), mxB = f32x4.pmax(b1, b2);
  // (xA, xB, yA, yB) against (zA, zB, zA, zB), then fold the halves.
  let n = f32x4.pmax(v128.shuffle<f32>(mnA, mnB, 0, 4, 1, 5), v128.shuffle<f32>(mnA, mnB, 2, 6, 2, 6));
  n = f32x4.pmax(n, v128.shuffle<f32>(n, n, 2, 3, 0, 1));
  n = f32x4.pmax(n, f32x4.splat(tmin));
  let f = f32x4.pmin(v128.shuffle<f32>(mxA, mxB, 0, 4, 1, 5), v128.shuffle<f32>(mxA, mxB, 2, 6, 2, 6));
  f = f32x4.pmin(f, v128.shuffle<f32>(f, f, 2, 3, 0, 1));
  f = f32x4.pmin(f, f32x4.splat(tmax));
  near0 = f32x4.extract_lane(n, 0);
  near1 = f32x4.extract_lane(n, 1);
  return i32x4.bitmask(f32x4.le(n, f)) & 3;
}

/**
 * Watertight ray-triangle test, both sides (Woop, Benthin, Wald 2013): the
 * vertices are moved into the ray's frame (origin at 0, direction +z) and
 * the three edge functions are evaluated there. Two triangles sharing an
 * edge compute its function from the same numbers with opposite signs, so
 * a ray through the edge or a shared vertex hits at least one of them; a
 * function that rounds to zero is redone in f64, where the products are
 * exact. Returns the ray parameter of the hit (sets triU, triV: weights of
 * v1 and v2) or -Infinity when the ray misses.
 */
@inline function rayTri(t: usize): f32 {
  const okx = orgX, oky = orgY, okz = orgZ;
  const az = load<f32>(t + kzOff) - okz;
  const bz = load<f32>(t + 16 + kzOff) - okz;
  const cz = load<f32>(t + 32 + kzOff) - okz;
  const ax = load<f32>(t + kxOff) - okx - shx * az;
  const ay = load<f32>(t + kyOff) - oky - shy * az;
  const bx = load<f32>(t + 16 + kxOff) - okx - shx * bz;
  const by = load<f32>(t + 16 + kyOff) - oky - shy * bz;
  const cx = load<f32>(t + 32 + kxOff) - okx - shx * cz;
  const cy = load<f32>(t + 32 + kyOff) - oky - shy * cz;
  let u = cx * by - cy * bx;
  let v = ax * cy - ay * cx;
  let w = bx * ay - by * ax;
  if (u == 0 || v == 0 || w == 0) {
    u = <f32>(<f64>cx * <f64>by - <f64>cy * <f64>bx);
    v = <f32>(<f64>ax * <f64>cy - <f64>ay * <f64>cx);
    w = <f32>(<f64>bx * <f64>ay - <f64>by * <f64>ax);
  }
  if ((u < 0 || v < 0 || w < 0) && (u > 0 || v > 0 || w > 0)) return -Infinity;
  const det = u + v + w;
  if (det == 0) return -Infinity;
  const inv: f32 = 1 / det;
  triU = v * inv;
  triV = w * inv;
  return (u * az + v * bz + w * cz) * shz * inv;
}

/** Closest hit with tmin < t < tmax of the ray set by setRay; result in hitT/hitIdx/hitU/hitV. */
export function castFirst(bvh: usize, tmin: f32, tmax: f32): bool {
  hitIdx = -1;
  if (load<u32>(bvh, H_TRIANGLES) == 0) return false;
  const nodes = bvhNodes(bvh);
  const tris = bvhTris(bvh);
  let best = tmax;
  let bestIdx: i32 = -1;
  let bu: f32 = 0, bv: f32 = 0;
  if (boxNear(nodes, tmin, best) == Infinity) return false;
  let node: u32 = 0;
  let sp: i32 = 0;
  while (true) {
    const p = nodes + <usize>node * NODE_BYTES;
    const a = load<u32>(p, 12);
    const count = load<u32>(p, 28);
    if (count > 0) {
      for (let j = a, e = a + count; j < e; j++) {
        const t = rayTri(tris + <usize>j * TRI_BYTES);
        if (t > tmin && t < best) {
          best = t;
          bestIdx = <i32>j;
          bu = triU;
          bv = triV;
        }
      }
    } else {
      const mask = boxPair(nodes + <usize>a * NODE_BYTES, tmin, best);
      if (mask == 3) {
        const s = stack + <usize>sp * 8;
        sp++;
        const n0 = near0, n1 = near1;
        if (n0 <= n1) {
          store<u32>(s, a + 1);
          store<f32>(s, n1, 4);
          node = a;
        } else {
          store<u32>(s, a);
          store<f32>(s, n0, 4);
          node = a + 1;
        }
        continue;
      }
      if (mask != 0) {
        node = a + <u32>(mask >> 1);
        continue;
      }
    }
    // Pop the next node still in front of the closest hit.
    let found = false;
    while (sp > 0) {
      sp--;
      const s = stack + <usize>sp * 8;
      if (load<f32>(s, 4) < best) {
        node = load<u32>(s);
        found = true;
        break;
      }
    }
    if (!found) break;
  }
  if (bestIdx < 0) return false;
  hitT = best;
  hitIdx = bestIdx;
  hitU = bu;
  hitV = bv;
  return true;
}

/** True when the ray set by setRay hits anything with tmin < t < tmax (stops at the first). */
export function castAny(bvh: usize, tmin: f32, tmax: f32): bool {
  if (load<u32>(bvh, H_TRIANGLES) == 0) return false;
  const nodes = bvhNodes(bvh);
  const tris = bvhTris(bvh);
  if (boxNear(nodes, tmin, tmax) == Infinity) return false;
  let node: u32 = 0;
  let sp: i32 = 0;
  while (true) {
    const p = nodes + <usize>node * NODE_BYTES;
    const a = load<u32>(p, 12);
    const count = load<u32>(p, 28);
    if (count > 0) {
      for (let j = a, e = a + count; j < e; j++) {
        const t = rayTri(tris + <usize>j * TRI_BYTES);
        if (t > tmin && t < tmax) return true;
      }
    } else {
      const mask = boxPair(nodes + <usize>a * NODE_BYTES, tmin, tmax);
      if (mask == 3) {
        const first = near0 <= near1;
        store<u32>(stack + <usize>sp * 8, first ? a + 1 : a);
        sp++;
        node = first ? a : a + 1;
        continue;
      }
      if (mask != 0) {
        node = a + <u32>(mask >> 1);
        continue;
      }
    }
    if (sp == 0) return false;
    sp--;
    node = load<u32>(stack + <usize>sp * 8);
  }
  return false;
}

/**
 * Every hit with tmin < t < tmax of the ray set by setRay. Writes up to
 * `cap` hits at `out` (16 bytes each: t f32, triangle u32, u f32, v f32),
 * sorted by t when all fit; returns the number of hits (may exceed cap).
 */
function castAll(bvh: usize, tmin: f32, tmax: f32, out: usize, cap: u32): u32 {
  if (load<u32>(bvh, H_TRIANGLES) == 0) return 0;
  const nodes = bvhNodes(bvh);
  const tris = bvhTris(bvh);
  if (boxNear(nodes, tmin, tmax) == Infinity) return 0;
  let hits: u32 = 0;
  let node: u32 = 0;
  let sp: i32 = 0;
  while (true) {
    const p = nodes + <usize>node * NODE_BYTES;
    const a = load<u32>(p, 12);
    const count = load<u32>(p, 28);
    if (count > 0) {
      for (let j = a, e = a + count; j < e; j++) {
        const tri = tris + <usize>j * TRI_BYTES;
        const t = rayTri(tri);
        if (t > tmin && t < tmax) {
          if (hits < cap) {
            const o = out + <usize>hits * 16;
            store<f32>(o, t);
            store<u32>(o, load<u32>(tri, 12), 4);
            store<f32>(o, triU, 8);
            store<f32>(o, triV, 12);
          }
          hits++;
        }
      }
    } else {
      const mask = boxPair(nodes + <usize>a * NODE_BYTES, tmin, tmax);
      if (mask == 3) {
        store<u32>(stack + <usize>sp * 8, a + 1);
        sp++;
        node = a;
        continue;
      }
      if (mask != 0) {
        node = a + <u32>(mask >> 1);
        continue;
      }
    }
    if (sp == 0) break;
    sp--;
    node = load<u32>(stack + <usize>sp * 8);
  }
  // Insertion sort by t (hit lists along one ray are short).
  const m = hits < cap ? hits : cap;
  for (let i: u32 = 1; i < m; i++) {
    const o = out + <usize>i * 16;
    const rec = v128.load(o);
    const t = f32x4.extract_lane(rec, 0);
    let j = i;
    while (j > 0 && load<f32>(out + <usize>(j - 1) * 16) > t) {
      v128.store(out + <usize>j * 16, v128.load(out + <usize>(j - 1) * 16));
      j--;
    }
    v128.store(out + <usize>j * 16, rec);
  }
  return hits;
}

/** Original triangle id of the triangle at leaf-order index `idx`. */
@inline export function triId(bvh: usize, idx: i32): u32 {
  return load<u32>(bvhTris(bvh) + <usize>idx * TRI_BYTES, 12);
}

/** Last hit of castFirst, for the analysis kernels. */
@inline export function lastHitT(): f32 {
  return hitT;
}

/**
 * First hit of `count` rays (6 f32 each: origin xyz, direction xyz; the
 * direction need not be unit, t is in its units). Writes 16 bytes per ray
 * at `out`: t f32 (Infinity on a miss), triangle i32 (-1 on a miss), u, v
 * (hit point = (1 - u - v) v0 + u v1 + v v2). Returns the number of hits.
 */
export function bvhRaycastFirst(bvh: usize, rays: usize, count: u32, tmin: f32, tmax: f32, out: usize): u32 {
  let hits: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const r = rays + <usize>i * 24;
    setRay(load<f32>(r), load<f32>(r, 4), load<f32>(r, 8), load<f32>(r, 12), load<f32>(r, 16), load<f32>(r, 20));
    const o = out + <usize>i * 16;
    if (castFirst(bvh, tmin, tmax)) {
      hits++;
      store<f32>(o, hitT);
      store<u32>(o, triId(bvh, hitIdx), 4);
      store<f32>(o, hitU, 8);
      store<f32>(o, hitV, 12);
    } else {
      store<f32>(o, Infinity);
      store<i32>(o, -1, 4);
      store<f32>(o, 0, 8);
      store<f32>(o, 0, 12);
    }
  }
  return hits;
}

/** Any hit of `count` rays (layout as bvhRaycastFirst): one byte per ray (1 hit, 0 not). Returns the number hit. */
export function bvhRaycastAny(bvh: usize, rays: usize, count: u32, tmin: f32, tmax: f32, out: usize): u32 {
  let hits: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const r = rays + <usize>i * 24;
    setRay(load<f32>(r), load<f32>(r, 4), load<f32>(r, 8), load<f32>(r, 12), load<f32>(r, 16), load<f32>(r, 20));
    const hit = castAny(bvh, tmin, tmax);
    store<u8>(out + <usize>i, hit ? 1 : 0);
    if (hit) hits++;
  }
  return hits;
}

/** Number of hits of each of `count` rays: u32 per ray at `out`. Returns the total. */
export function bvhRaycastCount(bvh: usize, rays: usize, count: u32, tmin: f32, tmax: f32, out: usize): u32 {
  let total: u32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    const r = rays + <usize>i * 24;
    setRay(load<f32>(r), load<f32>(r, 4), load<f32>(r, 8), load<f32>(r, 12), load<f32>(r, 16), load<f32>(r, 20));
    const n = castAll(bvh, tmin, tmax, 0, 0);
    store<u32>(out + <usize>i * 4, n);
    total += n;
  }
  return total;
}

/** Every hit of one ray, sorted by t, up to `cap` at `out` (16 bytes each, see castAll). Returns the number of hits. */
export function bvhRaycastAll(
  bvh: usize,
  ox: f32,
  oy: f32,
  oz: f32,
  dx: f32,
  dy: f32,
  dz: f32,
  tmin: f32,
  tmax: f32,
  out: usize,
  cap: u32,
): u32 {
  setRay(ox, oy, oz, dx, dy, dz);
  return castAll(bvh, tmin, tmax, out, cap);
}

// ---------------------------------------------------------------- closest point

let cpX: f32 = 0, cpY: f32 = 0, cpZ: f32 = 0, cpU: f32 = 0, cpV: f32 = 0;
let bestX: f32 = 0, bestY: f32 = 0, bestZ: f32 = 0, bestU: f32 = 0, bestV: f32 = 0;
let bestD2: f32 = 0;
let bestIdx: i32 = -1;
let bestFacing: f32 = 0;

/**
 * Closest point of triangle `t` to p (Ericson, Real-Time Collision Detection
 * 5.1.5). Sets cpX..cpZ and cpU, cpV (weights of v1 and v2); returns the
 * squared distance.
 */
@inline function closestOnTri(t: usize, px: f32, py: f32, pz: f32): f32 {
  const ax = load<f32>(t), ay = load<f32>(t, 4), az = load<f32>(t, 8);
  const bx = load<f32>(t, 16), by = load<f32>(t, 20), bz = load<f32>(t, 24);
  const cx = load<f32>(t, 32), cy = load<f32>(t, 36), cz = load<f32>(t, 40);
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = cx - ax, acy = cy - ay, acz = cz - az;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const d1 = abx * apx + aby * apy + abz * apz;
  const d2 = acx * apx + acy * apy + acz * apz;
  let u: f32 = 0, v: f32 = 0;
  if (d1 <= 0 && d2 <= 0) {
    u = 0;
    v = 0;
  } else {
    const bpx = px - bx, bpy = py - by, bpz = pz - bz;
    const d3 = abx * bpx + aby * bpy + abz * bpz;
    const d4 = acx * bpx + acy * bpy + acz * bpz;
    if (d3 >= 0 && d4 <= d3) {
      u = 1;
      v = 0;
    } else {
      const vc = d1 * d4 - d3 * d2;
      if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        u = d1 / (d1 - d3);
        v = 0;
      } else {
        const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
        const d5 = abx * cpx + aby * cpy + abz * cpz;
        const d6 = acx * cpx + acy * cpy + acz * cpz;
        if (d6 >= 0 && d5 <= d6) {
          u = 0;
          v = 1;
        } else {
          const vb = d5 * d2 - d1 * d6;
          if (vb <= 0 && d2 >= 0 && d6 <= 0) {
            u = 0;
            v = d2 / (d2 - d6);
          } else {
            const va = d3 * d6 - d5 * d4;
            const e43 = d4 - d3, e56 = d5 - d6;
            if (va <= 0 && e43 >= 0 && e56 >= 0) {
              const w = e43 / (e43 + e56);
              u = 1 - w;
              v = w;
            } else {
              const denom: f32 = 1 / (va + vb + vc);
              u = vb * denom;
              v = vc * denom;
            }
          }
        }
      }
    }
  }
  const qx = ax + abx * u + acx * v;
  const qy = ay + aby * u + acy * v;
  const qz = az + abz * u + acz * v;
  cpX = qx;
  cpY = qy;
  cpZ = qz;
  cpU = u;
  cpV = v;
  const dx = px - qx, dy = py - qy, dz = pz - qz;
  return dx * dx + dy * dy + dz * dz;
}

/**
 * How squarely p faces triangle t from its closest point: |cos| between
 * (p - closest) and the face normal. Among triangles at the same distance
 * (closest point on a shared edge or vertex) the most facing one gives the
 * right inside/outside sign.
 */
@inline function facing(t: usize, px: f32, py: f32, pz: f32, d2: f32): f32 {
  if (d2 <= 0) return 1;
  const ax = load<f32>(t), ay = load<f32>(t, 4), az = load<f32>(t, 8);
  const e1x = load<f32>(t, 16) - ax, e1y = load<f32>(t, 20) - ay, e1z = load<f32>(t, 24) - az;
  const e2x = load<f32>(t, 32) - ax, e2y = load<f32>(t, 36) - ay, e2z = load<f32>(t, 40) - az;
  const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const n2 = nx * nx + ny * ny + nz * nz;
  if (n2 <= 0) return 0;
  const dot = (px - cpX) * nx + (py - cpY) * ny + (pz - cpZ) * nz;
  return Mathf.abs(dot) / Mathf.sqrt(n2 * d2);
}

@inline function consider(tris: usize, j: i32, px: f32, py: f32, pz: f32): void {
  const t = tris + <usize>j * TRI_BYTES;
  const d2 = closestOnTri(t, px, py, pz);
  const tol = bestD2 * 1e-5 + 1e-12;
  if (bestIdx < 0 ? d2 <= bestD2 : d2 < bestD2 - tol) {
    bestD2 = d2;
    bestIdx = j;
    bestX = cpX;
    bestY = cpY;
    bestZ = cpZ;
    bestU = cpU;
    bestV = cpV;
    bestFacing = -1;
  } else if (bestIdx >= 0 && d2 <= bestD2 + tol && j != bestIdx) {
    // A tie: keep the triangle that faces p most squarely.
    const f = facing(t, px, py, pz, d2);
    if (bestFacing < 0) {
      const sx = cpX, sy = cpY, sz = cpZ;
      cpX = bestX;
      cpY = bestY;
      cpZ = bestZ;
      bestFacing = facing(tris + <usize>bestIdx * TRI_BYTES, px, py, pz, bestD2);
      cpX = sx;
      cpY = sy;
      cpZ = sz;
    }
    if (f > bestFacing) {
      if (d2 < bestD2) bestD2 = d2;
      bestIdx = j;
      bestX = cpX;
      bestY = cpY;
      bestZ = cpZ;
      bestU = cpU;
      bestV = cpV;
      bestFacing = f;
    }
  }
}

// Squared distances of p to the two children at c and c + 32 (set by boxDistPair).
let dist0: f32 = 0;
let dist1: f32 = 0;

/** Squared distance from q to the boxes of both children of a node at once. */
@inline function boxDistPair(c: usize, q: v128): void {
  const xyz = v128(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0);
  const zero = f32x4.splat(0);
  let dA = f32x4.pmax(f32x4.pmax(f32x4.sub(v128.load(c), q), f32x4.sub(q, v128.load(c, 16))), zero);
  let dB = f32x4.pmax(f32x4.pmax(f32x4.sub(v128.load(c, 32), q), f32x4.sub(q, v128.load(c, 48))), zero);
  dA = v128.and(f32x4.mul(dA, dA), xyz);
  dB = v128.and(f32x4.mul(dB, dB), xyz);
  // (xA, xB, yA, yB) + (zA, zB, 0, 0), then fold the halves.
  let sum = f32x4.add(v128.shuffle<f32>(dA, dB, 0, 4, 1, 5), v128.shuffle<f32>(dA, dB, 2, 6, 3, 7));
  sum = f32x4.add(sum, v128.shuffle<f32>(sum, sum, 2, 3, 0, 1));
  dist0 = f32x4.extract_lane(sum, 0);
  dist1 = f32x4.extract_lane(sum, 1);
}

@inline function boxDist2(p: usize, q: v128): f32 {
  const xyz = v128(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0);
  let d = f32x4.pmax(f32x4.sub(v128.load(p), q), f32x4.sub(q, v128.load(p, 16)));
  d = f32x4.pmax(d, f32x4.splat(0));
  d = v128.and(f32x4.mul(d, d), xyz);
  return f32x4.extract_lane(d, 0) + f32x4.extract_lane(d, 1) + f32x4.extract_lane(d, 2);
}

/**
 * Closest point of the mesh to p within sqrt(maxD2). `seed` (a leaf-order
 * index or -1) is tried first to start with a tight bound (coherent queries).
 * Result in bestX.., bestIdx (-1 when nothing is that close), bestD2.
 */
export function closestCore(bvh: usize, px: f32, py: f32, pz: f32, maxD2: f32, seed: i32): bool {
  bestIdx = -1;
  bestD2 = maxD2;
  bestFacing = -1;
  if (load<u32>(bvh, H_TRIANGLES) == 0) return false;
  const nodes = bvhNodes(bvh);
  const tris = bvhTris(bvh);
  if (seed >= 0 && <u32>seed < load<u32>(bvh, H_TRIANGLES)) consider(tris, seed, px, py, pz);
  let q = f32x4.splat(px);
  q = f32x4.replace_lane(q, 1, py);
  q = f32x4.replace_lane(q, 2, pz);
  if (boxDist2(nodes, q) > bestD2) return bestIdx >= 0;
  let node: u32 = 0;
  let sp: i32 = 0;
  while (true) {
    const p = nodes + <usize>node * NODE_BYTES;
    const a = load<u32>(p, 12);
    const count = load<u32>(p, 28);
    if (count > 0) {
      for (let j = a, e = a + count; j < e; j++) consider(tris, <i32>j, px, py, pz);
    } else {
      boxDistPair(nodes + <usize>a * NODE_BYTES, q);
      const d0 = dist0;
      const d1 = dist1;
      const lim = bestD2 + bestD2 * 1e-5 + 1e-12;
      if (d0 <= lim) {
        if (d1 <= lim) {
          const s = stack + <usize>sp * 8;
          sp++;
          if (d0 <= d1) {
            store<u32>(s, a + 1);
            store<f32>(s, d1, 4);
            node = a;
          } else {
            store<u32>(s, a);
            store<f32>(s, d0, 4);
            node = a + 1;
          }
        } else {
          node = a;
        }
        continue;
      } else if (d1 <= lim) {
        node = a + 1;
        continue;
      }
    }
    let found = false;
    while (sp > 0) {
      sp--;
      const s = stack + <usize>sp * 8;
      if (load<f32>(s, 4) <= bestD2 + bestD2 * 1e-5 + 1e-12) {
        node = load<u32>(s);
        found = true;
        break;
      }
    }
    if (!found) break;
  }
  return bestIdx >= 0;
}

@inline export function closestIdx(): i32 {
  return bestIdx;
}
@inline export function closestX(): f32 {
  return bestX;
}
@inline export function closestY(): f32 {
  return bestY;
}
@inline export function closestZ(): f32 {
  return bestZ;
}
@inline export function closestD2(): f32 {
  return bestD2;
}

/**
 * Closest points of the mesh to `count` points (xyz f32 each) within
 * maxDistance (Infinity for no limit). Writes 32 bytes per point at `out`:
 * closest xyz f32, distance f32 (Infinity when none), triangle i32 (-1),
 * u, v f32 (closest = (1 - u - v) v0 + u v1 + v v2), 0. Returns the number found.
 */
export function bvhClosestPoints(bvh: usize, points: usize, count: u32, maxDistance: f32, out: usize): u32 {
  const maxD2: f32 = maxDistance == Infinity ? Infinity : maxDistance * maxDistance;
  let found: u32 = 0;
  let seed: i32 = -1;
  for (let i: u32 = 0; i < count; i++) {
    const p = points + <usize>i * 12;
    const o = out + <usize>i * 32;
    if (closestCore(bvh, load<f32>(p), load<f32>(p, 4), load<f32>(p, 8), maxD2, seed)) {
      found++;
      seed = bestIdx;
      store<f32>(o, bestX);
      store<f32>(o, bestY, 4);
      store<f32>(o, bestZ, 8);
      store<f32>(o, Mathf.sqrt(bestD2), 12);
      store<u32>(o, triId(bvh, bestIdx), 16);
      store<f32>(o, bestU, 20);
      store<f32>(o, bestV, 24);
    } else {
      store<f32>(o, NaN);
      store<f32>(o, NaN, 4);
      store<f32>(o, NaN, 8);
      store<f32>(o, Infinity, 12);
      store<i32>(o, -1, 16);
      store<f32>(o, 0, 20);
      store<f32>(o, 0, 24);
    }
    store<f32>(o, 0, 28);
  }
  return found;
}

/** Sign of p relative to the face of leaf-order triangle idx at the closest point (cpX..): -1 behind, 1 in front. */
@inline export function sideOf(bvh: usize, idx: i32, px: f32, py: f32, pz: f32): f32 {
  const t = bvhTris(bvh) + <usize>idx * TRI_BYTES;
  const ax = load<f32>(t), ay = load<f32>(t, 4), az = load<f32>(t, 8);
  const e1x = load<f32>(t, 16) - ax, e1y = load<f32>(t, 20) - ay, e1z = load<f32>(t, 24) - az;
  const e2x = load<f32>(t, 32) - ax, e2y = load<f32>(t, 36) - ay, e2z = load<f32>(t, 40) - az;
  const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const dot = (px - bestX) * nx + (py - bestY) * ny + (pz - bestZ) * nz;
  return dot < 0 ? -1 : 1;
}
