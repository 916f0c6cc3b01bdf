// BVH over a mesh in one kernel instance (assembly/bvh*.ts): build, refit,
// copy out / load back, ray casts and closest points. The BVH is one
// contiguous byte range in the instance's arena; `bvhToBytes` copies it out
// (transferable) and `bvhFromBytes` loads it into any instance. Build:
// `buildBvh` in one call, or `buildBvhAsync` in time slices with progress and
// cancellation (same bytes).
//
// Queries allocate their scratch between arenaMark()/arenaRelease(), so run
// one job at a time per instance (the worker queues jobs per mesh).

import type { KernelExports } from './abi.ts';
import { KernelError, runSteps, type JobOptions } from './job.ts';
import type { MeshRef } from './mesh.ts';

export type Vec3 = readonly [number, number, number];

export interface Bvh {
  /** The instance whose memory holds the BVH. */
  readonly k: KernelExports;
  readonly ptr: number;
  readonly byteLength: number;
  readonly triangleCount: number;
  readonly nodeCount: number;
  /** Node levels (1 for a single leaf). */
  readonly depth: number;
}

export interface BvhBuildOptions {
  /** Most triangles in a leaf, 1..64. Default 8 (4 gives slightly faster closest points, 8 a faster build and ray casts). */
  maxLeafSize?: number;
  /** SAH bins per axis, 2..32. Default 16. */
  bins?: number;
}

function describe(k: KernelExports, ptr: number): Bvh {
  return {
    k,
    ptr,
    byteLength: k.bvhByteLength(ptr) >>> 0,
    triangleCount: k.bvhTriangleCount(ptr) >>> 0,
    nodeCount: k.bvhNodeCount(ptr) >>> 0,
    depth: k.bvhDepth(ptr) >>> 0,
  };
}

function buildFailure(mesh: MeshRef, status: number): KernelError {
  return status === -1
    ? new KernelError('OUT_OF_MEMORY', `no room for the BVH of ${mesh.triangleCount} triangles`)
    : new KernelError('BAD_INPUT', 'a triangle refers to a vertex that does not exist');
}

/** Builds a BVH over the mesh's triangles in the mesh's instance (binned SAH), in one call. */
export function buildBvh(mesh: MeshRef, options: BvhBuildOptions = {}): Bvh {
  const { k } = mesh;
  const ptr = k.bvhBuild(mesh.positionsPtr, mesh.indicesPtr, mesh.vertexCount, mesh.triangleCount, options.maxLeafSize ?? 8, options.bins ?? 16) >>> 0;
  if (ptr === 0) throw buildFailure(mesh, k.bvhLastStatus());
  return describe(k, ptr);
}

/**
 * Work units per kernel call of the stepped build (a unit: a record made,
 * binned and partitioned, or a triangle copied); about 0.5 ms. A step ends
 * after the node that spends its budget, so the root's split (every record,
 * a few ms on 1M triangles) is the longest one.
 */
const BUILD_STEP = 1 << 16;

/**
 * The same build as buildBvh (byte for byte), in time slices: progress from
 * 0 to 1 (records 10 %, splits by the share of triangles in finished leaves,
 * triangle copies 10 %), cancellation between slices. A cancelled build
 * rejects with KernelError('ABORTED') and leaves the arena as it found it.
 * The instance's arena belongs to this job until it settles.
 */
export async function buildBvhAsync(mesh: MeshRef, options: BvhBuildOptions = {}, job: JobOptions = {}): Promise<Bvh> {
  if (job.shouldCancel?.()) throw new KernelError('ABORTED');
  const { k } = mesh;
  const mark = k.arenaMark() >>> 0;
  let status = k.bvhBuildBegin(mesh.positionsPtr, mesh.indicesPtr, mesh.vertexCount, mesh.triangleCount, options.maxLeafSize ?? 8, options.bins ?? 16);
  if (status < 0) throw buildFailure(mesh, status);
  job.onProgress?.(0);
  try {
    await runSteps(() => (status = k.bvhBuildStep(BUILD_STEP)) > 0, () => k.bvhBuildProgress(), job);
  } catch (e) {
    k.arenaRelease(mark);
    throw e;
  }
  // A failed step has released the arena already.
  if (status < 0) throw buildFailure(mesh, status);
  job.onProgress?.(1);
  return describe(k, k.bvhBuildResult() >>> 0);
}

/** Refits the BVH to the mesh's moved vertices (same triangles): boxes bottom-up, no rebuild. */
export function refitBvh(bvh: Bvh, mesh: MeshRef): void {
  if (mesh.k !== bvh.k) throw new KernelError('BAD_INPUT', 'the mesh and the BVH live in different instances');
  if (mesh.triangleCount !== bvh.triangleCount || bvh.k.bvhRefit(bvh.ptr, mesh.positionsPtr, mesh.indicesPtr, mesh.vertexCount) !== 0) {
    throw new KernelError('BAD_INPUT', 'the mesh is not the one the BVH was built for');
  }
}

/** What a local refit needs beside the BVH (kept in the arena with it; not part of its bytes). */
export interface BvhRefitIndex {
  readonly bvh: Bvh;
  readonly ptr: number;
}

/**
 * Builds the local-refit index once per BVH (about 24 bytes per triangle), for
 * refitBvhVertices. Allocate it where the BVH lives, outside any job scratch.
 */
export function bvhRefitIndex(bvh: Bvh, mesh: MeshRef): BvhRefitIndex {
  if (mesh.k !== bvh.k || mesh.triangleCount !== bvh.triangleCount) throw new KernelError('BAD_INPUT', 'the mesh is not the one the BVH was built for');
  const ptr = bvh.k.bvhRefitIndex(bvh.ptr, mesh.indicesPtr, mesh.vertexCount) >>> 0;
  if (ptr === 0) throw new KernelError('OUT_OF_MEMORY', 'no room for the refit index (or the mesh does not match)');
  return { bvh, ptr };
}

/**
 * Refits after the listed vertices moved (e.g. a smoothing dab): their
 * triangles and the boxes from those leaves up, stopping where nothing
 * changes; the cost follows the vertices touched. Gives the same BVH as
 * refitBvh. Returns the number of nodes rewritten.
 */
export function refitBvhVertices(index: BvhRefitIndex, mesh: MeshRef, vertices: Uint32Array | { ptr: number; count: number }): number {
  const { bvh } = index;
  const { k } = bvh;
  const run = (ptr: number, count: number): number => {
    const n = k.bvhRefitVertices(bvh.ptr, index.ptr, mesh.positionsPtr, mesh.indicesPtr, ptr, count);
    if (n < 0) throw new KernelError('BAD_INPUT', 'the refit index belongs to another BVH');
    return n;
  };
  if (!(vertices instanceof Uint32Array)) return run(vertices.ptr, vertices.count);
  return withScratch(k, (alloc) => run(copyIn(k, alloc, vertices), vertices.length));
}

/** The BVH's bytes, copied into a fresh (transferable) buffer. */
export function bvhToBytes(bvh: Bvh): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bvh.k.memory.buffer.slice(bvh.ptr, bvh.ptr + bvh.byteLength));
}

/** Loads bytes from bvhToBytes into instance `k` (validated: bad bytes throw BAD_INPUT). */
export function bvhFromBytes(k: KernelExports, bytes: Uint8Array): Bvh {
  const mark = k.arenaMark() >>> 0;
  const raw = k.arenaAlloc(bytes.length + 48) >>> 0;
  if (raw === 0) throw new KernelError('OUT_OF_MEMORY', `no room for ${bytes.length} bytes of BVH`);
  // 64-byte aligned like a fresh build, so sibling pairs stay on one cache line.
  const ptr = ((raw + 63) & ~63) >>> 0;
  new Uint8Array(k.memory.buffer, ptr, bytes.length).set(bytes);
  if (k.bvhCheck(ptr, bytes.length) !== 0) {
    k.arenaRelease(mark);
    throw new KernelError('BAD_INPUT', 'these bytes are not a BVH of this version');
  }
  return describe(k, ptr);
}

// ---------------------------------------------------------------- scratch

/** Runs `body` with scratch allocations that are dropped afterwards. */
export function withScratch<T>(k: KernelExports, body: (alloc: (bytes: number) => number) => T): T {
  const mark = k.arenaMark() >>> 0;
  try {
    return body((bytes) => {
      const ptr = k.arenaAlloc(Math.max(bytes, 4)) >>> 0;
      if (ptr === 0) throw new KernelError('OUT_OF_MEMORY', `no room for ${bytes} bytes of scratch`);
      return ptr;
    });
  } finally {
    k.arenaRelease(mark);
  }
}

/** Copies a typed array into the arena (via `alloc`); returns its pointer. */
export function copyIn(k: KernelExports, alloc: (bytes: number) => number, src: Float32Array | Uint32Array | Uint8Array): number {
  const ptr = alloc(src.byteLength);
  new Uint8Array(k.memory.buffer, ptr, src.byteLength).set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength));
  return ptr;
}

// ---------------------------------------------------------------- rays

export interface RayOptions {
  /** Hits with t <= tMin are ignored. Default 0. */
  tMin?: number;
  /** Hits with t >= tMax are ignored. Default Infinity. */
  tMax?: number;
}

export interface RayHits {
  /** Ray parameter of the first hit per ray (in units of the ray's direction), Infinity on a miss. */
  t: Float32Array;
  /** Triangle id of the hit, -1 on a miss. */
  triangle: Int32Array;
  /** Barycentrics: hit = (1 - u - v) v0 + u v1 + v v2 of the triangle's vertices in index order. */
  u: Float32Array;
  v: Float32Array;
  /** Number of rays that hit. */
  hits: number;
}

export interface RayHit {
  t: number;
  triangle: number;
  u: number;
  v: number;
  point: Vec3;
}

function rayCount(rays: Float32Array): number {
  if (rays.length % 6 !== 0) throw new KernelError('BAD_INPUT', 'rays are 6 floats each: origin xyz, direction xyz');
  return rays.length / 6;
}

/** First hit of each ray (`rays`: origin xyz, direction xyz per ray; both sides of triangles count). */
export function raycastFirst(bvh: Bvh, rays: Float32Array, options: RayOptions = {}): RayHits {
  const { k } = bvh;
  const n = rayCount(rays);
  return withScratch(k, (alloc) => {
    const raysPtr = copyIn(k, alloc, rays);
    const out = alloc(n * 16);
    const hits = k.bvhRaycastFirst(bvh.ptr, raysPtr, n, options.tMin ?? 0, options.tMax ?? Infinity, out) >>> 0;
    const f = new Float32Array(k.memory.buffer, out, n * 4);
    const i = new Int32Array(k.memory.buffer, out, n * 4);
    const result: RayHits = { t: new Float32Array(n), triangle: new Int32Array(n), u: new Float32Array(n), v: new Float32Array(n), hits };
    for (let r = 0, o = 0; r < n; r++, o += 4) {
      result.t[r] = f[o]!;
      result.triangle[r] = i[o + 1]!;
      result.u[r] = f[o + 2]!;
      result.v[r] = f[o + 3]!;
    }
    return result;
  });
}

/** First hit of one ray, or null. */
export function raycastOne(bvh: Bvh, origin: Vec3, direction: Vec3, options: RayOptions = {}): RayHit | null {
  const r = raycastFirst(bvh, new Float32Array([...origin, ...direction]), options);
  if (r.hits === 0) return null;
  const t = r.t[0]!;
  return {
    t,
    triangle: r.triangle[0]!,
    u: r.u[0]!,
    v: r.v[0]!,
    point: [origin[0] + direction[0] * t, origin[1] + direction[1] * t, origin[2] + direction[2] * t],
  };
}

/** Whether each ray hits anything (1/0), stopping at the first hit found. */
export function raycastAny(bvh: Bvh, rays: Float32Array, options: RayOptions = {}): Uint8Array<ArrayBuffer> {
  const { k } = bvh;
  const n = rayCount(rays);
  return withScratch(k, (alloc) => {
    const raysPtr = copyIn(k, alloc, rays);
    const out = alloc(n);
    k.bvhRaycastAny(bvh.ptr, raysPtr, n, options.tMin ?? 0, options.tMax ?? Infinity, out);
    return new Uint8Array(k.memory.buffer.slice(out, out + n));
  });
}

/** Number of surface crossings of each ray (every hit along it). */
export function countHits(bvh: Bvh, rays: Float32Array, options: RayOptions = {}): Uint32Array<ArrayBuffer> {
  const { k } = bvh;
  const n = rayCount(rays);
  return withScratch(k, (alloc) => {
    const raysPtr = copyIn(k, alloc, rays);
    const out = alloc(n * 4);
    k.bvhRaycastCount(bvh.ptr, raysPtr, n, options.tMin ?? 0, options.tMax ?? Infinity, out);
    return new Uint32Array(k.memory.buffer.slice(out, out + n * 4));
  });
}

/** Every hit along one ray, nearest first. */
export function raycastAll(bvh: Bvh, origin: Vec3, direction: Vec3, options: RayOptions = {}): RayHit[] {
  const { k } = bvh;
  let cap = 64;
  for (;;) {
    const hits = withScratch(k, (alloc) => {
      const out = alloc(cap * 16);
      const count = k.bvhRaycastAll(bvh.ptr, ...origin, ...direction, options.tMin ?? 0, options.tMax ?? Infinity, out, cap) >>> 0;
      if (count > cap) return count;
      const f = new Float32Array(k.memory.buffer, out, count * 4);
      const i = new Int32Array(k.memory.buffer, out, count * 4);
      const list: RayHit[] = [];
      for (let h = 0; h < count; h++) {
        const t = f[h * 4]!;
        list.push({
          t,
          triangle: i[h * 4 + 1]!,
          u: f[h * 4 + 2]!,
          v: f[h * 4 + 3]!,
          point: [origin[0] + direction[0] * t, origin[1] + direction[1] * t, origin[2] + direction[2] * t],
        });
      }
      return list;
    });
    if (typeof hits !== 'number') return hits;
    cap = hits;
  }
}

// ---------------------------------------------------------------- closest point

export interface ClosestPoints {
  /** xyz of the closest surface point per query (NaN when none within maxDistance). */
  point: Float32Array;
  /** Unsigned distance, Infinity when none within maxDistance. */
  distance: Float32Array;
  /** Triangle id, -1 when none. */
  triangle: Int32Array;
  /** Barycentrics of the closest point (see RayHits). */
  u: Float32Array;
  v: Float32Array;
  found: number;
}

/** Closest surface point to each query point (xyz f32 each), within maxDistance (default unlimited). */
export function closestPoints(bvh: Bvh, points: Float32Array, options: { maxDistance?: number } = {}): ClosestPoints {
  const { k } = bvh;
  if (points.length % 3 !== 0) throw new KernelError('BAD_INPUT', 'points are 3 floats each');
  const n = points.length / 3;
  return withScratch(k, (alloc) => {
    const pointsPtr = copyIn(k, alloc, points);
    const out = alloc(n * 32);
    const found = k.bvhClosestPoints(bvh.ptr, pointsPtr, n, options.maxDistance ?? Infinity, out) >>> 0;
    const f = new Float32Array(k.memory.buffer, out, n * 8);
    const i = new Int32Array(k.memory.buffer, out, n * 8);
    const r: ClosestPoints = {
      point: new Float32Array(n * 3),
      distance: new Float32Array(n),
      triangle: new Int32Array(n),
      u: new Float32Array(n),
      v: new Float32Array(n),
      found,
    };
    for (let q = 0, o = 0; q < n; q++, o += 8) {
      r.point[q * 3] = f[o]!;
      r.point[q * 3 + 1] = f[o + 1]!;
      r.point[q * 3 + 2] = f[o + 2]!;
      r.distance[q] = f[o + 3]!;
      r.triangle[q] = i[o + 4]!;
      r.u[q] = f[o + 5]!;
      r.v[q] = f[o + 6]!;
    }
    return r;
  });
}

/** The box around every triangle (the root node's, grown by about 1e-6 of the model's size), or null for an empty BVH. */
export function bvhBounds(bvh: Bvh): { min: Vec3; max: Vec3 } | null {
  if (bvh.triangleCount === 0) return null;
  const view = new DataView(bvh.k.memory.buffer, bvh.ptr);
  const root = view.getUint32(24, true);
  const f = (o: number): number => view.getFloat32(root + o, true);
  return { min: [f(0), f(4), f(8)], max: [f(16), f(20), f(24)] };
}

/** Length of the bounding box diagonal (0 for an empty BVH). */
export function bvhDiagonal(bvh: Bvh): number {
  const b = bvhBounds(bvh);
  return b ? Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) : 0;
}
