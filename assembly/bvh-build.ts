// Binned SAH build, refit and the header checks of the BVH (layout: bvh-layout.ts).
//
// Build: one record per triangle (bounds, id in the spare lane) is binned on
// all three axes at once with SIMD (centroid bin per axis), the cheapest
// split by the surface area heuristic wins and the records are partitioned
// in place. Nodes are made depth first with the two children of a node side
// by side, so a traversal reads both boxes from one 64-byte line. The records
// live in the tail of the triangle region and are overwritten by the leaf-
// order triangle copies at the end, so the build needs no memory besides the
// BVH itself (allocated for the worst case, 2T - 1 nodes, then trimmed).
// The build runs in steps of bounded work (bvhBuildBegin/bvhBuildStep) so a
// caller can report progress and cancel between them; bvhBuild runs them all.

import { arenaAlloc, arenaMark, arenaRelease } from './arena';
import {
  BVH_BAD_BYTES,
  BVH_BAD_INPUT,
  BVH_MAGIC,
  BVH_OK,
  BVH_OUT_OF_MEMORY,
  BVH_VERSION,
  H_BYTES,
  H_DEPTH,
  H_PAD,
  H_MAGIC,
  H_MAX_LEAF,
  H_NODES,
  H_NODES_OFFSET,
  H_TRIANGLES,
  H_TRIS_OFFSET,
  H_VERSION,
  H_VERTICES,
  HEADER_BYTES,
  MAX_DEPTH,
  NODE_BYTES,
  TRI_BYTES,
} from './bvh-layout';

const MAX_BINS: i32 = 32;
const REC_BYTES: usize = 32;
const TASK_BYTES: usize = 48;
const MAX_TASKS: i32 = 2 * MAX_DEPTH + 8;

// Per axis a, bin k: slot a * MAX_BINS + k.
// Two sets of bins (set 1 at SET_SLOTS): consecutive records, often in the
// same bin, update different memory, so the updates do not wait on each other.
const SET_SLOTS: usize = <usize>(MAX_BINS * 3);
const binLo = memory.data(MAX_BINS * 3 * 16 * 2, 16);
const binHi = memory.data(MAX_BINS * 3 * 16 * 2, 16);
const binCount = memory.data(MAX_BINS * 3 * 4 * 2, 16);
/** Nodes with more records than this bin an even sample of about this many (the split cost barely changes). */
const SAMPLE_TARGET: u32 = 1024;
const rightCost = memory.data(MAX_BINS * 4, 16);
/** The build's work stack; kept between bvhBuildStep calls. */
const tasks = memory.data(<i32>TASK_BYTES * MAX_TASKS, 16);
/** bvhCheck's walk (its own, so a check never disturbs a build in progress). */
const WALK_SLOTS: i32 = MAX_TASKS * 6;
const walk = memory.data(WALK_SLOTS * 8, 16);

let status: i32 = BVH_OK;

/** Status of the last bvhBuild / bvhRefit / bvhCheck: 0 or a negative BVH_* code. */
export function bvhLastStatus(): i32 {
  return status;
}

@inline function halfArea(lo: v128, hi: v128): f32 {
  const e = f32x4.sub(hi, lo);
  const x = f32x4.extract_lane(e, 0);
  const y = f32x4.extract_lane(e, 1);
  const z = f32x4.extract_lane(e, 2);
  return x * y + y * z + z * x;
}

@inline function withLane3(v: v128, bits: u32): v128 {
  return i32x4.replace_lane(v, 3, <i32>bits);
}

/**
 * Node boxes are grown by a margin of about 1e-6 of the model's size (or of
 * its coordinates, whichever is larger), so a ray lying exactly in a box's
 * face (an axis-aligned ray from a vertex, the undercut case) still enters
 * it. The boxes stay conservative; triangles are untouched.
 */
function padFor(lo: v128, hi: v128): f32 {
  const m = f32x4.pmax(f32x4.pmax(f32x4.abs(lo), f32x4.abs(hi)), f32x4.sub(hi, lo));
  const big = Mathf.max(Mathf.max(f32x4.extract_lane(m, 0), f32x4.extract_lane(m, 1)), f32x4.extract_lane(m, 2));
  return isFinite(big) ? big * 1.0e-6 + 1e-30 : 0;
}

let pad: v128 = f32x4.splat(0);

@inline function writeNode(ptr: usize, lo: v128, hi: v128, a: u32, count: u32): void {
  v128.store(ptr, withLane3(f32x4.sub(lo, pad), a));
  v128.store(ptr, withLane3(f32x4.add(hi, pad), count), 16);
}

/** Adds the record at r to its bin on each axis; `slots` holds the first slot of each axis (lane 3 unused). */
@inline function binRecord(r: usize, cmin: v128, scale: v128, last: v128, slots: v128): void {
  const lo = v128.load(r);
  const hi = v128.load(r, 16);
  const bin = i32x4.add(i32x4.min_s(i32x4.trunc_sat_f32x4_s(f32x4.mul(f32x4.sub(f32x4.add(lo, hi), cmin), scale)), last), slots);
  const s0 = <usize>i32x4.extract_lane(bin, 0);
  const s1 = <usize>i32x4.extract_lane(bin, 1);
  const s2 = <usize>i32x4.extract_lane(bin, 2);
  v128.store(binLo + s0 * 16, f32x4.pmin(v128.load(binLo + s0 * 16), lo));
  v128.store(binHi + s0 * 16, f32x4.pmax(v128.load(binHi + s0 * 16), hi));
  store<i32>(binCount + s0 * 4, load<i32>(binCount + s0 * 4) + 1);
  v128.store(binLo + s1 * 16, f32x4.pmin(v128.load(binLo + s1 * 16), lo));
  v128.store(binHi + s1 * 16, f32x4.pmax(v128.load(binHi + s1 * 16), hi));
  store<i32>(binCount + s1 * 4, load<i32>(binCount + s1 * 4) + 1);
  v128.store(binLo + s2 * 16, f32x4.pmin(v128.load(binLo + s2 * 16), lo));
  v128.store(binHi + s2 * 16, f32x4.pmax(v128.load(binHi + s2 * 16), hi));
  store<i32>(binCount + s2 * 4, load<i32>(binCount + s2 * 4) + 1);
}

/** Adds the record at r to its bin on one axis (byte offset `off` in the record). */
@inline function binOne(r: usize, off: usize, cm: f32, sc: f32, last: i32, base: usize): void {
  let bin = <i32>((load<f32>(r + off) + load<f32>(r + off, 16) - cm) * sc);
  if (bin > last) bin = last;
  const s = base + <usize>bin;
  v128.store(binLo + s * 16, f32x4.pmin(v128.load(binLo + s * 16), v128.load(r)));
  v128.store(binHi + s * 16, f32x4.pmax(v128.load(binHi + s * 16), v128.load(r, 16)));
  store<i32>(binCount + s * 4, load<i32>(binCount + s * 4) + 1);
}

@inline function pushTask(sp: i32, node: u32, start: u32, end: u32, depth: i32, cLo: v128, cHi: v128): void {
  const t = tasks + <usize>sp * TASK_BYTES;
  v128.store(t, cLo);
  v128.store(t, cHi, 16);
  store<u32>(t, node, 32);
  store<u32>(t, start, 36);
  store<u32>(t, end, 40);
  store<i32>(t, depth, 44);
}

// ---------------------------------------------------------------- resumable build
//
// bvhBuildBegin, then bvhBuildStep(budget) until it returns 0 (done) or a
// negative status, so a caller can stop between steps (JS: time slices,
// progress, cancellation). Three phases: records (triangle bounds), splits
// (a work stack of nodes, depth first), triangle copies in leaf order. The
// budget counts work units: a record made, a record binned and partitioned
// while splitting a node, a triangle copied. A step finishes the node it is
// on, so it does at most budget + T units (the root's split: one pass over
// every record). The steps do the same operations in the same order as one
// call, so the bytes never depend on the budgets.

const PHASE_IDLE: i32 = 0;
const PHASE_RECORDS: i32 = 1;
const PHASE_SPLITS: i32 = 2;
const PHASE_COPIES: i32 = 3;
const PHASE_DONE: i32 = 4;
const PHASE_FAILED: i32 = 5;

// Share of the progress bar per phase (about their share of the time on 1M triangles).
const RECORDS_SHARE: f64 = 0.1;
const COPIES_SHARE: f64 = 0.1;

let phase: i32 = PHASE_IDLE;
let bPositions: usize = 0;
let bIndices: usize = 0;
let bVertexCount: u32 = 0;
let bN: usize = 0;
let bMaxLeaf: i32 = 8;
let bBins: i32 = 16;
let bMark: usize = 0;
let bBvh: usize = 0;
let bTrisOff: usize = 0;
let bNodesOff: usize = 0;
/** Records made (records phase) or triangles copied (copies phase). */
let bDone: usize = 0;
/** Triangles in finished leaves (splits phase progress). */
let bLeafTris: usize = 0;
let bNodeCount: u32 = 0;
let bMaxDepth: i32 = 0;
let bSp: i32 = 0;
let bPadding: f32 = 0;
let bRootLo: v128 = f32x4.splat(Infinity);
let bRootHi: v128 = f32x4.splat(-Infinity);
let bCLo: v128 = f32x4.splat(Infinity);
let bCHi: v128 = f32x4.splat(-Infinity);
let built: usize = 0;

@inline function recsOf(bvh: usize): usize {
  return bvh + bTrisOff + bN * 16;
}

@inline function nodesOf(bvh: usize): usize {
  return bvh + bNodesOff;
}

/**
 * Builds a BVH over `triCount` triangles (three u32 indices each) of
 * `vertexCount` xyz f32 positions. Leaves hold at most `maxLeaf` triangles
 * (1..64, default 8 when 0); `bins` (2..32, default 16 when 0) SAH bins per
 * axis. Returns the BVH's pointer, or 0 (see bvhLastStatus: bad index, out
 * of memory). Allocates exactly bvhByteLength() bytes in the arena. Same
 * bytes as bvhBuildBegin + bvhBuildStep until done.
 */
export function bvhBuild(positions: usize, indices: usize, vertexCount: u32, triCount: u32, maxLeaf: i32, bins: i32): usize {
  let r = bvhBuildBegin(positions, indices, vertexCount, triCount, maxLeaf, bins);
  while (r > 0) r = bvhBuildStep(0xffffffff);
  return r == 0 ? built : 0;
}

/**
 * Starts a build (arguments as bvhBuild): allocates the BVH's worst case in
 * the arena. Returns 1 (call bvhBuildStep) or a negative status. One build
 * at a time per instance; a new begin abandons an unfinished build without
 * freeing its memory (release the arena to the mark taken before begin).
 */
export function bvhBuildBegin(positions: usize, indices: usize, vertexCount: u32, triCount: u32, maxLeaf: i32, bins: i32): i32 {
  status = BVH_OK;
  phase = PHASE_FAILED;
  built = 0;
  if (maxLeaf <= 0) maxLeaf = 8;
  if (maxLeaf > 64) maxLeaf = 64;
  if (bins <= 0) bins = 16;
  if (bins < 2) bins = 2;
  if (bins > MAX_BINS) bins = MAX_BINS;
  const n = <usize>triCount;
  if (n > 0x1000000 * 4) {
    status = BVH_OUT_OF_MEMORY;
    return status;
  }
  const maxNodes: usize = n > 0 ? 2 * n - 1 : 1;
  const trisOff = HEADER_BYTES;
  // Sibling pairs (nodes 2m + 1, 2m + 2) on 64-byte boundaries: one cache
  // line per visit. The root sits alone before the first pair.
  const nodesOff = ((trisOff + n * TRI_BYTES + 63) & ~(<usize>63)) + 32;
  const mark = arenaMark();
  const raw = arenaAlloc(nodesOff + maxNodes * NODE_BYTES + 48);
  if (raw == 0) {
    status = BVH_OUT_OF_MEMORY;
    return status;
  }
  bPositions = positions;
  bIndices = indices;
  bVertexCount = vertexCount;
  bN = n;
  bMaxLeaf = maxLeaf;
  bBins = bins;
  bMark = mark;
  bBvh = (raw + 63) & ~(<usize>63);
  bTrisOff = trisOff;
  bNodesOff = nodesOff;
  bDone = 0;
  bLeafTris = 0;
  bNodeCount = 0;
  bMaxDepth = 0;
  bSp = 0;
  bPadding = 0;
  bRootLo = f32x4.splat(Infinity);
  bRootHi = f32x4.splat(-Infinity);
  bCLo = f32x4.splat(Infinity);
  bCHi = f32x4.splat(-Infinity);
  phase = PHASE_RECORDS;
  return 1;
}

/**
 * Does about `budget` units of the build begun by bvhBuildBegin (0 counts
 * as 1). Returns 1 while work remains, 0 when done (bvhBuildResult), or a
 * negative status (bad index: the arena is released to where begin found it).
 */
export function bvhBuildStep(budget: u32): i32 {
  if (phase == PHASE_DONE) return 0;
  if (phase == PHASE_FAILED) return status;
  if (phase == PHASE_IDLE) {
    status = BVH_BAD_INPUT;
    return status;
  }
  let work: i64 = budget > 0 ? <i64>budget : 1;
  if (phase == PHASE_RECORDS) {
    work = stepRecords(work);
    if (phase == PHASE_FAILED) return status;
    if (phase == PHASE_RECORDS || work <= 0) return 1;
  }
  if (phase == PHASE_SPLITS) {
    work = stepSplits(work);
    if (phase == PHASE_SPLITS || work <= 0) return 1;
  }
  stepCopies(work);
  return phase == PHASE_DONE ? 0 : 1;
}

/** The finished BVH's pointer (after bvhBuildStep returned 0), else 0. */
export function bvhBuildResult(): usize {
  return built;
}

/** Fraction 0..1 of the current build (1 once done). */
export function bvhBuildProgress(): f64 {
  if (phase == PHASE_DONE) return 1;
  if (bN == 0 || phase == PHASE_IDLE || phase == PHASE_FAILED) return 0;
  const n = <f64>bN;
  if (phase == PHASE_RECORDS) return RECORDS_SHARE * (<f64>bDone / n);
  if (phase == PHASE_SPLITS) return RECORDS_SHARE + (1 - RECORDS_SHARE - COPIES_SHARE) * (<f64>bLeafTris / n);
  return 1 - COPIES_SHARE + COPIES_SHARE * (<f64>bDone / n);
}

/** Records: triangle bounds with the id in lane 3 of the minimum. Returns the budget left. */
function stepRecords(work: i64): i64 {
  const n = bN;
  const positions = bPositions;
  const indices = bIndices;
  const vertexCount = bVertexCount;
  const recs = recsOf(bBvh);
  const from = bDone;
  const end: usize = <u64>(n - from) > <u64>work ? from + <usize>work : n;
  let rootLo = bRootLo, rootHi = bRootHi, cLo = bCLo, cHi = bCHi;
  for (let i: usize = from; i < end; i++) {
    const tri = indices + i * 12;
    const ia = load<u32>(tri), ib = load<u32>(tri, 4), ic = load<u32>(tri, 8);
    if (ia >= vertexCount || ib >= vertexCount || ic >= vertexCount) {
      status = BVH_BAD_INPUT;
      phase = PHASE_FAILED;
      arenaRelease(bMark);
      return 0;
    }
    const a = v128.load(positions + <usize>ia * 12);
    const b = v128.load(positions + <usize>ib * 12);
    const c = v128.load(positions + <usize>ic * 12);
    const lo = f32x4.pmin(f32x4.pmin(a, b), c);
    const hi = f32x4.pmax(f32x4.pmax(a, b), c);
    rootLo = f32x4.pmin(rootLo, lo);
    rootHi = f32x4.pmax(rootHi, hi);
    const cen = f32x4.add(lo, hi);
    cLo = f32x4.pmin(cLo, cen);
    cHi = f32x4.pmax(cHi, cen);
    const r = recs + i * REC_BYTES;
    v128.store(r, withLane3(lo, <u32>i));
    v128.store(r, hi, 16);
  }
  bRootLo = rootLo;
  bRootHi = rootHi;
  bCLo = cLo;
  bCHi = cHi;
  bDone = end;
  work -= <i64>(end - from);
  if (end < n) return work;

  bPadding = n > 0 ? padFor(rootLo, rootHi) : 0;
  pad = f32x4.splat(bPadding);
  writeNode(nodesOf(bBvh), rootLo, rootHi, 0, <u32>n);
  bNodeCount = 1;
  bMaxDepth = 0;
  bSp = 0;
  pushTask(bSp++, 0, 0, <u32>n, 0, cLo, cHi);
  phase = PHASE_SPLITS;
  return work;
}

/** Splits nodes from the work stack until it is empty or the budget is spent. Returns the budget left. */
function stepSplits(work: i64): i64 {
  const recs = recsOf(bBvh);
  const nodes = nodesOf(bBvh);
  const maxLeaf = bMaxLeaf;
  const bins = bBins;
  const inf = f32x4.splat(Infinity);
  const ninf = f32x4.splat(-Infinity);
  pad = f32x4.splat(bPadding);
  let nodeCount = bNodeCount;
  let maxDepth = bMaxDepth;
  let sp = bSp;
  let leafTris = bLeafTris;

  while (sp > 0 && work > 0) {
    const t = tasks + <usize>(--sp) * TASK_BYTES;
    const cmin = v128.load(t);
    const cmax = v128.load(t, 16);
    const node = load<u32>(t, 32);
    const start = load<u32>(t, 36);
    const end = load<u32>(t, 40);
    const depth = load<i32>(t, 44);
    const count = end - start;
    const nodePtr = nodes + <usize>node * NODE_BYTES;
    if (depth > maxDepth) maxDepth = depth;
    if (count <= <u32>maxLeaf || depth >= MAX_DEPTH - 1) {
      store<u32>(nodePtr, start, 12);
      store<u32>(nodePtr, count, 28);
      leafTris += <usize>count;
      work--;
      continue;
    }
    work -= <i64>count;
    // Bin centroids on the three axes.
    const nb: i32 = <i32>count < bins ? <i32>count : bins;
    const ext = f32x4.sub(cmax, cmin);
    const k = <f32>nb * 0.99999;
    const ex = f32x4.extract_lane(ext, 0), ey = f32x4.extract_lane(ext, 1), ez = f32x4.extract_lane(ext, 2);
    const sx: f32 = ex > 0 ? k / ex : 0;
    const sy: f32 = ey > 0 ? k / ey : 0;
    const sz: f32 = ez > 0 ? k / ez : 0;
    let scale = f32x4.splat(sx);
    scale = f32x4.replace_lane(scale, 1, sy);
    scale = f32x4.replace_lane(scale, 2, sz);
    scale = f32x4.replace_lane(scale, 3, 0);
    // Big nodes: all three axes on a sample of the records. Small nodes (most
    // of the work, near the leaves): the axis of the widest centroid spread.
    const allAxes = count > SAMPLE_TARGET;
    let a0: i32 = 0, a1: i32 = 2;
    if (!allAxes) {
      a0 = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
      a1 = a0;
    }
    // Small nodes use one set: clearing and merging a second costs more than it saves.
    const twoSets = count > 64;
    for (let a = a0; a <= a1; a++) {
      for (let j = 0; j < nb; j++) {
        const s0 = <usize>(a * MAX_BINS + j);
        v128.store(binLo + s0 * 16, inf);
        v128.store(binHi + s0 * 16, ninf);
        store<i32>(binCount + s0 * 4, 0);
        if (twoSets) {
          const s1 = s0 + SET_SLOTS;
          v128.store(binLo + s1 * 16, inf);
          v128.store(binHi + s1 * 16, ninf);
          store<i32>(binCount + s1 * 4, 0);
        }
      }
    }
    if (allAxes) {
      const last = i32x4.splat(nb - 1);
      const step: u32 = count / SAMPLE_TARGET;
      const setOffset = i32x4(0, MAX_BINS, 2 * MAX_BINS, 0);
      const set1Offset = i32x4(<i32>SET_SLOTS, <i32>SET_SLOTS + MAX_BINS, <i32>SET_SLOTS + 2 * MAX_BINS, 0);
      let bi = start;
      for (; bi + step < end; bi += 2 * step) {
        binRecord(recs + <usize>bi * REC_BYTES, cmin, scale, last, setOffset);
        binRecord(recs + <usize>(bi + step) * REC_BYTES, cmin, scale, last, set1Offset);
      }
      if (bi < end) binRecord(recs + <usize>bi * REC_BYTES, cmin, scale, last, setOffset);
    } else {
      const off: usize = <usize>a0 * 4;
      const cm: f32 = a0 == 0 ? f32x4.extract_lane(cmin, 0) : a0 == 1 ? f32x4.extract_lane(cmin, 1) : f32x4.extract_lane(cmin, 2);
      const sc: f32 = a0 == 0 ? sx : a0 == 1 ? sy : sz;
      const base0 = <usize>(a0 * MAX_BINS);
      const base1 = twoSets ? base0 + SET_SLOTS : base0;
      let bi = start;
      for (; bi + 1 < end; bi += 2) {
        binOne(recs + <usize>bi * REC_BYTES, off, cm, sc, nb - 1, base0);
        binOne(recs + <usize>(bi + 1) * REC_BYTES, off, cm, sc, nb - 1, base1);
      }
      if (bi < end) binOne(recs + <usize>bi * REC_BYTES, off, cm, sc, nb - 1, base0);
    }
    // Merge set 1 into set 0.
    if (twoSets) for (let a = a0; a <= a1; a++) {
      for (let j = 0; j < nb; j++) {
        const s0 = <usize>(a * MAX_BINS + j);
        const s1 = s0 + SET_SLOTS;
        v128.store(binLo + s0 * 16, f32x4.pmin(v128.load(binLo + s0 * 16), v128.load(binLo + s1 * 16)));
        v128.store(binHi + s0 * 16, f32x4.pmax(v128.load(binHi + s0 * 16), v128.load(binHi + s1 * 16)));
        store<i32>(binCount + s0 * 4, load<i32>(binCount + s0 * 4) + load<i32>(binCount + s1 * 4));
      }
    }

    // Sweep: the cheapest split (left = bins [0, split)).
    let bestCost: f32 = Infinity;
    let bestAxis: i32 = -1;
    let bestSplit: i32 = 0;
    for (let a = a0; a <= a1; a++) {
      if (f32x4.extract_lane(ext, 0) <= 0 && a == 0) continue;
      if (f32x4.extract_lane(ext, 1) <= 0 && a == 1) continue;
      if (f32x4.extract_lane(ext, 2) <= 0 && a == 2) continue;
      const base = <usize>(a * MAX_BINS);
      let accLo = inf, accHi = ninf;
      let accN: i32 = 0;
      for (let j = nb - 1; j >= 1; j--) {
        const s = base + <usize>j;
        accLo = f32x4.pmin(accLo, v128.load(binLo + s * 16));
        accHi = f32x4.pmax(accHi, v128.load(binHi + s * 16));
        accN += load<i32>(binCount + s * 4);
        store<f32>(rightCost + <usize>j * 4, accN > 0 ? halfArea(accLo, accHi) * <f32>accN : -1);
      }
      accLo = inf;
      accHi = ninf;
      accN = 0;
      for (let j = 1; j < nb; j++) {
        const s = base + <usize>(j - 1);
        accLo = f32x4.pmin(accLo, v128.load(binLo + s * 16));
        accHi = f32x4.pmax(accHi, v128.load(binHi + s * 16));
        accN += load<i32>(binCount + s * 4);
        const rc = load<f32>(rightCost + <usize>j * 4);
        if (accN == 0 || rc < 0) continue;
        const cost = halfArea(accLo, accHi) * <f32>accN + rc;
        if (cost < bestCost) {
          bestCost = cost;
          bestAxis = a;
          bestSplit = j;
        }
      }
    }

    let mid: u32 = start;
    let lLo = inf, lHi = ninf, rLo = inf, rHi = ninf;
    let lcLo = inf, lcHi = ninf, rcLo = inf, rcHi = ninf;
    if (bestAxis >= 0) {
      // Partition in place with the same arithmetic as the binning.
      const cm: f32 = bestAxis == 0 ? f32x4.extract_lane(cmin, 0) : bestAxis == 1 ? f32x4.extract_lane(cmin, 1) : f32x4.extract_lane(cmin, 2);
      const sc: f32 = bestAxis == 0 ? sx : bestAxis == 1 ? sy : sz;
      const off: usize = <usize>bestAxis * 4;
      let i = start, j = end;
      while (i < j) {
        const r = recs + <usize>i * REC_BYTES;
        const lo = v128.load(r);
        const hi = v128.load(r, 16);
        const cen = f32x4.add(lo, hi);
        const cv = load<f32>(r + off) + load<f32>(r + off, 16);
        let bin = <i32>((cv - cm) * sc);
        if (bin > nb - 1) bin = nb - 1;
        if (bin < bestSplit) {
          lLo = f32x4.pmin(lLo, lo);
          lHi = f32x4.pmax(lHi, hi);
          lcLo = f32x4.pmin(lcLo, cen);
          lcHi = f32x4.pmax(lcHi, cen);
          i++;
        } else {
          j--;
          const q = recs + <usize>j * REC_BYTES;
          v128.store(r, v128.load(q));
          v128.store(r, v128.load(q, 16), 16);
          v128.store(q, lo);
          v128.store(q, hi, 16);
          rLo = f32x4.pmin(rLo, lo);
          rHi = f32x4.pmax(rHi, hi);
          rcLo = f32x4.pmin(rcLo, cen);
          rcHi = f32x4.pmax(rcHi, cen);
        }
      }
      mid = i;
    }
    if (mid == start || mid == end) {
      // Every centroid in one point (or a sampled split that left a side
      // empty): split by position in the range.
      lLo = inf;
      lHi = ninf;
      rLo = inf;
      rHi = ninf;
      lcLo = inf;
      lcHi = ninf;
      rcLo = inf;
      rcHi = ninf;
      mid = start + (count >> 1);
      for (let i = start; i < end; i++) {
        const r = recs + <usize>i * REC_BYTES;
        const lo = v128.load(r);
        const hi = v128.load(r, 16);
        const cen = f32x4.add(lo, hi);
        if (i < mid) {
          lLo = f32x4.pmin(lLo, lo);
          lHi = f32x4.pmax(lHi, hi);
          lcLo = f32x4.pmin(lcLo, cen);
          lcHi = f32x4.pmax(lcHi, cen);
        } else {
          rLo = f32x4.pmin(rLo, lo);
          rHi = f32x4.pmax(rHi, hi);
          rcLo = f32x4.pmin(rcLo, cen);
          rcHi = f32x4.pmax(rcHi, cen);
        }
      }
    }

    const left = nodeCount;
    nodeCount += 2;
    writeNode(nodes + <usize>left * NODE_BYTES, lLo, lHi, mid, mid - start);
    writeNode(nodes + <usize>(left + 1) * NODE_BYTES, rLo, rHi, mid, end - mid);
    store<u32>(nodePtr, left, 12);
    store<u32>(nodePtr, 0, 28);
    pushTask(sp++, left + 1, mid, end, depth + 1, rcLo, rcHi);
    pushTask(sp++, left, start, mid, depth + 1, lcLo, lcHi);
  }

  bNodeCount = nodeCount;
  bMaxDepth = maxDepth;
  bSp = sp;
  bLeafTris = leafTris;
  if (sp == 0) {
    phase = PHASE_COPIES;
    bDone = 0;
  }
  return work;
}

/** Triangle copies in leaf order over the records (see the layout note: entry i never reaches record i + 1), then the header. */
function stepCopies(work: i64): void {
  const n = bN;
  const bvh = bBvh;
  const positions = bPositions;
  const indices = bIndices;
  const recs = recsOf(bvh);
  const tris = bvh + bTrisOff;
  const from = bDone;
  const end: usize = <u64>(n - from) > <u64>work ? from + <usize>work : n;
  for (let i: usize = from; i < end; i++) {
    const id = load<u32>(recs + i * REC_BYTES, 12);
    writeTri(tris + i * TRI_BYTES, positions, indices, id);
  }
  bDone = end;
  if (end < n) return;

  const nodeCount = bNodeCount;
  const byteLength = bNodesOff + <usize>nodeCount * NODE_BYTES;
  arenaRelease(bvh + byteLength);
  store<u32>(bvh, BVH_MAGIC, H_MAGIC);
  store<u32>(bvh, BVH_VERSION, H_VERSION);
  store<u32>(bvh, <u32>n, H_TRIANGLES);
  store<u32>(bvh, nodeCount, H_NODES);
  store<u32>(bvh, <u32>byteLength, H_BYTES);
  store<u32>(bvh, <u32>bTrisOff, H_TRIS_OFFSET);
  store<u32>(bvh, <u32>bNodesOff, H_NODES_OFFSET);
  store<u32>(bvh, <u32>bMaxLeaf, H_MAX_LEAF);
  store<u32>(bvh, bVertexCount, H_VERTICES);
  store<u32>(bvh, <u32>(bMaxDepth + 1), H_DEPTH);
  for (let o: usize = 44; o < HEADER_BYTES; o += 4) store<u32>(bvh + o, 0);
  store<f32>(bvh, bPadding, H_PAD);
  built = bvh;
  phase = PHASE_DONE;
}

@inline function writeTri(dst: usize, positions: usize, indices: usize, id: u32): void {
  const tri = indices + <usize>id * 12;
  const a = v128.load(positions + <usize>load<u32>(tri) * 12);
  const b = v128.load(positions + <usize>load<u32>(tri, 4) * 12);
  const c = v128.load(positions + <usize>load<u32>(tri, 8) * 12);
  v128.store(dst, withLane3(a, id));
  v128.store(dst, withLane3(b, 0), 16);
  v128.store(dst, withLane3(c, 0), 32);
}

/** Bytes of the BVH at `bvh` (from its header). */
export function bvhByteLength(bvh: usize): u32 {
  return load<u32>(bvh, H_BYTES);
}

export function bvhNodeCount(bvh: usize): u32 {
  return load<u32>(bvh, H_NODES);
}

export function bvhTriangleCount(bvh: usize): u32 {
  return load<u32>(bvh, H_TRIANGLES);
}

/** Number of node levels (1 for a single leaf). */
export function bvhDepth(bvh: usize): u32 {
  return load<u32>(bvh, H_DEPTH);
}

/**
 * Validates `len` bytes at `ptr` as a BVH (header, sizes, and every node's
 * child and triangle ranges), so that bytes from elsewhere cannot make a
 * query read out of bounds. Returns 0 or BVH_BAD_BYTES.
 */
export function bvhCheck(ptr: usize, len: u32): i32 {
  status = BVH_BAD_BYTES;
  if (len < <u32>HEADER_BYTES) return status;
  if (load<u32>(ptr, H_MAGIC) != BVH_MAGIC || load<u32>(ptr, H_VERSION) != BVH_VERSION) return status;
  const n = <u64>load<u32>(ptr, H_TRIANGLES);
  const nodeCount = <u64>load<u32>(ptr, H_NODES);
  const trisOff = <u64>load<u32>(ptr, H_TRIS_OFFSET);
  const nodesOff = <u64>load<u32>(ptr, H_NODES_OFFSET);
  if (<u64>load<u32>(ptr, H_BYTES) != <u64>len) return status;
  const trisEnd = trisOff + n * <u64>TRI_BYTES;
  if (trisOff != <u64>HEADER_BYTES || nodesOff < trisEnd || nodesOff > trisEnd + 96 || (nodesOff & 3) != 0) return status;
  if (nodeCount == 0 || nodesOff + nodeCount * <u64>NODE_BYTES != <u64>len) return status;
  if (load<u32>(ptr, H_DEPTH) > <u32>MAX_DEPTH) return status;
  const nodes = ptr + <usize>nodesOff;
  for (let i: u64 = 0; i < nodeCount; i++) {
    const node = nodes + <usize>i * NODE_BYTES;
    const a = <u64>load<u32>(node, 12);
    const count = <u64>load<u32>(node, 28);
    if (count > 0) {
      if (a + count > n) return status;
    } else if (a <= i || a + 1 >= nodeCount) {
      // Children come after their parent: no cycles, depth bounded by the walk below.
      return status;
    }
  }
  if (!depthWithin(nodes, <u32>nodeCount)) return status;
  // Triangle ids (refit reads the mesh's indices through them).
  const tris = ptr + <usize>trisOff;
  for (let j: u64 = 0; j < n; j++) {
    if (<u64>load<u32>(tris + <usize>j * TRI_BYTES, 12) >= n) return status;
  }
  status = BVH_OK;
  return status;
}

/** True when no path from the root is longer than MAX_DEPTH (traversal stacks hold that many). */
function depthWithin(nodes: usize, nodeCount: u32): bool {
  let sp: i32 = 0;
  let visited: u32 = 0;
  store<u32>(walk, 0);
  store<i32>(walk, 1, 4);
  while (sp >= 0) {
    // A tree visits each node once; more means shared children (a DAG).
    if (++visited > nodeCount) return false;
    const node = load<u32>(walk + <usize>sp * 8);
    const depth = load<i32>(walk + <usize>sp * 8, 4);
    sp--;
    if (depth > MAX_DEPTH) return false;
    const p = nodes + <usize>node * NODE_BYTES;
    if (load<u32>(p, 28) == 0) {
      const a = load<u32>(p, 12);
      if (sp + 2 >= WALK_SLOTS) return false;
      sp++;
      store<u32>(walk + <usize>sp * 8, a);
      store<i32>(walk + <usize>sp * 8, depth + 1, 4);
      sp++;
      store<u32>(walk + <usize>sp * 8, a + 1);
      store<i32>(walk + <usize>sp * 8, depth + 1, 4);
    }
  }
  return true;
}

/**
 * Refit after the mesh's vertices moved (same triangles): refreshes the
 * triangle copies from `positions`/`indices`, then every node's box from
 * its children (children follow their parents, so one backward pass).
 * Returns 0 or a negative status (the mesh does not match the BVH).
 */
export function bvhRefit(bvh: usize, positions: usize, indices: usize, vertexCount: u32): i32 {
  status = BVH_BAD_INPUT;
  if (load<u32>(bvh, H_VERTICES) != vertexCount) return status;
  const n = <usize>load<u32>(bvh, H_TRIANGLES);
  const tris = bvh + <usize>load<u32>(bvh, H_TRIS_OFFSET);
  for (let i: usize = 0; i < n; i++) {
    const dst = tris + i * TRI_BYTES;
    writeTri(dst, positions, indices, load<u32>(dst, 12));
  }
  const nodes = bvh + <usize>load<u32>(bvh, H_NODES_OFFSET);
  const nodeCount = load<u32>(bvh, H_NODES);
  const inf = f32x4.splat(Infinity);
  const ninf = f32x4.splat(-Infinity);
  const padding = load<f32>(bvh, H_PAD);
  const zero = f32x4.splat(0);
  for (let i = <i32>nodeCount - 1; i >= 0; i--) {
    const p = nodes + <usize>i * NODE_BYTES;
    const a = load<u32>(p, 12);
    const count = load<u32>(p, 28);
    let lo = inf, hi = ninf;
    if (count > 0) {
      for (let j = a; j < a + count; j++) {
        const t = tris + <usize>j * TRI_BYTES;
        const v0 = v128.load(t), v1 = v128.load(t, 16), v2 = v128.load(t, 32);
        lo = f32x4.pmin(lo, f32x4.pmin(f32x4.pmin(v0, v1), v2));
        hi = f32x4.pmax(hi, f32x4.pmax(f32x4.pmax(v0, v1), v2));
      }
      pad = f32x4.splat(padding);
    } else {
      const c = nodes + <usize>a * NODE_BYTES;
      lo = f32x4.pmin(v128.load(c), v128.load(c, NODE_BYTES));
      hi = f32x4.pmax(v128.load(c, 16), v128.load(c, NODE_BYTES + 16));
      pad = zero;
    }
    writeNode(p, lo, hi, a, count);
  }
  status = BVH_OK;
  return status;
}
