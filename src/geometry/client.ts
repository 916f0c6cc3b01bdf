// Main-thread client of workers/geometry.worker.ts. Framework-free.
//
// Conventions (docs/geometry.md "Worker API"):
// - Every call returns a promise that resolves with the value or rejects
//   with a GeometryError whose `code` is the worker's stable code (the worker
//   itself never throws: it resolves { ok: false, error } and this client
//   turns that into the rejection).
// - Long calls take `{ signal, onProgress }`. Aborting the signal rejects the
//   call at once with the signal's reason (an AbortError) and sends
//   cancel(jobId) to the worker, which stops at its next time slice (within
//   ~30 ms). The worker is not terminated, so the meshes it keeps survive.
// - Meshes kept in the worker are referred to by handle; release(handle)
//   frees one. A mesh opened by a call that was aborted too late to stop is
//   released here, so it cannot leak.
// - If the worker itself dies (script or wasm failed to load), pending calls
//   reject with WORKER_FAILED and the next call starts a fresh worker.

import * as Comlink from 'comlink';
import type {
  BvhInfo,
  GeometryApi,
  MeshHandle,
  MeshInfo,
  OpenedMesh,
  ProgressCallback,
  SimplifiedMesh,
  StlSettings,
  StlSource,
  WorkerFailure,
  WorkerStats,
  BaseOutcome,
  TeethSegmentation,
  ToothOutlines,
} from '../../workers/geometry.worker.ts';
import type { BaseSettings, OutlinePathOptions, OutlinePoint } from '../../workers/kernels/base.ts';
import type { TagPlace } from '../../workers/design/base-rim.ts';
import type { BvhBuildOptions, ClosestPoints, RayHit, RayHits, RayOptions, Vec3 as BvhVec3 } from '../../workers/kernels/bvh.ts';
import type { DistanceOptions, DistanceResult } from '../../workers/kernels/distance.ts';
import type { ClosestNormalOptions, ClosestWithNormals } from '../../workers/kernels/closest-normals.ts';
import type { GeodesicResult, SurfacePoint } from '../../workers/kernels/geodesic.ts';
import type { JobOptions } from '../../workers/kernels/job.ts';
import type { BestDirectionOptions, BestDirectionResult, UndercutMapOptions, UndercutResult } from '../../workers/kernels/undercut.ts';
import type { DabOptions, RegionOptions, SmoothResult } from '../../workers/kernels/smooth.ts';
import type { StraightenJaw, StraightenResult } from '../../workers/kernels/straighten.ts';
import type { StlMesh, StlStage } from '../../workers/kernels/stl.ts';
import type { MeshHealth } from '../../workers/kernels/topology.ts';
import type { BendStep, SimulateOptions, WireState } from '../../workers/kernels/bend.ts';
import type { BendCheckInput, BendCheckResult } from '../../workers/kernels/bend-checks.ts';
import type { BiteResult, Mat4 } from '../../common/bite.ts';
import { GeometryError } from './errors.ts';
import { abortReason, WorkerConnection, type CallOptions, type JobCalls, type ShortCalls } from './workerConnection.ts';

export type { StlMesh, StlStage, Vec3 } from '../../workers/kernels/stl.ts';
export type { BiteResult, BiteErrorCode, Mat4 } from '../../common/bite.ts';
export type { BvhInfo, MeshHandle, MeshInfo, OpenedMesh, RemoteStl, SimplifiedMesh, StlSettings, StlSource, WorkerStats } from '../../workers/geometry.worker.ts';
export type { BvhBuildOptions, ClosestPoints, RayHit, RayHits, RayOptions } from '../../workers/kernels/bvh.ts';
export type { DistanceOptions, DistanceResult } from '../../workers/kernels/distance.ts';
export type { ClosestNormalOptions, ClosestWithNormals } from '../../workers/kernels/closest-normals.ts';
export type { BestDirectionOptions, BestDirectionResult, UndercutMapOptions, UndercutResult } from '../../workers/kernels/undercut.ts';
export type { StraightenJaw, StraightenResult } from '../../workers/kernels/straighten.ts';
export type { GeodesicResult, SurfacePoint } from '../../workers/kernels/geodesic.ts';
export type { DabOptions, RegionOptions, SmoothResult } from '../../workers/kernels/smooth.ts';
export type { MeshHealth } from '../../workers/kernels/topology.ts';
export type { BendProgram, BendStep, HeadBox, ProgramOptions, ProgramStep, SimulateOptions, WireState } from '../../workers/kernels/bend.ts';
export type { BendCheckInput, BendCheckResult, BendIssue, BendIssueCode, MachineLimits, WireType } from '../../workers/kernels/bend-checks.ts';
export { BEND_MESSAGES, WIRE_END_MAX, WIRE_END_MIN, WRAPAROUND_FIRST_MAX } from '../../common/bend-program.ts';
export type { BaseOutcome, GeneratedBase, TeethSegmentation, ToothOutlines } from '../../workers/geometry.worker.ts';
export type { BaseErrorCode, BaseSettings, OutlinePathOptions, OutlinePoint } from '../../workers/kernels/base.ts';
export type { TagPlace } from '../../workers/design/base-rim.ts';

/** Options of every long call. */
export type JobCallOptions = CallOptions<ProgressCallback>;

/** Options of the STL calls: the stage is 'download' (a RemoteStl, its own 0..1), 'read' (a Blob, first 20 %) or 'parse'. */
export interface LoadOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((fraction: number, stage: StlStage) => void) | undefined;
  /** Also merge vertices closer than this (model units) after the exact weld. Default 0. */
  weldTolerance?: number | undefined;
}

/** The worker's calls as the page makes them (workerConnection.ts): a kernel call needs no wrapper here. */
export type GeometryJobs = JobCalls<GeometryApi>;
export type GeometryCalls = ShortCalls<GeometryApi>;

function stlProgress(onProgress: LoadOptions['onProgress']): JobCallOptions['onProgress'] {
  return onProgress ? (fraction, stage) => onProgress(fraction, stage === 'read' || stage === 'download' ? stage : 'parse') : undefined;
}

/** The STL calls' options as the worker's job options and settings. */
function stlJob(options: LoadOptions): [JobCallOptions, StlSettings] {
  return [{ signal: options.signal, onProgress: stlProgress(options.onProgress) }, { weldTolerance: options.weldTolerance ?? 0 }];
}

/** A File is read and a RemoteStl downloaded in the worker; an ArrayBuffer is transferred (detached). */
function sent(source: StlSource): StlSource {
  return Comlink.transfer(source, source instanceof ArrayBuffer ? [source] : []);
}

function geometryWorker(name: string, what: string): WorkerConnection<GeometryApi> {
  return new WorkerConnection<GeometryApi>(
    () => new Worker(new URL('../../workers/geometry.worker.ts', import.meta.url), { type: 'module', name }),
    (detail) => new GeometryError('WORKER_FAILED', detail),
    what,
    (failure) => GeometryError.from(failure as WorkerFailure),
  );
}

export class GeometryClient {
  private readonly connection = geometryWorker('geometry', 'geometry');
  /**
   * A parse-only worker: a file that arrives while the main worker is parsing another is parsed
   * here at the same time, and its mesh then kept in the main worker (createMesh copies the
   * arrays: a few ms for a jaw, against a parse of 50-150 ms).
   */
  private readonly parser = geometryWorker('geometry-parser', 'geometry parser');
  /** openStl calls under way in the main worker. */
  private parsing = 0;
  /** Every long call of the worker: `jobs.name(...args, { signal, onProgress })` (the methods below add defaults). */
  readonly jobs: GeometryJobs = this.connection.jobs;
  /** Every short call of the worker that resolves a result: `calls.name(...args)`. */
  readonly calls: GeometryCalls = this.connection.calls;

  /**
   * Starts the worker and compiles kernels.wasm ahead of the first file; with `parallel`, the
   * parse-only worker too (several files are about to arrive).
   */
  warmUp(options: { parallel?: boolean } = {}): Promise<void> {
    const main = this.calls.warmUp();
    if (!options.parallel) return main.then(() => undefined);
    const parser = this.parser.run((api) => api.warmUp() as Promise<unknown>).catch(() => null);
    return Promise.all([main, parser]).then(() => undefined);
  }

  /**
   * Parses an STL file in the worker and keeps the mesh there. A File is read
   * and a RemoteStl downloaded in the worker, not here; an ArrayBuffer is
   * transferred (detached). A failed download rejects with DOWNLOAD_FAILED and its status.
   * Resolves with the render arrays and the mesh's handle; release(handle)
   * when it is no longer needed.
   */
  openStl(source: StlSource, options: LoadOptions = {}): Promise<OpenedMesh> {
    if (this.parsing > 0) return this.openInParser(source, options);
    const [job, settings] = stlJob(options);
    this.parsing++;
    return this.connection.job('openStl', [sent(source), settings], job, (late) => void this.release(late.handle)).finally(() => this.parsing--);
  }

  /** openStl through the parse-only worker: the same result, the mesh kept in the main worker. */
  private async openInParser(source: StlSource, options: LoadOptions): Promise<OpenedMesh> {
    const { signal } = options;
    const [job, settings] = stlJob(options);
    const mesh = await this.parser.job('parseStl', [sent(source), settings], job);
    const handle = await this.createMesh(mesh.positions, mesh.indices, mesh.normals);
    if (signal?.aborted) {
      void this.release(handle).catch(() => {});
      throw abortReason(signal);
    }
    return { ...mesh, handle };
  }

  /** Parses an STL file in the worker without keeping it (for callers that only draw it). */
  loadStl(source: StlSource, options: LoadOptions = {}): Promise<StlMesh> {
    const [job, settings] = stlJob(options);
    return this.jobs.parseStl(sent(source), settings, job);
  }

  /** Keeps a mesh made on this side in the worker (the arrays are copied, not transferred). */
  createMesh(positions: Float32Array, indices: Uint32Array, normals?: Float32Array): Promise<MeshHandle> {
    return this.calls.createMesh(positions, indices, normals);
  }

  /** Counts, bounds and memory of a kept mesh; rejects with NO_SUCH_MESH after release(). */
  meshInfo(handle: MeshHandle): Promise<MeshInfo> {
    return this.calls.meshInfo(handle);
  }

  /** Frees a kept mesh in the worker; false when there was none. */
  release(handle: MeshHandle): Promise<boolean> {
    return this.connection.run((api) => api.release(handle));
  }

  // ---- BVH, rays, undercuts, distances (the BVH is built on first need and kept with the mesh)

  buildBvh(handle: MeshHandle, build: BvhBuildOptions = {}, options: JobCallOptions = {}): Promise<BvhInfo> {
    return this.jobs.buildBvh(handle, build, options);
  }

  /** First hit per ray (origin xyz, direction xyz each); the array is copied, not transferred. */
  raycast(handle: MeshHandle, rays: Float32Array, options: RayOptions = {}): Promise<RayHits> {
    return this.calls.raycast(handle, rays, options);
  }

  /** First hit of one ray (picking), or null. */
  pick(handle: MeshHandle, origin: BvhVec3, direction: BvhVec3, options: RayOptions = {}): Promise<RayHit | null> {
    return this.calls.pick(handle, [...origin], [...direction], options);
  }

  closestPoints(handle: MeshHandle, points: Float32Array, options: { maxDistance?: number } = {}): Promise<ClosestPoints> {
    return this.calls.closestPoints(handle, points, options);
  }

  /** Closest surface point to each query point with the outward normal there (wires kept off teeth). */
  closestWithNormals(handle: MeshHandle, points: Float32Array, options: ClosestNormalOptions = {}): Promise<ClosestWithNormals> {
    return this.calls.closestWithNormals(handle, points, options);
  }

  /** Undercut depth per vertex for an insertion direction. */
  undercut(handle: MeshHandle, direction: BvhVec3, settings: Omit<UndercutMapOptions, keyof JobOptions> = {}, options: JobCallOptions = {}): Promise<UndercutResult> {
    return this.jobs.undercut(handle, [...direction], settings, options);
  }

  bestInsertionDirection(
    handle: MeshHandle,
    hint: BvhVec3,
    settings: Omit<BestDirectionOptions, keyof JobOptions> = {},
    options: JobCallOptions = {},
  ): Promise<BestDirectionResult> {
    return this.jobs.bestInsertionDirection(handle, [...hint], settings, options);
  }

  /** Signed distance from every vertex of `from` to the mesh `to`. */
  distanceMap(from: MeshHandle, to: MeshHandle, settings: Omit<DistanceOptions, keyof JobOptions> = {}, options: JobCallOptions = {}): Promise<DistanceResult> {
    return this.jobs.distanceMap(from, to, settings, options);
  }

  // ---- topology

  /** Health report of a kept mesh (degenerate, open, non-manifold edges, shells). */
  healthReport(handle: MeshHandle, options: JobCallOptions = {}): Promise<MeshHealth> {
    return this.jobs.healthReport(handle, options);
  }

  /** One smoothing-brush dab on a kept mesh; resolves with the moved vertices for the renderer. */
  smoothDab(handle: MeshHandle, dab: DabOptions): Promise<SmoothResult> {
    return this.calls.smoothDab(handle, dab);
  }

  /** Writes positions (and normals) of listed vertices of a kept mesh (the smoothing brush's undo). */
  setVertices(handle: MeshHandle, vertices: Uint32Array, positions: Float32Array, normals?: Float32Array): Promise<void> {
    return this.calls.setVertices(handle, vertices, positions, normals).then(() => undefined);
  }

  /** Smooths a vertex set (or the whole kept mesh). */
  smoothRegion(handle: MeshHandle, region: RegionOptions = {}, options: JobCallOptions = {}): Promise<SmoothResult> {
    return this.jobs.smoothRegion(handle, region, options);
  }

  /** Geodesic distance along a kept mesh between two picked points, with the path. */
  geodesic(
    handle: MeshHandle,
    a: SurfacePoint,
    b: SurfacePoint,
    settings: { steinerPoints?: number; sweeps?: number } = {},
    options: JobCallOptions = {},
  ): Promise<GeodesicResult> {
    return this.jobs.geodesic(handle, a, b, settings, options);
  }

  // ---- shape

  /** The rigid transform into the canonical frame (the kept mesh is not moved). */
  straighten(handle: MeshHandle, jaw: StraightenJaw = 'lower', options: JobCallOptions = {}): Promise<StraightenResult> {
    return this.jobs.straighten(handle, jaw, options);
  }

  /** Registers the upper and lower models to the bite scan (workers/kernels/bite.ts); a poor fit resolves with `code`. */
  registerBite(upper: MeshHandle, lower: MeshHandle, bite: MeshHandle, options: JobCallOptions = {}): Promise<BiteResult> {
    return this.jobs.registerBite(upper, lower, bite, options);
  }

  /** One jaw onto the bite scan from picked point pairs (>= 3, or `initial` alone), refined by ICP; jaw -> bite. */
  alignByPairs(jaw: MeshHandle, bite: MeshHandle, pairs: { jaw: [number, number, number]; bite: [number, number, number] }[], initial?: Mat4): Promise<{ matrix: Mat4; rms: number; points: number }> {
    return this.calls.alignByPairs(jaw, bite, pairs, initial);
  }

  /** Segments a kept jaw into teeth (workers/kernels/teeth.ts): labels per welded vertex, one record per tooth. */
  segmentTeeth(handle: MeshHandle, jaw: 'upper' | 'lower', options: JobCallOptions = {}): Promise<TeethSegmentation> {
    return this.jobs.segmentTeeth(handle, jaw, options);
  }

  /** Gum lines and centroids of a kept mesh's labelled vertices (the labels are copied, not transferred). */
  toothOutlines(handle: MeshHandle, labels: Uint8Array): Promise<ToothOutlines> {
    return this.calls.toothOutlines(handle, labels);
  }

  /** Moves the kept mesh by a column-major rigid 4x4. */
  transformMesh(handle: MeshHandle, matrix: ArrayLike<number>): Promise<void> {
    return this.calls.transformMesh(handle, Array.from(matrix)).then(() => undefined);
  }

  /** Decimates a kept mesh; the result is kept under a new handle (release it too). */
  simplify(handle: MeshHandle, targetTriangles: number, options: JobCallOptions = {}): Promise<SimplifiedMesh> {
    return this.connection.job('simplify', [handle, targetTriangles], options, (late) => void this.release(late.handle));
  }

  // ---- acrylic base and export

  /** Generates a base for an outline on a kept model; the base is kept under its own handle (release it too). */
  generateBase(modelHandle: MeshHandle, outline: OutlinePoint[], settings: BaseSettings = {}, options: JobCallOptions = {}): Promise<BaseOutcome> {
    return this.connection.job('generateBase', [modelHandle, outline, settings], options, (late) => void (late.ok && this.release(late.base.handle)));
  }

  /** The outline as generateBase will cut it, projected onto the model (xyz per point, closed loop). */
  outlinePath(modelHandle: MeshHandle, outline: OutlinePoint[], options: OutlinePathOptions = {}): Promise<Float32Array> {
    return this.calls.outlinePath(modelHandle, outline, options);
  }

  /** Where corners (model frame, xyz each) lie in a base generated here: plan distance from its rim and inside the solid; null for another mesh. */
  tagPlaces(baseHandle: MeshHandle, corners: Float32Array): Promise<TagPlace[] | null> {
    return this.calls.tagPlaces(baseHandle, corners);
  }

  /** A kept mesh as binary STL bytes, moved by a rigid `matrix` (column-major) when given. */
  exportStl(handle: MeshHandle, header?: string, matrix?: number[]): Promise<Uint8Array> {
    return this.calls.exportStl(handle, header, matrix);
  }

  /** A mesh given as arrays (a wire's tube) as binary STL bytes, moved by `matrix` when given. */
  meshStl(positions: Float32Array, indices: Uint32Array, header: string, matrix?: number[]): Promise<Uint8Array> {
    return this.calls.meshStl(positions, indices, header, matrix);
  }

  /** A wire's bending program and its checks (rules, device, limits, collision); issues are in the result. */
  bendCheck(input: BendCheckInput): Promise<BendCheckResult> {
    return this.calls.bendCheck(input);
  }

  /** The wire in the head's frame after each step of a program (simulation view). */
  bendStates(steps: BendStep[], options: SimulateOptions): Promise<WireState[]> {
    return this.calls.bendStates(steps, options);
  }

  /** What the worker holds (diagnostics). */
  stats(): Promise<WorkerStats> {
    return this.connection.run((api) => api.stats());
  }

  /** Terminates the workers (and every mesh they keep); the next call starts a fresh one. */
  dispose(): void {
    this.connection.dispose();
    this.parser.dispose();
  }
}

// The editor's client: prepared (workers started, kernels compiling) as soon as /bend is entered,
// so that an order's models can start opening in it before the editor's engine exists.
let editorClient: { client: GeometryClient; claimed: boolean } | undefined;

/** The live editor's client, or one prepared for the editor about to open (`parallel`: several files are coming). */
export function editorGeometryClient(options: { parallel?: boolean } = {}): GeometryClient {
  if (!editorClient) {
    const client = new GeometryClient();
    client.warmUp(options).catch(() => {}); // a worker that fails shows it on the first real call
    editorClient = { client, claimed: false };
  }
  return editorClient.client;
}

/** For a new editor engine, which owns (disposes) it: the prepared client if no editor has it yet, else a new one. */
export function claimGeometryClient(): GeometryClient {
  if (editorClient && !editorClient.claimed) {
    editorClient.claimed = true;
    return editorClient.client;
  }
  const client = new GeometryClient();
  editorClient = { client, claimed: true };
  return client;
}

/** The engine that claimed `client` disposed it. */
export function releaseGeometryClient(client: unknown): void {
  if (editorClient?.client === client) editorClient = undefined;
}
