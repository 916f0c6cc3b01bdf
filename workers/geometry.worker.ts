// Geometry worker: the only place where the page's meshes meet wasm memory.
//
// Rules (docs/geometry.md "Worker API", TOOLCHAIN "WASM in workers"):
// - Comlink.expose runs synchronously at the top level: no top-level await,
//   or a module worker drops the first messages.
// - kernels.wasm is compiled lazily, once; every mesh gets its own instance
//   (its own linear memory and arena), referred to by a numeric handle.
// - Every call that can fail resolves a JobResult ({ ok: true, value } or
//   { ok: false, error: { code, detail } }) and never throws: Comlink would
//   keep only an error's message. The page's client turns failures into
//   rejected promises whose error carries `code`.
// - Long calls take (..., jobId, onProgress) last: the caller picks jobId
//   for cancel(jobId); onProgress is a Comlink.proxy callback (top-level
//   argument). They run in time slices and yield so that cancel() gets in.
// - Results leave as transferred typed arrays (fresh copies, never views of
//   wasm memory).

import * as Comlink from 'comlink';
import { compileKernelsFromUrl, instantiateModule, type KernelExports } from './kernels/abi.ts';
import { comlinkChannel } from './comlink-channel.ts';
import { jobRunner, KernelError, toJobFailure, type JobFailure, type JobOptions, type JobResult, type KernelErrorCode, type ProgressCallback } from './kernels/job.ts';
import { meshFromArrays, meshViews, type MeshRef } from './kernels/mesh.ts';
import { alignByPairs, registerBite } from './kernels/bite.ts';
import type { BiteResult, Mat4 } from '../common/bite.ts';
import { segmentTeeth, type ToothInfo } from './kernels/teeth.ts';
import { gumLines, type GumLine } from './kernels/teeth-gumline.ts';
import { BaseError, generateBase, outlinePath, type BaseErrorCode, type BaseMesh, type BaseSettings, type OutlinePathOptions, type OutlinePoint } from './kernels/base.ts';
import { transformStl, writeBinaryStl } from './kernels/stl-write.ts';
import { baseRim, placesIn, type TagPlace } from './design/base-rim.ts';
import { meshBounds } from './kernels/mesh-ops.ts';
import { bendStates, type BendStep, type SimulateOptions, type WireState } from './kernels/bend.ts';
import { checkBend, type BendCheckInput, type BendCheckResult } from './kernels/bend-checks.ts';
import {
  buildBvh,
  buildBvhAsync,
  closestPoints,
  raycastFirst,
  raycastOne,
  refitBvh,
  bvhRefitIndex,
  refitBvhVertices,
  type BvhRefitIndex,
  type Bvh,
  type BvhBuildOptions,
  type ClosestPoints,
  type RayHit,
  type RayHits,
  type RayOptions,
} from './kernels/bvh.ts';
import { closestWithNormals, type ClosestNormalOptions, type ClosestWithNormals } from './kernels/closest-normals.ts';
import { distanceMap, signedDistances, type DistanceOptions, type DistanceResult } from './kernels/distance.ts';
import { geodesicDistance, type GeodesicResult, type SurfacePoint } from './kernels/geodesic.ts';
import { simplify } from './kernels/simplify.ts';
import { straighten, transformMesh, type StraightenJaw, type StraightenResult } from './kernels/straighten.ts';
import { scatter, smoothDab, smoothRegion, type DabOptions, type RegionOptions, type SmoothResult } from './kernels/smooth.ts';
import { DownloadFailure, isRemoteStl, startDownload, type RemoteStl } from './kernels/download.ts';
import { parseStl, type StlErrorCode, type StlMesh, type StlSource as KernelStlSource, type Vec3 } from './kernels/stl.ts';
import { analyzeMesh, ensureTopology, type MeshHealth } from './kernels/topology.ts';
import {
  bestInsertionDirection,
  undercutMap,
  type BestDirectionOptions,
  type BestDirectionResult,
  type UndercutMapOptions,
  type UndercutResult,
} from './kernels/undercut.ts';

/** Every code a worker call can fail with. */
export type WorkerErrorCode = StlErrorCode | KernelErrorCode | 'NO_SUCH_MESH' | 'DOWNLOAD_FAILED';

export type { RemoteStl } from './kernels/download.ts';
/** A File/Blob (read here), bytes (transferred), or a file on the back end that the worker downloads itself. */
export type StlSource = Blob | ArrayBuffer | Uint8Array | RemoteStl;
export type WorkerFailure = JobFailure<WorkerErrorCode>;
export type WorkerResult<T> = JobResult<T, WorkerErrorCode>;

/** Progress of a long call: fraction 0..1 and, for some calls, a stage name ('read', 'parse'...). Pass it wrapped in Comlink.proxy. */
export type { ProgressCallback };

export type MeshHandle = number;

export interface Bounds {
  min: Vec3;
  max: Vec3;
}

/** How to read an STL file. */
export interface StlSettings {
  /** Also merge vertices closer than this (model units) after the exact weld. Default 0: exact matches only. */
  weldTolerance?: number;
}

/** A mesh opened in the worker: the render arrays (transferred copies) and the handle of the copy the worker keeps. */
export interface OpenedMesh extends StlMesh {
  handle: MeshHandle;
}

/** A mesh's BVH: one buffer in the mesh's instance. */
export interface BvhInfo {
  byteLength: number;
  nodeCount: number;
  depth: number;
  triangleCount: number;
}

/** A decimated copy of a mesh, kept under its own handle. */
export interface SimplifiedMesh {
  handle: MeshHandle;
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  vertexCount: number;
  triangleCount: number;
  collapses: number;
  bounds: Bounds;
}

/** A generated base, kept under its own handle (exportStl, distanceMap to the model for a thickness map). */
export interface GeneratedBase extends BaseMesh {
  handle: MeshHandle;
  bounds: Bounds;
}

/**
 * generateBase's value: the base, or why this input makes none (the user's
 * to fix; the editor shows the specification's message for `code`).
 */
export type BaseOutcome = { ok: true; base: GeneratedBase } | { ok: false; code: BaseErrorCode; detail: string };

/** segmentTeeth's answer for the editor: per-vertex labels of the kept mesh (Universal 1-32, 0 gum), one record per tooth, the arch. */
export interface TeethSegmentation {
  labels: Uint8Array;
  teeth: ToothInfo[];
  arch: [number, number, number][];
}

/** What the editor draws for a set of labels: each tooth's gum line and centroid (the labels as the designer corrected them). */
export interface ToothOutlines {
  lines: GumLine[];
  teeth: { number: number; vertexCount: number; centroid: [number, number, number] }[];
}

export interface MeshInfo {
  handle: MeshHandle;
  vertexCount: number;
  triangleCount: number;
  bounds: Bounds;
  /** Size of the linear memory of the mesh's kernel instance. */
  wasmBytes: number;
  /** Bytes in use in that instance's arena (the mesh plus anything built on it, e.g. a BVH). */
  arenaBytes: number;
}

export interface WorkerStats {
  meshes: number;
  handles: MeshHandle[];
  /** Linear memory of every live instance (meshes and the idle parser). */
  wasmBytes: number;
  runningJobs: number;
  /** The last jobs that ended, newest last: what they were and how they ended ('ok' or an error code). */
  recentJobs: { jobId: number; call: string; outcome: 'ok' | WorkerErrorCode }[];
}

// ---------------------------------------------------------------- kernels

let compiled: Promise<WebAssembly.Module> | undefined;

function kernelsModule(): Promise<WebAssembly.Module> {
  compiled ??= compileKernelsFromUrl(new URL('../build/kernels.wasm', import.meta.url)).catch((e: unknown) => {
    compiled = undefined; // let a later call try again
    throw new KernelError('KERNEL_FAILED', `kernels.wasm did not load: ${e instanceof Error ? e.message : String(e)}`);
  });
  return compiled;
}

async function newInstance(): Promise<KernelExports> {
  const module = await kernelsModule();
  try {
    return instantiateModule(module);
  } catch (e) {
    throw new KernelError('OUT_OF_MEMORY', `no memory for another kernel instance: ${e instanceof Error ? e.message : String(e)}`);
  }
}

// Parsing needs room for the file's bytes and a hash table; the mesh kept
// afterwards needs neither (upper.stl: 47 MiB against 11 MiB). So a file is
// parsed in a parser instance and the welded mesh copied into a fresh
// instance of its own size (5 ms for upper.stl; compacting in place would be
// 1 ms but would keep all 47 MiB per mesh, as wasm memory never shrinks).
// One idle parser is kept for the next file, since parsing in a fresh
// instance costs page faults for its growing memory (upper.stl 55 ms instead
// of 37 ms); it is dropped after PARSER_IDLE_MS. A second parse running at
// the same time gets a throwaway one.
const PARSER_IDLE_MS = 20_000;
let idleParser: KernelExports | undefined;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

async function takeParser(): Promise<KernelExports> {
  const k = idleParser;
  idleParser = undefined;
  clearTimeout(idleTimer);
  return k ?? newInstance();
}

function returnParser(k: KernelExports): void {
  k.arenaReset();
  if (idleParser) return;
  idleParser = k;
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleParser = undefined;
  }, PARSER_IDLE_MS);
}

// Wires have tens of corners: their kernels (bending programs, checks, forward kinematics)
// share one small instance, one call at a time (they release their arena memory).
let scratch: Promise<KernelExports> | undefined;
let scratchQueue: Promise<unknown> = Promise.resolve();

function withScratch<T>(work: (k: KernelExports) => T): Promise<T> {
  scratch ??= newInstance().catch((e: unknown) => {
    scratch = undefined;
    throw e;
  });
  const instance = scratch;
  const run = scratchQueue.then(async () => work(await instance));
  scratchQueue = run.catch(() => {});
  return run;
}

// ---------------------------------------------------------------- mesh store

class NoSuchMesh extends Error {
  readonly code = 'NO_SUCH_MESH';
  constructor(handle: MeshHandle) {
    super(`no mesh with handle ${handle} (released, or never opened)`);
  }
}

interface StoredMesh {
  readonly handle: MeshHandle;
  readonly mesh: MeshRef;
  bounds: Bounds;
  /** A kernel moved vertices (smoothing): recompute the bounds when next asked. */
  boundsStale: boolean;
  /** Built on first need (or by buildBvh); refitted after every call that moves vertices. */
  bvh: Bvh | undefined;
  /** Triangle lookup for refitting only around moved vertices; made with the first dab, per BVH. */
  refitIndex: BvhRefitIndex | undefined;
  /** Jobs on one instance run one after another: they share its arena (mark/release is LIFO). */
  queue: Promise<unknown>;
  /** A generated base's rim in plan and its direction (tagPlaces), kept while the mesh is. */
  base?: { rim: ReturnType<typeof baseRim>; direction: BaseMesh['direction'] };
}

const meshes = new Map<MeshHandle, StoredMesh>();
/** Most corners one tagPlaces call measures (a wire has a few dozen). */
const MAX_TAG_CORNERS = 4096;
let nextHandle = 1;

function store(mesh: MeshRef, bounds: Bounds): MeshHandle {
  const handle = nextHandle++;
  meshes.set(handle, { handle, mesh, bounds, boundsStale: false, bvh: undefined, refitIndex: undefined, queue: Promise.resolve() });
  return handle;
}

function lookUp(handle: MeshHandle): StoredMesh {
  const m = meshes.get(handle);
  if (!m) throw new NoSuchMesh(handle);
  return m;
}

/** Runs `work` on a mesh after the jobs already queued on it. */
function withMesh<T>(handle: MeshHandle, work: (m: StoredMesh) => Promise<T> | T): Promise<T> {
  const m = lookUp(handle);
  const run = m.queue.then(
    () => work(m),
    () => work(m),
  );
  m.queue = run.catch(() => {});
  return run;
}

/**
 * The mesh's BVH, built now in one call if it has none (short calls without a jobId: pick,
 * raycast, closest points, outlinePath). The editor builds it with buildBvh right after opening,
 * so these rarely build.
 */
function ensureBvh(m: StoredMesh): Bvh {
  m.bvh ??= buildBvh(m.mesh);
  return m.bvh;
}

/**
 * The same for long jobs: a missing BVH is built in time slices, so the job's cancel stops it
 * (the arena is left as it was). Progress stays the job's own (its kernel reports 0..1 after).
 */
async function ensureBvhInJob(m: StoredMesh, options: JobOptions): Promise<Bvh> {
  m.bvh ??= await buildBvhAsync(m.mesh, {}, { shouldCancel: options.shouldCancel });
  return m.bvh;
}

/**
 * After a call that moved vertices: bounds to recompute, BVH boxes to refit. With the moved
 * vertex ids (a brush dab) only their triangles' boxes are refitted, so a dab costs the same on
 * 100k and 1M triangles; a full refit takes 10-50 ms on a big model.
 */
function verticesMoved(m: StoredMesh, moved?: Uint32Array): void {
  m.boundsStale = true;
  if (!m.bvh) return;
  if (!moved) {
    refitBvh(m.bvh, m.mesh);
    return;
  }
  // Allocated here, between jobs, never inside a job's scratch bracket.
  m.refitIndex ??= bvhRefitIndex(m.bvh, m.mesh);
  if (moved.length > 0) refitBvhVertices(m.refitIndex, m.mesh, moved);
}

/**
 * A copy of a kept mesh's arrays, taken in turn with its other jobs, and a function that puts it
 * into another instance (a kernel that needs several meshes in one memory: bite registration).
 */
async function snapshot(handle: MeshHandle): Promise<(k: KernelExports) => MeshRef> {
  const copy = await withMesh(handle, (m) => {
    const v = meshViews(m.mesh);
    return { positions: v.positions.slice(), indices: v.indices.slice(), normals: v.normals?.slice() };
  });
  return (k) => meshFromArrays(k, copy.positions, copy.indices, copy.normals);
}

/** Bounds of a kept mesh's positions (a SIMD pass in its instance). */
function boundsOf(mesh: MeshRef): Bounds {
  return meshBounds(mesh);
}

// ---------------------------------------------------------------- jobs

/** A parse failure ({ ok: false } from the STL driver) as a thrown error for job(). */
class StlFailure extends Error {
  constructor(readonly failure: WorkerFailure) {
    super(failure.detail);
  }
}

const jobs = jobRunner<WorkerErrorCode>({ failureOf, channel: comlinkChannel });
/** Runs one call through the worker's job runner (workers/kernels/job.ts): a WorkerResult, its arrays transferred. */
const job = jobs.run;

function failureOf(e: unknown): WorkerFailure {
  if (e instanceof NoSuchMesh) return { code: e.code, detail: e.message };
  if (e instanceof StlFailure) return e.failure;
  if (e instanceof DownloadFailure) return { code: e.code, detail: e.message, status: e.status };
  return toJobFailure(e);
}

async function parseInParser(
  source: StlSource,
  settings: StlSettings,
  options: JobOptions,
  progress: (fraction: number, stage?: string) => void,
): Promise<StlMesh> {
  const remote = isRemoteStl(source);
  const input: KernelStlSource = remote ? await startDownload(source, () => options.shouldCancel?.() ?? false) : source;
  const parser = await takeParser();
  try {
    const r = await parseStl(parser, input, {
      weldTolerance: settings.weldTolerance ?? 0,
      shouldCancel: options.shouldCancel,
      onProgress: options.onProgress ? (fraction, stage) => progress(fraction, stage) : undefined,
    });
    // A body cut off is the network's failure, not the file's.
    if (!r.ok && remote && r.error.code === 'STL_READ_FAILED') throw new DownloadFailure(0);
    if (!r.ok) throw new StlFailure(r.error);
    return r.mesh;
  } finally {
    returnParser(parser);
  }
}

// ---------------------------------------------------------------- API

const api = {
  /** Compiles kernels.wasm now instead of on the first call. */
  async warmUp(): Promise<WorkerResult<null>> {
    try {
      await kernelsModule();
      return { ok: true, value: null };
    } catch (e) {
      return { ok: false, error: failureOf(e) };
    }
  },

  /** Does nothing: the bench measures the round trip of a call with it. */
  ping(value: number): number {
    return value;
  },

  /**
   * Parses an STL file (a File/Blob is read here, in the worker) and keeps
   * the welded mesh under a new handle; release(handle) frees it. Returns
   * the render arrays (transferred copies), bounds and counts with the
   * handle. Progress stages: 'read' (a Blob, first 20 %), then 'parse'.
   */
  openStl(source: StlSource, settings: StlSettings, jobId: number, onProgress?: ProgressCallback): Promise<WorkerResult<OpenedMesh>> {
    return job('openStl', jobId, onProgress, async (options, progress) => {
      const parsed = await parseInParser(source, settings, options, progress);
      if (options.shouldCancel?.()) throw new KernelError('ABORTED');
      const k = await newInstance();
      let ref: MeshRef;
      try {
        ref = meshFromArrays(k, parsed.positions, parsed.indices, parsed.normals);
      } catch (e) {
        throw new KernelError('OUT_OF_MEMORY', e instanceof Error ? e.message : String(e));
      }
      return { ...parsed, handle: store(ref, parsed.bounds) };
    });
  },

  /** Parses an STL file without keeping it (for callers that only draw it). Same result as openStl minus the handle. */
  parseStl(source: StlSource, settings: StlSettings, jobId: number, onProgress?: ProgressCallback): Promise<WorkerResult<StlMesh>> {
    return job('parseStl', jobId, onProgress, (options, progress) => parseInParser(source, settings, options, progress));
  },

  /** Keeps a mesh made elsewhere (positions xyz per vertex, three indices per triangle) under a new handle. */
  async createMesh(positions: Float32Array, indices: Uint32Array, normals?: Float32Array): Promise<WorkerResult<MeshHandle>> {
    return job('createMesh', undefined, undefined, async () => {
      if (positions.length % 3 !== 0 || indices.length % 3 !== 0) throw new KernelError('BAD_INPUT', 'array lengths must be multiples of 3');
      if (normals && normals.length !== positions.length) throw new KernelError('BAD_INPUT', 'normals and positions differ in length');
      const vertices = positions.length / 3;
      for (const i of indices) if (i >= vertices) throw new KernelError('BAD_INPUT', `index ${i} is out of range (${vertices} vertices)`);
      const k = await newInstance();
      let ref: MeshRef;
      try {
        ref = meshFromArrays(k, positions, indices, normals);
      } catch (e) {
        throw new KernelError('OUT_OF_MEMORY', e instanceof Error ? e.message : String(e));
      }
      return store(ref, boundsOf(ref));
    });
  },

  /** Counts, bounds and memory of a kept mesh (the pattern for every kernel call on a handle). */
  meshInfo(handle: MeshHandle): Promise<WorkerResult<MeshInfo>> {
    return job('meshInfo', undefined, undefined, () =>
      withMesh(handle, (m) => {
        const { mesh } = m;
        if (m.boundsStale) {
          m.bounds = boundsOf(mesh);
          m.boundsStale = false;
        }
        return {
          handle,
          vertexCount: mesh.vertexCount,
          triangleCount: mesh.triangleCount,
          bounds: m.bounds,
          wasmBytes: mesh.k.memory.buffer.byteLength,
          arenaBytes: mesh.k.arenaUsed() >>> 0,
        };
      }),
    );
  },

  // ---- BVH, rays, undercuts, distances (workers/kernels/bvh.ts, undercut.ts, distance.ts)

  /**
   * Builds the mesh's BVH now (the calls below build it on first need). It
   * stays with the mesh and is refitted after every call that moves vertices.
   */
  buildBvh(handle: MeshHandle, options: BvhBuildOptions, jobId: number, onProgress?: ProgressCallback): Promise<WorkerResult<BvhInfo>> {
    return job('buildBvh', jobId, onProgress, (jobOptions) =>
      withMesh(handle, async (m) => {
        // In time slices with progress; a cancel keeps the BVH the mesh had (if any).
        m.bvh = await buildBvhAsync(m.mesh, options, jobOptions);
        m.refitIndex = undefined;
        const { byteLength, nodeCount, depth, triangleCount } = m.bvh;
        return { byteLength, nodeCount, depth, triangleCount };
      }),
    );
  },

  /** First hit of each ray (origin xyz, direction xyz per ray) on the mesh. */
  raycast(handle: MeshHandle, rays: Float32Array, options: RayOptions = {}): Promise<WorkerResult<RayHits>> {
    return job('raycast', undefined, undefined, () => withMesh(handle, (m) => raycastFirst(ensureBvh(m), rays, options)));
  },

  /** First hit of one ray (picking), or null. */
  pick(handle: MeshHandle, origin: Vec3, direction: Vec3, options: RayOptions = {}): Promise<WorkerResult<RayHit | null>> {
    return job('pick', undefined, undefined, () => withMesh(handle, (m) => raycastOne(ensureBvh(m), origin, direction, options)));
  },

  /** Closest surface point to each query point (xyz per point). */
  closestPoints(handle: MeshHandle, points: Float32Array, options: { maxDistance?: number } = {}): Promise<WorkerResult<ClosestPoints>> {
    return job('closestPoints', undefined, undefined, () => withMesh(handle, (m) => closestPoints(ensureBvh(m), points, options)));
  },

  /**
   * Closest surface point to each query point (xyz per point) with the outward normal there
   * (the closest triangle's, or the interpolated vertex normals with `smooth`): wires kept off teeth.
   */
  closestWithNormals(handle: MeshHandle, points: Float32Array, options: ClosestNormalOptions = {}): Promise<WorkerResult<ClosestWithNormals>> {
    return job('closestWithNormals', undefined, undefined, () => withMesh(handle, (m) => closestWithNormals(m.mesh, ensureBvh(m), points, options)));
  },

  /** Undercut depth per vertex for an insertion direction (and heatmap colours when asked). */
  undercut(
    handle: MeshHandle,
    direction: Vec3,
    options: Omit<UndercutMapOptions, keyof JobOptions>,
    jobId: number,
    onProgress?: ProgressCallback,
  ): Promise<WorkerResult<UndercutResult>> {
    return job('undercut', jobId, onProgress, (jobOptions) =>
      withMesh(handle, async (m) => undercutMap(m.mesh, await ensureBvhInJob(m, jobOptions), direction, { ...options, ...jobOptions })),
    );
  },

  /** The insertion direction within a cone around `hint` with the least undercut area. */
  bestInsertionDirection(
    handle: MeshHandle,
    hint: Vec3,
    options: Omit<BestDirectionOptions, keyof JobOptions>,
    jobId: number,
    onProgress?: ProgressCallback,
  ): Promise<WorkerResult<BestDirectionResult>> {
    return job('bestInsertionDirection', jobId, onProgress, (jobOptions) =>
      withMesh(handle, async (m) => bestInsertionDirection(m.mesh, await ensureBvhInJob(m, jobOptions), hint, { ...options, ...jobOptions })),
    );
  },

  /**
   * Signed distance from every vertex of mesh `from` to mesh `to` (upper to
   * lower: occlusal contacts; base to model: thickness), with colours when
   * asked. `from`'s positions are copied into `to`'s instance for the job.
   */
  distanceMap(
    fromHandle: MeshHandle,
    toHandle: MeshHandle,
    options: Omit<DistanceOptions, keyof JobOptions>,
    jobId: number,
    onProgress?: ProgressCallback,
  ): Promise<WorkerResult<DistanceResult>> {
    return job('distanceMap', jobId, onProgress, async (jobOptions) => {
      if (fromHandle === toHandle) {
        return withMesh(toHandle, async (m) => distanceMap(m.mesh, m.mesh, await ensureBvhInJob(m, jobOptions), { ...options, ...jobOptions }));
      }
      // A snapshot of from's positions, taken in turn with from's other jobs.
      const points = await withMesh(fromHandle, (m) => meshViews(m.mesh).positions.slice());
      return withMesh(toHandle, async (m) => signedDistances(await ensureBvhInJob(m, jobOptions), points, { ...options, ...jobOptions }));
    });
  },

  // ---- topology (workers/kernels/topology.ts, smooth.ts, geodesic.ts)

  /** Health report: degenerate, open, non-manifold and inconsistent edges, shells (builds the adjacency tables once per mesh). */
  healthReport(handle: MeshHandle, jobId: number, onProgress?: ProgressCallback): Promise<WorkerResult<MeshHealth>> {
    return job('healthReport', jobId, onProgress, (options) => withMesh(handle, ({ mesh }) => analyzeMesh(mesh, options)));
  },

  /**
   * One smoothing-brush dab (Taubin, within `dab.radius` of `dab.center`).
   * Changes the kept mesh; returns the moved vertices' new positions and
   * normals for the renderer. The first dab on a mesh builds its adjacency.
   */
  smoothDab(handle: MeshHandle, dab: DabOptions): Promise<WorkerResult<SmoothResult>> {
    return job('smoothDab', undefined, undefined, () =>
      withMesh(handle, async (m) => {
        await ensureTopology(m.mesh);
        let result: SmoothResult | undefined;
        try {
          result = smoothDab(m.mesh, dab);
          return result;
        } finally {
          // On failure nothing says which vertices moved: refit everything.
          verticesMoved(m, result?.vertices.subarray(0, result.moved));
        }
      }),
    );
  },

  /**
   * Writes positions (and normals) of listed vertices, xyz each in list order: the smoothing
   * brush's undo and redo put back what a stroke changed. Refits the BVH like smoothDab.
   */
  setVertices(handle: MeshHandle, vertices: Uint32Array, positions: Float32Array, normals?: Float32Array): Promise<WorkerResult<null>> {
    return job('setVertices', undefined, undefined, () =>
      withMesh(handle, (m) => {
        if (positions.length !== vertices.length * 3 || (normals && normals.length !== positions.length)) throw new KernelError('BAD_INPUT', 'three numbers per listed vertex');
        const count = m.mesh.vertexCount;
        for (const v of vertices) if (v >= count) throw new KernelError('BAD_INPUT', `vertex ${v} is out of range (${count} vertices)`);
        scatter(m.mesh, vertices, positions, normals);
        verticesMoved(m, vertices);
        return null;
      }),
    );
  },

  /** Taubin smoothing of a vertex set (or the whole mesh). Changes the kept mesh. */
  smoothRegion(handle: MeshHandle, region: RegionOptions, jobId: number, onProgress?: ProgressCallback): Promise<WorkerResult<SmoothResult>> {
    return job('smoothRegion', jobId, onProgress, (options) =>
      withMesh(handle, async (m) => {
        await ensureTopology(m.mesh, { shouldCancel: options.shouldCancel });
        try {
          return await smoothRegion(m.mesh, region, options);
        } finally {
          verticesMoved(m);
        }
      }),
    );
  },

  /** Geodesic distance along the surface between two picked points, and the path for drawing. */
  geodesic(
    handle: MeshHandle,
    a: SurfacePoint,
    b: SurfacePoint,
    settings: { steinerPoints?: number; sweeps?: number },
    jobId: number,
    onProgress?: ProgressCallback,
  ): Promise<WorkerResult<GeodesicResult>> {
    return job('geodesic', jobId, onProgress, (options) => withMesh(handle, ({ mesh }) => geodesicDistance(mesh, a, b, { ...settings, ...options })));
  },

  // ---- shape (workers/kernels/straighten.ts, simplify.ts)

  /** The rigid transform that puts a jaw model into the canonical frame (the mesh is not moved: see transformMesh). */
  straighten(handle: MeshHandle, jaw: StraightenJaw, jobId: number, onProgress?: ProgressCallback): Promise<WorkerResult<StraightenResult>> {
    return job('straighten', jobId, onProgress, (options) => withMesh(handle, ({ mesh }) => straighten(mesh, { ...options, jaw })));
  },

  // ---- bite registration (workers/kernels/bite.ts)

  /**
   * Registers the upper and lower models to the bite scan (each kept mesh's coordinates -> the
   * bite's frame). The three meshes are copied into one fresh instance for the job (each handle
   * keeps its own); a poor fit or bad input is a result with `code`, not a failure.
   */
  registerBite(upperHandle: MeshHandle, lowerHandle: MeshHandle, biteHandle: MeshHandle, jobId: number, onProgress?: ProgressCallback): Promise<WorkerResult<BiteResult>> {
    return job('registerBite', jobId, onProgress, async (jobOptions) => {
      const [upper, lower, bite] = [await snapshot(upperHandle), await snapshot(lowerHandle), await snapshot(biteHandle)];
      const k = await newInstance();
      // As the order's bite job: penetration beyond the contact tolerance resolved and reported.
      return registerBite(k, { upper: upper(k), lower: lower(k), bite: bite(k) }, { ...jobOptions, resolvePenetration: true });
    });
  },

  /**
   * Manual alignment of one jaw to the bite scan: Kabsch on the picked pairs (jaw point, bite
   * point; at least 3, or none with `initial`), then ICP. Returns jaw -> bite.
   */
  alignByPairs(
    jawHandle: MeshHandle,
    biteHandle: MeshHandle,
    pairs: { jaw: [number, number, number]; bite: [number, number, number] }[],
    initial?: Mat4,
  ): Promise<WorkerResult<{ matrix: Mat4; rms: number; points: number }>> {
    return job('alignByPairs', undefined, undefined, async () => {
      const [jaw, bite] = [await snapshot(jawHandle), await snapshot(biteHandle)];
      const k = await newInstance();
      return alignByPairs(k, jaw(k), bite(k), pairs, initial);
    });
  },

  // ---- teeth (workers/kernels/teeth.ts, teeth-gumline.ts)

  /**
   * Segments a kept jaw into teeth: labels per welded vertex of the kept mesh. Runs on a copy in
   * a fresh instance (the kernel straightens and keeps scratch of its own), so the kept mesh and
   * its BVH stay as they are.
   */
  segmentTeeth(handle: MeshHandle, jaw: 'upper' | 'lower', jobId: number, onProgress?: ProgressCallback): Promise<WorkerResult<TeethSegmentation>> {
    return job('segmentTeeth', jobId, onProgress, async (options) => {
      const copy = await snapshot(handle);
      const k = await newInstance();
      if (options.shouldCancel?.()) throw new KernelError('ABORTED', 'cancelled');
      const r = await segmentTeeth(copy(k), { jaw, onProgress: options.onProgress, shouldCancel: options.shouldCancel });
      return { labels: r.labels.slice(), teeth: r.teeth, arch: r.arch };
    });
  },

  /** Gum lines and centroids of labelled vertices of a kept mesh (labels: one byte per vertex, as segmentTeeth gives them). */
  toothOutlines(handle: MeshHandle, labels: Uint8Array): Promise<WorkerResult<ToothOutlines>> {
    return job('toothOutlines', undefined, undefined, () =>
      withMesh(handle, ({ mesh }) => {
        const { positions, indices } = meshViews(mesh);
        if (labels.length !== mesh.vertexCount) throw new KernelError('BAD_INPUT', `${labels.length} labels for ${mesh.vertexCount} vertices`);
        const sums = new Map<number, [number, number, number, number]>();
        for (let v = 0; v < labels.length; v++) {
          const n = labels[v]!;
          if (n === 0) continue;
          let s = sums.get(n);
          if (!s) sums.set(n, (s = [0, 0, 0, 0]));
          s[0] += positions[3 * v]!;
          s[1] += positions[3 * v + 1]!;
          s[2] += positions[3 * v + 2]!;
          s[3]++;
        }
        const teeth = [...sums].sort((a, b) => a[0] - b[0]).map(([number, s]) => ({ number, vertexCount: s[3], centroid: [s[0] / s[3], s[1] / s[3], s[2] / s[3]] as [number, number, number] }));
        return { lines: gumLines(positions, indices, labels), teeth };
      }),
    );
  },

  /** Applies a column-major rigid 4x4 (e.g. straighten's matrix or inverse) to the kept mesh's positions and normals. */
  transformMesh(handle: MeshHandle, matrix: ArrayLike<number>): Promise<WorkerResult<null>> {
    return job('transformMesh', undefined, undefined, () =>
      withMesh(handle, (m) => {
        if (matrix.length < 16) throw new KernelError('BAD_INPUT', 'a 4x4 matrix has 16 numbers');
        transformMesh(m.mesh, matrix);
        verticesMoved(m);
        return null;
      }),
    );
  },

  /**
   * Quadric-error decimation to at most `targetTriangles`. The kept mesh is
   * unchanged; the result is kept as a new mesh (its handle is returned with
   * its arrays) and the decimation's scratch is freed.
   */
  simplify(handle: MeshHandle, targetTriangles: number, jobId: number, onProgress?: ProgressCallback): Promise<WorkerResult<SimplifiedMesh>> {
    return job('simplify', jobId, onProgress, (options) =>
      withMesh(handle, async ({ mesh }) => {
        const mark = mesh.k.arenaMark() >>> 0;
        let r: Awaited<ReturnType<typeof simplify>>;
        try {
          r = await simplify(mesh, { ...options, targetTriangles });
        } finally {
          mesh.k.arenaRelease(mark);
        }
        // r's arrays are copies: the scratch they came from is released above.
        const k = await newInstance();
        let ref: MeshRef;
        try {
          ref = meshFromArrays(k, r.positions, r.indices, r.normals);
        } catch (e) {
          throw new KernelError('OUT_OF_MEMORY', e instanceof Error ? e.message : String(e));
        }
        const bounds = boundsOf(ref);
        const { positions, normals, indices, vertexCount, triangleCount, collapses } = r;
        return { handle: store(ref, bounds), positions, normals, indices, vertexCount, triangleCount, collapses, bounds };
      }),
    );
  },

  // ---- acrylic base (workers/kernels/base.ts) and export (stl-write.ts)

  /**
   * Generates the base for an outline drawn on the model (`modelHandle`,
   * straightened) and keeps it under a new handle. Input problems resolve
   * as { ok: true, value: { ok: false, code, detail } } (BaseOutcome); a
   * cancelled job, settings out of range or no memory as failures.
   */
  generateBase(
    modelHandle: MeshHandle,
    outline: OutlinePoint[],
    settings: BaseSettings,
    jobId: number,
    onProgress?: ProgressCallback,
  ): Promise<WorkerResult<BaseOutcome>> {
    return job('generateBase', jobId, onProgress, (jobOptions) =>
      withMesh(modelHandle, async (m): Promise<BaseOutcome> => {
        let base: BaseMesh;
        try {
          base = await generateBase(m.mesh, await ensureBvhInJob(m, jobOptions), outline, { ...settings, ...jobOptions });
        } catch (e) {
          if (e instanceof BaseError) return { ok: false, code: e.code, detail: e.detail };
          throw e;
        }
        const k = await newInstance();
        let ref: MeshRef;
        try {
          ref = meshFromArrays(k, base.positions, base.indices, base.normals);
        } catch (e) {
          throw new KernelError('OUT_OF_MEMORY', e instanceof Error ? e.message : String(e));
        }
        const bounds = boundsOf(ref);
        const handle = store(ref, bounds);
        lookUp(handle).base = { rim: baseRim(base), direction: base.direction };
        return { ok: true, base: { ...base, handle, bounds } };
      }),
    );
  },

  /**
   * Where corners (model frame, xyz each) lie in a base this worker generated (`baseHandle`):
   * per corner its plan distance from the rim (negative outside the plan) and whether it is
   * inside the solid. Null for a mesh that is not a generated base.
   */
  tagPlaces(baseHandle: MeshHandle, corners: Float32Array): Promise<WorkerResult<TagPlace[] | null>> {
    return job('tagPlaces', undefined, undefined, () =>
      withMesh(baseHandle, (m) => {
        if (!m.base) return null;
        if (corners.length % 3 !== 0 || corners.length > 3 * MAX_TAG_CORNERS || !corners.every(Number.isFinite)) throw new KernelError('BAD_INPUT', 'corners: finite xyz triples, at most ' + MAX_TAG_CORNERS);
        const points: [number, number, number][] = [];
        for (let i = 0; i < corners.length; i += 3) points.push([corners[i]!, corners[i + 1]!, corners[i + 2]!]);
        return placesIn(m.base.rim, ensureBvh(m), m.base.direction, points);
      }),
    );
  },

  /** The outline as generateBase will cut it, projected onto the model along the insertion direction, for drawing (xyz per point, a closed loop). */
  outlinePath(modelHandle: MeshHandle, outline: OutlinePoint[], options: OutlinePathOptions = {}): Promise<WorkerResult<Float32Array<ArrayBuffer>>> {
    return job('outlinePath', undefined, undefined, () => withMesh(modelHandle, (m) => outlinePath(ensureBvh(m), outline, options)));
  },

  /** A kept mesh (e.g. a generated base) as binary STL bytes for printing (header "Archwright base" unless given). */
  exportStl(handle: MeshHandle, header?: string, matrix?: number[]): Promise<WorkerResult<Uint8Array<ArrayBuffer>>> {
    return job('exportStl', undefined, undefined, () =>
      withMesh(handle, (m) => {
        const buffer = writeBinaryStl(m.mesh, header);
        return new Uint8Array(matrix ? transformStl(buffer, matrix) : buffer);
      }),
    );
  },

  /** A mesh given as arrays (a wire's tube) as binary STL bytes, moved by `matrix` when given. */
  meshStl(positions: Float32Array, indices: Uint32Array, header: string, matrix?: number[]): Promise<WorkerResult<Uint8Array<ArrayBuffer>>> {
    return job('meshStl', undefined, undefined, () =>
      withScratch((k) => {
        const mark = k.arenaMark() >>> 0;
        try {
          const buffer = writeBinaryStl(meshFromArrays(k, positions, indices), header);
          return new Uint8Array(matrix ? transformStl(buffer, matrix) : buffer);
        } finally {
          k.arenaRelease(mark);
        }
      }),
    );
  },

  /**
   * A wire's bending program and every check of it (spec rules, the device's diameters and
   * memory, machine limits, the collision sweep unless `skipCollision`). Issues are findings,
   * not failures: the call fails only for a wire the kernel cannot read.
   */
  bendCheck(input: BendCheckInput): Promise<WorkerResult<BendCheckResult>> {
    return job('bendCheck', undefined, undefined, () => withScratch((k) => checkBend(k, input)));
  },

  /** The wire in the bending head's frame after each step of a program (for the simulation view). */
  bendStates(steps: BendStep[], options: SimulateOptions): Promise<WorkerResult<WireState[]>> {
    return job('bendStates', undefined, undefined, () => withScratch((k) => bendStates(k, steps, options)));
  },

  /** Drops a kept mesh and its kernel instance. False when there was none. Jobs already running on it finish. */
  release(handle: MeshHandle): boolean {
    return meshes.delete(handle);
  },

  /** Stops a running long call; it then resolves with { ok: false, error: { code: 'ABORTED' } }. Unknown or finished ids are ignored. */
  cancel(jobId: number): void {
    jobs.cancel(jobId);
  },

  /** What the worker holds (diagnostics and tests). */
  stats(): WorkerStats {
    let wasmBytes = idleParser?.memory.buffer.byteLength ?? 0;
    for (const m of meshes.values()) wasmBytes += m.mesh.k.memory.buffer.byteLength;
    return { meshes: meshes.size, handles: [...meshes.keys()], wasmBytes, runningJobs: jobs.runningJobs, recentJobs: jobs.recentJobs() };
  },
};

export type GeometryApi = typeof api;

// Diagnostics in the worker's console (and for the browser test, which reads
// them through Playwright's worker handle): what it holds, how jobs ended.
(globalThis as { archwrightGeometryStats?: () => WorkerStats }).archwrightGeometryStats = api.stats;

Comlink.expose(api);
