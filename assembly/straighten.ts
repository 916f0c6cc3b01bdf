// Straightening: the rigid transform that puts a dental model (an upper or
// lower jaw: teeth on gum and base, or teeth alone) into the canonical frame
// of docs/geometry.md ("Straightening"): occlusal plane z = 0, patient's
// z up, incisors towards -y, midline on x = 0. Boxes and other shapes that are
// not arches get their faces aligned with the axes instead.
//
// Protocol (driven by workers/kernels/straighten.ts):
//   1. straightenBegin(pos, idx, vertices, triangles)
//   2. straightenMoments(start, end) over triangle ranges: area, centroid and
//      second moments of the surface
//   3. straightenFinish(jaw) the rest (a few passes over the mesh and small
//      grids in a scratch region of the arena, released at the end); returns
//      the method (1 arch, 2 box) or a negative status
//   4. straightenResultPtr(): f64[48], see the R_* offsets
//
// Method for an arch (the occlusal side is the teeth's side):
//   - the normal of the occlusal plane starts as the axis of least variance
//     of the area-weighted surface (PCA);
//   - its sign: a flat base (a cluster of >= 8 % of the area whose normals
//     agree within about 10 degrees, within 40 degrees of the axis, lying at
//     the model's far end along its normal) faces away from the teeth; without one, the teeth are on the side with more
//     surface facing along the axis (occlusal tables face outwards, roots and
//     open scan edges do not);
//   - a height map seen from the teeth side gives the cusp tips (local maxima);
//     a least-squares plane through the tips near the top (bands shrinking
//     from 9 mm to 2.5 mm below it, outliers above dropped) is the occlusal
//     plane; repeated with the tilted normal until it moves less than 0.3°;
//   - the crown band (cells within 5 mm of that plane) is the
//     arch's footprint; its mirror symmetry line (search over angle and
//     offset, scored by a distance transform of the footprint) is the midline;
//   - the U opens backwards: the distance from the midline grows towards the
//     back, so the sign of corr(t, |x|) along the midline says where the
//     front is.

import { arenaAlloc, arenaMark, arenaRelease } from './arena';

const STRAIGHTEN_OK: i32 = 0;
const STRAIGHTEN_EMPTY: i32 = -1;
const STRAIGHTEN_OUT_OF_MEMORY: i32 = -2;

const METHOD_ARCH: i32 = 1;
const METHOD_BOX: i32 = 2;

// Result layout (f64 slots).
const R_MATRIX = 0; // 16, column-major, model -> canonical
const R_INVERSE = 16; // 16, canonical -> model
const R_QUALITY = 32; // 0..1
const R_METHOD = 33; // METHOD_*
const R_TEETH_SIDE_CUE = 34; // 1 flat base, 2 facing area, 0 box
const R_TIPS = 35; // cusp tips in the final plane fit
const R_SYMMETRY = 36; // mean mirror distance / arch size
const R_ARCH_CORR = 37; // corr(t, |x|)
const R_PLANE_RMS = 38; // rms distance of the tips to the plane / arch size
const R_NORMAL = 39; // 3: occlusal normal towards the teeth, model frame
const R_FLAT = 42; // area fraction of the largest flat cluster
const R_ARCH_SIZE = 43; // in model units
const R_BOX_REASON = 44; // why the box method was used: 0 it was not, 1 asked, 2 no thin axis, 3 < 3 cusp tips, 4 tiny crown band, 5 no U
const R_SLOTS = 48;

const OUT = memory.data(8 * R_SLOTS);
const ACC = memory.data(8 * 16);
const BOX_AXES = memory.data(8 * 9);

@inline function outSet(i: i32, v: f64): void {
  store<f64>(OUT + (<usize>i << 3), v);
}
@inline function acc(i: i32): f64 {
  return load<f64>(ACC + (<usize>i << 3));
}
@inline function accAdd(i: i32, v: f64): void {
  store<f64>(ACC + (<usize>i << 3), load<f64>(ACC + (<usize>i << 3)) + v);
}

// ---- the mesh of the current job
let gPos: usize = 0;
let gIdx: usize = 0;
let gV: u32 = 0;
let gT: u32 = 0;
let refX: f64 = 0, refY: f64 = 0, refZ: f64 = 0;

@inline function px(v: u32): f64 { return <f64>load<f32>(gPos + (<usize>v) * 12); }
@inline function py(v: u32): f64 { return <f64>load<f32>(gPos + (<usize>v) * 12 + 4); }
@inline function pz(v: u32): f64 { return <f64>load<f32>(gPos + (<usize>v) * 12 + 8); }
@inline function corner(t: u32, k: u32): u32 { return load<u32>(gIdx + ((<usize>t) * 3 + k) * 4); }

export function straightenResultPtr(): usize {
  return OUT;
}

export function straightenBegin(pos: usize, idx: usize, vertices: u32, triangles: u32): i32 {
  gPos = pos;
  gIdx = idx;
  gV = vertices;
  gT = triangles;
  memory.fill(ACC, 0, 8 * 16);
  memory.fill(OUT, 0, 8 * R_SLOTS);
  if (vertices == 0 || triangles == 0) return STRAIGHTEN_EMPTY;
  // Moments about a vertex of the mesh keep the sums well conditioned far from the origin.
  refX = px(0);
  refY = py(0);
  refZ = pz(0);
  return STRAIGHTEN_OK;
}

/** Area, first and second moments of triangles [start, end). */
export function straightenMoments(start: u32, end: u32): void {
  if (end > gT) end = gT;
  let A: f64 = 0, sx: f64 = 0, sy: f64 = 0, sz: f64 = 0;
  let xx: f64 = 0, xy: f64 = 0, xz: f64 = 0, yy: f64 = 0, yz: f64 = 0, zz: f64 = 0;
  for (let t = start; t < end; t++) {
    const a = corner(t, 0), b = corner(t, 1), c = corner(t, 2);
    const ax = px(a) - refX, ay = py(a) - refY, az = pz(a) - refZ;
    const bx = px(b) - refX, by = py(b) - refY, bz = pz(b) - refZ;
    const cx = px(c) - refX, cy = py(c) - refY, cz = pz(c) - refZ;
    const ux = bx - ax, uy = by - ay, uz = bz - az;
    const vx = cx - ax, vy = cy - ay, vz = cz - az;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const ar = 0.5 * Math.sqrt(nx * nx + ny * ny + nz * nz);
    const Sx = ax + bx + cx, Sy = ay + by + cy, Sz = az + bz + cz;
    A += ar;
    sx += ar * Sx;
    sy += ar * Sy;
    sz += ar * Sz;
    const w = ar / 12;
    xx += w * (ax * ax + bx * bx + cx * cx + Sx * Sx);
    xy += w * (ax * ay + bx * by + cx * cy + Sx * Sy);
    xz += w * (ax * az + bx * bz + cx * cz + Sx * Sz);
    yy += w * (ay * ay + by * by + cy * cy + Sy * Sy);
    yz += w * (ay * az + by * bz + cy * cz + Sy * Sz);
    zz += w * (az * az + bz * bz + cz * cz + Sz * Sz);
  }
  accAdd(0, A);
  accAdd(1, sx / 3);
  accAdd(2, sy / 3);
  accAdd(3, sz / 3);
  accAdd(4, xx);
  accAdd(5, xy);
  accAdd(6, xz);
  accAdd(7, yy);
  accAdd(8, yz);
  accAdd(9, zz);
}

// ---------------------------------------------------------------- 3x3 symmetric eigen (Jacobi)

const EIG_A = memory.data(8 * 9);
const EIG_V = memory.data(8 * 9);
@inline function ea(r: i32, c: i32): f64 { return load<f64>(EIG_A + (<usize>(r * 3 + c) << 3)); }
@inline function eaSet(r: i32, c: i32, v: f64): void { store<f64>(EIG_A + (<usize>(r * 3 + c) << 3), v); }
@inline function ev(r: i32, c: i32): f64 { return load<f64>(EIG_V + (<usize>(r * 3 + c) << 3)); }
@inline function evSet(r: i32, c: i32, v: f64): void { store<f64>(EIG_V + (<usize>(r * 3 + c) << 3), v); }

/** Diagonalises EIG_A in place; eigenvectors are the columns of EIG_V. */
function jacobi3(): void {
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) evSet(r, c, r == c ? 1.0 : 0.0);
  for (let sweep = 0; sweep < 60; sweep++) {
    const off = Math.abs(ea(0, 1)) + Math.abs(ea(0, 2)) + Math.abs(ea(1, 2));
    const diag = Math.abs(ea(0, 0)) + Math.abs(ea(1, 1)) + Math.abs(ea(2, 2));
    if (off <= 1e-15 * diag || off == 0) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = ea(p, q);
        if (apq == 0) continue;
        const th = (ea(q, q) - ea(p, p)) / (2 * apq);
        const t = (th >= 0 ? 1.0 : -1.0) / (Math.abs(th) + Math.sqrt(th * th + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let r = 0; r < 3; r++) {
          const arp = ea(r, p), arq = ea(r, q);
          eaSet(r, p, c * arp - s * arq);
          eaSet(r, q, s * arp + c * arq);
        }
        for (let r = 0; r < 3; r++) {
          const apr = ea(p, r), aqr = ea(q, r);
          eaSet(p, r, c * apr - s * aqr);
          eaSet(q, r, s * apr + c * aqr);
        }
        for (let r = 0; r < 3; r++) {
          const vrp = ev(r, p), vrq = ev(r, q);
          evSet(r, p, c * vrp - s * vrq);
          evSet(r, q, s * vrp + c * vrq);
        }
      }
    }
  }
}

// ---------------------------------------------------------------- job state of straightenFinish

let cX: f64 = 0, cY: f64 = 0, cZ: f64 = 0; // area centroid
let l1: f64 = 0, l2: f64 = 0, l3: f64 = 0; // eigenvalues, descending
let e1x: f64 = 0, e1y: f64 = 0, e1z: f64 = 0;
let e2x: f64 = 0, e2y: f64 = 0, e2z: f64 = 0;
let e3x: f64 = 0, e3y: f64 = 0, e3z: f64 = 0;
// frame of the height map: u, v in the plane, n towards the teeth
let ux: f64 = 0, uy: f64 = 0, uz: f64 = 0;
let vx: f64 = 0, vy: f64 = 0, vz: f64 = 0;
let nx: f64 = 0, ny: f64 = 0, nz: f64 = 0;

// normal histogram: cube map, 6 x HB x HB bins of (area, sum nx, sum ny, sum nz)
const HB: i32 = 16;
const HBINS: i32 = 6 * HB * HB;
let hist: usize = 0;
let flatFrac: f64 = 0;
let flatX: f64 = 0, flatY: f64 = 0, flatZ: f64 = 0;
let upArea: f64 = 0, downArea: f64 = 0;
let totalArea: f64 = 0;

// height map
const GN: i32 = 256;
let hmap: usize = 0; // f32 heights, -inf when empty
let huv: usize = 0; // f32 (u, v) of the point that gave each cell its height
let gridU0: f64 = 0, gridV0: f64 = 0, cell: f64 = 1, archSize: f64 = 1;
let mm: f64 = 1; // one millimetre in model units

// cusp tips (u, v, h) f64 triples
let tips: usize = 0;
let tipCap: i32 = 0;
let tipCount: i32 = 0;
let planeA: f64 = 0, planeB: f64 = 0, planeC: f64 = 0; // h = A u + B v + C
let planeUsed: i32 = 0;
let planeRms: f64 = 0;

@inline function cellAt(i: i32, j: i32): usize {
  return (<usize>(j * GN + i)) << 2;
}

function normalHistogram(): void {
  memory.fill(hist, 0, <usize>HBINS * 32);
  upArea = 0;
  downArea = 0;
  totalArea = 0;
  for (let t: u32 = 0; t < gT; t++) {
    const a = corner(t, 0), b = corner(t, 1), c = corner(t, 2);
    const ax = px(a), ay = py(a), az = pz(a);
    const qx = px(b) - ax, qy = py(b) - ay, qz = pz(b) - az;
    const rx = px(c) - ax, ry = py(c) - ay, rz = pz(c) - az;
    let fx = qy * rz - qz * ry, fy = qz * rx - qx * rz, fz = qx * ry - qy * rx;
    const l = Math.sqrt(fx * fx + fy * fy + fz * fz);
    if (!(l > 0)) continue;
    const ar = 0.5 * l;
    fx /= l;
    fy /= l;
    fz /= l;
    totalArea += ar;
    const d = fx * e3x + fy * e3y + fz * e3z;
    if (d > 0.7) upArea += ar;
    else if (d < -0.7) downArea += ar;
    // cube-map bin
    const axx = Math.abs(fx), ayy = Math.abs(fy), azz = Math.abs(fz);
    let face = 0;
    let s: f64 = 0, q: f64 = 0;
    if (axx >= ayy && axx >= azz) {
      face = fx > 0 ? 0 : 1;
      s = fy / axx;
      q = fz / axx;
    } else if (ayy >= azz) {
      face = fy > 0 ? 2 : 3;
      s = fx / ayy;
      q = fz / ayy;
    } else {
      face = fz > 0 ? 4 : 5;
      s = fx / azz;
      q = fy / azz;
    }
    let i = <i32>((s + 1) * 0.5 * HB);
    let j = <i32>((q + 1) * 0.5 * HB);
    if (i >= HB) i = HB - 1;
    if (j >= HB) j = HB - 1;
    if (i < 0) i = 0;
    if (j < 0) j = 0;
    const p = hist + (<usize>((face * HB + j) * HB + i)) * 32;
    store<f64>(p, load<f64>(p) + ar);
    store<f64>(p, load<f64>(p, 8) + ar * fx, 8);
    store<f64>(p, load<f64>(p, 16) + ar * fy, 16);
    store<f64>(p, load<f64>(p, 24) + ar * fz, 24);
  }
}

/**
 * The largest cluster of normals (bins whose mean lies within ~12° of the
 * heaviest bin's), skipping directions with |dot(dir, avoid)| >= maxDot.
 * Sets flatFrac and flatX/Y/Z (unit mean normal).
 */
function largestCluster(avoidX: f64, avoidY: f64, avoidZ: f64, maxDot: f64): void {
  let best: i32 = -1;
  let bestArea: f64 = 0;
  for (let b = 0; b < HBINS; b++) {
    const p = hist + (<usize>b) * 32;
    const ar = load<f64>(p);
    if (ar <= bestArea) continue;
    const mx = load<f64>(p, 8), my = load<f64>(p, 16), mz = load<f64>(p, 24);
    const ml = Math.sqrt(mx * mx + my * my + mz * mz);
    if (Math.abs((mx * avoidX + my * avoidY + mz * avoidZ) / ml) >= maxDot) continue;
    best = b;
    bestArea = ar;
  }
  flatFrac = 0;
  if (best < 0) return;
  const pb = hist + (<usize>best) * 32;
  let bx = load<f64>(pb, 8), by = load<f64>(pb, 16), bz = load<f64>(pb, 24);
  let bl = Math.sqrt(bx * bx + by * by + bz * bz);
  bx /= bl;
  by /= bl;
  bz /= bl;
  let sa: f64 = 0, sx: f64 = 0, sy: f64 = 0, sz: f64 = 0;
  for (let b = 0; b < HBINS; b++) {
    const p = hist + (<usize>b) * 32;
    const ar = load<f64>(p);
    if (ar == 0) continue;
    const mx = load<f64>(p, 8), my = load<f64>(p, 16), mz = load<f64>(p, 24);
    const ml = Math.sqrt(mx * mx + my * my + mz * mz);
    if ((mx * bx + my * by + mz * bz) / ml < 0.978) continue; // ~12°
    sa += ar;
    sx += mx;
    sy += my;
    sz += mz;
  }
  const l = Math.sqrt(sx * sx + sy * sy + sz * sz);
  flatX = sx / l;
  flatY = sy / l;
  flatZ = sz / l;
  // Tightness: a flat face's normals agree, so |sum n| ~ sum area.
  flatFrac = totalArea > 0 ? (l / totalArea) : 0;
  if (sa > 0 && l / sa < 0.98) flatFrac *= 0.5; // a spread-out cluster is not a flat base
}

/**
 * True when the faces facing (dx, dy, dz) within ~12° lie at the model's far
 * end along that direction, as a plinth's base does (a ridge or a row of
 * flat crowns in the middle of the model does not).
 */
function atExtreme(dx: f64, dy: f64, dz: f64): bool {
  let hmin = Infinity, hmax = -Infinity;
  for (let i: u32 = 0; i < gV; i++) {
    const h = px(i) * dx + py(i) * dy + pz(i) * dz;
    if (h < hmin) hmin = h;
    if (h > hmax) hmax = h;
  }
  let sa: f64 = 0, sh: f64 = 0;
  for (let t: u32 = 0; t < gT; t++) {
    const a = corner(t, 0), b = corner(t, 1), c = corner(t, 2);
    const ax = px(a), ay = py(a), az = pz(a);
    const qx = px(b) - ax, qy = py(b) - ay, qz = pz(b) - az;
    const rx = px(c) - ax, ry = py(c) - ay, rz = pz(c) - az;
    const fx = qy * rz - qz * ry, fy = qz * rx - qx * rz, fz = qx * ry - qy * rx;
    const l = Math.sqrt(fx * fx + fy * fy + fz * fz);
    if (!(l > 0) || (fx * dx + fy * dy + fz * dz) < 0.978 * l) continue;
    const h = ((ax + px(b) + px(c)) * dx + (ay + py(b) + py(c)) * dy + (az + pz(b) + pz(c)) * dz) / 3;
    sa += l;
    sh += l * h;
  }
  if (!(sa > 0) || !(hmax > hmin)) return false;
  return hmax - sh / sa < 0.1 * (hmax - hmin);
}

/** u, v: the in-plane axes from e1 and n. */
function planeAxes(): void {
  let d = e1x * nx + e1y * ny + e1z * nz;
  let ax = e1x - d * nx, ay = e1y - d * ny, az = e1z - d * nz;
  let l = Math.sqrt(ax * ax + ay * ay + az * az);
  if (l < 1e-6) {
    d = e2x * nx + e2y * ny + e2z * nz;
    ax = e2x - d * nx;
    ay = e2y - d * ny;
    az = e2z - d * nz;
    l = Math.sqrt(ax * ax + ay * ay + az * az);
  }
  ux = ax / l;
  uy = ay / l;
  uz = az / l;
  vx = ny * uz - nz * uy;
  vy = nz * ux - nx * uz;
  vz = nx * uy - ny * ux;
}

/** The height map seen from +n over the (u, v) plane, GN x GN cells. */
function heightMap(): void {
  let umin = Infinity, umax = -Infinity, vmin = Infinity, vmax = -Infinity;
  for (let i: u32 = 0; i < gV; i++) {
    const x = px(i) - cX, y = py(i) - cY, z = pz(i) - cZ;
    const u = x * ux + y * uy + z * uz, v = x * vx + y * vy + z * vz;
    if (u < umin) umin = u;
    if (u > umax) umax = u;
    if (v < vmin) vmin = v;
    if (v > vmax) vmax = v;
  }
  archSize = Math.max(umax - umin, vmax - vmin);
  if (!(archSize > 0)) archSize = 1;
  // Dental models come in millimetres (an arch is 40-120 mm across); a
  // model far outside that is taken to be in other units and scaled.
  mm = archSize >= 20 && archSize <= 250 ? 1 : archSize / 70;
  cell = archSize / <f64>(GN - 8);
  gridU0 = (umin + umax) * 0.5 - cell * <f64>(GN / 2);
  gridV0 = (vmin + vmax) * 0.5 - cell * <f64>(GN / 2);
  const n = <usize>(GN * GN);
  for (let k: usize = 0; k < n; k++) store<f32>(hmap + (k << 2), -Infinity);
  const inv = 1 / cell;
  for (let i: u32 = 0; i < gV; i++) {
    const x = px(i) - cX, y = py(i) - cY, z = pz(i) - cZ;
    const u = x * ux + y * uy + z * uz, v = x * vx + y * vy + z * vz, h = x * nx + y * ny + z * nz;
    const ci = <i32>((u - gridU0) * inv), cj = <i32>((v - gridV0) * inv);
    if (ci < 0 || cj < 0 || ci >= GN || cj >= GN) continue;
    const o = cellAt(ci, cj);
    if (<f32>h > load<f32>(hmap + o)) {
      store<f32>(hmap + o, <f32>h);
      store<f32>(huv + (o << 1), <f32>u);
      store<f32>(huv + (o << 1), <f32>v, 4);
    }
  }
  // Triangles wider than a cell (coarse or decimated meshes) also fill the
  // cells between their corners, so that lone corners do not pose as cusps.
  for (let t: u32 = 0; t < gT; t++) {
    const a = corner(t, 0), b = corner(t, 1), c = corner(t, 2);
    const ax = px(a) - cX, ay = py(a) - cY, az = pz(a) - cZ;
    const bx = px(b) - cX, by = py(b) - cY, bz = pz(b) - cZ;
    const qx = px(c) - cX, qy = py(c) - cY, qz = pz(c) - cZ;
    const au = ax * ux + ay * uy + az * uz, av = ax * vx + ay * vy + az * vz;
    const bu = bx * ux + by * uy + bz * uz, bv = bx * vx + by * vy + bz * vz;
    const cu = qx * ux + qy * uy + qz * uz, cv = qx * vx + qy * vy + qz * vz;
    const e = Math.max(Math.max(Math.abs(bu - au) + Math.abs(bv - av), Math.abs(cu - bu) + Math.abs(cv - bv)), Math.abs(au - cu) + Math.abs(av - cv));
    if (e <= 1.5 * cell) continue;
    const ah = ax * nx + ay * ny + az * nz, bh = bx * nx + by * ny + bz * nz, ch = qx * nx + qy * ny + qz * nz;
    const n = <i32>Math.min(64, Math.ceil(e * inv));
    const step = 1 / <f64>n;
    for (let i = 0; i <= n; i++) {
      for (let j = 0; i + j <= n; j++) {
        if ((i == 0 && (j == 0 || j == n)) || i == n) continue; // the corners are in already
        const wb = <f64>i * step, wc = <f64>j * step, wa = 1 - wb - wc;
        const u = wa * au + wb * bu + wc * cu, v = wa * av + wb * bv + wc * cv, h = wa * ah + wb * bh + wc * ch;
        const ci = <i32>((u - gridU0) * inv), cj = <i32>((v - gridV0) * inv);
        if (ci < 0 || cj < 0 || ci >= GN || cj >= GN) continue;
        const o = cellAt(ci, cj);
        if (<f32>h > load<f32>(hmap + o)) {
          store<f32>(hmap + o, <f32>h);
          store<f32>(huv + (o << 1), <f32>u);
          store<f32>(huv + (o << 1), <f32>v, 4);
        }
      }
    }
  }
}

/** Local maxima of the height map within a square window: the (u, v, h) of the points that made them. */
function findTips(): void {
  tipCount = 0;
  // Window: 1.5 mm either way, a cusp's radius.
  const r = <i32>Math.min(10, Math.max(2, Math.round(1.5 * mm / cell)));
  for (let j = r; j < GN - r; j++) {
    for (let i = r; i < GN - r; i++) {
      const h = load<f32>(hmap + cellAt(i, j));
      if (h == -Infinity) continue;
      let isMax = true;
      let lowest: f32 = h;
      for (let dj = -r; dj <= r && isMax; dj++) {
        for (let di = -r; di <= r; di++) {
          const g = load<f32>(hmap + cellAt(i + di, j + dj));
          // Ties go to the first cell in scan order.
          if (g > h || (g == h && (dj < 0 || (dj == 0 && di < 0)))) {
            isMax = false;
            break;
          }
          if (g < lowest) lowest = g;
        }
      }
      if (!isMax) continue;
      if (tipCount >= tipCap) return;
      const o = cellAt(i, j);
      const p = tips + (<usize>tipCount) * 24;
      store<f64>(p, <f64>load<f32>(huv + (o << 1)));
      store<f64>(p, <f64>load<f32>(huv + (o << 1), 4), 8);
      store<f64>(p, <f64>h, 16);
      tipCount++;
    }
  }
}

const SOLVE = memory.data(8 * 12);
@inline function sv(i: i32): f64 { return load<f64>(SOLVE + (<usize>i << 3)); }
@inline function svSet(i: i32, v: f64): void { store<f64>(SOLVE + (<usize>i << 3), v); }

/** Least-squares plane h = A u + B v + C through the tips within the band [-below, +above] of the current plane. */
function fitPlane(below: f64, above: f64): bool {
  let s00: f64 = 0, s01: f64 = 0, s02: f64 = 0, s11: f64 = 0, s12: f64 = 0, s22: f64 = 0;
  let t0: f64 = 0, t1: f64 = 0, t2: f64 = 0;
  let used = 0;
  for (let k = 0; k < tipCount; k++) {
    const p = tips + (<usize>k) * 24;
    const u = load<f64>(p), v = load<f64>(p, 8), h = load<f64>(p, 16);
    const r = h - (planeA * u + planeB * v + planeC);
    if (r < -below || r > above) continue;
    s00 += u * u;
    s01 += u * v;
    s02 += u;
    s11 += v * v;
    s12 += v;
    s22 += 1;
    t0 += u * h;
    t1 += v * h;
    t2 += h;
    used++;
  }
  if (used < 3) return false;
  // The tips must spread both ways in the plane (not on one line).
  const mu = s02 / s22, mv = s12 / s22;
  const cuu = s00 / s22 - mu * mu, cvv = s11 / s22 - mv * mv, cuv = s01 / s22 - mu * mv;
  const minSpread = 0.5 * (cuu + cvv) - Math.sqrt(0.25 * (cuu - cvv) * (cuu - cvv) + cuv * cuv);
  if (!(minSpread > 0.0025 * archSize * archSize)) return false; // 5 % of the size, squared
  // Solve the 3x3 normal equations by Cramer's rule.
  const det = s00 * (s11 * s22 - s12 * s12) - s01 * (s01 * s22 - s12 * s02) + s02 * (s01 * s12 - s11 * s02);
  if (!(Math.abs(det) > 1e-18 * (s00 * s11 * s22 + 1e-300))) return false;
  const a = (t0 * (s11 * s22 - s12 * s12) - s01 * (t1 * s22 - s12 * t2) + s02 * (t1 * s12 - s11 * t2)) / det;
  const b = (s00 * (t1 * s22 - t2 * s12) - t0 * (s01 * s22 - s12 * s02) + s02 * (s01 * t2 - t1 * s02)) / det;
  const c = (s00 * (s11 * t2 - s12 * t1) - s01 * (s01 * t2 - t1 * s02) + t0 * (s01 * s12 - s11 * s02)) / det;
  planeA = a;
  planeB = b;
  planeC = c;
  planeUsed = used;
  let rr: f64 = 0;
  for (let k = 0; k < tipCount; k++) {
    const p = tips + (<usize>k) * 24;
    const u = load<f64>(p), v = load<f64>(p, 8), h = load<f64>(p, 16);
    const r = h - (a * u + b * v + c);
    if (r < -below || r > above) continue;
    rr += r * r;
  }
  planeRms = Math.sqrt(rr / <f64>used);
  return true;
}

/** The occlusal plane in the current frame from the tips; false when there are too few. */
function occlusalPlane(): bool {
  if (tipCount < 3) return false;
  // Start level with the top of the tips (their 97th percentile, by a coarse scan).
  let top = -Infinity;
  for (let k = 0; k < tipCount; k++) top = Math.max(top, load<f64>(tips + (<usize>k) * 24, 16));
  let level = top;
  for (let iter = 0; iter < 40; iter++) {
    let above = 0;
    for (let k = 0; k < tipCount; k++) if (load<f64>(tips + (<usize>k) * 24, 16) > level) above++;
    if (<f64>above >= 0.03 * <f64>tipCount) break;
    level -= 0.1 * mm;
  }
  planeA = 0;
  planeB = 0;
  planeC = level;
  // Bands in millimetres: cusp tips lie within a millimetre or two of the
  // plane, papillae and gum margins 3 mm and more below it.
  if (!fitPlane(9 * mm, 5 * mm)) return false;
  fitPlane(6 * mm, 4 * mm);
  fitPlane(4 * mm, 3 * mm);
  fitPlane(3 * mm, 2.5 * mm);
  fitPlane(2.5 * mm, 2.5 * mm);
  fitPlane(2.5 * mm, 2.5 * mm);
  return true;
}

// footprint of the crown band and its distance transform
let dtmap: usize = 0;
let pts: usize = 0; // f64 (u, v) of sampled band cells
let ptCount: i32 = 0;
const PT_MAX: i32 = 4096;

function bandFootprint(depth: f64): i32 {
  const n = <usize>(GN * GN);
  let count = 0;
  for (let j = 0; j < GN; j++) {
    for (let i = 0; i < GN; i++) {
      const o = cellAt(i, j);
      const h = <f64>load<f32>(hmap + o);
      const u = gridU0 + (<f64>i + 0.5) * cell, v = gridV0 + (<f64>j + 0.5) * cell;
      const inBand = h != -Infinity && h >= planeA * u + planeB * v + planeC - depth;
      store<f32>(dtmap + o, inBand ? 0 : 1e9);
      if (inBand) count++;
    }
  }
  // Chamfer distance transform (1, sqrt 2), in cells.
  const D: f32 = 1.41421356;
  for (let j = 0; j < GN; j++) {
    for (let i = 0; i < GN; i++) {
      const o = cellAt(i, j);
      let d = load<f32>(dtmap + o);
      if (i > 0) d = min(d, load<f32>(dtmap + cellAt(i - 1, j)) + 1);
      if (j > 0) {
        d = min(d, load<f32>(dtmap + cellAt(i, j - 1)) + 1);
        if (i > 0) d = min(d, load<f32>(dtmap + cellAt(i - 1, j - 1)) + D);
        if (i < GN - 1) d = min(d, load<f32>(dtmap + cellAt(i + 1, j - 1)) + D);
      }
      store<f32>(dtmap + o, d);
    }
  }
  for (let j = GN - 1; j >= 0; j--) {
    for (let i = GN - 1; i >= 0; i--) {
      const o = cellAt(i, j);
      let d = load<f32>(dtmap + o);
      if (i < GN - 1) d = min(d, load<f32>(dtmap + cellAt(i + 1, j)) + 1);
      if (j < GN - 1) {
        d = min(d, load<f32>(dtmap + cellAt(i, j + 1)) + 1);
        if (i < GN - 1) d = min(d, load<f32>(dtmap + cellAt(i + 1, j + 1)) + D);
        if (i > 0) d = min(d, load<f32>(dtmap + cellAt(i - 1, j + 1)) + D);
      }
      store<f32>(dtmap + o, d);
    }
  }
  // Sample up to PT_MAX band cells, evenly by scan order.
  const stride = count > PT_MAX ? (count + PT_MAX - 1) / PT_MAX : 1;
  ptCount = 0;
  let seen = 0;
  for (let k: usize = 0; k < n; k++) {
    if (load<f32>(dtmap + (k << 2)) != 0) continue;
    if (seen++ % stride != 0) continue;
    if (ptCount >= PT_MAX) break;
    const i = <i32>(k % <usize>GN), j = <i32>(k / <usize>GN);
    const p = pts + (<usize>ptCount) * 16;
    store<f64>(p, gridU0 + (<f64>i + 0.5) * cell);
    store<f64>(p, gridV0 + (<f64>j + 0.5) * cell, 8);
    ptCount++;
  }
  return count;
}

/** Mean distance (cells, capped) from the mirror images of the band points to the band. */
function mirrorCost(theta: f64, d: f64): f64 {
  const mx = Math.cos(theta), my = Math.sin(theta);
  const inv = 1 / cell;
  const CAP: f64 = 20;
  let s: f64 = 0;
  for (let k = 0; k < ptCount; k++) {
    const p = pts + (<usize>k) * 16;
    const u = load<f64>(p), v = load<f64>(p, 8);
    const off = 2 * (mx * u + my * v - d);
    const mu = u - off * mx, mv = v - off * my;
    const ci = <i32>Math.floor((mu - gridU0) * inv), cj = <i32>Math.floor((mv - gridV0) * inv);
    if (ci < 0 || cj < 0 || ci >= GN || cj >= GN) {
      s += CAP;
      continue;
    }
    s += Math.min(CAP, <f64>load<f32>(dtmap + cellAt(ci, cj)));
  }
  return s / <f64>max(1, ptCount);
}

let symTheta: f64 = 0, symD: f64 = 0, symCost: f64 = 0;

function findMidline(): void {
  let cu: f64 = 0, cv: f64 = 0;
  for (let k = 0; k < ptCount; k++) {
    cu += load<f64>(pts + (<usize>k) * 16);
    cv += load<f64>(pts + (<usize>k) * 16, 8);
  }
  cu /= <f64>max(1, ptCount);
  cv /= <f64>max(1, ptCount);
  let best = Infinity, bt: f64 = 0, bd: f64 = 0;
  for (let a = 0; a < 90; a++) {
    const th = (<f64>a) * Math.PI / 90;
    const d0 = Math.cos(th) * cu + Math.sin(th) * cv;
    for (let s = -6; s <= 6; s++) {
      const d = d0 + (<f64>s) * 0.01 * archSize;
      const c = mirrorCost(th, d);
      if (c < best) {
        best = c;
        bt = th;
        bd = d;
      }
    }
  }
  // Refine around the best.
  const t0 = bt, d0 = bd;
  for (let a = -10; a <= 10; a++) {
    const th = t0 + (<f64>a) * 0.25 * Math.PI / 180;
    for (let s = -10; s <= 10; s++) {
      const d = d0 + (<f64>s) * 0.0015 * archSize;
      const c = mirrorCost(th, d);
      if (c < best) {
        best = c;
        bt = th;
        bd = d;
      }
    }
  }
  symTheta = bt;
  symD = bd;
  symCost = best;
}

// ---------------------------------------------------------------- output

/** Writes the matrix model -> canonical with rows X, Y, Z and origin O (model frame), and its inverse. */
function writeTransform(
  Xx: f64, Xy: f64, Xz: f64,
  Yx: f64, Yy: f64, Yz: f64,
  Zx: f64, Zy: f64, Zz: f64,
  Ox: f64, Oy: f64, Oz: f64,
): void {
  // Re-orthonormalise (Gram-Schmidt keeping Z, then Y).
  let l = Math.sqrt(Zx * Zx + Zy * Zy + Zz * Zz);
  Zx /= l; Zy /= l; Zz /= l;
  let d = Yx * Zx + Yy * Zy + Yz * Zz;
  Yx -= d * Zx; Yy -= d * Zy; Yz -= d * Zz;
  l = Math.sqrt(Yx * Yx + Yy * Yy + Yz * Yz);
  Yx /= l; Yy /= l; Yz /= l;
  Xx = Yy * Zz - Yz * Zy;
  Xy = Yz * Zx - Yx * Zz;
  Xz = Yx * Zy - Yy * Zx;
  const tx = -(Xx * Ox + Xy * Oy + Xz * Oz);
  const ty = -(Yx * Ox + Yy * Oy + Yz * Oz);
  const tz = -(Zx * Ox + Zy * Oy + Zz * Oz);
  // column-major: M[col * 4 + row]
  outSet(R_MATRIX + 0, Xx); outSet(R_MATRIX + 1, Yx); outSet(R_MATRIX + 2, Zx); outSet(R_MATRIX + 3, 0);
  outSet(R_MATRIX + 4, Xy); outSet(R_MATRIX + 5, Yy); outSet(R_MATRIX + 6, Zy); outSet(R_MATRIX + 7, 0);
  outSet(R_MATRIX + 8, Xz); outSet(R_MATRIX + 9, Yz); outSet(R_MATRIX + 10, Zz); outSet(R_MATRIX + 11, 0);
  outSet(R_MATRIX + 12, tx); outSet(R_MATRIX + 13, ty); outSet(R_MATRIX + 14, tz); outSet(R_MATRIX + 15, 1);
  outSet(R_INVERSE + 0, Xx); outSet(R_INVERSE + 1, Xy); outSet(R_INVERSE + 2, Xz); outSet(R_INVERSE + 3, 0);
  outSet(R_INVERSE + 4, Yx); outSet(R_INVERSE + 5, Yy); outSet(R_INVERSE + 6, Yz); outSet(R_INVERSE + 7, 0);
  outSet(R_INVERSE + 8, Zx); outSet(R_INVERSE + 9, Zy); outSet(R_INVERSE + 10, Zz); outSet(R_INVERSE + 11, 0);
  outSet(R_INVERSE + 12, Ox); outSet(R_INVERSE + 13, Oy); outSet(R_INVERSE + 14, Oz); outSet(R_INVERSE + 15, 1);
}

@inline function bx(i: i32): f64 { return load<f64>(BOX_AXES + (<usize>i << 3)); }
@inline function bxSet(i: i32, v: f64): void { store<f64>(BOX_AXES + (<usize>i << 3), v); }

/**
 * Not an arch: align the dominant face directions with the axes (the signed
 * permutation closest to the identity, so an aligned box stays put) and put
 * the centre of the aligned bounding box at the origin.
 */
function straightenBox(): void {
  largestCluster(0, 0, 0, 2);
  const f1 = flatFrac;
  let ax = flatX, ay = flatY, az = flatZ;
  largestCluster(ax, ay, az, 0.25);
  const f2 = flatFrac;
  let bxx = flatX, byy = flatY, bzz = flatZ;
  if (f1 < 0.02 || f2 < 0.02) {
    ax = e1x; ay = e1y; az = e1z;
    bxx = e2x; byy = e2y; bzz = e2z;
  }
  // Orthogonalise b against a; c = a x b.
  const d = bxx * ax + byy * ay + bzz * az;
  bxx -= d * ax; byy -= d * ay; bzz -= d * az;
  const l = Math.sqrt(bxx * bxx + byy * byy + bzz * bzz);
  bxx /= l; byy /= l; bzz /= l;
  const cx = ay * bzz - az * byy, cy = az * bxx - ax * bzz, cz = ax * byy - ay * bxx;
  bxSet(0, ax); bxSet(1, ay); bxSet(2, az);
  bxSet(3, bxx); bxSet(4, byy); bxSet(5, bzz);
  bxSet(6, cx); bxSet(7, cy); bxSet(8, cz);
  // Rows of R: axis perm[r] with sign; maximise the trace with det +1.
  let bestTrace = -Infinity;
  let bp0 = 0, bp1 = 1, bp2 = 2;
  let bs0: f64 = 1, bs1: f64 = 1, bs2: f64 = 1;
  for (let p0 = 0; p0 < 3; p0++) {
    for (let p1 = 0; p1 < 3; p1++) {
      if (p1 == p0) continue;
      const p2 = 3 - p0 - p1;
      for (let sgn = 0; sgn < 8; sgn++) {
        const s0: f64 = (sgn & 1) != 0 ? -1 : 1, s1: f64 = (sgn & 2) != 0 ? -1 : 1, s2: f64 = (sgn & 4) != 0 ? -1 : 1;
        // det of rows (s0 a_p0, s1 a_p1, s2 a_p2): the sign of the permutation times the signs.
        const parity: f64 = (p0 == 0 && p1 == 1) || (p0 == 1 && p1 == 2) || (p0 == 2 && p1 == 0) ? 1 : -1;
        if (parity * s0 * s1 * s2 < 0) continue;
        const tr = s0 * bx(p0 * 3) + s1 * bx(p1 * 3 + 1) + s2 * bx(p2 * 3 + 2);
        if (tr > bestTrace) {
          bestTrace = tr;
          bp0 = p0; bp1 = p1; bp2 = p2;
          bs0 = s0; bs1 = s1; bs2 = s2;
        }
      }
    }
  }
  const Xx = bs0 * bx(bp0 * 3), Xy = bs0 * bx(bp0 * 3 + 1), Xz = bs0 * bx(bp0 * 3 + 2);
  const Yx = bs1 * bx(bp1 * 3), Yy = bs1 * bx(bp1 * 3 + 1), Yz = bs1 * bx(bp1 * 3 + 2);
  const Zx = bs2 * bx(bp2 * 3), Zy = bs2 * bx(bp2 * 3 + 1), Zz = bs2 * bx(bp2 * 3 + 2);
  // Centre of the aligned bounding box.
  let mnx = Infinity, mny = Infinity, mnz = Infinity, mxx = -Infinity, mxy = -Infinity, mxz = -Infinity;
  for (let i: u32 = 0; i < gV; i++) {
    const x = px(i), y = py(i), z = pz(i);
    const a = Xx * x + Xy * y + Xz * z, b = Yx * x + Yy * y + Yz * z, c = Zx * x + Zy * y + Zz * z;
    mnx = Math.min(mnx, a); mxx = Math.max(mxx, a);
    mny = Math.min(mny, b); mxy = Math.max(mxy, b);
    mnz = Math.min(mnz, c); mxz = Math.max(mxz, c);
  }
  const ca = (mnx + mxx) * 0.5, cb = (mny + mxy) * 0.5, cc = (mnz + mxz) * 0.5;
  // Origin in model coordinates: R^T (ca, cb, cc).
  const Ox = Xx * ca + Yx * cb + Zx * cc, Oy = Xy * ca + Yy * cb + Zy * cc, Oz = Xz * ca + Yz * cb + Zz * cc;
  writeTransform(Xx, Xy, Xz, Yx, Yy, Yz, Zx, Zy, Zz, Ox, Oy, Oz);
  outSet(R_METHOD, <f64>METHOD_BOX);
  outSet(R_TEETH_SIDE_CUE, 0);
  outSet(R_QUALITY, Math.min(1, f1 + f2 > 0 ? (f1 + f2) * 1.5 : 0));
}

/**
 * Everything after the moments. `jaw`: 0 lower (teeth face +z), 1 upper
 * (teeth face -z), 2 box only. Returns METHOD_ARCH or METHOD_BOX, or a negative status.
 */
export function straightenFinish(jaw: i32): i32 {
  const A = acc(0);
  if (!(A > 0)) return STRAIGHTEN_EMPTY;
  const mx = acc(1) / A, my = acc(2) / A, mz = acc(3) / A;
  cX = refX + mx;
  cY = refY + my;
  cZ = refZ + mz;
  eaSet(0, 0, acc(4) / A - mx * mx);
  eaSet(0, 1, acc(5) / A - mx * my);
  eaSet(0, 2, acc(6) / A - mx * mz);
  eaSet(1, 1, acc(7) / A - my * my);
  eaSet(1, 2, acc(8) / A - my * mz);
  eaSet(2, 2, acc(9) / A - mz * mz);
  eaSet(1, 0, ea(0, 1));
  eaSet(2, 0, ea(0, 2));
  eaSet(2, 1, ea(1, 2));
  jacobi3();
  // Sort eigenpairs descending.
  let i1 = 0, i2 = 1, i3 = 2;
  if (ea(i1, i1) < ea(i2, i2)) { const t = i1; i1 = i2; i2 = t; }
  if (ea(i2, i2) < ea(i3, i3)) { const t = i2; i2 = i3; i3 = t; }
  if (ea(i1, i1) < ea(i2, i2)) { const t = i1; i1 = i2; i2 = t; }
  l1 = ea(i1, i1);
  l2 = ea(i2, i2);
  l3 = ea(i3, i3);
  e1x = ev(0, i1); e1y = ev(1, i1); e1z = ev(2, i1);
  e2x = ev(0, i2); e2y = ev(1, i2); e2z = ev(2, i2);
  e3x = ev(0, i3); e3y = ev(1, i3); e3z = ev(2, i3);

  const mark = arenaMark();
  hist = arenaAlloc(<usize>HBINS * 32);
  hmap = arenaAlloc(<usize>(GN * GN) * 4);
  huv = arenaAlloc(<usize>(GN * GN) * 8);
  dtmap = arenaAlloc(<usize>(GN * GN) * 4);
  tipCap = 16384;
  tips = arenaAlloc(<usize>tipCap * 24);
  pts = arenaAlloc(<usize>PT_MAX * 16);
  if (hist == 0 || hmap == 0 || huv == 0 || dtmap == 0 || tips == 0 || pts == 0) {
    arenaRelease(mark);
    return STRAIGHTEN_OUT_OF_MEMORY;
  }
  normalHistogram();
  let method = METHOD_BOX;
  if (jaw == 2) outSet(R_BOX_REASON, 1);
  else if (!(l2 - l3 > 0.15 * l2)) outSet(R_BOX_REASON, 2);
  else method = straightenArch(jaw);
  if (method == METHOD_BOX) straightenBox();
  arenaRelease(mark);
  return method;
}

/** Returns METHOD_ARCH when the model looks like an arch (and writes the result), else METHOD_BOX. */
function straightenArch(jaw: i32): i32 {
  // Which side are the teeth on?
  largestCluster(0, 0, 0, 2);
  const dotFlat = flatX * e3x + flatY * e3y + flatZ * e3z;
  let side: f64 = 1;
  let cue: f64 = 2;
  outSet(R_FLAT, flatFrac);
  if (flatFrac > 0.08 && Math.abs(dotFlat) > 0.766 && atExtreme(flatX, flatY, flatZ)) {
    side = dotFlat > 0 ? -1 : 1; // the base faces away from the teeth
    cue = 1;
  } else {
    side = upArea >= downArea ? 1 : -1;
  }
  nx = side * e3x;
  ny = side * e3y;
  nz = side * e3z;

  // Occlusal plane: height map, cusp tips, plane fit, tilt the normal, again.
  let ok = false;
  for (let round = 0; round < 5; round++) {
    planeAxes();
    heightMap();
    findTips();
    ok = occlusalPlane();
    if (!ok) break;
    const tilt = Math.sqrt(planeA * planeA + planeB * planeB);
    if (tilt < 0.005 || round == 4) break; // ~0.3°
    // Plane normal in the frame: (-A, -B, 1).
    let qx = nx - planeA * ux - planeB * vx;
    let qy = ny - planeA * uy - planeB * vy;
    let qz = nz - planeA * uz - planeB * vz;
    const l = Math.sqrt(qx * qx + qy * qy + qz * qz);
    nx = qx / l;
    ny = qy / l;
    nz = qz / l;
  }
  if (!ok) {
    outSet(R_BOX_REASON, 3);
    return METHOD_BOX;
  }

  // The arch's footprint (the crown band) and its mirror line.
  const count = bandFootprint(5 * mm);
  if (count < 50) {
    outSet(R_BOX_REASON, 4);
    return METHOD_BOX;
  }
  findMidline();
  const mx = Math.cos(symTheta), my = Math.sin(symTheta); // midline normal in (u, v)
  const wx = -my, wy = mx; // along the midline
  // corr(t, |x|): the arch widens towards the back.
  let st: f64 = 0, sa: f64 = 0, stt: f64 = 0, saa: f64 = 0, sta: f64 = 0;
  let tmin = Infinity, tmax = -Infinity;
  for (let k = 0; k < ptCount; k++) {
    const p = pts + (<usize>k) * 16;
    const u = load<f64>(p), v = load<f64>(p, 8);
    const t = wx * u + wy * v;
    const a = Math.abs(mx * u + my * v - symD);
    st += t; sa += a; stt += t * t; saa += a * a; sta += t * a;
    if (t < tmin) tmin = t;
    if (t > tmax) tmax = t;
  }
  const nn = <f64>max(1, ptCount);
  const cov = sta / nn - (st / nn) * (sa / nn);
  const vt = stt / nn - (st / nn) * (st / nn), va = saa / nn - (sa / nn) * (sa / nn);
  const corr = vt > 0 && va > 0 ? cov / Math.sqrt(vt * va) : 0;
  const symmetry = symCost * cell / archSize;
  outSet(R_ARCH_CORR, corr);
  outSet(R_SYMMETRY, symmetry);
  if (Math.abs(corr) < 0.25) {
    outSet(R_BOX_REASON, 5);
    return METHOD_BOX;
  }

  // Canonical axes. Back (+y) is +w when the arch widens along +w.
  const back: f64 = corr > 0 ? 1 : -1;
  const Yx = back * (wx * ux + wy * vx), Yy = back * (wx * uy + wy * vy), Yz = back * (wx * uz + wy * vz);
  const zs: f64 = jaw == 1 ? -1 : 1;
  const Zx = zs * nx, Zy = zs * ny, Zz = zs * nz;
  // Origin: on the occlusal plane, on the midline, half way along the arch.
  const tm = (tmin + tmax) * 0.5;
  const ou = mx * symD + wx * tm, ov = my * symD + wy * tm;
  const oh = planeA * ou + planeB * ov + planeC;
  const Ox = cX + ou * ux + ov * vx + oh * nx;
  const Oy = cY + ou * uy + ov * vy + oh * ny;
  const Oz = cZ + ou * uz + ov * vz + oh * nz;
  writeTransform(0, 0, 0, Yx, Yy, Yz, Zx, Zy, Zz, Ox, Oy, Oz);
  outSet(R_METHOD, <f64>METHOD_ARCH);
  outSet(R_TEETH_SIDE_CUE, cue);
  outSet(R_TIPS, <f64>planeUsed);
  outSet(R_PLANE_RMS, planeRms / archSize);
  outSet(R_NORMAL, nx);
  outSet(R_NORMAL + 1, ny);
  outSet(R_NORMAL + 2, nz);
  outSet(R_ARCH_SIZE, archSize);
  const q = Math.min(1, Math.abs(corr) / 0.6) * Math.max(0, 1 - symmetry / 0.04) * Math.max(0, 1 - planeRms / archSize / 0.05);
  outSet(R_QUALITY, q);
  return METHOD_ARCH;
}

/** Applies a column-major 4x4 rigid transform (f64 at `mat`) to positions and, when given, normals (f32 xyz), in place. */
export function shapeTransformMesh(pos: usize, nrm: usize, vertices: u32, mat: usize): void {
  const m0 = load<f64>(mat), m1 = load<f64>(mat, 8), m2 = load<f64>(mat, 16);
  const m4 = load<f64>(mat, 32), m5 = load<f64>(mat, 40), m6 = load<f64>(mat, 48);
  const m8 = load<f64>(mat, 64), m9 = load<f64>(mat, 72), m10 = load<f64>(mat, 80);
  const m12 = load<f64>(mat, 96), m13 = load<f64>(mat, 104), m14 = load<f64>(mat, 112);
  for (let i: u32 = 0; i < vertices; i++) {
    const p = pos + (<usize>i) * 12;
    const x = <f64>load<f32>(p), y = <f64>load<f32>(p, 4), z = <f64>load<f32>(p, 8);
    store<f32>(p, <f32>(m0 * x + m4 * y + m8 * z + m12));
    store<f32>(p, <f32>(m1 * x + m5 * y + m9 * z + m13), 4);
    store<f32>(p, <f32>(m2 * x + m6 * y + m10 * z + m14), 8);
    if (nrm != 0) {
      const q = nrm + (<usize>i) * 12;
      const a = <f64>load<f32>(q), b = <f64>load<f32>(q, 4), c = <f64>load<f32>(q, 8);
      store<f32>(q, <f32>(m0 * a + m4 * b + m8 * c));
      store<f32>(q, <f32>(m1 * a + m5 * b + m9 * c), 4);
      store<f32>(q, <f32>(m2 * a + m6 * b + m10 * c), 8);
    }
  }
}

/** A 16-f64 scratch for passing a matrix to shapeTransformMesh. */
const MAT_IN = memory.data(8 * 16);
export function shapeMatrixPtr(): usize {
  return MAT_IN;
}
