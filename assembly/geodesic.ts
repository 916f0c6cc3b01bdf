// Geodesic distance between two surface points (triangle id + position).
//
// 1. A* (Dijkstra with the straight-line distance to the target as the
//    heuristic, which never overestimates) over a graph whose nodes are the
//    vertices plus `m` Steiner points on every edge, and whose arcs join any
//    two nodes of a common triangle with their straight (exact, in-triangle)
//    length. The source's nodes start at their exact distance from the
//    source point; a node of the target triangle finishes at its distance to
//    the target point. On a vertex-only graph (m = 0) paths zig-zag (up to
//    8 % long on a grid); Steiner points let them cut across triangles.
// 2. Shortening: every path point that lies on an edge slides along it to
//    the spot minimising its two segments (exact: unfold the two neighbours
//    about the edge's line), sweep after sweep. Consecutive points always
//    share a triangle, so the polyline stays on the surface; it converges to
//    the shortest path through the same sequence of edges.
//
// The search is resumable (geoBegin, geoStep(budget), geoFinish) so the
// wrapper can yield and cancel. Per-node arrays (about 24 bytes per node,
// V + m·E nodes) are allocated once per mesh and stamped, so a short query
// costs only the nodes it visits.

import { arenaAlloc, arenaMark } from './arena';
import {
  adjList,
  adjOff,
  meshIdx,
  meshPos,
  NONE,
  nV,
  nT,
  topoReady,
  setU32,
  TOPO_BAD_INPUT,
  TOPO_BAD_STATE,
  TOPO_OK,
  TOPO_OUT_OF_MEMORY,
  TOPO_UNREACHABLE,
  u32At,
  vtList,
  vtOff,
} from './topo-mesh';

const SETTLED: u32 = 0xFFFF_FFFE;

let preparedFor: usize = 0;
let preparedV: u32 = 0;
let preparedTop: usize = 0; // arena top after the last allocation: a release below it lost the arrays
let steiner: u32 = 0; // Steiner points per edge
let nE: u32 = 0;
let nN: u32 = 0; // nodes
let capacity: u32 = 0; // nodes the arrays below can hold
let edgeBase: usize = 0; // u32 × (V + 1): id of v's first edge to a larger neighbour
let edgeA: usize = 0; // u32 × E, smaller end
let edgeB: usize = 0; // u32 × E
let stamp: usize = 0; // u32 × N
let dist: usize = 0; // f32 × N, from the source
let prev: usize = 0; // u32 × N
let heapPos: usize = 0; // u32 × N: index in the heap, NONE, or SETTLED
let heapKey: usize = 0; // f32 × N
let heapNode: usize = 0; // u32 × N
let heapSize: u32 = 0;
let clock: u32 = 0;

// ---- the current query
let state: i32 = 0; // 0 idle, 1 searching, 2 found, negative: failed
let srcT: u32 = 0;
let dstT: u32 = 0;
let ax: f32 = 0, ay: f32 = 0, az: f32 = 0;
let bx: f32 = 0, by: f32 = 0, bz: f32 = 0;
let dstV0: u32 = 0, dstV1: u32 = 0, dstV2: u32 = 0;
let dstE0: u32 = 0, dstE1: u32 = 0, dstE2: u32 = 0;
let best: f32 = Infinity;
let bestNode: u32 = NONE;
let settledCount: u32 = 0;
let graphLength: f64 = 0;
let pathLength: f64 = 0;
let pathCount: u32 = 0;
let pathPts: usize = 0;

// scratch "return values" of nodePos
let px: f32 = 0, py: f32 = 0, pz: f32 = 0;

/** Allocates the search arrays for the analysed mesh with `m` (0..8) Steiner points per edge. */
export function geoPrepare(m: u32): i32 {
  if (!topoReady()) return TOPO_BAD_STATE;
  if (m > 8) return TOPO_BAD_INPUT;
  const sameMesh = preparedFor == meshPos && preparedV == nV && edgeA != 0 && arenaMark() >= preparedTop;
  if (sameMesh && steiner == m && stamp != 0) return TOPO_OK;
  if (!sameMesh) {
    capacity = 0;
    stamp = 0;
    // Edge ids: per vertex, its neighbours above it (a suffix of the sorted list).
    edgeBase = arenaAlloc(((<usize>nV) << 2) + 4);
    if (edgeBase == 0) return TOPO_OUT_OF_MEMORY;
    let e: u32 = 0;
    for (let v: u32 = 0; v < nV; v++) {
      setU32(edgeBase, v, e);
      const a1 = u32At(adjOff, v + 1);
      for (let p = u32At(adjOff, v); p < a1; p++) if (u32At(adjList, p) > v) e++;
    }
    setU32(edgeBase, nV, e);
    nE = e;
    edgeA = arenaAlloc((<usize>nE) << 2);
    edgeB = arenaAlloc((<usize>nE) << 2);
    if (edgeA == 0 || edgeB == 0) {
      edgeA = 0;
      return TOPO_OUT_OF_MEMORY;
    }
    e = 0;
    for (let v: u32 = 0; v < nV; v++) {
      const a1 = u32At(adjOff, v + 1);
      for (let p = u32At(adjOff, v); p < a1; p++) {
        const w = u32At(adjList, p);
        if (w > v) {
          setU32(edgeA, e, v);
          setU32(edgeB, e, w);
          e++;
        }
      }
    }
    preparedFor = meshPos;
    preparedV = nV;
    preparedTop = arenaMark();
  }
  const nodes = <u64>nV + <u64>m * <u64>nE;
  if (nodes >= 0x3FFF_0000) return TOPO_OUT_OF_MEMORY;
  nN = <u32>nodes;
  const n4 = (<usize>nN) << 2;
  // Node arrays grow only: fewer Steiner points reuse the larger ones.
  if (nN > capacity || stamp == 0) {
    stamp = arenaAlloc(n4);
    dist = arenaAlloc(n4);
    prev = arenaAlloc(n4);
    heapPos = arenaAlloc(n4);
    heapKey = arenaAlloc(n4);
    heapNode = arenaAlloc(n4);
    if (stamp == 0 || dist == 0 || prev == 0 || heapPos == 0 || heapKey == 0 || heapNode == 0) {
      stamp = 0;
      capacity = 0;
      return TOPO_OUT_OF_MEMORY;
    }
    capacity = nN;
  }
  preparedTop = arenaMark();
  memory.fill(stamp, 0, n4);
  clock = 0;
  steiner = m;
  return TOPO_OK;
}

/** Id of the undirected edge {a, b}; NONE when they are not neighbours. */
function edgeId(a: u32, b: u32): u32 {
  if (a > b) {
    const t = a;
    a = b;
    b = t;
  }
  const above = u32At(edgeBase, a + 1) - u32At(edgeBase, a);
  const end = u32At(adjOff, a + 1);
  const first = end - above;
  for (let p = first; p < end; p++) {
    if (u32At(adjList, p) == b) return u32At(edgeBase, a) + (p - first);
  }
  return NONE;
}

function nodePos(n: u32): void {
  if (n < nV) {
    const p = meshPos + (<usize>n) * 12;
    px = load<f32>(p);
    py = load<f32>(p, 4);
    pz = load<f32>(p, 8);
    return;
  }
  const k = n - nV;
  const e = k / steiner;
  const j = k - e * steiner;
  const pa = meshPos + (<usize>u32At(edgeA, e)) * 12;
  const pb = meshPos + (<usize>u32At(edgeB, e)) * 12;
  const t = <f32>(j + 1) / <f32>(steiner + 1);
  const x0 = load<f32>(pa), y0 = load<f32>(pa, 4), z0 = load<f32>(pa, 8);
  px = x0 + t * (load<f32>(pb) - x0);
  py = y0 + t * (load<f32>(pb, 4) - y0);
  pz = z0 + t * (load<f32>(pb, 8) - z0);
}

@inline function len3(x: f32, y: f32, z: f32): f32 {
  return Mathf.sqrt(x * x + y * y + z * z);
}

// ---- binary min-heap on (key, node), positions tracked for decrease-key

function siftUp(i: u32): void {
  const key = load<f32>(heapKey + ((<usize>i) << 2));
  const node = u32At(heapNode, i);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const pk = load<f32>(heapKey + ((<usize>parent) << 2));
    if (pk <= key) break;
    const pn = u32At(heapNode, parent);
    store<f32>(heapKey + ((<usize>i) << 2), pk);
    setU32(heapNode, i, pn);
    setU32(heapPos, pn, i);
    i = parent;
  }
  store<f32>(heapKey + ((<usize>i) << 2), key);
  setU32(heapNode, i, node);
  setU32(heapPos, node, i);
}

function siftDown(i: u32): void {
  const key = load<f32>(heapKey + ((<usize>i) << 2));
  const node = u32At(heapNode, i);
  for (;;) {
    let c: u32 = 2 * i + 1;
    if (c >= heapSize) break;
    let ck = load<f32>(heapKey + ((<usize>c) << 2));
    if (c + 1 < heapSize) {
      const rk = load<f32>(heapKey + ((<usize>(c + 1)) << 2));
      if (rk < ck) {
        c++;
        ck = rk;
      }
    }
    if (ck >= key) break;
    const cn = u32At(heapNode, c);
    store<f32>(heapKey + ((<usize>i) << 2), ck);
    setU32(heapNode, i, cn);
    setU32(heapPos, cn, i);
    i = c;
  }
  store<f32>(heapKey + ((<usize>i) << 2), key);
  setU32(heapNode, i, node);
  setU32(heapPos, node, i);
}

/** Offers distance d (from the source, via `from`) to node n at (qx, qy, qz). */
function offer(n: u32, d: f32, from: u32): void {
  if (u32At(stamp, n) != clock) {
    setU32(stamp, n, clock);
    setU32(heapPos, n, NONE);
    store<f32>(dist + ((<usize>n) << 2), Infinity);
  }
  const hp = u32At(heapPos, n);
  if (hp == SETTLED) return;
  if (!(d < load<f32>(dist + ((<usize>n) << 2)))) return;
  store<f32>(dist + ((<usize>n) << 2), d);
  setU32(prev, n, from);
  nodePos(n);
  const key = d + len3(px - bx, py - by, pz - bz);
  if (hp == NONE) {
    const i = heapSize++;
    store<f32>(heapKey + ((<usize>i) << 2), key);
    setU32(heapNode, i, n);
    siftUp(i);
  } else {
    store<f32>(heapKey + ((<usize>hp) << 2), key);
    siftUp(hp);
  }
}

/** Offers every node of triangle t from node `from` at (fx, fy, fz) with distance g. */
function relaxTriangle(t: u32, from: u32, g: f32, fx: f32, fy: f32, fz: f32): void {
  const tp = meshIdx + (<usize>t) * 12;
  const a = load<u32>(tp), b = load<u32>(tp, 4), c = load<u32>(tp, 8);
  offerFrom(a, from, g, fx, fy, fz);
  offerFrom(b, from, g, fx, fy, fz);
  offerFrom(c, from, g, fx, fy, fz);
  if (steiner == 0) return;
  offerEdge(a, b, from, g, fx, fy, fz);
  offerEdge(b, c, from, g, fx, fy, fz);
  offerEdge(c, a, from, g, fx, fy, fz);
}

@inline function offerFrom(n: u32, from: u32, g: f32, fx: f32, fy: f32, fz: f32): void {
  if (n == from) return;
  if (u32At(stamp, n) == clock && u32At(heapPos, n) == SETTLED) return;
  nodePos(n);
  offer(n, g + len3(px - fx, py - fy, pz - fz), from);
}

function offerEdge(a: u32, b: u32, from: u32, g: f32, fx: f32, fy: f32, fz: f32): void {
  if (a == b) return;
  const e = edgeId(a, b);
  if (e == NONE) return;
  const first = nV + e * steiner;
  for (let j: u32 = 0; j < steiner; j++) offerFrom(first + j, from, g, fx, fy, fz);
}

function isTargetNode(n: u32): bool {
  if (n < nV) return n == dstV0 || n == dstV1 || n == dstV2;
  const e = (n - nV) / steiner;
  return e == dstE0 || e == dstE1 || e == dstE2;
}

/**
 * Starts a query from (ta; ax, ay, az) to (tb; bx, by, bz). Points should lie
 * on their triangles (they are used as given). Returns TOPO_OK or a negative status.
 */
export function geoBegin(ta: u32, sx: f32, sy: f32, sz: f32, tb: u32, tx: f32, ty: f32, tz: f32): i32 {
  state = TOPO_BAD_STATE;
  if (!topoReady() || stamp == 0 || preparedFor != meshPos || arenaMark() < preparedTop) return TOPO_BAD_STATE;
  state = TOPO_BAD_INPUT;
  if (ta >= nT || tb >= nT) return TOPO_BAD_INPUT;
  srcT = ta;
  dstT = tb;
  ax = sx; ay = sy; az = sz;
  bx = tx; by = ty; bz = tz;
  best = Infinity;
  bestNode = NONE;
  settledCount = 0;
  heapSize = 0;
  pathCount = 0;
  graphLength = 0;
  pathLength = 0;
  if (clock >= 0xFFFF_FFF0) {
    memory.fill(stamp, 0, (<usize>nN) << 2);
    clock = 0;
  }
  clock++;
  if (ta == tb) {
    best = len3(bx - ax, by - ay, bz - az);
    state = 2;
    return TOPO_OK;
  }
  const tp = meshIdx + (<usize>tb) * 12;
  dstV0 = load<u32>(tp);
  dstV1 = load<u32>(tp, 4);
  dstV2 = load<u32>(tp, 8);
  dstE0 = steiner > 0 && dstV0 != dstV1 ? edgeId(dstV0, dstV1) : NONE;
  dstE1 = steiner > 0 && dstV1 != dstV2 ? edgeId(dstV1, dstV2) : NONE;
  dstE2 = steiner > 0 && dstV2 != dstV0 ? edgeId(dstV2, dstV0) : NONE;
  // The source's nodes, at their exact distance; `prev` NONE marks them.
  relaxTriangle(ta, NONE, 0, ax, ay, az);
  state = 1;
  return TOPO_OK;
}

/** Settles up to `budget` nodes. Returns 1 while searching, 0 when found, a negative status otherwise. */
export function geoStep(budget: u32): i32 {
  if (state == 2) return 0;
  if (state != 1) return state;
  for (let i: u32 = 0; i < budget; i++) {
    if (heapSize == 0) {
      state = bestNode == NONE ? TOPO_UNREACHABLE : 2;
      return state == 2 ? 0 : state;
    }
    const key = load<f32>(heapKey);
    if (key >= best) {
      state = 2;
      return 0;
    }
    const n = u32At(heapNode, 0);
    heapSize--;
    if (heapSize > 0) {
      store<f32>(heapKey, load<f32>(heapKey + ((<usize>heapSize) << 2)));
      setU32(heapNode, 0, u32At(heapNode, heapSize));
      siftDown(0);
    }
    setU32(heapPos, n, SETTLED);
    settledCount++;
    const g = load<f32>(dist + ((<usize>n) << 2));
    nodePos(n);
    const fx = px, fy = py, fz = pz;
    if (isTargetNode(n)) {
      const total = g + len3(bx - fx, by - fy, bz - fz);
      if (total < best) {
        best = total;
        bestNode = n;
      }
    }
    if (n < nV) {
      const e = u32At(vtOff, n + 1);
      for (let p = u32At(vtOff, n); p < e; p++) relaxTriangle(u32At(vtList, p), n, g, fx, fy, fz);
    } else {
      const ed = (n - nV) / steiner;
      const ea = u32At(edgeA, ed), eb = u32At(edgeB, ed);
      const e = u32At(vtOff, ea + 1);
      for (let p = u32At(vtOff, ea); p < e; p++) {
        const t = u32At(vtList, p);
        const tp = meshIdx + (<usize>t) * 12;
        if (load<u32>(tp) == eb || load<u32>(tp, 4) == eb || load<u32>(tp, 8) == eb) relaxTriangle(t, n, g, fx, fy, fz);
      }
    }
  }
  return 1;
}

// ---- path extraction and shortening

/**
 * Builds the polyline (arena allocation: bracket the call with
 * arenaMark/arenaRelease after copying) and shortens it with `sweeps`
 * sweeps. Returns the number of points or a negative status.
 */
export function geoFinish(sweeps: u32): i32 {
  if (state != 2) return state == 1 ? TOPO_BAD_STATE : state;
  let count: u32 = 2;
  for (let n = bestNode; n != NONE; n = u32At(prev, n)) count++;
  if (srcT == dstT) count = 2;
  pathPts = arenaAlloc((<usize>count) * 12);
  const ends = arenaAlloc((<usize>count) * 8); // edge ends a, b per point (a == b: fixed)
  if (pathPts == 0 || ends == 0) return TOPO_OUT_OF_MEMORY;
  pathCount = count;
  store<f32>(pathPts, ax);
  store<f32>(pathPts, ay, 4);
  store<f32>(pathPts, az, 8);
  setU32(ends, 0, NONE);
  setU32(ends, 1, NONE);
  const last = count - 1;
  const lp = pathPts + (<usize>last) * 12;
  store<f32>(lp, bx);
  store<f32>(lp, by, 4);
  store<f32>(lp, bz, 8);
  setU32(ends, 2 * last, NONE);
  setU32(ends, 2 * last + 1, NONE);
  if (count > 2) {
    let i = last - 1;
    for (let n = bestNode; n != NONE; n = u32At(prev, n)) {
      nodePos(n);
      const pp = pathPts + (<usize>i) * 12;
      store<f32>(pp, px);
      store<f32>(pp, py, 4);
      store<f32>(pp, pz, 8);
      if (n < nV) {
        setU32(ends, 2 * i, NONE);
        setU32(ends, 2 * i + 1, NONE);
      } else {
        const e = (n - nV) / steiner;
        setU32(ends, 2 * i, u32At(edgeA, e));
        setU32(ends, 2 * i + 1, u32At(edgeB, e));
      }
      i--;
    }
  }
  graphLength = polylineLength(pathPts, count);
  for (let s: u32 = 0; s < sweeps; s++) {
    let change: f64 = 0;
    for (let i: u32 = 1; i < last; i++) {
      const ea = u32At(ends, 2 * i);
      if (ea == NONE) continue;
      change += slide(pathPts + (<usize>i) * 12, ea, u32At(ends, 2 * i + 1));
    }
    if (change < 1e-7 * graphLength) break;
  }
  pathLength = polylineLength(pathPts, count);
  return <i32>count;
}

function polylineLength(p: usize, n: u32): f64 {
  let sum: f64 = 0;
  for (let i: u32 = 1; i < n; i++) {
    const a = p + (<usize>(i - 1)) * 12;
    const b = a + 12;
    const dx = <f64>load<f32>(b) - <f64>load<f32>(a);
    const dy = <f64>load<f32>(b, 4) - <f64>load<f32>(a, 4);
    const dz = <f64>load<f32>(b, 8) - <f64>load<f32>(a, 8);
    sum += Math.sqrt(dx * dx + dy * dy + dz * dz);
  }
  return sum;
}

/**
 * Moves the point at p (between its neighbours p - 12 and p + 12) along the
 * edge a-b to the spot that minimises |X - P| + |P - Y|; returns how far it moved.
 */
function slide(p: usize, a: u32, b: u32): f64 {
  const pa = meshPos + (<usize>a) * 12;
  const pb = meshPos + (<usize>b) * 12;
  const ox = <f64>load<f32>(pa), oy = <f64>load<f32>(pa, 4), oz = <f64>load<f32>(pa, 8);
  let ux = <f64>load<f32>(pb) - ox, uy = <f64>load<f32>(pb, 4) - oy, uz = <f64>load<f32>(pb, 8) - oz;
  const L = Math.sqrt(ux * ux + uy * uy + uz * uz);
  if (L == 0) return 0;
  ux /= L;
  uy /= L;
  uz /= L;
  const xp = p - 12, yp = p + 12;
  const xx = <f64>load<f32>(xp) - ox, xy = <f64>load<f32>(xp, 4) - oy, xz = <f64>load<f32>(xp, 8) - oz;
  const yx = <f64>load<f32>(yp) - ox, yy = <f64>load<f32>(yp, 4) - oy, yz = <f64>load<f32>(yp, 8) - oz;
  const sx = xx * ux + xy * uy + xz * uz;
  const sy = yx * ux + yy * uy + yz * uz;
  const hx = Math.sqrt(Math.max(0, xx * xx + xy * xy + xz * xz - sx * sx));
  const hy = Math.sqrt(Math.max(0, yx * yx + yy * yy + yz * yz - sy * sy));
  let s: f64;
  if (hx + hy < 1e-12 * L) s = (sx + sy) * 0.5;
  else s = sx + (sy - sx) * (hx / (hx + hy));
  s = Math.min(L, Math.max(0, s));
  const nx = <f32>(ox + s * ux), ny = <f32>(oy + s * uy), nz = <f32>(oz + s * uz);
  const dx = <f64>(nx - load<f32>(p)), dy = <f64>(ny - load<f32>(p, 4)), dz = <f64>(nz - load<f32>(p, 8));
  store<f32>(p, nx);
  store<f32>(p, ny, 4);
  store<f32>(p, nz, 8);
  return Math.sqrt(dx * dx + dy * dy + dz * dz);
}

export function geoPathPtr(): usize { return pathPts; }
export function geoPathCount(): u32 { return pathCount; }
/** Length of the shortened path (f64). */
export function geoLength(): f64 { return pathLength; }
/** Length of the graph path before shortening. */
export function geoGraphLength(): f64 { return graphLength; }
export function geoSettledCount(): u32 { return settledCount; }
export function geoNodeCount(): u32 { return nN; }
export function geoEdgeCount(): u32 { return nE; }
