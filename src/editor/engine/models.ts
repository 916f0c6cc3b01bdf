// The engine's model slots (upper, lower, occlusion): opening them (a local file, or an order's
// models with download and parse progress), the Babylon mesh drawn from the worker's buffers,
// their appearance and pose, and dropping them (released in the worker). The models themselves
// stay in the geometry worker, by handle; the engine (EditorEngine.ts) publishes their views.
import type { Scene } from '@babylonjs/core/scene';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Material } from '@babylonjs/core/Materials/material';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Color3 } from '@babylonjs/core/Maths/math.color';

import type { GeometryClient, MeshHandle, OpenedMesh, StlStage, Vec3 } from '../../geometry/client.ts';
import { GeometryError, isAbortError, type GeometryErrorCode } from '../../geometry/errors.ts';
import { MODEL_ROLES, type ModelRole } from './document.ts';
import { IDENTITY, modelToWorldMatrix, transformPoint, type Matrix4, type Xyz } from './pose.ts';
import { buildPickingBvhs, perfMark, PERF_MARKS, whenDrawn } from './openTiming.ts';
import { isOpenedMesh, type ModelSource } from './modelSource.ts';
import { BITE_OPENING } from './navigation.ts';

export interface MeshBuffers {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
}

export interface ModelInfo {
  id: string;
  name: string;
  triangles: number;
  vertices: number;
  bounds: { min: Vec3; max: Vec3 };
}

export type EditorErrorCode = GeometryErrorCode | 'WEBGL_UNAVAILABLE' | 'DOWNLOAD_FAILED' | 'MODEL_MISSING';

export interface EditorError {
  code: EditorErrorCode;
  fileName?: string;
  /** ASCII STL: line of the syntax error. */
  line?: number;
  /** DOWNLOAD_FAILED: the HTTP status (0: network). */
  status?: number;
}

/** Download (from the back end), then read and parse (in the worker). */
export type LoadStage = 'download' | StlStage;

export interface ModelView {
  role: ModelRole;
  name: string;
  status: 'loading' | 'ready' | 'error';
  progress: { stage: LoadStage; fraction: number } | null;
  error: EditorError | null;
  triangles: number;
  vertices: number;
  visible: boolean;
  /** 0..1 */
  opacity: number;
}

/** The local "Open STL" load in progress (state.loading). */
export interface LocalLoad {
  fileName: string;
  fraction: number;
  stage: StlStage;
}

/** What the engine needs of the geometry worker (GeometryClient, or an in-process stand-in in tests). */
export type GeometryPort = Pick<GeometryClient, 'openStl' | 'release' | 'pick' | 'geodesic' | 'straighten'> & { dispose?(): void };

export interface ModelEntry {
  role: ModelRole;
  name: string;
  handle: MeshHandle | null;
  mesh: Mesh | null;
  material: StandardMaterial | null;
  info: ModelInfo | null;
  view: ModelView;
  /** Translation of the model in the scene (the bite). */
  offset: [number, number, number];
}

/** What the model slots need of the engine. */
export interface ModelHost {
  scene(): Scene | null;
  /** The bite is open: a lower model arriving starts down. */
  biteOpen(): boolean;
  disposed(): boolean;
  requestRender(): void;
  /** state.models and state.model changed. */
  publish(patch: { models: ModelView[]; model: ModelInfo | null }): void;
  /** The local file's load: state.loading and state.error. */
  setLoad(patch: { loading: LocalLoad | null; error?: EditorError | null }): void;
  /** A local load is under way (state.loading). */
  loadingLocal(): boolean;
  /** Models arrived: the clipping range and the camera follow them. */
  frame(): void;
  /** A model's mesh is in the scene: the overlays and features follow. */
  installed(entry: ModelEntry): void;
  /** A model left its slot. */
  dropped(role: ModelRole): void;
  /** A model was shown or hidden: its overlays follow. */
  visibilityChanged(role: ModelRole, visible: boolean): void;
}

const COLORS: Record<ModelRole, Color3> = {
  upper: new Color3(0.93, 0.89, 0.8),
  lower: new Color3(0.9, 0.86, 0.78),
  occlusion: new Color3(0.62, 0.76, 0.9),
};
/** How long a model opened with others waits for them before it is drawn alone. */
const MODEL_WAIT_MS = 1500;

function errorOf(e: unknown, fileName: string): EditorError {
  const code: GeometryErrorCode = e instanceof GeometryError ? e.code : 'WORKER_FAILED';
  const error: EditorError = { code, fileName };
  if (e instanceof GeometryError && e.line !== undefined) error.line = e.line;
  if (e instanceof GeometryError && e.status !== undefined) error.status = e.status;
  if (!(e instanceof GeometryError)) console.error('Loading a model failed', e);
  return error;
}

export class ModelSlots {
  readonly entries = new Map<ModelRole, ModelEntry>();
  /**
   * While an order's models load, no frame is drawn (until then): a frame of the first model
   * alone, not yet framed, would take a software renderer about a second of the CPU the other
   * model's parse needs. One model waits at most MODEL_WAIT_MS for the others.
   */
  framesHeldUntil = 0;
  /** The models' pose as drawn (the document's straightening, or a drag's preview); null: none. */
  pose: Matrix4 | null = null;
  /** Each jaw's registered bite (model → bite frame); absent: as in its file. The occlusion scan is in the bite frame. */
  private bites: Partial<Record<ModelRole, Matrix4>> = {};
  private loadAbort: AbortController | null = null;

  constructor(
    private readonly host: ModelHost,
    private readonly geometry: GeometryPort,
  ) {}

  get(role: ModelRole): ModelEntry | undefined {
    return this.entries.get(role);
  }

  /** The shown models' meshes in the scene, by role (null when absent). */
  meshOf(role: ModelRole): Mesh | null {
    return this.entries.get(role)?.mesh ?? null;
  }

  publish(): void {
    const models = MODEL_ROLES.flatMap((role) => {
      const entry = this.entries.get(role);
      return entry ? [{ ...entry.view }] : [];
    });
    const first = MODEL_ROLES.map((r) => this.entries.get(r)?.info).find(Boolean) ?? null;
    this.host.publish({ models, model: first });
  }

  // ---------------------------------------------------------------- loading

  /** engine.openStl: a local file into the upper slot. */
  async openStl(file: Blob, fileName: string): Promise<void> {
    this.loadAbort?.abort();
    const abort = new AbortController();
    this.loadAbort = abort;
    this.host.setLoad({ loading: { fileName, fraction: 0, stage: 'read' }, error: null });
    try {
      // Into the upper slot only once parsed: a file that fails leaves the model on screen.
      const mesh = await this.geometry.openStl(file, {
        signal: abort.signal,
        onProgress: (fraction, stage) => {
          if (!abort.signal.aborted) this.host.setLoad({ loading: { fileName, fraction, stage } });
        },
      });
      if (abort.signal.aborted || this.host.disposed()) {
        void this.geometry.release(mesh.handle).catch(() => {});
        return;
      }
      this.drop('upper');
      const entry = this.entry('upper', fileName, {});
      this.entries.set('upper', entry);
      this.install(entry, mesh);
      this.host.frame();
      // state.model (and the page's data-model-triangles) means "on screen":
      // wait until the shaders are ready and a frame with the model is drawn.
      await this.whenRendered();
      if (abort.signal.aborted || this.host.disposed()) return;
      this.host.setLoad({ loading: null, error: null });
      this.publish();
    } catch (e) {
      if (abort.signal.aborted || this.host.disposed()) return;
      if (isAbortError(e)) {
        this.host.setLoad({ loading: null });
        return;
      }
      this.host.setLoad({ loading: null, error: errorOf(e, fileName) });
    } finally {
      if (this.loadAbort === abort) this.loadAbort = null;
    }
  }

  /** engine.openModels: an order's models, drawn together, then their BVHs built. */
  async openModels(sources: { role: ModelRole; name: string; source: ModelSource }[]): Promise<void> {
    const scene = this.host.scene()!;
    perfMark(PERF_MARKS.opening);
    this.loadAbort?.abort();
    const abort = new AbortController();
    this.loadAbort = abort;
    // The workers start and compile their kernels while the files download.
    void (this.geometry as Partial<Pick<GeometryClient, 'warmUp'>>).warmUp?.({ parallel: sources.length > 1 }).catch(() => {});
    this.framesHeldUntil = Infinity;
    try {
      await Promise.all(
        sources.map(({ role, name, source }) =>
          this.load(role, name, source, abort.signal).then(() => {
            this.framesHeldUntil = Math.min(this.framesHeldUntil, performance.now() + MODEL_WAIT_MS);
          }),
        ),
      );
    } finally {
      if (this.loadAbort === abort || this.loadAbort === null) this.framesHeldUntil = 0; // not a newer opening's hold
    }
    if (abort.signal.aborted || this.host.disposed()) return;
    this.host.frame();
    // The worker builds the BVHs (instant picking) once the first frame is drawn (openTiming.ts).
    const handles = [...this.entries.values()].flatMap((e) => (e.handle !== null && e.view.status === 'ready' ? [e.handle] : []));
    await whenDrawn(scene, () => this.host.requestRender());
    const picking = buildPickingBvhs(this.geometry as Parameters<typeof buildPickingBvhs>[0], handles, abort.signal);
    this.publish();
    perfMark(PERF_MARKS.shown);
    if ((await picking) && !this.host.disposed()) perfMark(PERF_MARKS.interactive);
    if (this.loadAbort === abort) this.loadAbort = null;
  }

  /** engine.clearModels: every model removed (and released in the worker). */
  clear(): void {
    this.stopLoad();
    this.framesHeldUntil = 0;
    for (const role of [...this.entries.keys()]) this.drop(role);
    this.publish();
  }

  /** The load in progress stops (the engine's dispose). */
  stopLoad(): void {
    this.loadAbort?.abort();
    this.loadAbort = null;
  }

  /** A model slot that cannot be loaded (the order has no such file, say): shown with its error. */
  markMissing(role: ModelRole, name: string, error: EditorError): void {
    this.drop(role);
    this.entries.set(role, this.entry(role, name, { status: 'error', error }));
    this.publish();
  }

  private entry(role: ModelRole, name: string, view: Partial<ModelView>): ModelEntry {
    return {
      role,
      name,
      handle: null,
      mesh: null,
      material: null,
      info: null,
      offset: [0, 0, this.host.biteOpen() && role === 'lower' ? -BITE_OPENING : 0],
      view: { role, name, status: 'loading', progress: null, error: null, triangles: 0, vertices: 0, visible: true, opacity: role === 'occlusion' ? 0.5 : 1, ...view },
    };
  }

  private async load(
    role: ModelRole,
    name: string,
    source: ModelSource,
    signal: AbortSignal,
    onStage?: (stage: LoadStage, fraction: number) => void,
  ): Promise<void> {
    this.drop(role);
    const entry = this.entry(role, name, { progress: { stage: 'download', fraction: 0 } });
    this.entries.set(role, entry);
    this.publish();
    let lastPublish = 0;
    const progress = (stage: LoadStage, fraction: number): void => {
      if (signal.aborted || this.entries.get(role) !== entry) return;
      entry.view = { ...entry.view, progress: { stage, fraction } };
      onStage?.(stage, fraction);
      const now = performance.now();
      if (now - lastPublish > 50 || fraction >= 1) {
        lastPublish = now;
        this.publish();
      }
    };
    try {
      const got = await source(signal, (f, stage = 'download') => progress(stage, f));
      const mesh = isOpenedMesh(got) ? got : await this.geometry.openStl(got, { signal, onProgress: (f, stage) => progress(stage, f) });
      if (signal.aborted || this.host.disposed() || this.entries.get(role) !== entry) {
        void this.geometry.release(mesh.handle).catch(() => {});
        return;
      }
      perfMark(`editor:parsed:${role}`);
      this.install(entry, mesh);
      perfMark(`editor:built:${role}`);
    } catch (e) {
      if (signal.aborted || this.host.disposed() || this.entries.get(role) !== entry) return;
      let error: EditorError;
      if (isAbortError(e)) error = { code: 'ABORTED', fileName: name };
      else error = errorOf(e, name);
      entry.view = { ...entry.view, status: 'error', progress: null, error };
    }
    this.publish();
  }

  private install(entry: ModelEntry, mesh: OpenedMesh): void {
    entry.handle = mesh.handle;
    entry.info = { id: entry.role, name: entry.name, triangles: mesh.triangleCount, vertices: mesh.vertexCount, bounds: mesh.bounds };
    this.buildMesh(entry, mesh);
    entry.view = { ...entry.view, status: 'ready', progress: null, triangles: mesh.triangleCount, vertices: mesh.vertexCount };
    this.host.installed(entry);
  }

  /** Resolves after the scene is ready and one more frame is drawn (at most ~10 s). */
  private whenRendered(): Promise<void> {
    const scene = this.host.scene();
    if (!scene) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      scene.executeWhenReady(() => {
        scene.onAfterRenderObservable.addOnce(() => {
          clearTimeout(timer);
          resolve();
        });
        this.host.requestRender();
      });
    });
  }

  /** engine.cancelLoad: models still loading show "cancelled". */
  cancelLoad(): void {
    if (!this.loadAbort) return;
    this.loadAbort.abort();
    this.loadAbort = null;
    for (const entry of this.entries.values()) {
      if (entry.view.status === 'loading') entry.view = { ...entry.view, status: 'error', progress: null, error: { code: 'ABORTED', fileName: entry.name } };
    }
    if (this.host.loadingLocal()) {
      // A cancelled local file replaces the one on screen (as an empty view): what is shown
      // is never a model the designer has already moved away from.
      this.drop('upper');
      this.host.setLoad({ loading: null });
    }
    this.publish();
  }

  // ---------------------------------------------------------------- meshes

  private buildMesh(entry: ModelEntry, buffers: MeshBuffers): void {
    const scene = this.host.scene();
    if (!scene) return;
    const mesh = new Mesh(entry.role, scene);
    // STL triangles are counter-clockwise seen from outside; Babylon's
    // right-handed default is clockwise, which would light the inside.
    mesh.sideOrientation = Material.CounterClockWiseSideOrientation;
    const data = new VertexData();
    data.positions = buffers.positions;
    data.normals = buffers.normals;
    data.indices = buffers.indices;
    data.applyToMesh(mesh, true); // updatable: the smoothing brush uploads the vertices it moved
    const material = new StandardMaterial(`${entry.role}-material`, scene);
    material.diffuseColor = COLORS[entry.role];
    material.specularColor = new Color3(0.22, 0.22, 0.2);
    material.specularPower = 40;
    material.backFaceCulling = false; // scans are open surfaces: their inside shows
    material.twoSidedLighting = true;
    mesh.material = material;
    mesh.isPickable = false;
    mesh.doNotSyncBoundingInfo = true;
    this.placeMesh(mesh, entry.offset, entry.role);
    entry.mesh = mesh;
    entry.material = material;
    this.applyAppearance(entry);
    scene.executeWhenReady(() => this.host.requestRender());
    this.host.requestRender();
  }

  private applyAppearance(entry: ModelEntry): void {
    const { mesh, material } = entry;
    if (!mesh || !material) return;
    mesh.setEnabled(entry.view.visible);
    material.alpha = entry.view.opacity;
    // Transparent models write depth first, so that they show their own front surface only.
    material.needDepthPrePass = entry.view.opacity < 1;
    material.transparencyMode = entry.view.opacity < 1 ? Material.MATERIAL_ALPHABLEND : Material.MATERIAL_OPAQUE;
    this.host.visibilityChanged(entry.role, entry.view.visible);
    this.host.requestRender();
  }

  drop(role: ModelRole): void {
    const entry = this.entries.get(role);
    if (!entry) return;
    entry.mesh?.dispose();
    entry.material?.dispose();
    if (entry.handle !== null) void this.geometry.release(entry.handle).catch(() => {});
    this.entries.delete(role);
    this.host.dropped(role);
    this.host.requestRender();
  }

  /** A model's registered bite transform, or null. */
  biteOf(role: ModelRole): Matrix4 | null {
    return this.bites[role] ?? null;
  }

  /** Places the jaws in a registered bite (null: as in their files). False: already so. */
  setBites(bites: Partial<Record<ModelRole, Matrix4>> | null): boolean {
    const next = bites ?? {};
    const same = (a?: Matrix4, b?: Matrix4): boolean => (!a && !b) || (!!a && !!b && Array.from(a).every((v, i) => v === b[i]));
    if (MODEL_ROLES.every((r) => same(next[r], this.bites[r]))) return false;
    this.bites = { ...next };
    for (const entry of this.entries.values()) if (entry.mesh) this.placeMesh(entry.mesh, entry.offset, entry.role);
    this.host.requestRender();
    return true;
  }

  /** Places a model's mesh: its bite, the straightening, then the bite offset (overlays are its children). */
  private placeMesh(mesh: Mesh, offset: Xyz, role: ModelRole): void {
    const world = Matrix.FromArray(modelToWorldMatrix(this.pose, offset, this.biteOf(role)));
    const rotation = new Quaternion();
    const position = new Vector3();
    world.decompose(undefined, rotation, position);
    mesh.rotationQuaternion = rotation;
    mesh.position.copyFrom(position);
  }

  /** Draws the models in a pose (the document's, or a drag's preview); null: as in their files. False: already so. */
  setPose(matrix: Matrix4 | null): boolean {
    const same = (a: Matrix4 = IDENTITY, b: Matrix4 = IDENTITY): boolean => Array.from(a).every((v, i) => v === b[i]);
    if (same(matrix ?? undefined, this.pose ?? undefined)) return false;
    this.pose = matrix;
    for (const entry of this.entries.values()) if (entry.mesh) this.placeMesh(entry.mesh, entry.offset, entry.role);
    return true;
  }

  /** The lower jaw's height (the bite's animation). */
  setLowerOffset(z: number): void {
    const lower = this.entries.get('lower');
    if (!lower) return;
    lower.offset = [0, 0, z];
    if (lower.mesh) this.placeMesh(lower.mesh, lower.offset, 'lower');
  }

  /** engine.setVisible / setOpacity (opacity already clamped). */
  setAppearance(role: ModelRole, patch: { visible?: boolean; opacity?: number }): void {
    const entry = this.entries.get(role);
    if (!entry || (patch.visible !== undefined && entry.view.visible === patch.visible)) return;
    entry.view = { ...entry.view, ...patch };
    this.applyAppearance(entry);
    this.publish();
  }

  /** The models' box as drawn (straightened and offset); the shown ones, or all when none is. */
  bounds(visibleOnly: boolean): { min: Xyz; max: Xyz } | null {
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    let any = false;
    for (const entry of this.entries.values()) {
      if (!entry.info || (visibleOnly && !entry.view.visible)) continue;
      any = true;
      // The box's corners as drawn (straightened and offset).
      const m = modelToWorldMatrix(this.pose, entry.offset, this.biteOf(entry.role));
      const b = entry.info.bounds;
      for (let i = 0; i < 8; i++) {
        const p = transformPoint(m, [i & 1 ? b.max[0] : b.min[0], i & 2 ? b.max[1] : b.min[1], i & 4 ? b.max[2] : b.min[2]]);
        for (let a = 0; a < 3; a++) {
          min[a] = Math.min(min[a]!, p[a]!);
          max[a] = Math.max(max[a]!, p[a]!);
        }
      }
    }
    if (!any && visibleOnly) return this.bounds(false);
    return any ? { min: min as unknown as Xyz, max: max as unknown as Xyz } : null;
  }

  /** Every model released (the engine's dispose; the load was stopped first). */
  dispose(): void {
    for (const role of [...this.entries.keys()]) this.drop(role);
  }
}
