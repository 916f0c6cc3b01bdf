// The editor's 3D engine: a Babylon.js scene, the order's models (kept in the geometry worker
// by handle, drawn from the worker's buffers), the camera and its presets, overlays, picking
// through the worker's BVH, the active tool, the command stack and the design document.
// Framework-free: React reads it through useEditor() (src/editor/useEditor.ts), which
// subscribes to onStateChanged; a headless test builds it on a NullEngine without a canvas.
//
// Coordinates: right-handed, z up, millimetres, exactly as in the STL (a left-handed scene would
// mirror the patient's left and right). Models only move by translation (the bite offset);
// everything a tool stores is in the model's own frame (units.ts: ModelPoint).
//
// Rendering is on demand: frames are drawn while the camera moves, after a change, and for a
// short tail after input, not 60 times a second forever.

import { Engine } from '@babylonjs/core/Engines/engine';
import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine';
import { Scene } from '@babylonjs/core/scene';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Material } from '@babylonjs/core/Materials/material';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { CreateLines } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { Matrix, Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Plane } from '@babylonjs/core/Maths/math.plane';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Observable } from '@babylonjs/core/Misc/observable';
// Side effect: scene.createPickingRay (tools, zoom-to-mouse).
import '@babylonjs/core/Culling/ray';

import { claimGeometryClient, GeometryClient, releaseGeometryClient, type MeshHandle, type OpenedMesh, type StlStage, type Vec3 } from '../geometry/client.ts';
import { GeometryError, isAbortError, type GeometryErrorCode } from '../geometry/errors.ts';
import { ActionRegistry, createActions } from './actions.ts';
import { CommandStack, type Command } from './commands.ts';
import { emptyDocument, MODEL_ROLES, type DesignDocument, type Measurement, type ModelRole } from './document.ts';
import { BaseFeature } from './baseFeature.ts';
import { BaseTool } from './tools/base.ts';
import { SlotFeature, type SlotGeometry, type SlotPort } from './slots.ts';
import { getSlotClient } from '../geometry/slot-client.ts';
import { SmoothFeature, type SmoothGeometry } from './smoothing.ts';
import { SmoothTool } from './tools/smooth.ts';
import { CameraHold, rayMeetsBox } from './cameraHold.ts';
import { PickMemory } from './footprint.ts';
import { MeasureTool } from './tools/measure.ts';
import { AnalysisController, type AnalysisGeometry } from './analysis.ts';
import { DeviceController, type DeviceGeometry } from '../device/DeviceController.ts';
import { DirectionTool } from './tools/direction.ts';
import { WireFeature } from './wires/feature.ts';
import { wireKit, type WireKitGeometry } from './wires/kit.ts';
import { WireTool } from './tools/wire.ts';
import type { ModelHit, SurfacePath, Tool, ToolContext, ToolId, ToolPhase, ToolPointerEvent } from './tools/tool.ts';
import { distance, mm, type Millimetres, type Xyz } from './units.ts';
import { presetAngles, type ViewPreset } from './views.ts';
import { IDLE_STRAIGHTEN, StraighteningController, type StraightenStatus } from './straightening.ts';
import { StraightenHandles } from './straightenHandles.ts';
import { StraightenTool } from './tools/straighten.ts';
import { IDENTITY, modelToWorldMatrix, rayToModel, transformPoint, type Matrix4 } from './pose.ts';
import { buildPickingBvhs, perfMark, PERF_MARKS, whenDrawn } from './openTiming.ts';
import { isOpenedMesh, type ModelSource } from './modelSource.ts';

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

export interface EditorState {
  /** False when WebGL could not start: the page shows why. */
  viewportReady: boolean;
  /** The local "Open STL" load in progress. */
  loading: { fileName: string; fraction: number; stage: StlStage } | null;
  error: EditorError | null;
  /** The model opened locally (or the first ready model of an order). */
  model: ModelInfo | null;
  /** Every model slot in use, in role order. */
  models: ModelView[];
  view: ViewPreset | null;
  biteOpen: boolean;
  clipping: { enabled: boolean; offset: Millimetres; min: Millimetres; max: Millimetres };
  tool: ToolId | null;
  toolPhase: ToolPhase;
  toolHint: string | null;
  canUndo: boolean;
  canRedo: boolean;
  document: DesignDocument;
  /** Bumped by every design change (commands and loads): the autosave watches it. */
  revision: number;
  /** The measure tool's rubber band: straight distance to the surface under the cursor. */
  measurePreview: Millimetres | null;
  /** The automatic straightening: running, or why it failed (straightening.ts). */
  straighten: StraightenStatus;
  /** The selected wire (engine.wires, wires/feature.ts). */
  wires: { selectedId: string | null };
}

/** What the engine needs of the geometry worker (GeometryClient, or an in-process stand-in in tests). */
export type GeometryPort = Pick<GeometryClient, 'openStl' | 'release' | 'pick' | 'geodesic' | 'straighten'> & { dispose?(): void };

export interface EditorEngineOptions {
  /** Geometry worker client. Default: the engine starts its own and terminates it on dispose(). */
  geometry?: GeometryPort;
  /** A ready engine (a NullEngine in headless tests); the canvas may then be null. */
  engine?: AbstractEngine;
  /** Element over the canvas where measurement labels are placed (plain DOM). */
  overlay?: HTMLElement | null;
  /** Slot worker client (slots.ts). Default: the page's getSlotClient(), started on the first cut. */
  slots?: SlotPort;
}

/** How far the lower jaw moves down when the bite is opened. */
export const BITE_OPENING: Millimetres = mm(12);
const BITE_ANIMATION_MS = 350;

const COLORS: Record<ModelRole, Color3> = {
  upper: new Color3(0.93, 0.89, 0.8),
  lower: new Color3(0.9, 0.86, 0.78),
  occlusion: new Color3(0.62, 0.76, 0.9),
};
const MEASURE_COLOR = new Color3(0.05, 0.45, 0.95);
const STRAIGHT_COLOR = new Color3(0.95, 0.45, 0.1);
const PENDING_COLOR = new Color3(0.95, 0.2, 0.35);
const BACKGROUND = new Color4(0.925, 0.933, 0.945, 1);
/** Pan and rotation inertia: low, so that the model stops where it is let go. */
const INERTIA = 0.6;
/** How long rendering continues after the last input or change, ms. */
const RENDER_TAIL_MS = 600;
/** How long a model opened with others waits for them before it is drawn alone. */
const MODEL_WAIT_MS = 1500;

interface ModelEntry {
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

function isEditableTarget(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

function errorOf(e: unknown, fileName: string): EditorError {
  const code: GeometryErrorCode = e instanceof GeometryError ? e.code : 'WORKER_FAILED';
  const error: EditorError = { code, fileName };
  if (e instanceof GeometryError && e.line !== undefined) error.line = e.line;
  if (e instanceof GeometryError && e.status !== undefined) error.status = e.status;
  if (!(e instanceof GeometryError)) console.error('Loading a model failed', e);
  return error;
}

export type { ModelSource } from './modelSource.ts';

export class EditorEngine {
  /** Fires after every state change (immutable snapshots). */
  readonly onStateChanged = new Observable<EditorState>();
  /** Fires when a model is added, replaced or removed. */
  readonly onModelChanged = new Observable<ModelInfo | null>();
  /** The undo stack of every design change. */
  readonly commands = new CommandStack();
  /** Every user action by id: the toolbar, the shortcuts and the tests run them from here. */
  readonly actions: ActionRegistry;
  /** Automatic and manual straightening of the models (straightening.ts). */
  readonly straightening: StraighteningController;
  /** The acrylic base: outline, generation, export (baseFeature.ts). */
  readonly base: BaseFeature;
  /** The smoothing brush's strokes and "Smooth all" (smoothing.ts). */
  readonly smoothing: SmoothFeature;
  /** Slots for the wires' tags cut into the base (slots.ts). */
  readonly slots: SlotFeature;
  /** Insertion direction and heatmaps (analysis.ts). */
  readonly analysis: AnalysisController;
  /** The wires: selection, placing, editing, tubes and live checks (wires/feature.ts). */
  readonly wires: WireFeature;
  /** Bending machines: devices, queue, Bend and the simulation (device/DeviceController.ts). */
  readonly devices: DeviceController;

  private state: EditorState;
  private readonly canvas: HTMLCanvasElement | null;
  private overlay: HTMLElement | null;
  private readonly geometry: GeometryPort;
  private readonly ownsGeometry: boolean;
  private readonly engine: AbstractEngine | null = null;
  private readonly scene: Scene | null = null;
  private readonly camera: ArcRotateCamera | null = null;
  /** The camera held during a tool's drag (cameraHold.ts). */
  private readonly cameraHold: CameraHold | null = null;
  /** The last pick's answer, for a press at the same pixel in the same view (footprint.ts). */
  private readonly lastPick = new PickMemory();
  private readonly headlight: DirectionalLight | null = null;
  private readonly models = new Map<ModelRole, ModelEntry>();
  private loadAbort: AbortController | null = null;
  private renderUntil = 0;
  /**
   * While an order's models load, no frame is drawn (until then): a frame of the first model
   * alone, not yet framed, would take a software renderer about a second of the CPU the other
   * model's parse needs. One model waits at most MODEL_WAIT_MS for the others.
   */
  private framesHeldUntil = 0;
  /** Size of the last frame drawn with an empty scene ('' after a frame with meshes). */
  private emptyFrame = '';
  private frames = 0;
  private readonly cleanups: (() => void)[] = [];
  private disposed = false;
  private tool: Tool | null = null;
  private biteAnimation: { from: number; to: number; start: number } | null = null;
  private readonly overlayNodes = new Map<string, { node: TransformNode; label: HTMLElement | null; anchor: Vector3; model: ModelRole }>();
  private pendingNode: TransformNode | null = null;
  private previewNode: Mesh | null = null;
  private previewLabel: HTMLElement | null = null;
  private previewAnchor: { model: ModelRole; point: Xyz } | null = null;
  /** The models' pose as drawn (the document's straightening, or a drag's preview); null: none. */
  private pose: Matrix4 | null = null;
  private straightenHandles: StraightenHandles | null = null;

  constructor(canvas: HTMLCanvasElement | null, options: EditorEngineOptions = {}) {
    this.canvas = canvas;
    this.overlay = options.overlay ?? null;
    this.ownsGeometry = !options.geometry;
    this.geometry = options.geometry ?? claimGeometryClient();
    this.actions = createActions(this);
    this.state = {
      viewportReady: false,
      loading: null,
      error: null,
      model: null,
      models: [],
      view: 'front',
      biteOpen: false,
      clipping: { enabled: false, offset: mm(0), min: mm(-50), max: mm(50) },
      tool: null,
      toolPhase: 'idle',
      toolHint: null,
      canUndo: false,
      canRedo: false,
      document: emptyDocument(),
      revision: 0,
      measurePreview: null,
      straighten: IDLE_STRAIGHTEN,
      wires: { selectedId: null },
    };
    this.commands.onChanged.add(() => this.setState({ canUndo: this.commands.canUndo, canRedo: this.commands.canRedo }));
    this.straightening = new StraighteningController({
      document: () => this.state.document,
      change: (label, next) => this.changeDocument(label, next),
      handleOf: (role) => (this.models.get(role)?.view.status === 'ready' ? this.handleOf(role) : null),
      straighten: (handle, jaw, opts) => this.geometry.straighten(handle, jaw, opts),
      previewPose: (matrix) => this.setPose(matrix ?? this.state.document.straightening?.matrix ?? null),
      bounds: () => this.sceneBounds(true),
      fitToView: () => this.fitToView(),
      setStatus: (straighten) => {
        this.setState({ straighten });
        this.publishTool();
      },
    });
    this.base = new BaseFeature(
      {
        scene: () => this.scene,
        modelMesh: (jaw) => this.models.get(jaw)?.mesh ?? null,
        handleOf: (jaw) => this.handleOf(jaw),
        modelState: (jaw) => {
          const v = this.models.get(jaw)?.view;
          return v ? { status: v.status, ...(v.error ? { errorCode: v.error.code } : {}) } : { status: 'absent' };
        },
        document: () => this.state.document,
        change: (label, next) => this.changeDocument(label, next),
        requestRender: () => this.requestRender(),
      },
      this.geometry as Partial<import('./baseFeature.ts').BaseGeometry>,
    );
    this.slots = new SlotFeature(
      {
        document: () => this.state.document,
        change: (label, next) => this.changeDocument(label, next),
        selectedWireId: () => (this as { wires?: { selectedId?: string | null } }).wires?.selectedId ?? null,
      },
      this.base,
      this.geometry as Partial<SlotGeometry>,
      () => options.slots ?? getSlotClient(),
    );
    this.smoothing = new SmoothFeature(
      {
        scene: () => this.scene,
        modelMesh: (role) => this.models.get(role)?.mesh ?? null,
        handleOf: (role) => this.handleOf(role),
        document: () => this.state.document,
        changeWith: (label, next, effect) => this.changeDocumentWith(label, next, effect),
        requestRender: () => this.requestRender(),
      },
      this.geometry as Partial<SmoothGeometry>,
    );
    this.analysis = new AnalysisController({
      geometry: this.geometry as unknown as AnalysisGeometry,
      handleOf: (jaw) => this.handleOf(jaw),
      meshOf: (jaw) => this.models.get(jaw)?.mesh ?? null,
      base: () => {
        const handle = this.base.handle;
        const jaw = this.state.document.base?.jaw;
        if (handle === null || !jaw) return null;
        const parent = this.models.get(jaw)?.mesh ?? null;
        const mesh = (this.scene?.meshes.find((m) => m.name === 'base' && m.parent === parent) as Mesh | undefined) ?? null;
        return { handle, mesh, jaw };
      },
      document: () => this.state.document,
      change: (label, next) => this.changeDocument(label, next),
      viewDirection: () => {
        const c = this.camera;
        const v = c ? c.position.subtract(c.target) : null;
        return v && v.lengthSquared() > 0 ? (v.normalize().asArray() as unknown as Xyz) : null;
      },
      requestRender: () => this.requestRender(),
    });
    this.base.onChanged.add(() => this.analysis.sync());
    this.wires = new WireFeature(
      {
        scene: () => this.scene,
        modelMesh: (jaw) => this.models.get(jaw)?.mesh ?? null,
        modelVisible: (jaw) => this.models.get(jaw)?.view.visible ?? false,
        document: () => this.state.document,
        change: (label, next) => this.changeDocument(label, next),
        project: (jaw, p) => this.projectModelPoint(jaw, p),
        rayAt: (jaw, x, y) => this.modelRayAt(jaw, x, y),
        viewAxis: (jaw) => {
          const { camera } = this;
          const entry = this.models.get(jaw);
          if (!camera || !entry) return null;
          const p = camera.position, d = camera.target.subtract(camera.position);
          return rayToModel(this.pose, entry.offset, [p.x, p.y, p.z], [d.x, d.y, d.z]).direction;
        },
        selectionChanged: (selectedId) => this.setState({ wires: { selectedId } }),
        requestRender: () => this.requestRender(),
      },
      this.geometry as unknown as WireKitGeometry,
      wireKit(this.geometry as unknown as WireKitGeometry, { handleOf: (jaw) => this.handleOf(jaw), document: () => this.state.document }),
    );
    this.wires.subscribe(() => this.tool?.id === 'wire' && this.publishTool());
    this.devices = new DeviceController({
      geometry: this.geometry as unknown as DeviceGeometry,
      // engine.wires (helper "wire") owns the selection.
      selectedWire: () => (this as unknown as { wires?: { selected(): import('./document.ts').WireDesign | null } }).wires?.selected() ?? null,
    });

    let engine: AbstractEngine;
    try {
      if (options.engine) engine = options.engine;
      else if (canvas)
        engine = new Engine(
          canvas,
          true,
          { preserveDrawingBuffer: true, stencil: false, antialias: true, powerPreference: 'high-performance', doNotHandleContextLost: false },
          true,
        );
      else throw new Error('no canvas');
    } catch {
      this.state = { ...this.state, error: { code: 'WEBGL_UNAVAILABLE' } };
      return;
    }
    this.engine = engine;
    const scene = new Scene(engine);
    scene.useRightHandedSystem = true;
    scene.clearColor = BACKGROUND;
    // Picking goes through the worker's BVH: Babylon's CPU picking would walk big meshes.
    scene.skipPointerMovePicking = true;
    scene.skipPointerDownPicking = true;
    scene.skipPointerUpPicking = true;
    this.scene = scene;

    const angles = presetAngles('front');
    const camera = new ArcRotateCamera('camera', angles.alpha, angles.beta - 0.3, 100, Vector3.Zero(), scene);
    camera.upVector = new Vector3(0, 0, 1);
    camera.inertia = INERTIA;
    camera.panningInertia = INERTIA;
    camera.wheelDeltaPercentage = 0.04; // wheel zoom proportional to the distance (about 10 % a notch)
    camera.zoomToMouseLocation = true;
    camera.useInputToRestoreState = false;
    camera.lowerBetaLimit = null;
    camera.upperBetaLimit = null;
    camera.minZ = 0.1;
    camera.maxZ = 10000;
    if (canvas) {
      // Pan: right button and ctrl+left are Babylon's defaults; shift+left too.
      camera.movement.input.addEntry({ source: 'pointer', button: 0, modifiers: { shift: true }, interaction: 'pan' });
      camera.attachControl(); // and preventDefault: the wheel must not scroll the page
    }
    this.camera = camera;
    this.cameraHold = new CameraHold(scene, camera);

    const sky = new HemisphericLight('sky', new Vector3(0, 0, 1), scene);
    sky.intensity = 0.45;
    sky.diffuse = new Color3(1, 1, 1);
    sky.groundColor = new Color3(0.45, 0.45, 0.5);
    sky.specular = Color3.Black();
    const headlight = new DirectionalLight('headlight', new Vector3(0, 1, 0), scene);
    headlight.intensity = 0.6;
    headlight.specular = new Color3(0.5, 0.5, 0.5);
    this.headlight = headlight;

    scene.onBeforeRenderObservable.add(() => this.beforeRender());
    // Arrow keys orbit the camera, except where the tool uses them (straightening nudges).
    scene.onPreKeyboardObservable.add((info) => {
      if (this.toolTakesArrows(info.event.key)) info.skipOnKeyboardObservable = true;
    });
    scene.onAfterRenderObservable.add(() => this.placeLabels());
    camera.onViewMatrixChangedObservable.add(() => this.requestRender());
    engine.runRenderLoop(() => {
      if (performance.now() < this.framesHeldUntil) return;
      if (!(performance.now() < this.renderUntil || !scene.isReady())) return;
      // Nothing in the scene yet (the models downloading): one frame of background per canvas size
      // is enough. More would spend, with a software renderer, the CPU the downloads and the
      // worker need (browser bench: about a second later on screen with 30 such frames).
      const empty = scene.meshes.length === 0 ? `${engine.getRenderWidth()}x${engine.getRenderHeight()}` : '';
      if (empty && empty === this.emptyFrame) return;
      this.emptyFrame = empty;
      scene.render();
      this.frames++;
    });

    if (canvas) this.listen(canvas);
    this.state = { ...this.state, viewportReady: true };
    this.requestRender();
    perfMark(PERF_MARKS.engine);
  }

  // ---------------------------------------------------------------- state

  getState = (): EditorState => this.state;

  /** For useSyncExternalStore. */
  subscribe = (listener: () => void): (() => void) => {
    const observer = this.onStateChanged.add(listener);
    return () => this.onStateChanged.remove(observer);
  };

  private setState(patch: Partial<EditorState>): void {
    if (this.disposed) return;
    this.state = { ...this.state, ...patch };
    this.onStateChanged.notifyObservers(this.state);
  }

  private publishModels(): void {
    const models = MODEL_ROLES.flatMap((role) => {
      const entry = this.models.get(role);
      return entry ? [{ ...entry.view }] : [];
    });
    const first = MODEL_ROLES.map((r) => this.models.get(r)?.info).find(Boolean) ?? null;
    this.setState({ models, model: first });
  }

  /** Frames drawn so far (tests, diagnostics). */
  get renderedFrames(): number {
    return this.frames;
  }

  // ---------------------------------------------------------------- loading

  /**
   * Opens a local STL file as the upper model (the page without an order). A load in progress is
   * cancelled. Errors land in state.error; this never rejects.
   */
  async openStl(file: Blob, fileName = file instanceof File ? file.name : 'model.stl'): Promise<void> {
    if (!this.scene) return; // no WebGL: state.error already says so
    this.loadAbort?.abort();
    const abort = new AbortController();
    this.loadAbort = abort;
    this.setState({ loading: { fileName, fraction: 0, stage: 'read' }, error: null });
    try {
      // Into the upper slot only once parsed: a file that fails leaves the model on screen.
      const mesh = await this.geometry.openStl(file, {
        signal: abort.signal,
        onProgress: (fraction, stage) => {
          if (!abort.signal.aborted) this.setState({ loading: { fileName, fraction, stage } });
        },
      });
      if (abort.signal.aborted || this.disposed) {
        void this.geometry.release(mesh.handle).catch(() => {});
        return;
      }
      this.dropModel('upper');
      const entry = this.entry('upper', fileName, {});
      this.models.set('upper', entry);
      this.installMesh(entry, mesh);
      this.updateClippingRange();
      this.fitToView();
      // state.model (and the page's data-model-triangles) means "on screen":
      // wait until the shaders are ready and a frame with the model is drawn.
      await this.whenRendered();
      if (abort.signal.aborted || this.disposed) return;
      this.setState({ loading: null, error: null });
      this.publishModels();
    } catch (e) {
      if (abort.signal.aborted || this.disposed) return;
      if (isAbortError(e)) {
        this.setState({ loading: null });
        return;
      }
      this.setState({ loading: null, error: errorOf(e, fileName) });
    } finally {
      if (this.loadAbort === abort) this.loadAbort = null;
    }
  }

  /**
   * Opens the order's models: each source downloads its bytes (with progress), the worker parses
   * and keeps them; each model fails on its own (state.models[].error). Resolves when all are
   * settled, the first frame with them is drawn and their BVHs are built (picking is instant).
   */
  async openModels(sources: { role: ModelRole; name: string; source: ModelSource }[]): Promise<void> {
    if (!this.scene) return;
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
          this.loadModel(role, name, source, abort.signal).then(() => {
            this.framesHeldUntil = Math.min(this.framesHeldUntil, performance.now() + MODEL_WAIT_MS);
          }),
        ),
      );
    } finally {
      if (this.loadAbort === abort || this.loadAbort === null) this.framesHeldUntil = 0; // not a newer opening's hold
    }
    if (abort.signal.aborted || this.disposed) return;
    this.updateClippingRange();
    this.fitToView();
    // The worker builds the BVHs (instant picking) once the first frame is drawn (openTiming.ts).
    const handles = [...this.models.values()].flatMap((e) => (e.handle !== null && e.view.status === 'ready' ? [e.handle] : []));
    await whenDrawn(this.scene, () => this.requestRender());
    const picking = buildPickingBvhs(this.geometry as Parameters<typeof buildPickingBvhs>[0], handles, abort.signal);
    this.publishModels();
    perfMark(PERF_MARKS.shown);
    if ((await picking) && !this.disposed) perfMark(PERF_MARKS.interactive);
    if (this.loadAbort === abort) this.loadAbort = null;
  }

  /** Whether meshes opened by `client` live in this engine's worker (prefetched ones, say). */
  usesGeometry(client: unknown): boolean {
    return this.geometry === client;
  }

  /** Removes every model (and releases it in the worker). */
  clearModels(): void {
    this.loadAbort?.abort();
    this.loadAbort = null;
    this.framesHeldUntil = 0;
    for (const role of [...this.models.keys()]) this.dropModel(role);
    this.publishModels();
  }

  /** A model slot that cannot be loaded (the order has no such file, say): shown with its error. */
  markMissing(role: ModelRole, name: string, error: EditorError): void {
    this.dropModel(role);
    this.models.set(role, this.entry(role, name, { status: 'error', error }));
    this.publishModels();
  }

  private entry(role: ModelRole, name: string, view: Partial<ModelView>): ModelEntry {
    return {
      role,
      name,
      handle: null,
      mesh: null,
      material: null,
      info: null,
      offset: [0, 0, this.state.biteOpen && role === 'lower' ? -BITE_OPENING : 0],
      view: { role, name, status: 'loading', progress: null, error: null, triangles: 0, vertices: 0, visible: true, opacity: role === 'occlusion' ? 0.5 : 1, ...view },
    };
  }

  private async loadModel(
    role: ModelRole,
    name: string,
    source: ModelSource,
    signal: AbortSignal,
    onStage?: (stage: LoadStage, fraction: number) => void,
  ): Promise<void> {
    this.dropModel(role);
    const entry = this.entry(role, name, { progress: { stage: 'download', fraction: 0 } });
    this.models.set(role, entry);
    this.publishModels();
    let lastPublish = 0;
    const progress = (stage: LoadStage, fraction: number): void => {
      if (signal.aborted || this.models.get(role) !== entry) return;
      entry.view = { ...entry.view, progress: { stage, fraction } };
      onStage?.(stage, fraction);
      const now = performance.now();
      if (now - lastPublish > 50 || fraction >= 1) {
        lastPublish = now;
        this.publishModels();
      }
    };
    try {
      const got = await source(signal, (f, stage = 'download') => progress(stage, f));
      const mesh = isOpenedMesh(got) ? got : await this.geometry.openStl(got, { signal, onProgress: (f, stage) => progress(stage, f) });
      if (signal.aborted || this.disposed || this.models.get(role) !== entry) {
        void this.geometry.release(mesh.handle).catch(() => {});
        return;
      }
      perfMark(`editor:parsed:${role}`);
      this.installMesh(entry, mesh);
      perfMark(`editor:built:${role}`);
    } catch (e) {
      if (signal.aborted || this.disposed || this.models.get(role) !== entry) return;
      let error: EditorError;
      if (isAbortError(e)) error = { code: 'ABORTED', fileName: name };
      else error = errorOf(e, name);
      entry.view = { ...entry.view, status: 'error', progress: null, error };
    }
    this.publishModels();
  }

  private installMesh(entry: ModelEntry, mesh: OpenedMesh): void {
    entry.handle = mesh.handle;
    entry.info = { id: entry.role, name: entry.name, triangles: mesh.triangleCount, vertices: mesh.vertexCount, bounds: mesh.bounds };
    this.buildMesh(entry, mesh);
    entry.view = { ...entry.view, status: 'ready', progress: null, triangles: mesh.triangleCount, vertices: mesh.vertexCount };
    this.syncOverlays();
    // The saved smoothing first: a base regenerated on reopening must follow the smoothed surface.
    void this.smoothing.replay(entry.role).finally(() => !this.disposed && this.base.sync());
    this.analysis.modelsChanged();
    this.wires.sync();
    this.onModelChanged.notifyObservers(entry.info);
  }

  /** Resolves after the scene is ready and one more frame is drawn (at most ~10 s). */
  private whenRendered(): Promise<void> {
    const scene = this.scene;
    if (!scene) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      scene.executeWhenReady(() => {
        scene.onAfterRenderObservable.addOnce(() => {
          clearTimeout(timer);
          resolve();
        });
        this.requestRender();
      });
    });
  }

  /** Stops the current load, if any: models still loading show "cancelled". */
  cancelLoad(): void {
    if (!this.loadAbort) return;
    this.loadAbort.abort();
    this.loadAbort = null;
    for (const entry of this.models.values()) {
      if (entry.view.status === 'loading') entry.view = { ...entry.view, status: 'error', progress: null, error: { code: 'ABORTED', fileName: entry.name } };
    }
    if (this.state.loading) {
      // A cancelled local file replaces the one on screen (as an empty view): what is shown
      // is never a model the designer has already moved away from.
      this.dropModel('upper');
      this.setState({ loading: null });
    }
    this.publishModels();
  }

  dismissError(): void {
    if (this.state.error && this.state.error.code !== 'WEBGL_UNAVAILABLE') this.setState({ error: null });
  }

  // ---------------------------------------------------------------- models

  private buildMesh(entry: ModelEntry, buffers: MeshBuffers): void {
    const scene = this.scene;
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
    this.placeMesh(mesh, entry.offset);
    entry.mesh = mesh;
    entry.material = material;
    this.applyAppearance(entry);
    scene.executeWhenReady(() => this.requestRender());
    this.requestRender();
  }

  private applyAppearance(entry: ModelEntry): void {
    const { mesh, material } = entry;
    if (!mesh || !material) return;
    mesh.setEnabled(entry.view.visible);
    material.alpha = entry.view.opacity;
    // Transparent models write depth first, so that they show their own front surface only.
    material.needDepthPrePass = entry.view.opacity < 1;
    material.transparencyMode = entry.view.opacity < 1 ? Material.MATERIAL_ALPHABLEND : Material.MATERIAL_OPAQUE;
    for (const o of this.overlayNodes.values()) if (o.model === entry.role) o.node.setEnabled(entry.view.visible);
    this.requestRender();
  }

  private dropModel(role: ModelRole): void {
    const entry = this.models.get(role);
    if (!entry) return;
    entry.mesh?.dispose();
    entry.material?.dispose();
    this.smoothing.forget(role);
    if (entry.handle !== null) void this.geometry.release(entry.handle).catch(() => {});
    this.models.delete(role);
    this.onModelChanged.notifyObservers(null);
    this.requestRender();
  }

  /** Places a model's mesh: the straightening, then the bite offset (overlays are its children). */
  private placeMesh(mesh: Mesh, offset: Xyz): void {
    const world = Matrix.FromArray(modelToWorldMatrix(this.pose, offset));
    const rotation = new Quaternion();
    const position = new Vector3();
    world.decompose(undefined, rotation, position);
    mesh.rotationQuaternion = rotation;
    mesh.position.copyFrom(position);
  }

  /** Draws the models in a pose (the document's, or a drag's preview); null: as in their files. */
  private setPose(matrix: Matrix4 | null): void {
    const same = (a: Matrix4 = IDENTITY, b: Matrix4 = IDENTITY): boolean => Array.from(a).every((v, i) => v === b[i]);
    if (same(matrix ?? undefined, this.pose ?? undefined)) return;
    this.pose = matrix;
    for (const entry of this.models.values()) if (entry.mesh) this.placeMesh(entry.mesh, entry.offset);
    if (this.tool instanceof StraightenTool) this.tool.refresh();
    this.requestRender();
  }

  /** What the straightening tool needs: handles drawn in the scene, projection, a still camera. */
  private straightenToolHost(): import('./tools/straighten.ts').StraightenToolHost {
    return {
      controller: this.straightening,
      layout: () => {
        const box = this.sceneBounds(true);
        if (!box) return null;
        const center: Xyz = [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2, (box.min[2] + box.max[2]) / 2];
        return { center, radius: 0.3 * Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]) };
      },
      project: (p) => {
        const { scene, engine, camera } = this;
        if (!scene || !engine || !camera) return null;
        const scale = engine.getHardwareScalingLevel();
        const viewport = camera.viewport.toGlobal(engine.getRenderWidth() * scale, engine.getRenderHeight() * scale);
        const at = Vector3.Project(Vector3.FromArray(p), Matrix.Identity(), scene.getTransformMatrix(), viewport);
        return at.z < 0 || at.z > 1 ? null : { x: at.x, y: at.y };
      },
      showHandles: (layout, hot) => {
        if (!this.scene) return;
        this.straightenHandles ??= new StraightenHandles(this.scene);
        this.straightenHandles.show(layout, hot);
        this.requestRender();
      },
      holdCamera: (on) => (on ? this.cameraHold?.hold() : this.cameraHold?.release()),
    };
  }

  /** Translation of a model in the scene (the bite), [0, 0, 0] when absent. */
  modelOffset(role: ModelRole): Xyz {
    const offset = this.models.get(role)?.offset;
    return offset ? [offset[0], offset[1], offset[2]] : [0, 0, 0];
  }

  /** The worker's handle of a loaded model (for tools of later work), or null. */
  handleOf(role: ModelRole): MeshHandle | null {
    return this.models.get(role)?.handle ?? null;
  }

  setVisible(role: ModelRole, visible: boolean): void {
    const entry = this.models.get(role);
    if (!entry || entry.view.visible === visible) return;
    entry.view = { ...entry.view, visible };
    this.applyAppearance(entry);
    this.publishModels();
  }

  setOpacity(role: ModelRole, opacity: number): void {
    const entry = this.models.get(role);
    if (!entry) return;
    entry.view = { ...entry.view, opacity: Math.min(1, Math.max(0.05, opacity)) };
    this.applyAppearance(entry);
    this.publishModels();
  }

  /** Opens (lower jaw down by BITE_OPENING) or closes the bite, animated. */
  setBiteOpen(open: boolean): void {
    if (this.state.biteOpen === open) return;
    const lower = this.models.get('lower');
    const from = lower?.offset[2] ?? 0;
    this.biteAnimation = { from, to: open ? -BITE_OPENING : 0, start: performance.now() };
    this.setState({ biteOpen: open });
    this.requestRender(BITE_ANIMATION_MS + RENDER_TAIL_MS);
    if (!this.scene || !lower?.mesh) this.finishBite();
  }

  private finishBite(): void {
    const animation = this.biteAnimation;
    if (!animation) return;
    this.biteAnimation = null;
    this.setLowerOffset(animation.to);
  }

  private setLowerOffset(z: number): void {
    const lower = this.models.get('lower');
    if (!lower) return;
    lower.offset = [0, 0, z];
    if (lower.mesh) this.placeMesh(lower.mesh, lower.offset);
  }

  // ---------------------------------------------------------------- camera

  /** Frames every visible model: keeps the viewing direction, moves the target and distance. */
  fitToView(): void {
    const camera = this.camera;
    const engine = this.engine;
    const box = this.sceneBounds(true);
    if (!camera || !engine || !box) return;
    const { min, max } = box;
    const center = new Vector3((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2);
    const radius = Math.max(1e-3, Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2);
    const aspect = engine.getAspectRatio(camera) || 1;
    const tanY = Math.tan(camera.fov / 2);
    const tanX = tanY * aspect;

    // Distance at which all eight box corners fit, seen from the current direction.
    const toCamera = camera.position.subtract(camera.target);
    let distance = radius / Math.sin(Math.atan(Math.min(tanX, tanY))); // bounding sphere: fallback
    if (toCamera.lengthSquared() > 0) {
      const back = toCamera.normalize();
      const right = Vector3.Cross(camera.upVector, back);
      if (right.lengthSquared() > 1e-12) {
        right.normalize();
        const up = Vector3.Cross(back, right);
        distance = 0;
        for (let i = 0; i < 8; i++) {
          const corner = new Vector3(i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]).subtractInPlace(center);
          const depth = Vector3.Dot(corner, back);
          distance = Math.max(distance, Math.abs(Vector3.Dot(corner, right)) / tanX + depth, Math.abs(Vector3.Dot(corner, up)) / tanY + depth);
        }
      }
    }
    distance = Math.max(distance * 1.08, radius * 0.2);

    camera.inertialAlphaOffset = 0;
    camera.inertialBetaOffset = 0;
    camera.inertialRadiusOffset = 0;
    camera.inertialPanningX = 0;
    camera.inertialPanningY = 0;
    // Keep alpha/beta: without cloneAlphaBetaRadius Babylon re-aims from the old position, and the
    // distance computed above (for the current direction) would frame the model off-centre.
    camera.setTarget(center, false, true, true);
    camera.lowerRadiusLimit = radius * 0.05;
    camera.upperRadiusLimit = radius * 30;
    camera.radius = distance;
    camera.minZ = radius * 0.01;
    camera.maxZ = radius * 200;
    this.requestRender();
  }

  /** Looks from a preset direction and frames the models. */
  setView(view: ViewPreset): void {
    const camera = this.camera;
    if (!camera) return;
    const { alpha, beta } = presetAngles(view);
    camera.alpha = alpha;
    camera.beta = beta;
    // The camera's position follows alpha/beta only when its view matrix is rebuilt; the fit
    // below measures from that position, so rebuild it now.
    camera.getViewMatrix(true);
    this.fitToView();
    this.setState({ view });
  }

  /** Camera angles (tests, diagnostics). */
  get cameraAngles(): { alpha: number; beta: number; radius: number } | null {
    const c = this.camera;
    return c ? { alpha: c.alpha, beta: c.beta, radius: c.radius } : null;
  }

  private sceneBounds(visibleOnly: boolean): { min: Xyz; max: Xyz } | null {
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    let any = false;
    for (const entry of this.models.values()) {
      if (!entry.info || (visibleOnly && !entry.view.visible)) continue;
      any = true;
      // The box's corners as drawn (straightened and offset).
      const m = modelToWorldMatrix(this.pose, entry.offset);
      const b = entry.info.bounds;
      for (let i = 0; i < 8; i++) {
        const p = transformPoint(m, [i & 1 ? b.max[0] : b.min[0], i & 2 ? b.max[1] : b.min[1], i & 4 ? b.max[2] : b.min[2]]);
        for (let a = 0; a < 3; a++) {
          min[a] = Math.min(min[a]!, p[a]!);
          max[a] = Math.max(max[a]!, p[a]!);
        }
      }
    }
    if (!any && visibleOnly) return this.sceneBounds(false);
    return any ? { min: min as unknown as Xyz, max: max as unknown as Xyz } : null;
  }

  // ---------------------------------------------------------------- clipping

  /** A plane across the arch (normal -y): everything in front of `offset` (y < offset) is cut away. */
  setClipping(enabled: boolean, offset: number = this.state.clipping.offset): void {
    const { min, max } = this.state.clipping;
    const clamped = mm(Math.min(max, Math.max(min, offset)));
    if (this.scene) this.scene.clipPlane = enabled ? new Plane(0, -1, 0, clamped) : null;
    this.setState({ clipping: { ...this.state.clipping, enabled, offset: clamped } });
    this.requestRender();
  }

  private updateClippingRange(): void {
    const box = this.sceneBounds(false);
    if (!box) return;
    const min = mm(Math.floor(box.min[1]));
    const max = mm(Math.ceil(box.max[1]));
    this.setState({ clipping: { ...this.state.clipping, min, max, offset: mm(Math.round((min + max) / 2)) } });
    if (this.state.clipping.enabled) this.setClipping(true);
  }

  // ---------------------------------------------------------------- picking

  /**
   * The first visible model surface under a canvas pixel (CSS pixels), through the worker's BVH
   * (never Babylon's CPU picking). The clipped-away part of a model is not hit.
   */
  async pickAt(x: number, y: number): Promise<ModelHit | null> {
    const scene = this.scene;
    const camera = this.camera;
    if (!scene || !camera) return null;
    const ray = scene.createPickingRay(x, y, Matrix.Identity(), camera);
    const view = this.viewKey();
    const clip = this.state.clipping;
    let best: (ModelHit & { t: number }) | null = null;
    const picks = [...this.models.values()]
      .filter((e) => e.handle !== null && e.view.visible && e.view.status === 'ready')
      .map(async (e) => {
        // The ray in the model's frame (straightening and bite undone; rigid, so t is unchanged).
        const { origin, direction: dir } = rayToModel(this.pose, e.offset, [ray.origin.x, ray.origin.y, ray.origin.z], [ray.direction.x, ray.direction.y, ray.direction.z]);
        const range: { tMin?: number; tMax?: number } = {};
        if (clip.enabled) {
          // The ray's part with y < offset is cut away (world y).
          const y0 = ray.origin.y;
          const dy = ray.direction.y;
          if (y0 < clip.offset) {
            if (dy <= 0) return;
            range.tMin = (clip.offset - y0) / dy;
          } else if (dy < 0) {
            range.tMax = (clip.offset - y0) / dy;
          }
        }
        try {
          const hit = await this.geometry.pick(e.handle!, origin as Vec3, dir as Vec3, range);
          if (hit && (!best || hit.t < best.t)) {
            best = { t: hit.t, model: e.role, pick: { point: [...hit.point] as unknown as ModelHit['pick']['point'], triangle: hit.triangle } };
          }
        } catch (err) {
          console.error('Picking failed', err);
        }
      });
    await Promise.all(picks);
    const found = best as (ModelHit & { t: number }) | null;
    this.lastPick.note(x, y, view, found !== null);
    return found ? { model: found.model, pick: found.pick } : null;
  }

  /** What a pick at a pixel depends on besides the pixel: camera, canvas size, models' poses and visibility, clipping. */
  private viewKey(): string {
    const c = this.camera;
    const models = [...this.models.values()].map((e) => `${e.role}:${e.handle}:${e.view.visible}:${e.view.status}:${e.offset}`);
    const { enabled, offset } = this.state.clipping;
    return c && this.engine ? [c.alpha, c.beta, c.radius, c.target, c.fov, this.engine.getRenderWidth(), this.engine.getRenderHeight(), this.pose, enabled && offset, ...models].join('|') : '';
  }

  /** Canvas CSS pixel of a point of a model (tests, labels), or null when behind the camera. */
  projectModelPoint(model: ModelRole, p: Xyz): { x: number; y: number } | null {
    const scene = this.scene;
    const engine = this.engine;
    const camera = this.camera;
    const entry = this.models.get(model);
    if (!scene || !engine || !camera || !entry) return null;
    const world = Vector3.FromArray(transformPoint(modelToWorldMatrix(this.pose, entry.offset), p));
    const scale = engine.getHardwareScalingLevel();
    const width = engine.getRenderWidth() * scale;
    const height = engine.getRenderHeight() * scale;
    const projected = Vector3.Project(world, Matrix.Identity(), scene.getTransformMatrix(), camera.viewport.toGlobal(width, height));
    if (projected.z < 0 || projected.z > 1) return null;
    return { x: projected.x, y: projected.y };
  }

  /**
   * Whether a press at a canvas pixel may be on a model, synchronous and cheap so that a press
   * can hold the camera before the worker's pick answers: the last pick's answer when it was at
   * this pixel in this view, else whether the pixel's ray meets a shown model's box (grown by
   * 1 mm: a brush may have pushed the surface out a little; a slab test per model).
   */
  mayHitModel(x: number, y: number): boolean {
    // The hover's pick at this pixel in this view knows exactly (the brush picks while hovering).
    const known = this.lastPick.answer(x, y, this.viewKey());
    if (known !== null) return known;
    for (const e of this.models.values()) {
      if (!e.info || !e.view.visible || e.view.status !== 'ready') continue;
      const ray = this.modelRayAt(e.role, x, y);
      if (ray && rayMeetsBox(ray, e.info.bounds, 1)) return true;
    }
    return false;
  }

  /** The viewing ray under a canvas pixel in a model's frame (straightening and bite undone), or null. */
  modelRayAt(model: ModelRole, x: number, y: number): { origin: Xyz; direction: Xyz } | null {
    const { scene, camera } = this;
    const entry = this.models.get(model);
    if (!scene || !camera || !entry) return null;
    const ray = scene.createPickingRay(x, y, Matrix.Identity(), camera);
    return rayToModel(this.pose, entry.offset, [ray.origin.x, ray.origin.y, ray.origin.z], [ray.direction.x, ray.direction.y, ray.direction.z]);
  }

  private async geodesicOf(model: ModelRole, a: ModelHit['pick'], b: ModelHit['pick']): Promise<SurfacePath | null> {
    const handle = this.handleOf(model);
    if (handle === null) return null;
    try {
      const result = await this.geometry.geodesic(
        handle,
        { triangle: a.triangle, point: [...a.point] as Vec3 },
        { triangle: b.triangle, point: [...b.point] as Vec3 },
      );
      return { length: mm(result.length), straight: mm(result.straight), path: result.path };
    } catch (err) {
      console.error('Geodesic distance failed', err);
      return null;
    }
  }

  // ---------------------------------------------------------------- design document and commands

  get document(): DesignDocument {
    return this.state.document;
  }

  /** Runs a command on the undo stack. */
  execute(command: Command): void {
    this.commands.execute(command);
  }

  /** An undoable change of the design document (before/after snapshots: documents are small). */
  changeDocument(label: string, next: DesignDocument): void {
    const before = this.state.document;
    this.execute({
      label,
      do: () => this.applyDocument(next),
      undo: () => this.applyDocument(before),
    });
  }

  /** A document change together with effects outside it (the worker's mesh), undone together. */
  changeDocumentWith(label: string, next: DesignDocument, effect: { do(): void; undo(): void }): void {
    const before = this.state.document;
    this.execute({
      label,
      do: () => {
        effect.do();
        this.applyDocument(next);
      },
      undo: () => {
        effect.undo();
        this.applyDocument(before);
      },
    });
  }

  /** Replaces the document without a command (a saved document opened): the history starts over. */
  loadDocument(doc: DesignDocument): void {
    this.tool?.cancel();
    this.applyDocument(doc);
    this.commands.clear();
  }

  private applyDocument(doc: DesignDocument): void {
    this.setState({ document: doc, revision: this.state.revision + 1 });
    this.setPose(doc.straightening?.matrix ?? null);
    this.syncOverlays();
    this.base.sync();
    this.slots.sync();
    this.analysis.sync();
    this.wires.sync();
  }

  undo(): void {
    this.tool?.cancel();
    this.commands.undo();
  }

  redo(): void {
    this.tool?.cancel();
    this.commands.redo();
  }

  removeMeasurement(id: string): void {
    const doc = this.state.document;
    if (!doc.measurements.some((m) => m.id === id)) return;
    this.changeDocument('measure.delete', { ...doc, measurements: doc.measurements.filter((m) => m.id !== id) });
  }

  // ---------------------------------------------------------------- tools

  setTool(id: ToolId | null): void {
    if (this.tool?.id === id) return;
    this.tool?.cancel();
    if (this.tool instanceof StraightenTool) this.tool.dispose();
    if (id === 'straighten') {
      this.tool = new StraightenTool(this.toolContext(), this.straightenToolHost());
      return this.publishTool();
    }
    this.tool =
      id === 'measure'
        ? new MeasureTool(this.toolContext())
        : id === 'smooth'
          ? new SmoothTool(this.toolContext(), {
              feature: this.smoothing,
              mayHitModel: (x, y) => this.mayHitModel(x, y),
              camera: { hold: () => this.cameraHold?.hold(), release: (resume) => this.cameraHold?.release(resume) },
            })
          : id === 'base'
          ? new BaseTool(this.toolContext(), { project: (jaw, p) => this.projectModelPoint(jaw, p) })
          : id === 'direction'
            ? new DirectionTool(this.toolContext(), this.analysis)
            : id === 'wire'
              ? new WireTool(this.toolContext(), {
                  feature: this.wires,
                  holdCamera: (on) => (on ? this.cameraHold?.hold() : this.cameraHold?.release()),
                  setCursor: (cursor) => this.canvas && (this.canvas.style.cursor = cursor),
                })
              : null;
    this.publishTool();
  }

  get activeTool(): Tool | null {
    return this.tool;
  }

  private publishTool(): void {
    this.setState({ tool: this.tool?.id ?? null, toolPhase: this.tool?.phase ?? 'idle', toolHint: this.tool?.hint ?? null });
  }

  /** Feeds a pointer event to the active tool (the canvas does this; headless tests call it). */
  async pointer(type: 'down' | 'move' | 'up', e: ToolPointerEvent): Promise<void> {
    const tool = this.tool;
    if (!tool) return;
    if (type === 'down') tool.pointerDown(e);
    else if (type === 'move') tool.pointerMove(e);
    else await tool.pointerUp(e);
  }

  private toolContext(): ToolContext {
    return {
      pickAt: (x, y) => this.pickAt(x, y),
      geodesic: (model, a, b) => this.geodesicOf(model, a, b),
      document: () => this.state.document,
      execute: (command) => this.execute(command),
      change: (label, next) => this.changeDocument(label, next),
      showPending: (points) => this.showPending(points),
      showPreview: (from, to) => this.showPreview(from, to),
      notify: () => this.publishTool(),
    };
  }

  // ---------------------------------------------------------------- overlays

  private showPending(points: ModelHit[]): void {
    this.pendingNode?.dispose();
    this.pendingNode = null;
    const scene = this.scene;
    if (!scene || points.length === 0) return this.requestRender();
    const node = new TransformNode('pending', scene);
    for (const hit of points) {
      const parent = this.models.get(hit.model)?.mesh;
      const dot = this.marker(`pending-dot`, PENDING_COLOR, hit.pick.point);
      dot.parent = parent ?? node;
      dot.metadata = { pending: node };
      node.onDisposeObservable.add(() => dot.dispose());
    }
    this.pendingNode = node;
    this.requestRender();
  }

  private showPreview(from: ModelHit | null, to: ModelHit | null): void {
    this.previewNode?.dispose();
    this.previewNode = null;
    const scene = this.scene;
    const parent = from ? this.models.get(from.model)?.mesh : null;
    if (!from || !to || !scene || !parent) {
      if (this.previewLabel) this.previewLabel.style.display = 'none';
      if (this.state.measurePreview !== null) this.setState({ measurePreview: null });
      this.requestRender();
      return;
    }
    const line = CreateLines('measure-preview', { points: [toVector(from.pick.point), toVector(to.pick.point)] }, scene);
    line.color = PENDING_COLOR;
    line.renderingGroupId = 1;
    line.isPickable = false;
    line.parent = parent;
    this.previewNode = line;
    const length = distance(from.pick.point, to.pick.point);
    if (this.overlay && typeof document !== 'undefined') {
      if (!this.previewLabel) {
        this.previewLabel = document.createElement('div');
        this.previewLabel.dataset.testid = 'measure-preview';
        Object.assign(this.previewLabel.style, LABEL_STYLE, { borderColor: 'rgb(242, 51, 89)' });
        this.overlay.appendChild(this.previewLabel);
      }
      this.previewLabel.textContent = formatMm(length);
      this.previewAnchor = { model: from.model, point: to.pick.point };
    }
    this.setState({ measurePreview: mm(Math.round(length * 1000) / 1000) });
    this.requestRender();
  }

  private marker(name: string, color: Color3, p: Xyz): Mesh {
    const scene = this.scene!;
    const radius = 0.35;
    const dot = CreateSphere(name, { diameter: radius * 2, segments: 8 }, scene);
    const material = new StandardMaterial(`${name}-material`, scene);
    material.emissiveColor = color;
    material.diffuseColor = Color3.Black();
    material.specularColor = Color3.Black();
    material.disableLighting = true;
    dot.material = material;
    dot.onDisposeObservable.add(() => material.dispose());
    dot.position.set(p[0], p[1], p[2]);
    dot.isPickable = false;
    dot.renderingGroupId = 1;
    return dot;
  }

  /** Makes the scene's measurement overlays match the document (by id). */
  private syncOverlays(): void {
    const scene = this.scene;
    const wanted = new Map<string, Measurement>();
    for (const m of this.state.document.measurements) if (this.models.get(m.model)?.mesh) wanted.set(m.id, m);
    for (const [id, o] of this.overlayNodes) {
      if (!wanted.has(id)) {
        o.node.dispose();
        o.label?.remove();
        this.overlayNodes.delete(id);
      }
    }
    if (!scene) return;
    for (const m of wanted.values()) {
      if (this.overlayNodes.has(m.id)) continue;
      const entry = this.models.get(m.model)!;
      const node = new TransformNode(`measure-${m.id}`, scene);
      node.parent = entry.mesh;
      const points: Vector3[] = [];
      for (let i = 0; i + 2 < m.path.length; i += 3) points.push(new Vector3(m.path[i], m.path[i + 1], m.path[i + 2]));
      if (points.length >= 2) {
        const path = CreateLines(`measure-path-${m.id}`, { points }, scene);
        path.color = MEASURE_COLOR;
        path.renderingGroupId = 1;
        path.isPickable = false;
        path.parent = node;
      }
      const straight = CreateLines(`measure-line-${m.id}`, { points: [toVector(m.a.point), toVector(m.b.point)] }, scene);
      straight.color = STRAIGHT_COLOR;
      straight.alpha = 0.8;
      straight.renderingGroupId = 1;
      straight.isPickable = false;
      straight.parent = node;
      this.marker(`measure-a-${m.id}`, MEASURE_COLOR, m.a.point).parent = node;
      this.marker(`measure-b-${m.id}`, MEASURE_COLOR, m.b.point).parent = node;
      node.setEnabled(entry.view.visible);
      const mid = points[Math.floor(points.length / 2)] ?? toVector(m.a.point).add(toVector(m.b.point)).scale(0.5);
      let label: HTMLElement | null = null;
      if (this.overlay && typeof document !== 'undefined') {
        label = document.createElement('div');
        label.className = 'editor-measure-label';
        Object.assign(label.style, LABEL_STYLE);
        label.dataset.testid = 'measure-label';
        label.dataset.measurement = m.id;
        label.textContent = `${formatMm(m.straight)} · ⌒ ${m.geodesic === null ? '–' : formatMm(m.geodesic)}`;
        this.overlay.appendChild(label);
      }
      this.overlayNodes.set(m.id, { node, label, anchor: mid, model: m.model });
    }
    this.requestRender();
  }

  /** Where measurement labels go (a positioned element over the canvas); null detaches. */
  attachOverlay(element: HTMLElement | null): void {
    if (this.overlay === element) return;
    for (const o of this.overlayNodes.values()) {
      o.node.dispose();
      o.label?.remove();
    }
    this.overlayNodes.clear();
    this.previewLabel?.remove();
    this.previewLabel = null;
    this.overlay = element;
    this.syncOverlays();
  }

  private placeLabels(): void {
    if (this.previewLabel && this.previewNode && this.previewAnchor) {
      const at = this.projectModelPoint(this.previewAnchor.model, this.previewAnchor.point);
      this.previewLabel.style.display = at ? '' : 'none';
      if (at) this.previewLabel.style.transform = `translate(${Math.round(at.x)}px, ${Math.round(at.y)}px) translate(12px, -50%)`;
    }
    for (const o of this.overlayNodes.values()) {
      if (!o.label) continue;
      const entry = this.models.get(o.model);
      const at = entry?.view.visible ? this.projectModelPoint(o.model, [o.anchor.x, o.anchor.y, o.anchor.z]) : null;
      if (!at) {
        o.label.style.display = 'none';
        continue;
      }
      o.label.style.display = '';
      o.label.style.transform = `translate(${Math.round(at.x)}px, ${Math.round(at.y)}px) translate(-50%, -130%)`;
    }
  }

  // ---------------------------------------------------------------- frames and input

  /** Draws frames for a while (after a change, or during input). */
  requestRender(ms = RENDER_TAIL_MS): void {
    this.renderUntil = Math.max(this.renderUntil, performance.now() + ms);
  }

  /** Renders one frame now (tests and screenshots). */
  renderNow(): void {
    this.scene?.render();
  }

  private beforeRender(): void {
    const camera = this.camera!;
    // Headlight: light comes from the viewer, slightly from above.
    const dir = camera.target.subtract(camera.position);
    const len = dir.length();
    if (len > 0) {
      dir.scaleInPlace(1 / len);
      const up = camera.upVector;
      this.headlight!.direction = new Vector3(dir.x - up.x * 0.25, dir.y - up.y * 0.25, dir.z - up.z * 0.25);
    }
    // Pan speed follows the zoom: a pixel of drag moves the model about a pixel.
    const height = this.engine!.getRenderHeight(true) || 1;
    const worldPerPixel = (2 * camera.radius * Math.tan(camera.fov / 2)) / height;
    camera.panningSensibility = 1 / ((1 - INERTIA) * worldPerPixel);

    const bite = this.biteAnimation;
    if (bite) {
      const k = Math.min(1, (performance.now() - bite.start) / BITE_ANIMATION_MS);
      const eased = k * k * (3 - 2 * k);
      this.setLowerOffset(bite.from + (bite.to - bite.from) * eased);
      if (k >= 1) this.finishBite();
    }
  }

  /** The straightening tool nudges with the arrow keys (tools/straighten.ts). */
  private toolTakesArrows(key: string): boolean {
    return this.tool?.id === 'straighten' && key.startsWith('Arrow');
  }

  private listen(canvas: HTMLCanvasElement): void {
    const on = <K extends keyof HTMLElementEventMap>(type: K, fn: (e: HTMLElementEventMap[K]) => void): void => {
      canvas.addEventListener(type, fn);
      this.cleanups.push(() => canvas.removeEventListener(type, fn));
    };
    const wake = (): void => this.requestRender();
    const local = (e: PointerEvent): ToolPointerEvent => {
      const rect = canvas.getBoundingClientRect();
      return { x: e.clientX - rect.left, y: e.clientY - rect.top, button: e.button, buttons: e.buttons, shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, altKey: e.altKey };
    };
    on('pointerdown', (e) => {
      wake();
      void this.pointer('down', local(e));
    });
    on('pointerup', (e) => {
      wake();
      void this.pointer('up', local(e));
    });
    on('pointerleave', () => this.tool?.pointerLeave?.());
    on('wheel', wake);
    on('keydown', wake);
    on('pointermove', (e) => {
      if (e.buttons !== 0) this.requestRender();
      if (this.tool) void this.pointer('move', local(e));
    });
    on('dblclick', () => this.tool?.id !== 'base' && this.tool?.id !== 'wire' && this.fitToView()); // the base tool closes its outline, the wire tool inserts a corner
    on('contextmenu', (e) => e.preventDefault());

    const onKey = (e: KeyboardEvent): void => {
      if (isEditableTarget(e.target)) return;
      if ((e.key === 'Escape' || this.tool?.id === 'base' || this.tool?.id === 'wire' || this.toolTakesArrows(e.key)) && this.tool?.key(e.key, e)) {
        e.preventDefault();
        return;
      }
      const action = this.actions.match(e);
      if (!action || !this.actions.enabled(action.id)) return;
      e.preventDefault();
      this.actions.run(action.id);
    };
    window.addEventListener('keydown', onKey);
    this.cleanups.push(() => window.removeEventListener('keydown', onKey));

    const resize = new ResizeObserver(() => {
      this.engine?.resize();
      this.requestRender();
    });
    resize.observe(canvas);
    this.cleanups.push(() => resize.disconnect());
  }

  dispose(): void {
    if (this.disposed) return;
    this.loadAbort?.abort();
    this.loadAbort = null;
    for (const fn of this.cleanups.splice(0)) fn();
    for (const o of this.overlayNodes.values()) o.label?.remove();
    this.overlayNodes.clear();
    this.previewLabel?.remove();
    this.straightening.cancel();
    this.straightenHandles?.dispose();
    this.slots.dispose();
    this.base.dispose();
    this.smoothing.dispose();
    this.cameraHold?.dispose();
    this.analysis.dispose();
    this.wires.dispose();
    this.devices.dispose();
    for (const role of [...this.models.keys()]) this.dropModel(role);
    this.disposed = true;
    if (this.ownsGeometry) {
      this.geometry.dispose?.();
      releaseGeometryClient(this.geometry);
    }
    this.engine?.stopRenderLoop();
    this.scene?.dispose();
    this.engine?.dispose();
    this.onStateChanged.clear();
    this.onModelChanged.clear();
    this.commands.onChanged.clear();
  }
}

const LABEL_STYLE: Partial<CSSStyleDeclaration> = {
  position: 'absolute',
  left: '0',
  top: '0',
  padding: '2px 6px',
  borderRadius: '4px',
  background: 'rgba(255, 255, 255, 0.95)',
  border: '1px solid rgb(13, 115, 242)',
  color: 'rgb(15, 23, 42)',
  font: '500 12px/1.4 system-ui, sans-serif',
  whiteSpace: 'nowrap',
  boxShadow: '0 1px 3px rgba(0, 0, 0, 0.2)',
  fontVariantNumeric: 'tabular-nums',
};

function toVector(p: Xyz): Vector3 {
  return new Vector3(p[0], p[1], p[2]);
}

function formatMm(v: number): string {
  return `${v.toFixed(2)} mm`;
}
