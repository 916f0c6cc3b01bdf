// Bite registration, part 1: point samples and local descriptors.
//
// A "sample" is 6 f32 (position xyz, unit normal xyz), 24 bytes. Samples come
// from a mesh's vertices and vertex normals by voxel averaging
// (biteVoxelSample); descriptors are FPFH-like histograms (Rusu 2009) of
// 33 bins, stored as 36 f32 (144 bytes; the last 3 are 0) so that matching
// runs on whole SIMD vectors. Every scratch table lives in the arena between
// a mark and its release; outputs are allocated by the caller.

import { arenaAlloc, arenaMark, arenaRelease } from './arena';

export const SAMPLE_BYTES: usize = 24;
export const DESC_FLOATS: i32 = 36;
export const DESC_BYTES: usize = 144;

@inline function hash3(x: i32, y: i32, z: i32): u32 {
  return (<u32>x * 73856093) ^ (<u32>y * 19349663) ^ (<u32>z * 83492791);
}

@inline function cellOf(v: f32, inv: f32): i32 {
  return <i32>Mathf.floor(v * inv);
}

/**
 * Voxel-averages `count` vertices (positions xyz f32, normals xyz f32) whose
 * mask byte is non-zero (maskPtr 0: all) on a grid of `voxel` mm: one sample
 * per occupied voxel, the mean position and the normalised mean normal.
 * With `pick` non-zero, each sample's position is instead the voxel's vertex
 * nearest to that mean: a point of the surface itself (a mean lies inside a
 * convex surface, by up to a few micrometres at 0.5 mm), noise included.
 * Writes up to `count` samples at `out` (24 bytes each); returns how many, or
 * -1 when the arena cannot hold the scratch table.
 */
export function biteVoxelSample(positions: usize, normals: usize, count: u32, maskPtr: usize, voxel: f32, pick: i32, out: usize): i32 {
  if (count == 0) return 0;
  const mark = arenaMark();
  let size: u32 = 64;
  while (size < count * 2) size <<= 1;
  const table = arenaAlloc(<usize>size * 4);
  const keys = arenaAlloc(<usize>count * 12);
  const counts = arenaAlloc(<usize>count * 4);
  if (table == 0 || keys == 0 || counts == 0) {
    arenaRelease(mark);
    return -1;
  }
  memory.fill(table, 0xff, <usize>size * 4);
  const inv: f32 = 1 / voxel;
  const maskBits = size - 1;
  let n: i32 = 0;
  for (let i: u32 = 0; i < count; i++) {
    if (maskPtr != 0 && load<u8>(maskPtr + i) == 0) continue;
    const p = positions + <usize>i * 12;
    const q = normals + <usize>i * 12;
    const x = load<f32>(p), y = load<f32>(p, 4), z = load<f32>(p, 8);
    const cx = cellOf(x, inv), cy = cellOf(y, inv), cz = cellOf(z, inv);
    let h = hash3(cx, cy, cz) & maskBits;
    let s: i32 = -1;
    while (true) {
      const e = load<i32>(table + <usize>h * 4);
      if (e < 0) break;
      const k = keys + <usize>e * 12;
      if (load<i32>(k) == cx && load<i32>(k, 4) == cy && load<i32>(k, 8) == cz) {
        s = e;
        break;
      }
      h = (h + 1) & maskBits;
    }
    if (s < 0) {
      s = n++;
      store<i32>(table + <usize>h * 4, s);
      const k = keys + <usize>s * 12;
      store<i32>(k, cx);
      store<i32>(k, cy, 4);
      store<i32>(k, cz, 8);
      store<u32>(counts + <usize>s * 4, 0);
      memory.fill(out + <usize>s * SAMPLE_BYTES, 0, SAMPLE_BYTES);
    }
    const o = out + <usize>s * SAMPLE_BYTES;
    store<f32>(o, load<f32>(o) + x);
    store<f32>(o, load<f32>(o, 4) + y, 4);
    store<f32>(o, load<f32>(o, 8) + z, 8);
    store<f32>(o, load<f32>(o, 12) + load<f32>(q), 12);
    store<f32>(o, load<f32>(o, 16) + load<f32>(q, 4), 16);
    store<f32>(o, load<f32>(o, 20) + load<f32>(q, 8), 20);
    store<u32>(counts + <usize>s * 4, load<u32>(counts + <usize>s * 4) + 1);
  }
  if (pick != 0) {
    // means first (in place), then the nearest member vertex of each voxel
    const best = arenaAlloc(<usize>n * 4);
    if (best == 0) {
      arenaRelease(mark);
      return -1;
    }
    for (let s: i32 = 0; s < n; s++) {
      const o = out + <usize>s * SAMPLE_BYTES;
      const c: f32 = <f32>load<u32>(counts + <usize>s * 4);
      store<f32>(o, load<f32>(o) / c);
      store<f32>(o, load<f32>(o, 4) / c, 4);
      store<f32>(o, load<f32>(o, 8) / c, 8);
      store<f32>(best + <usize>s * 4, Infinity);
      store<i32>(counts + <usize>s * 4, -1);
    }
    for (let i: u32 = 0; i < count; i++) {
      if (maskPtr != 0 && load<u8>(maskPtr + i) == 0) continue;
      const p = positions + <usize>i * 12;
      const x = load<f32>(p), y = load<f32>(p, 4), z = load<f32>(p, 8);
      const cx = cellOf(x, inv), cy = cellOf(y, inv), cz = cellOf(z, inv);
      let h = hash3(cx, cy, cz) & maskBits;
      while (true) {
        const e = load<i32>(table + <usize>h * 4);
        const k = keys + <usize>e * 12;
        if (load<i32>(k) == cx && load<i32>(k, 4) == cy && load<i32>(k, 8) == cz) {
          const o = out + <usize>e * SAMPLE_BYTES;
          const dx = x - load<f32>(o), dy = y - load<f32>(o, 4), dz = z - load<f32>(o, 8);
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 < load<f32>(best + <usize>e * 4)) {
            store<f32>(best + <usize>e * 4, d2);
            store<i32>(counts + <usize>e * 4, <i32>i);
          }
          break;
        }
        h = (h + 1) & maskBits;
      }
    }
    for (let s: i32 = 0; s < n; s++) {
      const o = out + <usize>s * SAMPLE_BYTES;
      const v = load<i32>(counts + <usize>s * 4);
      const p = positions + <usize>v * 12;
      store<f32>(o, load<f32>(p));
      store<f32>(o, load<f32>(p, 4), 4);
      store<f32>(o, load<f32>(p, 8), 8);
      store<u32>(counts + <usize>s * 4, 1);
    }
  }
  let kept: i32 = 0;
  for (let s: i32 = 0; s < n; s++) {
    const o = out + <usize>s * SAMPLE_BYTES;
    const c: f32 = <f32>load<u32>(counts + <usize>s * 4);
    const nx = load<f32>(o, 12), ny = load<f32>(o, 16), nz = load<f32>(o, 20);
    const len = Mathf.sqrt(nx * nx + ny * ny + nz * nz);
    if (len < 1e-6 * c) continue; // normals cancel out: an edge or a sliver, no direction
    const d = out + <usize>kept * SAMPLE_BYTES;
    store<f32>(d, load<f32>(o) / c);
    store<f32>(d, load<f32>(o, 4) / c, 4);
    store<f32>(d, load<f32>(o, 8) / c, 8);
    store<f32>(d, nx / len, 12);
    store<f32>(d, ny / len, 16);
    store<f32>(d, nz / len, 20);
    kept++;
  }
  arenaRelease(mark);
  return kept;
}

// ---------------------------------------------------------------- neighbour grid

let gridHead: usize = 0; // i32 per hash slot: first sample, -1
let gridNext: usize = 0; // i32 per sample: next in the slot
let gridBits: u32 = 0;
let gridInv: f32 = 1;

function gridBuild(pts: usize, n: i32, cell: f32): bool {
  let size: u32 = 64;
  while (size < <u32>n * 2) size <<= 1;
  gridHead = arenaAlloc(<usize>size * 4);
  gridNext = arenaAlloc(<usize>n * 4 + 4);
  if (gridHead == 0 || gridNext == 0) return false;
  memory.fill(gridHead, 0xff, <usize>size * 4);
  gridBits = size - 1;
  gridInv = 1 / cell;
  for (let i: i32 = 0; i < n; i++) {
    const p = pts + <usize>i * SAMPLE_BYTES;
    const h = hash3(cellOf(load<f32>(p), gridInv), cellOf(load<f32>(p, 4), gridInv), cellOf(load<f32>(p, 8), gridInv)) & gridBits;
    store<i32>(gridNext + <usize>i * 4, load<i32>(gridHead + <usize>h * 4));
    store<i32>(gridHead + <usize>h * 4, i);
  }
  return true;
}

// ---------------------------------------------------------------- FPFH

const BINS: i32 = 11;
let spfh: usize = 0; // 33 f32 per sample
let nbrCount: usize = 0; // i32 per sample

@inline function bin(v: f32, lo: f32, hi: f32): i32 {
  let b = <i32>((v - lo) / (hi - lo) * <f32>BINS);
  if (b < 0) b = 0;
  if (b >= BINS) b = BINS - 1;
  return b;
}

/** Adds the pair feature of (p, q) to histogram h (33 f32). */
function pairFeature(p: usize, q: usize, h: usize): void {
  let dx = load<f32>(q) - load<f32>(p);
  let dy = load<f32>(q, 4) - load<f32>(p, 4);
  let dz = load<f32>(q, 8) - load<f32>(p, 8);
  const d = Mathf.sqrt(dx * dx + dy * dy + dz * dz);
  if (d < 1e-9) return;
  dx /= d;
  dy /= d;
  dz /= d;
  let n1x = load<f32>(p, 12), n1y = load<f32>(p, 16), n1z = load<f32>(p, 20);
  let n2x = load<f32>(q, 12), n2y = load<f32>(q, 16), n2z = load<f32>(q, 20);
  const a1 = n1x * dx + n1y * dy + n1z * dz;
  const a2 = n2x * dx + n2y * dy + n2z * dz;
  let f3: f32;
  if (Mathf.abs(a1) < Mathf.abs(a2)) {
    // the source is the point whose normal is closer to the line (PCL's choice)
    let t = n1x; n1x = n2x; n2x = t;
    t = n1y; n1y = n2y; n2y = t;
    t = n1z; n1z = n2z; n2z = t;
    dx = -dx;
    dy = -dy;
    dz = -dz;
    f3 = -a2;
  } else {
    f3 = a1;
  }
  // v = d x n1, w = n1 x v
  let vx = dy * n1z - dz * n1y, vy = dz * n1x - dx * n1z, vz = dx * n1y - dy * n1x;
  const vl = Mathf.sqrt(vx * vx + vy * vy + vz * vz);
  if (vl < 1e-9) return;
  vx /= vl;
  vy /= vl;
  vz /= vl;
  const wx = n1y * vz - n1z * vy, wy = n1z * vx - n1x * vz, wz = n1x * vy - n1y * vx;
  const f2 = vx * n2x + vy * n2y + vz * n2z;
  const f1 = Mathf.atan2(wx * n2x + wy * n2y + wz * n2z, n1x * n2x + n1y * n2y + n1z * n2z);
  const b1 = bin(f1, -Mathf.PI, Mathf.PI);
  const b2 = bin(f2, -1, 1) + BINS;
  const b3 = bin(f3, -1, 1) + 2 * BINS;
  store<f32>(h + <usize>b1 * 4, load<f32>(h + <usize>b1 * 4) + 1);
  store<f32>(h + <usize>b2 * 4, load<f32>(h + <usize>b2 * 4) + 1);
  store<f32>(h + <usize>b3 * 4, load<f32>(h + <usize>b3 * 4) + 1);
}

/**
 * FPFH descriptors of `n` samples with neighbours within `radius`: the pair
 * features (angle between normals around the Darboux frame, and the two
 * normal-to-line cosines) histogrammed over the neighbours (SPFH, each
 * 11-bin block normalised to 100), then each sample's SPFH plus the
 * 1/distance-weighted mean of its neighbours' (normalised to 100 per block).
 * Writes 36 f32 per sample at `out`. Returns the mean neighbour count, or -1
 * when out of memory.
 */
export function biteFpfh(pts: usize, n: i32, radius: f32, out: usize): f32 {
  if (n <= 0) return 0;
  const mark = arenaMark();
  spfh = arenaAlloc(<usize>n * 132);
  nbrCount = arenaAlloc(<usize>n * 4);
  if (spfh == 0 || nbrCount == 0 || !gridBuild(pts, n, radius)) {
    arenaRelease(mark);
    return -1;
  }
  memory.fill(spfh, 0, <usize>n * 132);
  const r2 = radius * radius;
  let total: f64 = 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let i: i32 = 0; i < n; i++) {
      const p = pts + <usize>i * SAMPLE_BYTES;
      const px = load<f32>(p), py = load<f32>(p, 4), pz = load<f32>(p, 8);
      const cx = cellOf(px, gridInv), cy = cellOf(py, gridInv), cz = cellOf(pz, gridInv);
      const h = spfh + <usize>i * 132;
      const o = out + <usize>i * DESC_BYTES;
      if (pass == 1) memory.fill(o, 0, DESC_BYTES);
      let count: i32 = 0;
      let wsum: f32 = 0;
      for (let a = -1; a <= 1; a++) {
        for (let b = -1; b <= 1; b++) {
          for (let c = -1; c <= 1; c++) {
            const slot = hash3(cx + a, cy + b, cz + c) & gridBits;
            let j = load<i32>(gridHead + <usize>slot * 4);
            while (j >= 0) {
              if (j != i) {
                const q = pts + <usize>j * SAMPLE_BYTES;
                const ex = load<f32>(q) - px, ey = load<f32>(q, 4) - py, ez = load<f32>(q, 8) - pz;
                const d2 = ex * ex + ey * ey + ez * ez;
                // a hash collision may list a slot twice: count each true neighbour once per cell
                if (d2 <= r2 && cellOf(load<f32>(q), gridInv) == cx + a && cellOf(load<f32>(q, 4), gridInv) == cy + b && cellOf(load<f32>(q, 8), gridInv) == cz + c) {
                  if (pass == 0) {
                    pairFeature(p, q, h);
                    count++;
                  } else {
                    const w: f32 = 1 / Mathf.max(Mathf.sqrt(d2), 1e-3);
                    const hq = spfh + <usize>j * 132;
                    for (let k = 0; k < 33; k++) store<f32>(o + <usize>k * 4, load<f32>(o + <usize>k * 4) + w * load<f32>(hq + <usize>k * 4));
                    wsum += w;
                  }
                }
              }
              j = load<i32>(gridNext + <usize>j * 4);
            }
          }
        }
      }
      if (pass == 0) {
        store<i32>(nbrCount + <usize>i * 4, count);
        total += <f64>count;
        if (count > 0) {
          const s: f32 = 100 / <f32>count;
          for (let k = 0; k < 33; k++) store<f32>(h + <usize>k * 4, load<f32>(h + <usize>k * 4) * s);
        }
      } else {
        const s: f32 = wsum > 0 ? 1 / wsum : 0;
        for (let blk = 0; blk < 3; blk++) {
          let sum: f32 = 0;
          for (let k = blk * BINS; k < blk * BINS + BINS; k++) {
            const v = load<f32>(h + <usize>k * 4) + s * load<f32>(o + <usize>k * 4);
            store<f32>(o + <usize>k * 4, v);
            sum += v;
          }
          const norm: f32 = sum > 0 ? 100 / sum : 0;
          for (let k = blk * BINS; k < blk * BINS + BINS; k++) store<f32>(o + <usize>k * 4, load<f32>(o + <usize>k * 4) * norm);
        }
      }
    }
  }
  arenaRelease(mark);
  return <f32>(total / <f64>n);
}

/**
 * Mean squared distance of the descriptors to their mean, over the mean
 * squared norm: near 0 when every sample looks the same (a sphere, a plane),
 * larger for varied anatomy. Scratch-free.
 */
export function biteDescriptorSpread(desc: usize, n: i32): f32 {
  if (n <= 1) return 0;
  let mean = memory.data(DESC_FLOATS * 4, 16);
  memory.fill(mean, 0, DESC_BYTES);
  for (let i: i32 = 0; i < n; i++) {
    const d = desc + <usize>i * DESC_BYTES;
    for (let k = 0; k < 9; k++) v128.store(mean + <usize>k * 16, f32x4.add(v128.load(mean + <usize>k * 16), v128.load(d + <usize>k * 16)));
  }
  const inv: f32 = 1 / <f32>n;
  for (let k = 0; k < 9; k++) v128.store(mean + <usize>k * 16, f32x4.mul(v128.load(mean + <usize>k * 16), f32x4.splat(inv)));
  let spread: f64 = 0;
  let norm: f64 = 0;
  for (let i: i32 = 0; i < n; i++) {
    const d = desc + <usize>i * DESC_BYTES;
    let acc = f32x4.splat(0);
    let acc2 = f32x4.splat(0);
    for (let k = 0; k < 9; k++) {
      const v = v128.load(d + <usize>k * 16);
      const e = f32x4.sub(v, v128.load(mean + <usize>k * 16));
      acc = f32x4.add(acc, f32x4.mul(e, e));
      acc2 = f32x4.add(acc2, f32x4.mul(v, v));
    }
    spread += <f64>(f32x4.extract_lane(acc, 0) + f32x4.extract_lane(acc, 1) + f32x4.extract_lane(acc, 2) + f32x4.extract_lane(acc, 3));
    norm += <f64>(f32x4.extract_lane(acc2, 0) + f32x4.extract_lane(acc2, 1) + f32x4.extract_lane(acc2, 2) + f32x4.extract_lane(acc2, 3));
  }
  return norm > 0 ? <f32>(spread / norm) : 0;
}
