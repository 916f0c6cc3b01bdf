// Bite registration, part 3: trimmed point-to-plane ICP of samples (24 bytes:
// position, normal) against a mesh's BVH, fit scores, and the inter-arch
// penetration. A transform is 12 f64, rows of [R | t] (row-major 3x4), mapping
// the samples' frame into the BVH's.

import { TRI_BYTES, bvhTris } from './bvh-layout';
import { closestCore, closestIdx, closestX, closestY, closestZ, closestD2 } from './bvh-query';
import { SAMPLE_BYTES } from './bite-sample';

let m00: f64 = 1, m01: f64 = 0, m02: f64 = 0, m03: f64 = 0;
let m10: f64 = 0, m11: f64 = 1, m12: f64 = 0, m13: f64 = 0;
let m20: f64 = 0, m21: f64 = 0, m22: f64 = 1, m23: f64 = 0;

function loadMat(mat: usize): void {
  m00 = load<f64>(mat); m01 = load<f64>(mat, 8); m02 = load<f64>(mat, 16); m03 = load<f64>(mat, 24);
  m10 = load<f64>(mat, 32); m11 = load<f64>(mat, 40); m12 = load<f64>(mat, 48); m13 = load<f64>(mat, 56);
  m20 = load<f64>(mat, 64); m21 = load<f64>(mat, 72); m22 = load<f64>(mat, 80); m23 = load<f64>(mat, 88);
}

function storeMat(mat: usize): void {
  store<f64>(mat, m00); store<f64>(mat, m01, 8); store<f64>(mat, m02, 16); store<f64>(mat, m03, 24);
  store<f64>(mat, m10, 32); store<f64>(mat, m11, 40); store<f64>(mat, m12, 48); store<f64>(mat, m13, 56);
  store<f64>(mat, m20, 64); store<f64>(mat, m21, 72); store<f64>(mat, m22, 80); store<f64>(mat, m23, 88);
}

// face normal of the last closest triangle
let fnx: f64 = 0, fny: f64 = 0, fnz: f64 = 1;
function faceNormal(bvh: usize, idx: i32): bool {
  const t = bvhTris(bvh) + <usize>idx * TRI_BYTES;
  const ax = load<f32>(t), ay = load<f32>(t, 4), az = load<f32>(t, 8);
  const e1x: f64 = <f64>(load<f32>(t, 16) - ax), e1y: f64 = <f64>(load<f32>(t, 20) - ay), e1z: f64 = <f64>(load<f32>(t, 24) - az);
  const e2x: f64 = <f64>(load<f32>(t, 32) - ax), e2y: f64 = <f64>(load<f32>(t, 36) - ay), e2z: f64 = <f64>(load<f32>(t, 40) - az);
  const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (l < 1e-20) return false;
  fnx = nx / l;
  fny = ny / l;
  fnz = nz / l;
  return true;
}

// outputs of the last call
let lastRms: f64 = 0;
let lastIters: i32 = 0;
let lastSum2: f64 = 0;
let lastDeep: i32 = 0;

/** RMS (mm) of the residuals used in the last biteIcp / biteFit. */
export function biteLastRms(): f64 {
  return lastRms;
}
/** Iterations run by the last biteIcp. */
export function biteLastIterations(): i32 {
  return lastIters;
}
/** Points behind the surface counted by the last bitePenetration. */
export function biteLastDeepCount(): i32 {
  return lastDeep;
}

// the 6x6 normal equations (upper triangle used) and right-hand side
const ata = memory.data(36 * 8, 16);
const atb = memory.data(6 * 8, 16);
const sol = memory.data(6 * 8, 16);

function solve6(): bool {
  // Gaussian elimination with partial pivoting on a copy in place (ata is rebuilt each iteration).
  let trace: f64 = 0;
  for (let i = 0; i < 6; i++) trace += load<f64>(ata + <usize>(i * 6 + i) * 8);
  const damp = trace * 1e-12 + 1e-18;
  for (let i = 0; i < 6; i++) store<f64>(ata + <usize>(i * 6 + i) * 8, load<f64>(ata + <usize>(i * 6 + i) * 8) + damp);
  for (let i = 0; i < 6; i++) store<f64>(sol + <usize>i * 8, load<f64>(atb + <usize>i * 8));
  for (let c = 0; c < 6; c++) {
    let piv = c;
    let best = Math.abs(load<f64>(ata + <usize>(c * 6 + c) * 8));
    for (let r = c + 1; r < 6; r++) {
      const v = Math.abs(load<f64>(ata + <usize>(r * 6 + c) * 8));
      if (v > best) {
        best = v;
        piv = r;
      }
    }
    if (best < 1e-30) return false;
    if (piv != c) {
      for (let k = 0; k < 6; k++) {
        const a = load<f64>(ata + <usize>(c * 6 + k) * 8);
        store<f64>(ata + <usize>(c * 6 + k) * 8, load<f64>(ata + <usize>(piv * 6 + k) * 8));
        store<f64>(ata + <usize>(piv * 6 + k) * 8, a);
      }
      const b = load<f64>(sol + <usize>c * 8);
      store<f64>(sol + <usize>c * 8, load<f64>(sol + <usize>piv * 8));
      store<f64>(sol + <usize>piv * 8, b);
    }
    const d = load<f64>(ata + <usize>(c * 6 + c) * 8);
    for (let r = c + 1; r < 6; r++) {
      const f = load<f64>(ata + <usize>(r * 6 + c) * 8) / d;
      if (f == 0) continue;
      for (let k = c; k < 6; k++) store<f64>(ata + <usize>(r * 6 + k) * 8, load<f64>(ata + <usize>(r * 6 + k) * 8) - f * load<f64>(ata + <usize>(c * 6 + k) * 8));
      store<f64>(sol + <usize>r * 8, load<f64>(sol + <usize>r * 8) - f * load<f64>(sol + <usize>c * 8));
    }
  }
  for (let r = 5; r >= 0; r--) {
    let s = load<f64>(sol + <usize>r * 8);
    for (let k = r + 1; k < 6; k++) s -= load<f64>(ata + <usize>(r * 6 + k) * 8) * load<f64>(sol + <usize>k * 8);
    store<f64>(sol + <usize>r * 8, s / load<f64>(ata + <usize>(r * 6 + r) * 8));
  }
  return true;
}

/**
 * Trimmed point-to-plane ICP: up to `iters` iterations moving the samples
 * whose mask byte is set (maskPtr 0: all) by `mat` (in/out) onto the BVH's
 * triangles. A sample takes part when its closest point is within `maxDist`
 * and its rotated normal agrees with the closest face's (cos >= minCos); the
 * step minimises the summed squared distances to those faces' planes
 * (linearised rotation, then applied exactly). Stops early when a step moves
 * less than 1e-5 rad and 1e-4 mm. `seeds` (i32 per sample, or 0) carries
 * each sample's last closest triangle between calls (-1 unknown). Returns the
 * samples used in the last iteration (biteLastRms: their RMS distance).
 */
export function biteIcp(bvh: usize, pts: usize, n: i32, maskPtr: usize, mat: usize, maxDist: f32, minCos: f32, iters: i32, seeds: usize): i32 {
  loadMat(mat);
  const maxD2: f32 = maxDist * maxDist;
  let used: i32 = 0;
  lastIters = 0;
  for (let it: i32 = 0; it < iters; it++) {
    memory.fill(ata, 0, 36 * 8);
    memory.fill(atb, 0, 6 * 8);
    used = 0;
    let sum2: f64 = 0;
    for (let i: i32 = 0; i < n; i++) {
      if (maskPtr != 0 && load<u8>(maskPtr + <usize>i) == 0) continue;
      const p = pts + <usize>i * SAMPLE_BYTES;
      const x: f64 = <f64>load<f32>(p), y: f64 = <f64>load<f32>(p, 4), z: f64 = <f64>load<f32>(p, 8);
      const qx = m00 * x + m01 * y + m02 * z + m03;
      const qy = m10 * x + m11 * y + m12 * z + m13;
      const qz = m20 * x + m21 * y + m22 * z + m23;
      const seed = seeds != 0 ? load<i32>(seeds + <usize>i * 4) : -1;
      if (!closestCore(bvh, <f32>qx, <f32>qy, <f32>qz, maxD2, seed)) {
        if (seeds != 0) store<i32>(seeds + <usize>i * 4, -1);
        continue;
      }
      const idx = closestIdx();
      if (seeds != 0) store<i32>(seeds + <usize>i * 4, idx);
      if (!faceNormal(bvh, idx)) continue;
      const nx: f64 = <f64>load<f32>(p, 12), ny: f64 = <f64>load<f32>(p, 16), nz: f64 = <f64>load<f32>(p, 20);
      const c = (m00 * nx + m01 * ny + m02 * nz) * fnx + (m10 * nx + m11 * ny + m12 * nz) * fny + (m20 * nx + m21 * ny + m22 * nz) * fnz;
      if (c < <f64>minCos) continue;
      const r = (qx - <f64>closestX()) * fnx + (qy - <f64>closestY()) * fny + (qz - <f64>closestZ()) * fnz;
      // J = [q x n, n]
      const j0 = qy * fnz - qz * fny, j1 = qz * fnx - qx * fnz, j2 = qx * fny - qy * fnx;
      const j3 = fnx, j4 = fny, j5 = fnz;
      accumulate(j0, j1, j2, j3, j4, j5, r);
      sum2 += r * r;
      used++;
    }
    lastRms = used > 0 ? Math.sqrt(sum2 / <f64>used) : 0;
    if (used < 6) break;
    // mirror the upper triangle
    for (let a = 0; a < 6; a++) for (let b = 0; b < a; b++) store<f64>(ata + <usize>(a * 6 + b) * 8, load<f64>(ata + <usize>(b * 6 + a) * 8));
    if (!solve6()) break;
    const wx = -load<f64>(sol), wy = -load<f64>(sol, 8), wz = -load<f64>(sol, 16);
    const tx = -load<f64>(sol, 24), ty = -load<f64>(sol, 32), tz = -load<f64>(sol, 40);
    applyStep(wx, wy, wz, tx, ty, tz);
    lastIters = it + 1;
    if (Math.sqrt(wx * wx + wy * wy + wz * wz) < 1e-5 && Math.sqrt(tx * tx + ty * ty + tz * tz) < 1e-4) break;
  }
  storeMat(mat);
  return used;
}

@inline function accumulate(j0: f64, j1: f64, j2: f64, j3: f64, j4: f64, j5: f64, r: f64): void {
  const J = memory.data(48, 16);
  store<f64>(J, j0);
  store<f64>(J, j1, 8);
  store<f64>(J, j2, 16);
  store<f64>(J, j3, 24);
  store<f64>(J, j4, 32);
  store<f64>(J, j5, 40);
  for (let a = 0; a < 6; a++) {
    const ja = load<f64>(J + <usize>a * 8);
    for (let b = a; b < 6; b++) store<f64>(ata + <usize>(a * 6 + b) * 8, load<f64>(ata + <usize>(a * 6 + b) * 8) + ja * load<f64>(J + <usize>b * 8));
    store<f64>(atb + <usize>a * 8, load<f64>(atb + <usize>a * 8) + ja * r);
  }
}

/** M <- Rot(w) M + [0 | t]: the rotation by vector w (Rodrigues) applied after M, then the translation. */
function applyStep(wx: f64, wy: f64, wz: f64, tx: f64, ty: f64, tz: f64): void {
  const th = Math.sqrt(wx * wx + wy * wy + wz * wz);
  let a00: f64 = 1, a01: f64 = 0, a02: f64 = 0, a10: f64 = 0, a11: f64 = 1, a12: f64 = 0, a20: f64 = 0, a21: f64 = 0, a22: f64 = 1;
  if (th > 1e-15) {
    const kx = wx / th, ky = wy / th, kz = wz / th;
    const c = Math.cos(th), s = Math.sin(th), v = 1 - c;
    a00 = c + kx * kx * v; a01 = kx * ky * v - kz * s; a02 = kx * kz * v + ky * s;
    a10 = ky * kx * v + kz * s; a11 = c + ky * ky * v; a12 = ky * kz * v - kx * s;
    a20 = kz * kx * v - ky * s; a21 = kz * ky * v + kx * s; a22 = c + kz * kz * v;
  }
  const b00 = a00 * m00 + a01 * m10 + a02 * m20, b01 = a00 * m01 + a01 * m11 + a02 * m21, b02 = a00 * m02 + a01 * m12 + a02 * m22, b03 = a00 * m03 + a01 * m13 + a02 * m23 + tx;
  const b10 = a10 * m00 + a11 * m10 + a12 * m20, b11 = a10 * m01 + a11 * m11 + a12 * m21, b12 = a10 * m02 + a11 * m12 + a12 * m22, b13 = a10 * m03 + a11 * m13 + a12 * m23 + ty;
  const b20 = a20 * m00 + a21 * m10 + a22 * m20, b21 = a20 * m01 + a21 * m11 + a22 * m21, b22 = a20 * m02 + a21 * m12 + a22 * m22, b23 = a20 * m03 + a21 * m13 + a22 * m23 + tz;
  m00 = b00; m01 = b01; m02 = b02; m03 = b03;
  m10 = b10; m11 = b11; m12 = b12; m13 = b13;
  m20 = b20; m21 = b21; m22 = b22; m23 = b23;
}

/**
 * Fit of the samples (mask as biteIcp) moved by `mat` to the BVH's surface:
 * writes each sample's distance (f32; Infinity when farther than maxDist or
 * its normal disagrees, cos < minCos) at distOut (or 0: none) and returns the
 * number within `inlier` mm (biteLastRms: their RMS).
 */
export function biteFit(bvh: usize, pts: usize, n: i32, maskPtr: usize, mat: usize, maxDist: f32, minCos: f32, inlier: f32, distOut: usize): i32 {
  loadMat(mat);
  const maxD2: f32 = maxDist * maxDist;
  let count: i32 = 0;
  let sum2: f64 = 0;
  let seed: i32 = -1;
  for (let i: i32 = 0; i < n; i++) {
    let d: f32 = Infinity;
    if (maskPtr == 0 || load<u8>(maskPtr + <usize>i) != 0) {
      const p = pts + <usize>i * SAMPLE_BYTES;
      const x: f64 = <f64>load<f32>(p), y: f64 = <f64>load<f32>(p, 4), z: f64 = <f64>load<f32>(p, 8);
      const qx = m00 * x + m01 * y + m02 * z + m03;
      const qy = m10 * x + m11 * y + m12 * z + m13;
      const qz = m20 * x + m21 * y + m22 * z + m23;
      if (closestCore(bvh, <f32>qx, <f32>qy, <f32>qz, maxD2, seed)) {
        const idx = closestIdx();
        seed = idx;
        if (faceNormal(bvh, idx)) {
          const nx: f64 = <f64>load<f32>(p, 12), ny: f64 = <f64>load<f32>(p, 16), nz: f64 = <f64>load<f32>(p, 20);
          const c = (m00 * nx + m01 * ny + m02 * nz) * fnx + (m10 * nx + m11 * ny + m12 * nz) * fny + (m20 * nx + m21 * ny + m22 * nz) * fnz;
          if (c >= <f64>minCos) d = Mathf.sqrt(closestD2());
        }
      }
    }
    if (distOut != 0) store<f32>(distOut + <usize>i * 4, d);
    if (d <= inlier) {
      count++;
      sum2 += <f64>d * <f64>d;
    }
  }
  lastSum2 = sum2;
  lastRms = count > 0 ? Math.sqrt(sum2 / <f64>count) : 0;
  return count;
}

/**
 * Inter-arch penetration: `n` vertices (xyz f32, stride 12) moved by `mat`
 * into the BVH's frame; for those within `maxDist` of its surface, the signed
 * distance to the closest point along the closest face's normal (negative:
 * behind the surface, inside the solid). Writes the signed distance per
 * vertex at distOut (f32, NaN beyond maxDist; or 0: none). Returns the
 * deepest penetration as a positive number (0 when none);
 * biteLastDeepCount() counts the vertices behind the surface.
 */
export function bitePenetration(bvh: usize, positions: usize, n: i32, mat: usize, maxDist: f32, distOut: usize): f32 {
  loadMat(mat);
  const maxD2: f32 = maxDist * maxDist;
  let deepest: f32 = 0;
  let seed: i32 = -1;
  lastDeep = 0;
  for (let i: i32 = 0; i < n; i++) {
    const p = positions + <usize>i * 12;
    const x: f64 = <f64>load<f32>(p), y: f64 = <f64>load<f32>(p, 4), z: f64 = <f64>load<f32>(p, 8);
    const qx = m00 * x + m01 * y + m02 * z + m03;
    const qy = m10 * x + m11 * y + m12 * z + m13;
    const qz = m20 * x + m21 * y + m22 * z + m23;
    let s: f32 = NaN;
    if (closestCore(bvh, <f32>qx, <f32>qy, <f32>qz, maxD2, seed)) {
      const idx = closestIdx();
      seed = idx;
      if (faceNormal(bvh, idx)) {
        const side = (qx - <f64>closestX()) * fnx + (qy - <f64>closestY()) * fny + (qz - <f64>closestZ()) * fnz;
        const d = Mathf.sqrt(closestD2());
        s = side < 0 ? -d : d;
        if (side < 0) {
          lastDeep++;
          if (d > deepest) deepest = d;
        }
      }
    }
    if (distOut != 0) store<f32>(distOut + <usize>i * 4, s);
  }
  return deepest;
}

/**
 * Copies the vertices (xyz f32) that `mat` moves into the box [lo, hi] to
 * `out` (xyz f32, their original coordinates); returns how many.
 */
export function biteBoxFilter(positions: usize, n: i32, mat: usize, lox: f32, loy: f32, loz: f32, hix: f32, hiy: f32, hiz: f32, out: usize): i32 {
  loadMat(mat);
  let m: i32 = 0;
  for (let i: i32 = 0; i < n; i++) {
    const p = positions + <usize>i * 12;
    const x: f64 = <f64>load<f32>(p), y: f64 = <f64>load<f32>(p, 4), z: f64 = <f64>load<f32>(p, 8);
    const qx = <f32>(m00 * x + m01 * y + m02 * z + m03);
    if (qx < lox || qx > hix) continue;
    const qy = <f32>(m10 * x + m11 * y + m12 * z + m13);
    if (qy < loy || qy > hiy) continue;
    const qz = <f32>(m20 * x + m21 * y + m22 * z + m23);
    if (qz < loz || qz > hiz) continue;
    const o = out + <usize>m * 12;
    store<f32>(o, <f32>x);
    store<f32>(o, <f32>y, 4);
    store<f32>(o, <f32>z, 8);
    m++;
  }
  return m;
}
