// Bite registration, part 2: descriptor correspondences and RANSAC.
//
// Correspondences are (source sample, target sample) pairs of i32; the source
// is the bite scan, the target a jaw. A hypothesis maps source points into the
// target's frame: 12 f64, rows of [R | t] (row-major 3x4), followed by its
// inlier count (f64), 13 f64 = 104 bytes each.

import { DESC_BYTES, SAMPLE_BYTES } from './bite-sample';

export const HYP_F64: i32 = 13;

/**
 * For each source descriptor (36 f32), the `k` (1..4) nearest target
 * descriptors by L2 distance (brute force, SIMD). Writes k pairs (i32 source,
 * i32 target) per source sample at `out`, nearest first; returns the pair count.
 */
export function biteMatch(srcDesc: usize, nSrc: i32, dstDesc: usize, nDst: i32, k: i32, out: usize): i32 {
  if (k < 1) k = 1;
  if (k > 4) k = 4;
  if (k > nDst) k = nDst;
  const bestD = memory.data(16, 16);
  const bestI = memory.data(16, 16);
  let pairs: i32 = 0;
  for (let i: i32 = 0; i < nSrc; i++) {
    const a = srcDesc + <usize>i * DESC_BYTES;
    const a0 = v128.load(a), a1 = v128.load(a, 16), a2 = v128.load(a, 32), a3 = v128.load(a, 48), a4 = v128.load(a, 64);
    const a5 = v128.load(a, 80), a6 = v128.load(a, 96), a7 = v128.load(a, 112), a8 = v128.load(a, 128);
    for (let s = 0; s < k; s++) {
      store<f32>(bestD + <usize>s * 4, Infinity);
      store<i32>(bestI + <usize>s * 4, -1);
    }
    let worst: f32 = Infinity;
    for (let j: i32 = 0; j < nDst; j++) {
      const b = dstDesc + <usize>j * DESC_BYTES;
      let e = f32x4.sub(a0, v128.load(b));
      let acc = f32x4.mul(e, e);
      e = f32x4.sub(a1, v128.load(b, 16));
      acc = f32x4.add(acc, f32x4.mul(e, e));
      e = f32x4.sub(a2, v128.load(b, 32));
      acc = f32x4.add(acc, f32x4.mul(e, e));
      e = f32x4.sub(a3, v128.load(b, 48));
      acc = f32x4.add(acc, f32x4.mul(e, e));
      e = f32x4.sub(a4, v128.load(b, 64));
      acc = f32x4.add(acc, f32x4.mul(e, e));
      e = f32x4.sub(a5, v128.load(b, 80));
      acc = f32x4.add(acc, f32x4.mul(e, e));
      e = f32x4.sub(a6, v128.load(b, 96));
      acc = f32x4.add(acc, f32x4.mul(e, e));
      e = f32x4.sub(a7, v128.load(b, 112));
      acc = f32x4.add(acc, f32x4.mul(e, e));
      e = f32x4.sub(a8, v128.load(b, 128));
      acc = f32x4.add(acc, f32x4.mul(e, e));
      const d = f32x4.extract_lane(acc, 0) + f32x4.extract_lane(acc, 1) + f32x4.extract_lane(acc, 2) + f32x4.extract_lane(acc, 3);
      if (d < worst) {
        let s = k - 1;
        while (s > 0 && load<f32>(bestD + <usize>(s - 1) * 4) > d) {
          store<f32>(bestD + <usize>s * 4, load<f32>(bestD + <usize>(s - 1) * 4));
          store<i32>(bestI + <usize>s * 4, load<i32>(bestI + <usize>(s - 1) * 4));
          s--;
        }
        store<f32>(bestD + <usize>s * 4, d);
        store<i32>(bestI + <usize>s * 4, j);
        worst = load<f32>(bestD + <usize>(k - 1) * 4);
      }
    }
    for (let s = 0; s < k; s++) {
      const j = load<i32>(bestI + <usize>s * 4);
      if (j < 0) continue;
      store<i32>(out + <usize>pairs * 8, i);
      store<i32>(out + <usize>pairs * 8, j, 4);
      pairs++;
    }
  }
  return pairs;
}

// ---------------------------------------------------------------- RANSAC

let rng: u32 = 1;
@inline function nextRandom(): u32 {
  let x = rng;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  rng = x;
  return x;
}

// the hypothesis being tested, row-major 3x4
let r00: f64 = 1, r01: f64 = 0, r02: f64 = 0, r10: f64 = 0, r11: f64 = 1, r12: f64 = 0, r20: f64 = 0, r21: f64 = 0, r22: f64 = 1;
let t0: f64 = 0, t1: f64 = 0, t2: f64 = 0;

/** Orthonormal frame of a point triple (rows e1, e2, e3 into `f`: 9 f64). False when degenerate. */
function tripleFrame(a: usize, b: usize, c: usize, f: usize): bool {
  let ux: f64 = <f64>(load<f32>(b) - load<f32>(a)), uy: f64 = <f64>(load<f32>(b, 4) - load<f32>(a, 4)), uz: f64 = <f64>(load<f32>(b, 8) - load<f32>(a, 8));
  const vx: f64 = <f64>(load<f32>(c) - load<f32>(a)), vy: f64 = <f64>(load<f32>(c, 4) - load<f32>(a, 4)), vz: f64 = <f64>(load<f32>(c, 8) - load<f32>(a, 8));
  const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
  if (ul < 1e-9) return false;
  ux /= ul;
  uy /= ul;
  uz /= ul;
  let wx = uy * vz - uz * vy, wy = uz * vx - ux * vz, wz = ux * vy - uy * vx;
  const wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
  if (wl < 1e-6 * ul) return false;
  wx /= wl;
  wy /= wl;
  wz /= wl;
  store<f64>(f, ux);
  store<f64>(f, uy, 8);
  store<f64>(f, uz, 16);
  store<f64>(f, wy * uz - wz * uy, 24);
  store<f64>(f, wz * ux - wx * uz, 32);
  store<f64>(f, wx * uy - wy * ux, 40);
  store<f64>(f, wx, 48);
  store<f64>(f, wy, 56);
  store<f64>(f, wz, 64);
  return true;
}

@inline function dist(a: usize, b: usize): f32 {
  const x = load<f32>(b) - load<f32>(a), y = load<f32>(b, 4) - load<f32>(a, 4), z = load<f32>(b, 8) - load<f32>(a, 8);
  return Mathf.sqrt(x * x + y * y + z * z);
}

@inline function ndot(a: usize, b: usize): f32 {
  return load<f32>(a, 12) * load<f32>(b, 12) + load<f32>(a, 16) * load<f32>(b, 16) + load<f32>(a, 20) * load<f32>(b, 20);
}

/** Pair count within `inlier` mm whose rotated source normal agrees with the target's (cos >= minCos). */
function countInliers(src: usize, dst: usize, pairs: usize, nPairs: i32, inlier2: f64, minCos: f64): i32 {
  let count: i32 = 0;
  for (let i: i32 = 0; i < nPairs; i++) {
    const p = src + <usize>load<i32>(pairs + <usize>i * 8) * SAMPLE_BYTES;
    const q = dst + <usize>load<i32>(pairs + <usize>i * 8, 4) * SAMPLE_BYTES;
    const x: f64 = <f64>load<f32>(p), y: f64 = <f64>load<f32>(p, 4), z: f64 = <f64>load<f32>(p, 8);
    const dx = r00 * x + r01 * y + r02 * z + t0 - <f64>load<f32>(q);
    const dy = r10 * x + r11 * y + r12 * z + t1 - <f64>load<f32>(q, 4);
    const dz = r20 * x + r21 * y + r22 * z + t2 - <f64>load<f32>(q, 8);
    if (dx * dx + dy * dy + dz * dz > inlier2) continue;
    const nx: f64 = <f64>load<f32>(p, 12), ny: f64 = <f64>load<f32>(p, 16), nz: f64 = <f64>load<f32>(p, 20);
    const c = (r00 * nx + r01 * ny + r02 * nz) * <f64>load<f32>(q, 12) + (r10 * nx + r11 * ny + r12 * nz) * <f64>load<f32>(q, 16) + (r20 * nx + r21 * ny + r22 * nz) * <f64>load<f32>(q, 20);
    if (c >= minCos) count++;
  }
  return count;
}

/**
 * RANSAC over 3-pair samples: `tries` draws (seeded by `seed`); a draw is
 * tested only when its three source-source and target-target edge lengths
 * agree within `edgeTol` (relative) and are at least `minEdge` mm, and the
 * normals' mutual angles agree; the rigid map of the two triples' frames
 * (rotated normals must agree, cos >= minCos) is then scored by its inlier
 * pairs (within `inlier` mm, normals agreeing). Keeps the `maxHyp` best
 * distinct hypotheses (HYP_F64 f64 each, best first) at `out`; returns how
 * many. biteRansacTested() gives the number of scored hypotheses.
 */
export function biteRansac(
  src: usize,
  dst: usize,
  pairs: usize,
  nPairs: i32,
  tries: i32,
  seed: u32,
  inlier: f32,
  edgeTol: f32,
  minEdge: f32,
  minCos: f32,
  out: usize,
  maxHyp: i32,
): i32 {
  rng = seed == 0 ? 0x9e3779b9 : seed;
  tested = 0;
  if (nPairs < 3 || maxHyp < 1) return 0;
  const fs = memory.data(72, 16);
  const fd = memory.data(72, 16);
  let kept: i32 = 0;
  const inlier2: f64 = <f64>inlier * <f64>inlier;
  for (let it: i32 = 0; it < tries; it++) {
    const i0 = <i32>(nextRandom() % <u32>nPairs);
    const i1 = <i32>(nextRandom() % <u32>nPairs);
    const i2 = <i32>(nextRandom() % <u32>nPairs);
    const s0 = src + <usize>load<i32>(pairs + <usize>i0 * 8) * SAMPLE_BYTES;
    const s1 = src + <usize>load<i32>(pairs + <usize>i1 * 8) * SAMPLE_BYTES;
    const s2 = src + <usize>load<i32>(pairs + <usize>i2 * 8) * SAMPLE_BYTES;
    const d0 = dst + <usize>load<i32>(pairs + <usize>i0 * 8, 4) * SAMPLE_BYTES;
    const d1 = dst + <usize>load<i32>(pairs + <usize>i1 * 8, 4) * SAMPLE_BYTES;
    const d2 = dst + <usize>load<i32>(pairs + <usize>i2 * 8, 4) * SAMPLE_BYTES;
    const e0 = dist(s0, s1), f0 = dist(d0, d1);
    if (e0 < minEdge || Mathf.abs(e0 - f0) > edgeTol * Mathf.max(e0, f0)) continue;
    const e1 = dist(s1, s2), f1 = dist(d1, d2);
    if (e1 < minEdge || Mathf.abs(e1 - f1) > edgeTol * Mathf.max(e1, f1)) continue;
    const e2 = dist(s0, s2), f2 = dist(d0, d2);
    if (e2 < minEdge || Mathf.abs(e2 - f2) > edgeTol * Mathf.max(e2, f2)) continue;
    if (Mathf.abs(ndot(s0, s1) - ndot(d0, d1)) > 0.25 || Mathf.abs(ndot(s1, s2) - ndot(d1, d2)) > 0.25 || Mathf.abs(ndot(s0, s2) - ndot(d0, d2)) > 0.25) continue;
    if (!tripleFrame(s0, s1, s2, fs) || !tripleFrame(d0, d1, d2, fd)) continue;
    // R = Fd^T Fs (frames hold rows e1, e2, e3)
    r00 = load<f64>(fd) * load<f64>(fs) + load<f64>(fd, 24) * load<f64>(fs, 24) + load<f64>(fd, 48) * load<f64>(fs, 48);
    r01 = load<f64>(fd) * load<f64>(fs, 8) + load<f64>(fd, 24) * load<f64>(fs, 32) + load<f64>(fd, 48) * load<f64>(fs, 56);
    r02 = load<f64>(fd) * load<f64>(fs, 16) + load<f64>(fd, 24) * load<f64>(fs, 40) + load<f64>(fd, 48) * load<f64>(fs, 64);
    r10 = load<f64>(fd, 8) * load<f64>(fs) + load<f64>(fd, 32) * load<f64>(fs, 24) + load<f64>(fd, 56) * load<f64>(fs, 48);
    r11 = load<f64>(fd, 8) * load<f64>(fs, 8) + load<f64>(fd, 32) * load<f64>(fs, 32) + load<f64>(fd, 56) * load<f64>(fs, 56);
    r12 = load<f64>(fd, 8) * load<f64>(fs, 16) + load<f64>(fd, 32) * load<f64>(fs, 40) + load<f64>(fd, 56) * load<f64>(fs, 64);
    r20 = load<f64>(fd, 16) * load<f64>(fs) + load<f64>(fd, 40) * load<f64>(fs, 24) + load<f64>(fd, 64) * load<f64>(fs, 48);
    r21 = load<f64>(fd, 16) * load<f64>(fs, 8) + load<f64>(fd, 40) * load<f64>(fs, 32) + load<f64>(fd, 64) * load<f64>(fs, 56);
    r22 = load<f64>(fd, 16) * load<f64>(fs, 16) + load<f64>(fd, 40) * load<f64>(fs, 40) + load<f64>(fd, 64) * load<f64>(fs, 64);
    // translation from the triples' centroids
    const cx: f64 = (<f64>load<f32>(s0) + <f64>load<f32>(s1) + <f64>load<f32>(s2)) / 3;
    const cy: f64 = (<f64>load<f32>(s0, 4) + <f64>load<f32>(s1, 4) + <f64>load<f32>(s2, 4)) / 3;
    const cz: f64 = (<f64>load<f32>(s0, 8) + <f64>load<f32>(s1, 8) + <f64>load<f32>(s2, 8)) / 3;
    t0 = (<f64>load<f32>(d0) + <f64>load<f32>(d1) + <f64>load<f32>(d2)) / 3 - (r00 * cx + r01 * cy + r02 * cz);
    t1 = (<f64>load<f32>(d0, 4) + <f64>load<f32>(d1, 4) + <f64>load<f32>(d2, 4)) / 3 - (r10 * cx + r11 * cy + r12 * cz);
    t2 = (<f64>load<f32>(d0, 8) + <f64>load<f32>(d1, 8) + <f64>load<f32>(d2, 8)) / 3 - (r20 * cx + r21 * cy + r22 * cz);
    // the three sampled normals must agree under R
    let ok = true;
    for (let s = 0; s < 3; s++) {
      const a = s == 0 ? s0 : s == 1 ? s1 : s2;
      const b = s == 0 ? d0 : s == 1 ? d1 : d2;
      const nx: f64 = <f64>load<f32>(a, 12), ny: f64 = <f64>load<f32>(a, 16), nz: f64 = <f64>load<f32>(a, 20);
      const c = (r00 * nx + r01 * ny + r02 * nz) * <f64>load<f32>(b, 12) + (r10 * nx + r11 * ny + r12 * nz) * <f64>load<f32>(b, 16) + (r20 * nx + r21 * ny + r22 * nz) * <f64>load<f32>(b, 20);
      if (c < <f64>minCos) ok = false;
    }
    if (!ok) continue;
    tested++;
    const score = countInliers(src, dst, pairs, nPairs, inlier2, <f64>minCos);
    if (score < 3) continue;
    kept = keep(out, kept, maxHyp, <f64>score);
  }
  return kept;
}

let tested: i32 = 0;

/** Hypotheses scored by the last biteRansac. */
export function biteRansacTested(): i32 {
  return tested;
}

/** Inserts the current hypothesis into the sorted list unless a similar one scores higher. */
function keep(out: usize, kept: i32, maxHyp: i32, score: f64): i32 {
  // similar: rotation within ~6 degrees (trace) and translation within 3 mm
  for (let h: i32 = 0; h < kept; h++) {
    const o = out + <usize>h * <usize>HYP_F64 * 8;
    const tr = r00 * load<f64>(o) + r01 * load<f64>(o, 8) + r02 * load<f64>(o, 16) + r10 * load<f64>(o, 32) + r11 * load<f64>(o, 40) + r12 * load<f64>(o, 48) + r20 * load<f64>(o, 64) + r21 * load<f64>(o, 72) + r22 * load<f64>(o, 80);
    const dx = t0 - load<f64>(o, 24), dy = t1 - load<f64>(o, 56), dz = t2 - load<f64>(o, 88);
    if (tr > 2.98 && dx * dx + dy * dy + dz * dz < 9) {
      if (load<f64>(o, 96) >= score) return kept;
      // replace it: remove h, then insert below
      for (let g = h; g < kept - 1; g++) memory.copy(out + <usize>g * <usize>HYP_F64 * 8, out + <usize>(g + 1) * <usize>HYP_F64 * 8, <usize>HYP_F64 * 8);
      kept--;
      break;
    }
  }
  let pos = kept;
  while (pos > 0 && load<f64>(out + <usize>(pos - 1) * <usize>HYP_F64 * 8, 96) < score) pos--;
  if (pos >= maxHyp) return kept;
  const last = kept < maxHyp ? kept : maxHyp - 1;
  for (let g = last; g > pos; g--) memory.copy(out + <usize>g * <usize>HYP_F64 * 8, out + <usize>(g - 1) * <usize>HYP_F64 * 8, <usize>HYP_F64 * 8);
  const o = out + <usize>pos * <usize>HYP_F64 * 8;
  store<f64>(o, r00);
  store<f64>(o, r01, 8);
  store<f64>(o, r02, 16);
  store<f64>(o, t0, 24);
  store<f64>(o, r10, 32);
  store<f64>(o, r11, 40);
  store<f64>(o, r12, 48);
  store<f64>(o, t1, 56);
  store<f64>(o, r20, 64);
  store<f64>(o, r21, 72);
  store<f64>(o, r22, 80);
  store<f64>(o, t2, 88);
  store<f64>(o, score, 96);
  return kept < maxHyp ? kept + 1 : maxHyp;
}
