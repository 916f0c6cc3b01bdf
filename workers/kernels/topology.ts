// Mesh analysis on top of assembly/topo-mesh.ts: builds, once per mesh, the
// vertex→triangle and vertex→vertex tables (CSR) that the brush and the
// geodesics walk on, and reads the health report (degenerate triangles, open,
// non-manifold and inconsistently oriented edges, shells). The tables stay in
// the mesh's kernel instance; the report is copied out into fresh arrays.

import type { KernelExports } from './abi.ts';
import { jobClock, type JobOptions, KernelError, runChunked } from './job.ts';
import type { MeshRef } from './mesh.ts';

export type Point3 = readonly [number, number, number];

export interface MeshHealth {
  vertices: number;
  triangles: number;
  /** Vertices no triangle uses. */
  unreferencedVertices: number;
  /** Repeated vertex index or exactly zero area (the STL kernel's rule). */
  degenerateTriangles: number;
  /** Of those, the ones with a repeated index (left out of the edge classes). */
  repeatedIndexTriangles: number;
  /** Undirected edges. */
  edges: number;
  /** Edges of exactly one triangle (holes, a scan's rim). */
  openEdges: number;
  /** Edges of three or more triangles. */
  nonManifoldEdges: number;
  /** Edges of two triangles that run them the same way (a flipped neighbour). */
  inconsistentEdges: number;
  /** Connected chains of open edges: the holes plus a scan's outer rim (two holes meeting at a vertex count once). */
  boundaryLoops: number;
  /** No open edges. */
  closed: boolean;
  /** No non-manifold and no inconsistently oriented edges. */
  manifold: boolean;
  /** Connected components over shared vertices. */
  shellCount: number;
  /** Per shell: its triangle count. Shells are numbered in the order of their first triangle. */
  shellTriangles: Uint32Array;
  /** Per shell: min xyz, max xyz. */
  shellBounds: Float32Array;
  /** Per triangle: its shell. */
  triangleShell: Uint32Array;
  /** Vertex pairs (a, b), oriented as their one triangle runs them. */
  openEdgeList: Uint32Array;
  nonManifoldEdgeList: Uint32Array;
  inconsistentEdgeList: Uint32Array;
}

const STATUS: Readonly<Record<number, KernelError['code']>> = {
  [-1]: 'OUT_OF_MEMORY',
  [-2]: 'KERNEL_FAILED',
  [-3]: 'BAD_INPUT',
};

/** Throws the KernelError of a negative kernel status. */
export function check(status: number, what: string): number {
  if (status >= 0) return status;
  throw new KernelError(STATUS[status] ?? 'KERNEL_FAILED', `${what} returned ${status}`);
}

const builds = new WeakMap<MeshRef, Promise<void>>();

/** True when the instance's tables belong to this mesh. */
export function hasTopology(m: MeshRef): boolean {
  const k = m.k;
  return k.topoReady() !== 0 && k.topoMeshPositions() >>> 0 === m.positionsPtr && k.topoMeshIndices() >>> 0 === m.indicesPtr;
}

const TRI_CHUNK = 1 << 16;
const VERT_CHUNK = 1 << 15;

/**
 * Builds the tables of mesh `m` unless its instance already holds them (they
 * describe connectivity only, so moving vertices keeps them valid). Allocates
 * in the instance's arena for good, including the brush's arrays (about
 * 70 bytes per vertex and 16 per triangle in all), so do not call it between
 * another kernel's arenaMark and arenaRelease.
 */
export function ensureTopology(m: MeshRef, options: JobOptions = {}): Promise<void> {
  if (hasTopology(m)) return Promise.resolve();
  let build = builds.get(m);
  if (!build) {
    build = buildTopology(m, options).finally(() => builds.delete(m));
    builds.set(m, build);
  }
  return build;
}

async function buildTopology(m: MeshRef, options: JobOptions): Promise<void> {
  const { k, triangleCount: T, vertexCount: V } = m;
  const { onProgress } = options;
  // Each phase's weight is roughly its share of the time, for the progress fraction.
  let done = 0;
  // One clock for the phases, so that short ones still add up to a yield.
  const clock = jobClock();
  const phase = async (total: number, chunk: number, weight: number, step: (s: number, e: number) => number): Promise<void> => {
    const base = done;
    await runChunked(total, chunk, (s, e) => void check(step(s, e), 'topology'), {
      ...options,
      clock,
      onProgress: onProgress ? (f) => onProgress(Math.min(0.999, base + f * weight)) : undefined,
    });
    done += weight;
  };
  check(k.topoBegin(m.positionsPtr, m.indicesPtr, m.normalsPtr, V, T), 'topoBegin');
  await phase(T, TRI_CHUNK, 0.25, (s, e) => k.topoCountCorners(s, e));
  check(k.topoPrefixCorners(), 'topoPrefixCorners');
  await phase(T, TRI_CHUNK, 0.1, (s, e) => k.topoFillCorners(s, e));
  await phase(V, VERT_CHUNK, 0.25, (s, e) => k.topoCountEdges(s, e));
  check(k.topoPrefixEdges(), 'topoPrefixEdges');
  await phase(V, VERT_CHUNK, 0.25, (s, e) => k.topoFillEdges(s, e));
  check(k.topoPrepareShells(), 'topoPrepareShells');
  await phase(T, TRI_CHUNK, 0.15, (s, e) => k.topoLabelShells(s, e));
  if (T === 0) k.topoLabelShells(0, 0);
  if (!hasTopology(m)) throw new KernelError('KERNEL_FAILED', 'topology tables incomplete');
  check(k.smoothPrepare(), 'smoothPrepare');
  onProgress?.(1);
}

/** The health report of mesh `m` (builds its tables first when needed). */
export async function analyzeMesh(m: MeshRef, options: JobOptions = {}): Promise<MeshHealth> {
  await ensureTopology(m, options);
  return readHealth(m);
}

function copyU32(k: KernelExports, ptr: number, count: number): Uint32Array {
  return new Uint32Array(k.memory.buffer.slice(ptr, ptr + count * 4));
}

function readHealth(m: MeshRef): MeshHealth {
  const k = m.k;
  const shells = k.topoShellCount() >>> 0;
  const open = k.topoOpenEdgeCount() >>> 0;
  const nonManifold = k.topoNonManifoldEdgeCount() >>> 0;
  const inconsistent = k.topoInconsistentEdgeCount() >>> 0;
  const boundsPtr = k.topoShellBoundsPtr() >>> 0;
  const openEdgeList = copyU32(k, k.topoOpenEdgesPtr() >>> 0, open * 2);
  return {
    vertices: m.vertexCount,
    triangles: m.triangleCount,
    unreferencedVertices: k.topoUnreferencedCount() >>> 0,
    degenerateTriangles: k.topoDegenerateCount() >>> 0,
    repeatedIndexTriangles: k.topoRepeatedIndexCount() >>> 0,
    edges: k.topoEdgeCount() >>> 0,
    openEdges: open,
    boundaryLoops: countComponents(openEdgeList),
    nonManifoldEdges: nonManifold,
    inconsistentEdges: inconsistent,
    closed: open === 0,
    manifold: nonManifold === 0 && inconsistent === 0,
    shellCount: shells,
    shellTriangles: copyU32(k, k.topoShellTrianglesPtr() >>> 0, shells),
    shellBounds: new Float32Array(k.memory.buffer.slice(boundsPtr, boundsPtr + shells * 24)),
    triangleShell: copyU32(k, k.topoTriangleShellPtr() >>> 0, m.triangleCount),
    openEdgeList,
    nonManifoldEdgeList: copyU32(k, k.topoNonManifoldEdgesPtr() >>> 0, nonManifold * 2),
    inconsistentEdgeList: copyU32(k, k.topoInconsistentEdgesPtr() >>> 0, inconsistent * 2),
  };
}

/** Connected components of the graph of vertex pairs (union-find over the vertices it names). */
function countComponents(pairs: Uint32Array): number {
  const parent = new Map<number, number>();
  const find = (v: number): number => {
    let r = v;
    while (parent.get(r)! !== r) r = parent.get(r)!;
    while (parent.get(v)! !== r) {
      const next = parent.get(v)!;
      parent.set(v, r);
      v = next;
    }
    return r;
  };
  let components = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    const a = pairs[i]!, b = pairs[i + 1]!;
    for (const v of [a, b]) {
      if (!parent.has(v)) {
        parent.set(v, v);
        components++;
      }
    }
    const ra = find(a), rb = find(b);
    if (ra !== rb) {
      parent.set(ra, rb);
      components--;
    }
  }
  return components;
}

export interface TopologyViews {
  /** Vertex v's neighbours are neighbours[offsets[v] .. offsets[v + 1]), ascending. */
  adjacencyOffsets: Uint32Array;
  neighbours: Uint32Array;
  /** Vertex v's triangles are triangles[triangleOffsets[v] .. triangleOffsets[v + 1]), ascending. */
  triangleOffsets: Uint32Array;
  triangles: Uint32Array;
  /** Per vertex: 1 used, 2 on an open edge (the brush pins it), 4 on a non-manifold or flipped edge. */
  vertexFlags: Uint8Array;
}

/** Views of the tables in the instance's memory (stale after the memory grows; copy to keep). */
export function topologyViews(m: MeshRef): TopologyViews {
  if (!hasTopology(m)) throw new KernelError('BAD_INPUT', 'no topology for this mesh: await ensureTopology(mesh) first');
  const k = m.k;
  const buf = k.memory.buffer;
  const V = m.vertexCount;
  return {
    adjacencyOffsets: new Uint32Array(buf, k.topoAdjacencyOffsetsPtr() >>> 0, V + 1),
    neighbours: new Uint32Array(buf, k.topoAdjacencyPtr() >>> 0, k.topoAdjacencyCount() >>> 0),
    triangleOffsets: new Uint32Array(buf, k.topoVertexTrianglesOffsetsPtr() >>> 0, V + 1),
    triangles: new Uint32Array(buf, k.topoVertexTrianglesPtr() >>> 0, m.triangleCount * 3),
    vertexFlags: new Uint8Array(buf, k.topoVertexFlagsPtr() >>> 0, V),
  };
}

/** Straight-line distance between two points. */
export function straightDistance(a: Point3, b: Point3): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
}
