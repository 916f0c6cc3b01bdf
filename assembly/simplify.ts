// Simplification: quadric-error-metric edge-collapse decimation (Garland and
// Heckbert 1997) to a target triangle count.
//
// Protocol (driven by workers/kernels/simplify.ts):
//   1. simplifyBegin(pos, idx, vertices, triangles, target) allocates the
//      working state above the arena's mark; 0 or a negative status
//   2. simplifyStep(budget) repeatedly: up to `budget` items of work; 1 while
//      work remains, 0 when done, negative on error; simplifyProgress() 0..1
//   3. the result sits where the arena's top was at simplifyBegin (the
//      scratch is released): simplifyPositionsPtr (f32 xyz), simplifyNormalsPtr
//      (f32 xyz, unit, area-weighted), simplifyIndicesPtr (u32 x3),
//      simplifyVertexCount, simplifyTriangleCount
//   simplifyAbort() releases everything of the job.
//
// Method: per-vertex quadrics (sum of area-weighted plane quadrics of the
// incident triangles, plus heavy penalty planes through boundary edges, at
// right angles to their face, so open edges stay put); every edge in a radix
// heap of 16-byte records (cost, a, b, time) in raw memory (see below).
// Records are never updated in place: a collapse stamps its surviving vertex
// with a new time and pushes fresh records for its edges; a record older than
// either endpoint's stamp is stale and dropped when met. A collapse of b into a moves a to the position that minimises the
// summed quadric (when the 3x3 system is well conditioned and the solution
// stays near the edge; else the best of the endpoints and the midpoint), and
// is rejected when it would:
//   - make the surface non-manifold (the endpoints' common neighbours must be
//     exactly the edge's opposite vertices: the link condition),
//   - join two boundary vertices through the interior, or touch an edge with
//     more than two faces,
//   - leave a vertex with fewer than three triangles (a tetrahedron's edge),
//   - turn any remaining triangle's normal by more than about 75 degrees or
//     make it degenerate.
// Triangles keep their winding (only vertex labels change), so an outward
// mesh stays outward.

import { arenaAlloc, arenaMark, arenaRelease } from './arena';

const S_OK: i32 = 0;
const S_EMPTY: i32 = -1;
const S_OUT_OF_MEMORY: i32 = -2;
const S_BAD_STATE: i32 = -3;

const NONE: u32 = 0xFFFF_FFFF;
const BOUNDARY_WEIGHT: f64 = 100;
const FLIP_COS: f64 = 0.25;
// Tie-breaker: TIE x mean triangle area x edge length² joins each edge's
// cost, so that flat regions (zero quadric error) lose their shortest edges
// first and stay evenly tessellated instead of piling edges onto one vertex.
const TIE: f64 = 1e-3;
const SCRATCH_MAX: u32 = 8192;

const PH_IDLE = 0;
const PH_QUADRICS = 1;
const PH_BOUNDARY = 2;
const PH_EDGES = 3;
const PH_READY = 4;
const PH_COLLAPSE = 5;
const PH_OUTPUT = 6;
const PH_DONE = 7;

let phase: i32 = PH_IDLE;
let cursor: u32 = 0;

// input
let inPos: usize = 0;
let inIdx: usize = 0;
let nV: u32 = 0;
let nT: u32 = 0;
let target: u32 = 0;

// working state
let jobMark: usize = 0;
let pos: usize = 0; // f64 xyz
let quad: usize = 0; // f64 x10 per vertex
let idx: usize = 0; // u32 x3 per triangle
let nextC: usize = 0; // u32 per corner: next corner of the same vertex
let head: usize = 0; // u32 per vertex: first corner
let vtime: usize = 0; // u32 per vertex: time of the last change
let vflag: usize = 0; // u8 per vertex: 1 dead, 2 boundary
let mark: usize = 0; // u32 per vertex: stamps for neighbour sets
let mark2: usize = 0; // u32 per vertex
let cnt: usize = 0; // u32 per vertex: occurrences in the current walk
let ttri: usize = 0; // u32 per vertex: a triangle of the current walk
let tdead: usize = 0; // u8 per triangle
let scratch: usize = 0; // u32 x SCRATCH_MAX
let stamp: u32 = 0;
let clock: u32 = 1;
let live: u32 = 0;
let startLive: u32 = 0;
let collapses: u32 = 0;
let areaSum: f64 = 0;
let maxError: f64 = 0;
let tieWeight: f64 = 0; // TIE x mean triangle area, set before the edges are costed
// diagnostics
let pops: u32 = 0;
let stale: u32 = 0;
let rejected: u32 = 0;
let maxFan: u32 = 0;

// result
let outPos: usize = 0;
let outNrm: usize = 0;
let outIdx: usize = 0;
let outV: u32 = 0;
let outT: u32 = 0;

const F_DEAD: u8 = 1;
const F_BOUNDARY: u8 = 2;

@inline function P(v: u32, k: u32): f64 { return load<f64>(pos + ((<usize>v) * 3 + k) * 8); }
@inline function Q(v: u32, k: u32): f64 { return load<f64>(quad + ((<usize>v) * 10 + k) * 8); }
@inline function Qadd(v: u32, k: u32, x: f64): void {
  const p = quad + ((<usize>v) * 10 + k) * 8;
  store<f64>(p, load<f64>(p) + x);
}
@inline function corner(c: u32): u32 { return load<u32>(idx + (<usize>c) * 4); }
@inline function nxt(c: u32): u32 { return load<u32>(nextC + (<usize>c) * 4); }
@inline function setNxt(c: u32, n: u32): void { store<u32>(nextC + (<usize>c) * 4, n); }
@inline function hd(v: u32): u32 { return load<u32>(head + (<usize>v) * 4); }
@inline function setHd(v: u32, c: u32): void { store<u32>(head + (<usize>v) * 4, c); }
@inline function flag(v: u32): u8 { return load<u8>(vflag + <usize>v); }
@inline function triDead(t: u32): bool { return load<u8>(tdead + <usize>t) != 0; }
@inline function mk(v: u32): u32 { return load<u32>(mark + (<usize>v) * 4); }
@inline function setMk(v: u32, s: u32): void { store<u32>(mark + (<usize>v) * 4, s); }
@inline function mk2(v: u32): u32 { return load<u32>(mark2 + (<usize>v) * 4); }
@inline function setMk2(v: u32, s: u32): void { store<u32>(mark2 + (<usize>v) * 4, s); }

/** Adds the plane (nx, ny, nz, d) with weight w to vertex v's quadric. */
@inline function addPlane(v: u32, nx: f64, ny: f64, nz: f64, d: f64, w: f64): void {
  Qadd(v, 0, w * nx * nx);
  Qadd(v, 1, w * nx * ny);
  Qadd(v, 2, w * nx * nz);
  Qadd(v, 3, w * nx * d);
  Qadd(v, 4, w * ny * ny);
  Qadd(v, 5, w * ny * nz);
  Qadd(v, 6, w * ny * d);
  Qadd(v, 7, w * nz * nz);
  Qadd(v, 8, w * nz * d);
  Qadd(v, 9, w * d * d);
}

function alloc(bytes: usize): usize {
  const p = arenaAlloc(bytes);
  if (p == 0) return 0;
  return p;
}

export function simplifyBegin(positions: usize, indices: usize, vertices: u32, triangles: u32, targetTriangles: u32): i32 {
  phase = PH_IDLE;
  if (vertices == 0 || triangles == 0) return S_EMPTY;
  inPos = positions;
  inIdx = indices;
  nV = vertices;
  nT = triangles;
  target = targetTriangles;
  jobMark = arenaMark();
  pos = alloc((<usize>nV) * 24);
  quad = alloc((<usize>nV) * 80);
  idx = alloc((<usize>nT) * 12);
  nextC = alloc((<usize>nT) * 12);
  head = alloc((<usize>nV) * 4);
  vtime = alloc((<usize>nV) * 4);
  vflag = alloc(<usize>nV);
  mark = alloc((<usize>nV) * 4);
  mark2 = alloc((<usize>nV) * 4);
  cnt = alloc((<usize>nV) * 4);
  ttri = alloc((<usize>nV) * 4);
  tdead = alloc(<usize>nT);
  scratch = alloc(<usize>SCRATCH_MAX * 4);
  // Room for every edge of a closed mesh (1.5 per triangle) and the buckets' partial blocks; grows in place.
  poolBlocks = (triangles + (triangles >> 1)) / BLOCK_ENTRIES + 64;
  pool = alloc((<usize>poolBlocks) * BLOCK_BYTES);
  if (pos == 0 || quad == 0 || idx == 0 || nextC == 0 || head == 0 || vtime == 0 || vflag == 0 || mark == 0 ||
      mark2 == 0 || cnt == 0 || ttri == 0 || tdead == 0 || scratch == 0 || pool == 0) {
    arenaRelease(jobMark);
    return S_OUT_OF_MEMORY;
  }
  for (let v: u32 = 0; v < nV; v++) {
    const s = inPos + (<usize>v) * 12, d = pos + (<usize>v) * 24;
    store<f64>(d, <f64>load<f32>(s));
    store<f64>(d, <f64>load<f32>(s, 4), 8);
    store<f64>(d, <f64>load<f32>(s, 8), 16);
  }
  memory.fill(quad, 0, (<usize>nV) * 80);
  memory.fill(head, 0xFF, (<usize>nV) * 4);
  memory.fill(vtime, 0, (<usize>nV) * 4);
  memory.fill(vflag, 0, <usize>nV);
  memory.fill(mark, 0, (<usize>nV) * 4);
  memory.fill(mark2, 0, (<usize>nV) * 4);
  memory.fill(cnt, 0, (<usize>nV) * 4);
  memory.fill(tdead, 0, <usize>nT);
  memory.copy(idx, inIdx, (<usize>nT) * 12);
  resetQueue();
  areaSum = 0;
  maxError = 0;
  stamp = 0;
  clock = 1;
  live = 0;
  collapses = 0;
  pops = 0;
  stale = 0;
  rejected = 0;
  maxFan = 0;
  cursor = 0;
  outV = 0;
  outT = 0;
  phase = PH_QUADRICS;
  return S_OK;
}

export function simplifyAbort(): void {
  if (phase != PH_IDLE && phase != PH_DONE) arenaRelease(jobMark);
  phase = PH_IDLE;
}

export function simplifyProgress(): f64 {
  const f = nT > 0 ? <f64>cursor / <f64>nT : 0;
  const fv = nV > 0 ? <f64>cursor / <f64>nV : 0;
  switch (phase) {
    case PH_QUADRICS: return 0.1 * f;
    case PH_BOUNDARY: return 0.1 + 0.05 * fv;
    case PH_EDGES: return 0.15 + 0.1 * fv;
    case PH_READY: return 0.25;
    case PH_COLLAPSE: {
      const need = startLive > target ? startLive - target : 1;
      const done = startLive - live;
      return 0.3 + 0.65 * Math.min(1, <f64>done / <f64>need);
    }
    case PH_OUTPUT: return 0.95 + 0.05 * f;
    case PH_DONE: return 1;
    default: return 0;
  }
}

export function simplifyVertexCount(): u32 { return outV; }
export function simplifyTriangleCount(): u32 { return outT; }
export function simplifyPositionsPtr(): usize { return outPos; }
export function simplifyNormalsPtr(): usize { return outNrm; }
export function simplifyIndicesPtr(): usize { return outIdx; }
export function simplifyCollapses(): u32 { return collapses; }
/** Largest error estimate of a collapse done: the RMS distance (model units) from the collapsed vertex to the planes it stood for. */
export function simplifyMaxError(): f64 { return maxError; }
/** Diagnostics: 0 heap pops, 1 stale entries, 2 rejected collapses, 3 largest fan (triangles around a pair) seen. */
export function simplifyStat(i: i32): u32 {
  return i == 0 ? pops : i == 1 ? stale : i == 2 ? rejected : maxFan;
}

// ---------------------------------------------------------------- phases

function stepQuadrics(end: u32): void {
  for (let t = cursor; t < end; t++) {
    const a = corner(t * 3), b = corner(t * 3 + 1), c = corner(t * 3 + 2);
    if (a == b || b == c || a == c || a >= nV || b >= nV || c >= nV) {
      store<u8>(tdead + <usize>t, 1);
      continue;
    }
    live++;
    for (let k: u32 = 0; k < 3; k++) {
      const cc = t * 3 + k;
      const v = corner(cc);
      setNxt(cc, hd(v));
      setHd(v, cc);
    }
    const ax = P(a, 0), ay = P(a, 1), az = P(a, 2);
    const ux = P(b, 0) - ax, uy = P(b, 1) - ay, uz = P(b, 2) - az;
    const vx = P(c, 0) - ax, vy = P(c, 1) - ay, vz = P(c, 2) - az;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (!(l > 0)) continue;
    nx /= l;
    ny /= l;
    nz /= l;
    const d = -(nx * ax + ny * ay + nz * az);
    const w = 0.5 * l; // area
    areaSum += w;
    addPlane(a, nx, ny, nz, d, w);
    addPlane(b, nx, ny, nz, d, w);
    addPlane(c, nx, ny, nz, d, w);
  }
}

/** Vertex v: boundary edges (in exactly one triangle) get penalty planes, their ends the boundary flag. */
function stepBoundary(end: u32): void {
  for (let v = cursor; v < end; v++) {
    stamp++;
    let n: u32 = 0;
    for (let c = hd(v); c != NONE; c = nxt(c)) {
      const t = c / 3;
      for (let k: u32 = 0; k < 3; k++) {
        const w = corner(t * 3 + k);
        if (w == v) continue;
        if (mk(w) != stamp) {
          setMk(w, stamp);
          store<u32>(cnt + (<usize>w) * 4, 0);
          if (n < SCRATCH_MAX) {
            store<u32>(scratch + (<usize>n) * 4, w);
            n++;
          }
        }
        store<u32>(cnt + (<usize>w) * 4, load<u32>(cnt + (<usize>w) * 4) + 1);
        store<u32>(ttri + (<usize>w) * 4, t);
      }
    }
    for (let i: u32 = 0; i < n; i++) {
      const w = load<u32>(scratch + (<usize>i) * 4);
      if (load<u32>(cnt + (<usize>w) * 4) != 1) continue;
      store<u8>(vflag + <usize>v, flag(v) | F_BOUNDARY);
      if (w < v) continue; // the pair's penalty is added once, from its smaller end
      store<u8>(vflag + <usize>w, flag(w) | F_BOUNDARY);
      const t = load<u32>(ttri + (<usize>w) * 4);
      const a = corner(t * 3), b = corner(t * 3 + 1), c = corner(t * 3 + 2);
      const ax = P(a, 0), ay = P(a, 1), az = P(a, 2);
      const ux = P(b, 0) - ax, uy = P(b, 1) - ay, uz = P(b, 2) - az;
      const vx = P(c, 0) - ax, vy = P(c, 1) - ay, vz = P(c, 2) - az;
      const fx = uy * vz - uz * vy, fy = uz * vx - ux * vz, fz = ux * vy - uy * vx;
      const ex = P(w, 0) - P(v, 0), ey = P(w, 1) - P(v, 1), ez = P(w, 2) - P(v, 2);
      let mx = ey * fz - ez * fy, my = ez * fx - ex * fz, mz = ex * fy - ey * fx;
      const ml = Math.sqrt(mx * mx + my * my + mz * mz);
      if (!(ml > 0)) continue;
      mx /= ml;
      my /= ml;
      mz /= ml;
      const d = -(mx * P(v, 0) + my * P(v, 1) + mz * P(v, 2));
      const wgt = BOUNDARY_WEIGHT * (ex * ex + ey * ey + ez * ez);
      addPlane(v, mx, my, mz, d, wgt);
      addPlane(w, mx, my, mz, d, wgt);
    }
  }
}

// The best position of the current candidate collapse.
let bestX: f64 = 0, bestY: f64 = 0, bestZ: f64 = 0;

@inline function qeval(
  q0: f64, q1: f64, q2: f64, q3: f64, q4: f64, q5: f64, q6: f64, q7: f64, q8: f64, q9: f64,
  x: f64, y: f64, z: f64,
): f64 {
  return q0 * x * x + 2 * q1 * x * y + 2 * q2 * x * z + 2 * q3 * x + q4 * y * y + 2 * q5 * y * z + 2 * q6 * y + q7 * z * z + 2 * q8 * z + q9;
}

/** Cost of collapsing edge (a, b), with the length tie-breaker; sets bestX/Y/Z. */
function edgeCost(a: u32, b: u32): f64 {
  const ex = P(b, 0) - P(a, 0), ey = P(b, 1) - P(a, 1), ez = P(b, 2) - P(a, 2);
  return quadricCost(a, b) + tieWeight * (ex * ex + ey * ey + ez * ez);
}

/** Quadric error of collapsing edge (a, b) at its best position; sets bestX/Y/Z. */
function quadricCost(a: u32, b: u32): f64 {
  const q0 = Q(a, 0) + Q(b, 0), q1 = Q(a, 1) + Q(b, 1), q2 = Q(a, 2) + Q(b, 2), q3 = Q(a, 3) + Q(b, 3);
  const q4 = Q(a, 4) + Q(b, 4), q5 = Q(a, 5) + Q(b, 5), q6 = Q(a, 6) + Q(b, 6);
  const q7 = Q(a, 7) + Q(b, 7), q8 = Q(a, 8) + Q(b, 8), q9 = Q(a, 9) + Q(b, 9);
  const ax = P(a, 0), ay = P(a, 1), az = P(a, 2);
  const bx = P(b, 0), by = P(b, 1), bz = P(b, 2);
  const ex = bx - ax, ey = by - ay, ez = bz - az;
  const len2 = ex * ex + ey * ey + ez * ez;
  // A x = -b with A = [q0 q1 q2; q1 q4 q5; q2 q5 q7], b = (q3, q6, q8).
  const c00 = q4 * q7 - q5 * q5, c01 = q2 * q5 - q1 * q7, c02 = q1 * q5 - q2 * q4;
  const det = q0 * c00 + q1 * c01 + q2 * c02;
  const tr = q0 + q4 + q7;
  if (Math.abs(det) > 1e-9 * tr * tr * tr && tr > 0) {
    const c11 = q0 * q7 - q2 * q2, c12 = q1 * q2 - q0 * q5, c22 = q0 * q4 - q1 * q1;
    const inv = -1 / det;
    const x = inv * (c00 * q3 + c01 * q6 + c02 * q8);
    const y = inv * (c01 * q3 + c11 * q6 + c12 * q8);
    const z = inv * (c02 * q3 + c12 * q6 + c22 * q8);
    const mx = x - (ax + bx) * 0.5, my = y - (ay + by) * 0.5, mz = z - (az + bz) * 0.5;
    // Keep the optimum only near the edge (ill-conditioned systems fling it away).
    if (mx * mx + my * my + mz * mz <= len2) {
      bestX = x;
      bestY = y;
      bestZ = z;
      return Math.max(0, qeval(q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, x, y, z));
    }
  }
  const ca = qeval(q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, ax, ay, az);
  const cb = qeval(q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, bx, by, bz);
  const mxx = (ax + bx) * 0.5, myy = (ay + by) * 0.5, mzz = (az + bz) * 0.5;
  const cm = qeval(q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, mxx, myy, mzz);
  if (cm <= ca && cm <= cb) {
    bestX = mxx; bestY = myy; bestZ = mzz;
    return Math.max(0, cm);
  }
  if (ca <= cb) {
    bestX = ax; bestY = ay; bestZ = az;
    return Math.max(0, ca);
  }
  bestX = bx; bestY = by; bestZ = bz;
  return Math.max(0, cb);
}

// ---- radix heap of 16-byte records: u32 key (the f32 cost's bits), u32 a, u32 b, u32 time
//
// Collapse costs come out of the queue in increasing order, and a new cost
// below the last one popped is the minimum anyway (it is clamped to it), so
// a radix heap serves (Ahuja et al.): bucket i holds the keys whose highest
// bit differing from the last popped key is bit i - 1 (bucket 0: equal keys).
// Pushes append; a pop empties the first non-empty bucket into lower ones
// around its minimum, dropping stale records on the way. Every access is
// sequential within 4 KiB blocks (a 16-byte header: next block, count; then
// 255 records), which a binary heap of millions of records is not.

const BLOCK_BYTES: usize = 4096;
const BLOCK_ENTRIES: u32 = 255;
const BUCKETS: i32 = 33;
const BUCKET_HEAD = memory.data(4 * 33);

let pool: usize = 0;
let poolBlocks: u32 = 0;
let poolUsed: u32 = 0;
let freeBlock: u32 = NONE;
let lastKey: u32 = 0;
let queued: u32 = 0;
let popA: u32 = 0, popB: u32 = 0, popTime: u32 = 0;

@inline function blk(b: u32): usize { return pool + (<usize>b) * BLOCK_BYTES; }
@inline function bucketHead(i: i32): u32 { return load<u32>(BUCKET_HEAD + ((<usize>i) << 2)); }
@inline function setBucketHead(i: i32, b: u32): void { store<u32>(BUCKET_HEAD + ((<usize>i) << 2), b); }

function resetQueue(): void {
  for (let i = 0; i < BUCKETS; i++) setBucketHead(i, NONE);
  poolUsed = 0;
  freeBlock = NONE;
  lastKey = 0;
  queued = 0;
}

/** The pool is the arena's last allocation while the job runs: it grows in place. */
function growPool(): bool {
  const extra = poolBlocks;
  const p = arenaAlloc((<usize>extra) * BLOCK_BYTES);
  if (p == 0) return false;
  if (p != pool + (<usize>poolBlocks) * BLOCK_BYTES) return false;
  poolBlocks += extra;
  return true;
}

function newBlock(): u32 {
  if (freeBlock != NONE) {
    const b = freeBlock;
    freeBlock = load<u32>(blk(b));
    return b;
  }
  if (poolUsed >= poolBlocks && !growPool()) return NONE;
  return poolUsed++;
}

@inline function releaseBlock(b: u32): void {
  store<u32>(blk(b), freeBlock);
  freeBlock = b;
}

function enqueue(key: u32, a: u32, b: u32, time: u32): bool {
  if (key < lastKey) key = lastKey;
  const i = key == lastKey ? 0 : 32 - <i32>clz<u32>(key ^ lastKey);
  let h = bucketHead(i);
  if (h == NONE || load<u32>(blk(h), 4) >= BLOCK_ENTRIES) {
    const nb = newBlock();
    if (nb == NONE) return false;
    store<u32>(blk(nb), h);
    store<u32>(blk(nb), 0, 4);
    setBucketHead(i, nb);
    h = nb;
  }
  const n = load<u32>(blk(h), 4);
  const p = blk(h) + 16 + ((<usize>n) << 4);
  store<u32>(p, key);
  store<u32>(p, a, 4);
  store<u32>(p, b, 8);
  store<u32>(p, time, 12);
  store<u32>(blk(h), n + 1, 4);
  queued++;
  return true;
}

/** The record with the least key into popA/popB/popTime; false when the queue is empty. */
function dequeue(): bool {
  for (;;) {
    const h = bucketHead(0);
    if (h != NONE) {
      const n = load<u32>(blk(h), 4);
      const p = blk(h) + 16 + ((<usize>(n - 1)) << 4);
      popA = load<u32>(p, 4);
      popB = load<u32>(p, 8);
      popTime = load<u32>(p, 12);
      if (n == 1) {
        setBucketHead(0, load<u32>(blk(h)));
        releaseBlock(h);
      } else {
        store<u32>(blk(h), n - 1, 4);
      }
      queued--;
      return true;
    }
    let i = 1;
    while (i < BUCKETS && bucketHead(i) == NONE) i++;
    if (i == BUCKETS) return false;
    let mn: u32 = 0xFFFF_FFFF;
    for (let b = bucketHead(i); b != NONE; b = load<u32>(blk(b))) {
      const n = load<u32>(blk(b), 4);
      for (let e: u32 = 0; e < n; e++) {
        const p = blk(b) + 16 + ((<usize>e) << 4);
        const key = load<u32>(p);
        if (key < mn && entryValid(load<u32>(p, 4), load<u32>(p, 8), load<u32>(p, 12))) mn = key;
      }
    }
    let b = bucketHead(i);
    setBucketHead(i, NONE);
    if (mn != 0xFFFF_FFFF) lastKey = mn;
    while (b != NONE) {
      const next = load<u32>(blk(b));
      const n = load<u32>(blk(b), 4);
      queued -= n;
      for (let e: u32 = 0; e < n; e++) {
        const p = blk(b) + 16 + ((<usize>e) << 4);
        const a = load<u32>(p, 4), c = load<u32>(p, 8), time = load<u32>(p, 12);
        if (mn != 0xFFFF_FFFF && entryValid(a, c, time)) enqueue(load<u32>(p), a, c, time);
        else stale++;
      }
      releaseBlock(b);
      b = next;
    }
  }
  return false; // not reached
}

@inline function entryValid(a: u32, b: u32, time: u32): bool {
  return (flag(a) & F_DEAD) == 0 && (flag(b) & F_DEAD) == 0 &&
    time >= load<u32>(vtime + (<usize>a) * 4) && time >= load<u32>(vtime + (<usize>b) * 4);
}

/** Queues edge (a, b) with its current cost; false when memory ran out. */
function push(a: u32, b: u32): bool {
  let key = reinterpret<u32>(<f32>edgeCost(a, b));
  if (key > 0x7F80_0000) key = 0x7F80_0000; // NaN: last
  return enqueue(key, a, b, clock);
}

function stepEdges(end: u32): bool {
  for (let v = cursor; v < end; v++) {
    stamp++;
    for (let c = hd(v); c != NONE; c = nxt(c)) {
      const t = c / 3;
      for (let k: u32 = 0; k < 3; k++) {
        const w = corner(t * 3 + k);
        if (w <= v || mk(w) == stamp) continue;
        setMk(w, stamp);
        if (!push(v, w)) return false;
      }
    }
  }
  return true;
}

// ---- collapse

/** Unlinks v's corners of dead triangles; returns v's live triangle count. */
function prune(v: u32): u32 {
  let n: u32 = 0;
  let prev = NONE;
  let c = hd(v);
  while (c != NONE) {
    const nc = nxt(c);
    if (triDead(c / 3)) {
      if (prev == NONE) setHd(v, nc);
      else setNxt(prev, nc);
    } else {
      prev = c;
      n++;
    }
    c = nc;
  }
  return n;
}

/** False when moving `m` (a corner vertex of triangles around it, except those holding `other`) to best flips or degenerates one. */
function movesCleanly(m: u32, other: u32): bool {
  for (let c = hd(m); c != NONE; c = nxt(c)) {
    const t = c / 3;
    const v0 = corner(t * 3), v1 = corner(t * 3 + 1), v2 = corner(t * 3 + 2);
    if (v0 == other || v1 == other || v2 == other) continue;
    const ax = P(v0, 0), ay = P(v0, 1), az = P(v0, 2);
    const bx = P(v1, 0), by = P(v1, 1), bz = P(v1, 2);
    const cx = P(v2, 0), cy = P(v2, 1), cz = P(v2, 2);
    const ux = bx - ax, uy = by - ay, uz = bz - az, wx = cx - ax, wy = cy - ay, wz = cz - az;
    const ox = uy * wz - uz * wy, oy = uz * wx - ux * wz, oz = ux * wy - uy * wx;
    // The same triangle with m at best.
    const px0 = v0 == m ? bestX : ax, py0 = v0 == m ? bestY : ay, pz0 = v0 == m ? bestZ : az;
    const px1 = v1 == m ? bestX : bx, py1 = v1 == m ? bestY : by, pz1 = v1 == m ? bestZ : bz;
    const px2 = v2 == m ? bestX : cx, py2 = v2 == m ? bestY : cy, pz2 = v2 == m ? bestZ : cz;
    const su = px1 - px0, sv = py1 - py0, sw = pz1 - pz0, tu = px2 - px0, tv = py2 - py0, tw = pz2 - pz0;
    const nx = sv * tw - sw * tv, ny = sw * tu - su * tw, nz = su * tv - sv * tu;
    const nn = nx * nx + ny * ny + nz * nz, oo = ox * ox + oy * oy + oz * oz;
    if (!(nn > 0)) return false;
    if (!(oo > 0)) continue;
    if (nx * ox + ny * oy + nz * oz < FLIP_COS * Math.sqrt(nn * oo)) return false;
  }
  return true;
}

/** Collapses b into a if every check passes. */
function tryCollapse(a: u32, b: u32): bool {
  const ta = prune(a), tb = prune(b);
  if (ta + tb > maxFan) maxFan = ta + tb;
  stamp++;
  const s = stamp;
  // Neighbours of a; faces of the edge and their opposite vertices.
  let nf: u32 = 0;
  let o0: u32 = NONE, o1: u32 = NONE;
  for (let c = hd(a); c != NONE; c = nxt(c)) {
    const t = c / 3;
    const v0 = corner(t * 3), v1 = corner(t * 3 + 1), v2 = corner(t * 3 + 2);
    setMk(v0, s);
    setMk(v1, s);
    setMk(v2, s);
    if (v0 == b || v1 == b || v2 == b) {
      const o = v0 != a && v0 != b ? v0 : v1 != a && v1 != b ? v1 : v2;
      if (nf == 0) o0 = o;
      else if (nf == 1) o1 = o;
      nf++;
    }
  }
  if (nf == 0 || nf > 2) return false;
  if (nf == 2 && o0 == o1) return false;
  // Link condition: the common neighbours are exactly the opposite vertices.
  let common: u32 = 0;
  for (let c = hd(b); c != NONE; c = nxt(c)) {
    const t = c / 3;
    for (let k: u32 = 0; k < 3; k++) {
      const w = corner(t * 3 + k);
      if (w == a || w == b) continue;
      if (mk(w) == s && mk2(w) != s) {
        setMk2(w, s);
        common++;
      }
    }
  }
  if (common != nf) return false;
  const fa = flag(a), fb = flag(b);
  if (nf == 2 && (fa & F_BOUNDARY) != 0 && (fb & F_BOUNDARY) != 0) return false;
  // No vertex may be left with fewer than three triangles (two for a boundary vertex).
  if (ta + tb - 2 * nf < ((fa | fb) & F_BOUNDARY ? 1 : 3)) return false;
  const minOpp: u32 = 3;
  if (prune(o0) <= ((flag(o0) & F_BOUNDARY) != 0 ? 1 : minOpp)) return false;
  if (nf == 2 && prune(o1) <= ((flag(o1) & F_BOUNDARY) != 0 ? 1 : minOpp)) return false;
  const qc = quadricCost(a, b);
  if (!movesCleanly(a, b) || !movesCleanly(b, a)) return false;
  // Error estimate: the quadric error per unit of the quadrics' area, an RMS distance.
  const w = Q(a, 0) + Q(a, 4) + Q(a, 7) + Q(b, 0) + Q(b, 4) + Q(b, 7);
  if (w > 0) {
    const err = Math.sqrt(qc / w);
    if (err > maxError) maxError = err;
  }

  // Apply: the edge's faces die, a moves, b's triangles become a's.
  for (let c = hd(a); c != NONE; c = nxt(c)) {
    const t = c / 3;
    const v0 = corner(t * 3), v1 = corner(t * 3 + 1), v2 = corner(t * 3 + 2);
    if (v0 == b || v1 == b || v2 == b) store<u8>(tdead + <usize>t, 1);
  }
  live -= nf;
  store<f64>(pos + (<usize>a) * 24, bestX);
  store<f64>(pos + (<usize>a) * 24 + 8, bestY);
  store<f64>(pos + (<usize>a) * 24 + 16, bestZ);
  for (let k: u32 = 0; k < 10; k++) Qadd(a, k, Q(b, k));
  let prev = NONE;
  let c = hd(b);
  let first = NONE;
  while (c != NONE) {
    const nc = nxt(c);
    if (triDead(c / 3)) {
      if (prev != NONE) setNxt(prev, nc);
    } else {
      store<u32>(idx + (<usize>c) * 4, a);
      if (first == NONE) first = c;
      prev = c;
    }
    c = nc;
  }
  if (first != NONE) {
    setNxt(prev, hd(a));
    setHd(a, first);
  }
  setHd(b, NONE);
  store<u8>(vflag + <usize>b, fb | F_DEAD);
  store<u8>(vflag + <usize>a, fa | (fb & F_BOUNDARY));
  clock++;
  store<u32>(vtime + (<usize>a) * 4, clock);
  collapses++;
  // Fresh entries for a's edges.
  prune(a);
  stamp++;
  for (let c2 = hd(a); c2 != NONE; c2 = nxt(c2)) {
    const t = c2 / 3;
    for (let k: u32 = 0; k < 3; k++) {
      const w = corner(t * 3 + k);
      if (w == a || mk(w) == stamp) continue;
      setMk(w, stamp);
      push(a, w);
    }
  }
  return true;
}

function stepCollapse(budget: u32): bool {
  for (let i: u32 = 0; i < budget; i++) {
    if (live <= target) return true;
    if (!dequeue()) return true;
    const a = popA, b = popB, time = popTime;
    pops++;
    if (!entryValid(a, b, time)) {
      stale++;
      continue;
    }
    if (!tryCollapse(a, b)) rejected++;
  }
  return live <= target || queued == 0;
}

/** Compacts the live mesh into the scratch's first bytes, then moves it down to the job's mark. */
function output(): i32 {
  // Reuse `mark` as the new index of each vertex.
  memory.fill(mark, 0xFF, (<usize>nV) * 4);
  let nv: u32 = 0, nt: u32 = 0;
  for (let t: u32 = 0; t < nT; t++) {
    if (triDead(t)) continue;
    nt++;
    for (let k: u32 = 0; k < 3; k++) {
      const v = corner(t * 3 + k);
      if (mk(v) == NONE) setMk(v, nv++);
    }
  }
  // Layout at jobMark: positions (nv*12), normals (nv*12), indices (nt*12), built
  // above everything (fresh allocation), then copied down over the scratch.
  const bytes = (<usize>nv) * 24 + (<usize>nt) * 12;
  const tmp = arenaAlloc(bytes);
  if (tmp == 0) return S_OUT_OF_MEMORY;
  const tp = tmp, tn = tmp + (<usize>nv) * 12, ti = tmp + (<usize>nv) * 24;
  memory.fill(tn, 0, (<usize>nv) * 12);
  for (let v: u32 = 0; v < nV; v++) {
    const m = mk(v);
    if (m == NONE) continue;
    store<f32>(tp + (<usize>m) * 12, <f32>P(v, 0));
    store<f32>(tp + (<usize>m) * 12 + 4, <f32>P(v, 1));
    store<f32>(tp + (<usize>m) * 12 + 8, <f32>P(v, 2));
  }
  let o: usize = 0;
  for (let t: u32 = 0; t < nT; t++) {
    if (triDead(t)) continue;
    const a = mk(corner(t * 3)), b = mk(corner(t * 3 + 1)), c = mk(corner(t * 3 + 2));
    store<u32>(ti + o, a);
    store<u32>(ti + o + 4, b);
    store<u32>(ti + o + 8, c);
    o += 12;
    const ax = <f64>load<f32>(tp + (<usize>a) * 12), ay = <f64>load<f32>(tp + (<usize>a) * 12 + 4), az = <f64>load<f32>(tp + (<usize>a) * 12 + 8);
    const ux = <f64>load<f32>(tp + (<usize>b) * 12) - ax, uy = <f64>load<f32>(tp + (<usize>b) * 12 + 4) - ay, uz = <f64>load<f32>(tp + (<usize>b) * 12 + 8) - az;
    const vx = <f64>load<f32>(tp + (<usize>c) * 12) - ax, vy = <f64>load<f32>(tp + (<usize>c) * 12 + 4) - ay, vz = <f64>load<f32>(tp + (<usize>c) * 12 + 8) - az;
    const nx = <f32>(uy * vz - uz * vy), ny = <f32>(uz * vx - ux * vz), nz = <f32>(ux * vy - uy * vx);
    for (let k: u32 = 0; k < 3; k++) {
      const v = k == 0 ? a : k == 1 ? b : c;
      const p = tn + (<usize>v) * 12;
      store<f32>(p, load<f32>(p) + nx);
      store<f32>(p, load<f32>(p, 4) + ny, 4);
      store<f32>(p, load<f32>(p, 8) + nz, 8);
    }
  }
  for (let v: u32 = 0; v < nv; v++) {
    const p = tn + (<usize>v) * 12;
    const x = load<f32>(p), y = load<f32>(p, 4), z = load<f32>(p, 8);
    const l = Mathf.sqrt(x * x + y * y + z * z);
    if (l > 0) {
      store<f32>(p, x / l);
      store<f32>(p, y / l, 4);
      store<f32>(p, z / l, 8);
    } else {
      store<f32>(p, 0);
      store<f32>(p, 0, 4);
      store<f32>(p, 1, 8);
    }
  }
  arenaRelease(jobMark);
  const dst = arenaAlloc(bytes);
  if (dst == 0) return S_OUT_OF_MEMORY; // cannot happen: the space was there
  memory.copy(dst, tmp, bytes);
  outPos = dst;
  outNrm = dst + (<usize>nv) * 12;
  outIdx = dst + (<usize>nv) * 24;
  outV = nv;
  outT = nt;
  return S_OK;
}

/** Up to `budget` items of work; 1 while work remains, 0 when done, negative on error. */
export function simplifyStep(budget: u32): i32 {
  if (budget == 0) budget = 1;
  switch (phase) {
    case PH_QUADRICS: {
      const end = min(nT, cursor + budget);
      stepQuadrics(end);
      cursor = end;
      if (cursor == nT) {
        phase = PH_BOUNDARY;
        cursor = 0;
      }
      return 1;
    }
    case PH_BOUNDARY: {
      if (cursor == 0) tieWeight = live > 0 ? TIE * areaSum / <f64>live : 0;
      const end = min(nV, cursor + budget);
      stepBoundary(end);
      cursor = end;
      if (cursor == nV) {
        phase = PH_EDGES;
        cursor = 0;
      }
      return 1;
    }
    case PH_EDGES: {
      const end = min(nV, cursor + budget);
      if (!stepEdges(end)) {
        arenaRelease(jobMark);
        phase = PH_IDLE;
        return S_OUT_OF_MEMORY;
      }
      cursor = end;
      if (cursor == nV) {
        phase = PH_READY;
        cursor = 0;
      }
      return 1;
    }
    case PH_READY: {
      startLive = live;
      phase = PH_COLLAPSE;
      return 1;
    }
    case PH_COLLAPSE: {
      if (stepCollapse(budget)) {
        phase = PH_OUTPUT;
        cursor = 0;
      }
      return 1;
    }
    case PH_OUTPUT: {
      const s = output();
      if (s < 0) {
        arenaRelease(jobMark);
        phase = PH_IDLE;
        return s;
      }
      phase = PH_DONE;
      return 0;
    }
    case PH_DONE:
      return 0;
    default:
      return S_BAD_STATE;
  }
}
