// Mesh analysis: the tables the brush and the geodesics walk on, and the health report.
//
// One kernel instance holds one mesh (workers/kernels/mesh.ts), so the tables
// live in module globals, built once per mesh in resumable phases driven by
// workers/kernels/topology.ts (one wasm call per range of items):
//
//   topoBegin(pos, idx, nrm, V, T)   allocate and clear the tables
//   topoCountCorners(t0, t1)         per triangle: corner counts, degenerates, union-find
//   topoPrefixCorners()              vertex→triangle offsets (O(V), one call)
//   topoFillCorners(t0, t1)          vertex→triangle lists
//   topoCountEdges(v0, v1)           per vertex: unique neighbours, edge classes
//   topoPrefixEdges()                adjacency offsets, edge list allocation
//   topoFillEdges(v0, v1)            sorted adjacency lists, open/non-manifold edge lists
//   topoPrepareShells()              one shell per union-find root (O(V), one call)
//   topoLabelShells(t0, t1)          per-triangle shell id, per-shell counts and bounds
//
// Edges are found per vertex, not through a global edge sort: for vertex v,
// every incident triangle gives the half-edge v→next and prev→v. A neighbour
// w > v then owns the undirected edge {v, w}; uses = out + in tells open (1),
// manifold (2, one each way), inconsistently oriented (2, both the same way)
// or non-manifold (> 2). Cost O(corners), no hashing, no sort of the edges.
//
// Shells are connected components over shared vertices (union-find over
// vertices while reading the triangles), so two solids touching in one welded
// vertex count as one shell. Triangles with a repeated index count as
// degenerate and take no part in the edge classes, but they do connect their
// vertices in the adjacency.
//
// This module is not re-exported with `export *` (its globals would become
// wasm exports): assembly/topology.ts lists what JS sees.

import { arenaAlloc, arenaMark } from './arena';

export const TOPO_OK: i32 = 0;
export const TOPO_OUT_OF_MEMORY: i32 = -1;
export const TOPO_BAD_STATE: i32 = -2;
export const TOPO_BAD_INPUT: i32 = -3;
export const TOPO_UNREACHABLE: i32 = -4;

/** Per-vertex flags (u8). */
export const VF_USED: u8 = 1;
/** On an open (boundary) edge: the brush pins it. */
export const VF_BOUNDARY: u8 = 2;
/** On a non-manifold or inconsistently oriented edge. */
export const VF_NON_MANIFOLD: u8 = 4;

export const NONE: u32 = 0xFFFF_FFFF;

// ---- the mesh
export let meshPos: usize = 0;
export let meshIdx: usize = 0;
export let meshNrm: usize = 0;
export let nV: u32 = 0;
export let nT: u32 = 0;
/** True once every phase has run. */
export let ready: bool = false;
/** Arena top when the tables were complete: a reset or release below it wiped them. */
let builtTop: usize = 0;

// ---- persistent tables
export let vtOff: usize = 0; // u32 × (V + 1)
export let vtList: usize = 0; // u32 × 3T: triangle ids per vertex, ascending
export let adjOff: usize = 0; // u32 × (V + 1)
export let adjList: usize = 0; // u32 × adjTotal: neighbour ids per vertex, ascending
export let vFlags: usize = 0; // u8 × V
export let triShell: usize = 0; // u32 × T
export let adjTotal: u32 = 0;

// ---- build scratch (kept: the brush and geodesics reuse nothing of it, but it is small)
let parent: usize = 0; // u32 × V, union-find
let mark: usize = 0; // u32 × V, marker of the vertex whose neighbours are being gathered
let slot: usize = 0; // u32 × V, local slot of a gathered neighbour / fill cursor / root label
let local: usize = 0; // u32 × 3 × maxLocal: neighbour, out-uses, in-uses
let maxLocal: u32 = 0;

// ---- report
let degenerate: u32 = 0;
let repeated: u32 = 0;
let unreferenced: u32 = 0;
let edgeCount: u32 = 0;
let openCount: u32 = 0;
let nonManifoldCount: u32 = 0;
let inconsistentCount: u32 = 0;
let openList: usize = 0;
let nonManifoldList: usize = 0;
let inconsistentList: usize = 0;
let openCur: u32 = 0;
let nonManifoldCur: u32 = 0;
let inconsistentCur: u32 = 0;
let shellCount: u32 = 0;
let shellTris: usize = 0; // u32 × shells
let shellBounds: usize = 0; // f32 × 6 × shells
let labelled: u32 = 0;

// ---------------------------------------------------------------- helpers

@inline export function u32At(base: usize, i: u32): u32 {
  return load<u32>(base + ((<usize>i) << 2));
}

@inline export function setU32(base: usize, i: u32, value: u32): void {
  store<u32>(base + ((<usize>i) << 2), value);
}

@inline function flagsOr(v: u32, f: u8): void {
  const p = vFlags + <usize>v;
  store<u8>(p, load<u8>(p) | f);
}

function find(v: u32): u32 {
  let x = v;
  let p = u32At(parent, x);
  while (p != x) {
    const gp = u32At(parent, p);
    setU32(parent, x, gp); // path halving
    x = gp;
    p = u32At(parent, x);
  }
  return x;
}

function union(a: u32, b: u32): void {
  const ra = find(a);
  const rb = find(b);
  if (ra == rb) return;
  // Smaller id becomes the root: deterministic, and no rank array needed
  // (path halving keeps the trees shallow enough in practice).
  if (ra < rb) setU32(parent, rb, ra);
  else setU32(parent, ra, rb);
}

function alloc(bytes: usize): usize {
  return arenaAlloc(bytes);
}

/** In-place ascending sort of n u32 at p: insertion sort, heap sort beyond 32. */
export function sortU32(p: usize, n: u32): void {
  if (n < 2) return;
  if (n <= 32) {
    for (let i: u32 = 1; i < n; i++) {
      const x = u32At(p, i);
      let j = i;
      while (j > 0 && u32At(p, j - 1) > x) {
        setU32(p, j, u32At(p, j - 1));
        j--;
      }
      setU32(p, j, x);
    }
    return;
  }
  // Heap sort.
  let start = n >> 1;
  let end = n;
  while (end > 1) {
    if (start > 0) {
      start--;
    } else {
      end--;
      const t = u32At(p, end);
      setU32(p, end, u32At(p, 0));
      setU32(p, 0, t);
    }
    let root = start;
    for (;;) {
      let child: u32 = 2 * root + 1;
      if (child >= end) break;
      if (child + 1 < end && u32At(p, child) < u32At(p, child + 1)) child++;
      if (u32At(p, root) < u32At(p, child)) {
        const t = u32At(p, root);
        setU32(p, root, u32At(p, child));
        setU32(p, child, t);
        root = child;
      } else break;
    }
  }
}

// ---------------------------------------------------------------- phases

/** Starts an analysis of the mesh at pos/idx (nrm may be 0). Returns TOPO_OK or a negative status. */
export function topoBegin(pos: usize, idx: usize, nrm: usize, vertices: u32, triangles: u32): i32 {
  ready = false;
  meshPos = pos;
  meshIdx = idx;
  meshNrm = nrm;
  nV = vertices;
  nT = triangles;
  degenerate = 0;
  repeated = 0;
  unreferenced = 0;
  edgeCount = 0;
  openCount = 0;
  nonManifoldCount = 0;
  inconsistentCount = 0;
  shellCount = 0;
  labelled = 0;
  adjTotal = 0;
  if (vertices >= 0x7FFF_FFF0 || triangles >= 0x3FFF_FFF0) return TOPO_BAD_INPUT;
  const v4 = (<usize>vertices) << 2;
  vtOff = alloc(v4 + 4);
  vtList = alloc((<usize>triangles) * 12);
  adjOff = alloc(v4 + 4);
  vFlags = alloc(<usize>vertices);
  triShell = alloc((<usize>triangles) << 2);
  parent = alloc(v4);
  mark = alloc(v4);
  slot = alloc(v4);
  if (vtOff == 0 || vtList == 0 || adjOff == 0 || vFlags == 0 || triShell == 0 || parent == 0 || mark == 0 || slot == 0) {
    return TOPO_OUT_OF_MEMORY;
  }
  memory.fill(vtOff, 0, v4 + 4);
  memory.fill(adjOff, 0, v4 + 4);
  memory.fill(vFlags, 0, <usize>vertices);
  memory.fill(mark, 0xFF, v4);
  for (let v: u32 = 0; v < vertices; v++) setU32(parent, v, v);
  return TOPO_OK;
}

/** Counts corners per vertex, classifies degenerate triangles, joins shells. */
export function topoCountCorners(t0: u32, t1: u32): i32 {
  for (let t = t0; t < t1; t++) {
    const tp = meshIdx + (<usize>t) * 12;
    const a = load<u32>(tp), b = load<u32>(tp, 4), c = load<u32>(tp, 8);
    if (a >= nV || b >= nV || c >= nV) return TOPO_BAD_INPUT;
    setU32(vtOff, a + 1, u32At(vtOff, a + 1) + 1);
    setU32(vtOff, b + 1, u32At(vtOff, b + 1) + 1);
    setU32(vtOff, c + 1, u32At(vtOff, c + 1) + 1);
    if (a == b || b == c || a == c) {
      repeated++;
      degenerate++;
    } else {
      const pa = meshPos + (<usize>a) * 12;
      const pb = meshPos + (<usize>b) * 12;
      const pc = meshPos + (<usize>c) * 12;
      const ax = load<f32>(pa), ay = load<f32>(pa, 4), az = load<f32>(pa, 8);
      const e1x = load<f32>(pb) - ax, e1y = load<f32>(pb, 4) - ay, e1z = load<f32>(pb, 8) - az;
      const e2x = load<f32>(pc) - ax, e2y = load<f32>(pc, 4) - ay, e2z = load<f32>(pc, 8) - az;
      const nx = e1y * e2z - e1z * e2y;
      const ny = e1z * e2x - e1x * e2z;
      const nz = e1x * e2y - e1y * e2x;
      // Same rule as the STL kernel: exactly zero cross product.
      if (nx == 0 && ny == 0 && nz == 0) degenerate++;
    }
    union(a, b);
    union(a, c);
  }
  return TOPO_OK;
}

/** Turns corner counts into offsets; sizes the per-vertex scratch. */
export function topoPrefixCorners(): i32 {
  let sum: u32 = 0;
  let most: u32 = 0;
  for (let v: u32 = 0; v < nV; v++) {
    const n = u32At(vtOff, v + 1);
    if (n == 0) unreferenced++;
    else store<u8>(vFlags + <usize>v, VF_USED);
    if (n > most) most = n;
    setU32(vtOff, v, sum); // start, then used as the fill cursor below
    setU32(slot, v, sum);
    sum += n;
  }
  setU32(vtOff, nV, sum);
  // Shift: vtOff[v] currently holds starts for v < V; nothing else to do.
  maxLocal = 2 * most + 2;
  local = alloc((<usize>maxLocal) * 12);
  return local == 0 ? TOPO_OUT_OF_MEMORY : TOPO_OK;
}

export function topoFillCorners(t0: u32, t1: u32): i32 {
  for (let t = t0; t < t1; t++) {
    const tp = meshIdx + (<usize>t) * 12;
    for (let c: usize = 0; c < 12; c += 4) {
      const v = load<u32>(tp + c);
      const s = u32At(slot, v);
      setU32(vtList, s, t);
      setU32(slot, v, s + 1);
    }
  }
  return TOPO_OK;
}

/**
 * Gathers the unique neighbours of v into `local` (w, out-uses, in-uses) and
 * returns how many. `marker` must differ between passes over the same vertex.
 */
function gather(v: u32, marker: u32): u32 {
  let n: u32 = 0;
  const end = u32At(vtOff, v + 1);
  for (let p = u32At(vtOff, v); p < end; p++) {
    const t = u32At(vtList, p);
    const tp = meshIdx + (<usize>t) * 12;
    const a = load<u32>(tp), b = load<u32>(tp, 4), c = load<u32>(tp, 8);
    let next: u32, prev: u32;
    if (a == v) {
      next = b;
      prev = c;
    } else if (b == v) {
      next = c;
      prev = a;
    } else {
      next = a;
      prev = b;
    }
    const counts = !(a == b || b == c || a == c);
    if (next != v) {
      let s: u32;
      if (u32At(mark, next) == marker) s = u32At(slot, next);
      else {
        s = n++;
        setU32(mark, next, marker);
        setU32(slot, next, s);
        const lp = local + (<usize>s) * 12;
        store<u32>(lp, next);
        store<u32>(lp, 0, 4);
        store<u32>(lp, 0, 8);
      }
      if (counts) {
        const lp = local + (<usize>s) * 12;
        store<u32>(lp, load<u32>(lp, 4) + 1, 4);
      }
    }
    if (prev != v) {
      let s: u32;
      if (u32At(mark, prev) == marker) s = u32At(slot, prev);
      else {
        s = n++;
        setU32(mark, prev, marker);
        setU32(slot, prev, s);
        const lp = local + (<usize>s) * 12;
        store<u32>(lp, prev);
        store<u32>(lp, 0, 4);
        store<u32>(lp, 0, 8);
      }
      if (counts) {
        const lp = local + (<usize>s) * 12;
        store<u32>(lp, load<u32>(lp, 8) + 1, 8);
      }
    }
  }
  return n;
}

export function topoCountEdges(v0: u32, v1: u32): i32 {
  for (let v = v0; v < v1; v++) {
    const n = gather(v, v);
    setU32(adjOff, v + 1, n);
    for (let i: u32 = 0; i < n; i++) {
      const lp = local + (<usize>i) * 12;
      const w = load<u32>(lp);
      if (w < v) continue;
      const out = load<u32>(lp, 4), inn = load<u32>(lp, 8);
      const uses = out + inn;
      if (uses == 0) continue; // joined only by degenerate triangles
      edgeCount++;
      if (uses == 1) {
        openCount++;
        flagsOr(v, VF_BOUNDARY);
        flagsOr(w, VF_BOUNDARY);
      } else if (uses > 2) {
        nonManifoldCount++;
        flagsOr(v, VF_NON_MANIFOLD);
        flagsOr(w, VF_NON_MANIFOLD);
      } else if (out != 1) {
        inconsistentCount++;
        flagsOr(v, VF_NON_MANIFOLD);
        flagsOr(w, VF_NON_MANIFOLD);
      }
    }
  }
  return TOPO_OK;
}

export function topoPrefixEdges(): i32 {
  let sum: u32 = 0;
  for (let v: u32 = 0; v < nV; v++) {
    const n = u32At(adjOff, v + 1);
    setU32(adjOff, v, sum);
    sum += n;
  }
  setU32(adjOff, nV, sum);
  adjTotal = sum;
  adjList = alloc((<usize>sum) << 2);
  openList = alloc((<usize>openCount) << 3);
  nonManifoldList = alloc((<usize>nonManifoldCount) << 3);
  inconsistentList = alloc((<usize>inconsistentCount) << 3);
  openCur = 0;
  nonManifoldCur = 0;
  inconsistentCur = 0;
  if (adjList == 0 || openList == 0 || nonManifoldList == 0 || inconsistentList == 0) return TOPO_OUT_OF_MEMORY;
  return TOPO_OK;
}

@inline function pushPair(list: usize, cursor: u32, a: u32, b: u32): void {
  setU32(list, 2 * cursor, a);
  setU32(list, 2 * cursor + 1, b);
}

export function topoFillEdges(v0: u32, v1: u32): i32 {
  for (let v = v0; v < v1; v++) {
    // A marker distinct from topoCountEdges' pass over the same vertex.
    const n = gather(v, v + nV);
    const out0 = u32At(adjOff, v);
    for (let i: u32 = 0; i < n; i++) {
      const lp = local + (<usize>i) * 12;
      const w = load<u32>(lp);
      setU32(adjList, out0 + i, w);
      if (w < v) continue;
      const out = load<u32>(lp, 4), inn = load<u32>(lp, 8);
      const uses = out + inn;
      if (uses == 0) continue;
      // Pairs are written as the triangles' half-edge runs when there is one.
      const a = out > 0 ? v : w;
      const b = out > 0 ? w : v;
      if (uses == 1) pushPair(openList, openCur++, a, b);
      else if (uses > 2) pushPair(nonManifoldList, nonManifoldCur++, a, b);
      else if (out != 1) pushPair(inconsistentList, inconsistentCur++, a, b);
    }
    sortU32(adjList + ((<usize>out0) << 2), n);
  }
  return TOPO_OK;
}

export function topoPrepareShells(): i32 {
  let roots: u32 = 0;
  for (let v: u32 = 0; v < nV; v++) {
    setU32(slot, v, NONE);
    if (load<u8>(vFlags + <usize>v) & VF_USED && u32At(parent, v) == v) roots++;
  }
  shellTris = alloc((<usize>roots) << 2);
  shellBounds = alloc((<usize>roots) * 24);
  if (shellTris == 0 || shellBounds == 0) return TOPO_OUT_OF_MEMORY;
  memory.fill(shellTris, 0, (<usize>roots) << 2);
  for (let s: u32 = 0; s < roots; s++) {
    const bp = shellBounds + (<usize>s) * 24;
    store<f32>(bp, Infinity);
    store<f32>(bp, Infinity, 4);
    store<f32>(bp, Infinity, 8);
    store<f32>(bp, -Infinity, 12);
    store<f32>(bp, -Infinity, 16);
    store<f32>(bp, -Infinity, 20);
  }
  shellCount = 0;
  labelled = roots;
  return TOPO_OK;
}

@inline function grow(bp: usize, v: u32): void {
  const p = meshPos + (<usize>v) * 12;
  const x = load<f32>(p), y = load<f32>(p, 4), z = load<f32>(p, 8);
  store<f32>(bp, min(load<f32>(bp), x));
  store<f32>(bp, min(load<f32>(bp, 4), y), 4);
  store<f32>(bp, min(load<f32>(bp, 8), z), 8);
  store<f32>(bp, max(load<f32>(bp, 12), x), 12);
  store<f32>(bp, max(load<f32>(bp, 16), y), 16);
  store<f32>(bp, max(load<f32>(bp, 20), z), 20);
}

/** Shell ids follow the order of each shell's first triangle. */
export function topoLabelShells(t0: u32, t1: u32): i32 {
  for (let t = t0; t < t1; t++) {
    const tp = meshIdx + (<usize>t) * 12;
    const a = load<u32>(tp), b = load<u32>(tp, 4), c = load<u32>(tp, 8);
    const r = find(a);
    let s = u32At(slot, r);
    if (s == NONE) {
      s = shellCount++;
      setU32(slot, r, s);
    }
    setU32(triShell, t, s);
    setU32(shellTris, s, u32At(shellTris, s) + 1);
    const bp = shellBounds + (<usize>s) * 24;
    grow(bp, a);
    grow(bp, b);
    grow(bp, c);
  }
  if (t1 >= nT) {
    ready = shellCount == labelled;
    builtTop = arenaMark();
  }
  return TOPO_OK;
}

// ---------------------------------------------------------------- report

/** The tables are complete and still in the arena (no reset or release below them since). */
export function topoReady(): bool { return ready && arenaMark() >= builtTop; }
export function topoMeshPositions(): usize { return meshPos; }
export function topoMeshIndices(): usize { return meshIdx; }
export function topoDegenerateCount(): u32 { return degenerate; }
export function topoRepeatedIndexCount(): u32 { return repeated; }
export function topoUnreferencedCount(): u32 { return unreferenced; }
export function topoEdgeCount(): u32 { return edgeCount; }
export function topoOpenEdgeCount(): u32 { return openCount; }
export function topoNonManifoldEdgeCount(): u32 { return nonManifoldCount; }
export function topoInconsistentEdgeCount(): u32 { return inconsistentCount; }
/** u32 pairs (a, b), oriented as the one triangle's half-edge. */
export function topoOpenEdgesPtr(): usize { return openList; }
export function topoNonManifoldEdgesPtr(): usize { return nonManifoldList; }
export function topoInconsistentEdgesPtr(): usize { return inconsistentList; }
export function topoShellCount(): u32 { return shellCount; }
export function topoTriangleShellPtr(): usize { return triShell; }
export function topoShellTrianglesPtr(): usize { return shellTris; }
/** f32 × 6 per shell: min xyz, max xyz. */
export function topoShellBoundsPtr(): usize { return shellBounds; }
export function topoVertexTrianglesOffsetsPtr(): usize { return vtOff; }
export function topoVertexTrianglesPtr(): usize { return vtList; }
export function topoAdjacencyOffsetsPtr(): usize { return adjOff; }
export function topoAdjacencyPtr(): usize { return adjList; }
export function topoAdjacencyCount(): u32 { return adjTotal; }
export function topoVertexFlagsPtr(): usize { return vFlags; }
