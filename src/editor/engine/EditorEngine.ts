// The editor's 3D engine: a Babylon.js scene, the order's models (kept in the geometry worker
// by handle, drawn from the worker's buffers), the camera and its presets, overlays, picking
// through the worker's BVH, the active tool, the command stack and the design document.
// Framework-free: React reads it through useEditor() (src/editor/useEditor.ts), which
// subscribes to onStateChanged; a headless test builds it on a NullEngine without a canvas.
// This file is the facade: state, the public API and the wiring of the parts (models.ts,
// navigation.ts, overlays.ts, picking.ts, input.ts, viewport.ts) and of the features
// (src/editor/features/<name>/, each built on the one EditorContext of context.ts).
//
// Coordinates: right-handed, z up, millimetres, exactly as in the STL (a left-handed scene would
// mirror the patient's left and right). Models move rigidly in the scene (the straightening, then
// the bite offset: pose.ts); everything a tool stores is in the model's own frame.
//
// Rendering is on demand: a frame is drawn for every change (frames.ts keeps the requests owed
// until a complete frame answers them), while the camera moves and while an animation runs, not
// 60 times a second forever.

import type { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine';
import type { Scene } from '@babylonjs/core/scene';
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import type { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { Plane } from '@babylonjs/core/Maths/math.plane';
import { Observable } from '@babylonjs/core/Misc/observable';
// Side effect: scene.createPickingRay (tools, zoom-to-mouse).
import '@babylonjs/core/Culling/ray';

import { claimGeometryClient, releaseGeometryClient, type MeshHandle } from '../../geometry/client.ts';
import { ActionRegistry } from './actions.ts';
import { EDITOR_ACTIONS, type ActionId } from '../features/actions.ts';
import { CommandStack, snapshotCommand, type Command } from './commands.ts';
import type { DesignDocument, ModelRole } from './document.ts';
import { BaseFeature } from '../features/base/feature.ts';
import { SlotFeature, type SlotPort } from '../features/slots/feature.ts';
import { getSlotClient } from '../../geometry/slotClient.ts';
import { SmoothFeature } from '../features/smooth/feature.ts';
import { CameraHold } from './cameraHold.ts';
import { AnalysisController } from '../features/analysis/feature.ts';
import { DeviceController } from '../device/DeviceController.ts';
import { WireFeature } from '../features/wires/feature.ts';
import { wireKit } from '../features/wires/kit.ts';
import type { EditorContext, EditorGeometry } from './context.ts';
import { takesArrow, type ModelHit, type SurfacePath, type Tool, type ToolContext, type ToolId, type ToolPointerEvent } from './tools/tool.ts';
import { createTool } from '../features/tools.ts';
import { mm } from './units.ts';
import type { ViewPreset } from './views.ts';
import { StraighteningController } from '../features/straighten/feature.ts';
import { modelToWorldMatrix, type Matrix4, type Xyz } from './pose.ts';
import { StlExportController } from '../features/export/stlExport.ts';
import { perfMark, PERF_MARKS } from './openTiming.ts';
import type { ModelSource } from './modelSource.ts';
import { ModelSlots, type EditorError, type ModelInfo } from './models.ts';
import { aimCamera, BITE_OPENING, biteHeight, clipRange, createCamera, createLights, fitCamera, followCamera, type BiteAnimation } from './navigation.ts';
import { Overlays } from './overlays.ts';
import { Picking } from './picking.ts';
import { listenInput } from './input.ts';
import { createRenderEngine, createScene, runFrames } from './viewport.ts';
import { FrameClock, summarize, type FrameStatus } from './frames.ts';
import { initialState, type EditorState, type EngineState } from './state.ts';
import { IDLE_STRAIGHTEN } from '../features/straighten/feature.ts';
import { BiteFeature, placement, serverBite } from '../features/bite/feature.ts';
import { TeethFeature } from '../features/teeth/feature.ts';
import { OrderLifecycle } from '../order/lifecycle.ts';
import { BaseStorage, ModelVersions } from '../order/orderFiles.ts';

export type { EditorError, EditorErrorCode, GeometryPort, LoadStage, MeshBuffers, ModelInfo, ModelView } from './models.ts';
export type { ModelSource } from './modelSource.ts';
export type { EditorState } from './state.ts';
export type { EditorContext, EditorGeometry } from './context.ts';
export { BITE_OPENING } from './navigation.ts';

export interface EditorEngineOptions {
  /** Geometry worker client. Default: the engine starts its own and terminates it on dispose(). */
  geometry?: EditorGeometry;
  /** A ready engine (a NullEngine in headless tests); the canvas may then be null. */
  engine?: AbstractEngine;
  /** Element over the canvas where measurement labels are placed (plain DOM). */
  overlay?: HTMLElement | null;
  /** Slot worker client (features/slots/feature.ts). Default: the page's getSlotClient(), started on the first cut. */
  slots?: SlotPort;
}


export class EditorEngine {
  /** Fires after every state change (immutable snapshots). */
  readonly onStateChanged = new Observable<EditorState>();
  /** Fires when a model is added, replaced or removed. */
  readonly onModelChanged = new Observable<ModelInfo | null>();
  /** The undo stack of every design change. */
  readonly commands = new CommandStack();
  /** Every user action by id: the toolbar, the shortcuts and the tests run them from here. */
  readonly actions: ActionRegistry<EditorEngine, ActionId>;
  /** Automatic and manual straightening of the models (features/straighten/feature.ts). */
  readonly straightening: StraighteningController;
  /** The acrylic base: outline, generation, export (features/base/feature.ts). */
  readonly base: BaseFeature;
  /** The smoothing brush's strokes and "Smooth all" (features/smooth/feature.ts). */
  readonly smoothing: SmoothFeature;
  /** Slots for the wires' tags cut into the base (features/slots/feature.ts). */
  readonly slots: SlotFeature;
  /** Insertion direction and heatmaps (features/analysis/feature.ts). */
  readonly analysis: AnalysisController;
  /** The wires: selection, placing, editing, tubes and live checks (features/wires/feature.ts). */
  readonly wires: WireFeature;
  /** Bending machines: devices, queue, Bend and the simulation (device/DeviceController.ts). */
  readonly devices: DeviceController;
  /** The "Export STL" dialog and the export of bases, wires and models (features/export/stlExport.ts). */
  readonly stlExport: StlExportController;
  /** The registered bite: the server's, re-runs, manual alignment (features/bite/feature.ts). */
  readonly bite: BiteFeature;
  /** The teeth of each jaw: segmentation, the Teeth display and its corrections (features/teeth/feature.ts). */
  readonly teeth: TeethFeature;
  /** The open order's status, submit and reopen (order/lifecycle.ts). */
  readonly order: OrderLifecycle;
  /** The open order's stored denture base (order/orderFiles.ts): stored after every generation by the designer. */
  readonly baseFile: BaseStorage;
  /** The open order's jaw model versions (order/orderFiles.ts): keep the smoothing as a version, restore one. */
  readonly modelVersions: ModelVersions;

  /** The engine's own state; getState() adds the feature stores' parts. */
  private state: EngineState;
  /** The last snapshot getState() made, and the engine state it was made from. */
  private snapshot: { from: EngineState; state: EditorState } | null = null;
  private readonly canvas: HTMLCanvasElement | null;
  private readonly geometry: EditorGeometry;
  private readonly ownsGeometry: boolean;
  private readonly engine: AbstractEngine | null = null;
  private readonly scene: Scene | null = null;
  private readonly camera: ArcRotateCamera | null = null;
  /** The camera held during a tool's drag (cameraHold.ts). */
  private readonly cameraHold: CameraHold | null = null;
  private readonly headlight: DirectionalLight | null = null;
  /** The model slots: loading, meshes, appearance, pose (models.ts). */
  private readonly models: ModelSlots;
  private readonly picking: Picking;
  private readonly overlays: Overlays;
  /** Render requests and the frames that answered them (frames.ts). */
  private readonly frameClock = new FrameClock();
  private readonly cleanups: (() => void)[] = [];
  private disposed = false;
  private tool: Tool | null = null;
  private biteAnimation: BiteAnimation | null = null;

  /** What every feature gets of the engine (context.ts). */
  private readonly context: EditorContext;

  constructor(canvas: HTMLCanvasElement | null, options: EditorEngineOptions = {}) {
    this.canvas = canvas;
    this.ownsGeometry = !options.geometry;
    this.geometry = options.geometry ?? claimGeometryClient();
    this.actions = new ActionRegistry<EditorEngine, ActionId>(this, EDITOR_ACTIONS);
    this.state = initialState();
    this.models = new ModelSlots(
      {
        scene: () => this.scene,
        biteOpen: () => this.state.biteOpen,
        disposed: () => this.disposed,
        requestRender: () => this.requestRender(),
        publish: (patch) => this.setState(patch),
        setLoad: (patch) => this.setState(patch),
        loadingLocal: () => this.state.loading !== null,
        frame: () => {
          this.updateClippingRange();
          this.fitToView();
        },
        installed: (entry) => {
          this.overlays.sync();
          // The saved smoothing first: a base regenerated on reopening must follow the smoothed surface.
          void this.smoothing.replay(entry.role).finally(() => !this.disposed && this.base.sync());
          this.analysis.modelsChanged();
          this.wires.sync();
          void this.teeth.sync();
          this.onModelChanged.notifyObservers(entry.info);
        },
        dropped: (role) => {
          this.smoothing.forget(role);
          // The base hangs on its jaw's mesh, gone with it: made again when the jaw is back.
          this.base.modelDropped(role);
          void this.teeth.sync();
          this.onModelChanged.notifyObservers(null);
        },
        visibilityChanged: (role) => this.overlays.setModelVisible(role),
      },
      this.geometry,
    );
    this.picking = new Picking(
      { scene: () => this.scene, engine: () => this.engine, camera: () => this.camera, clipping: () => this.state.clipping },
      this.models,
      this.geometry,
    );
    this.overlays = new Overlays(
      {
        scene: () => this.scene,
        modelMesh: (role) => this.models.meshOf(role),
        modelVisible: (role) => this.models.get(role)?.view.visible ?? false,
        measurements: () => this.state.document.measurements,
        measurementShown: (id) => {
          const v = this.state.measurementsView;
          return v.shown || v.focused === id || this.tool?.showsMeasurements === true;
        },
        project: (role, p) => this.projectModelPoint(role, p),
        setPreview: (measurePreview) => {
          if (measurePreview !== null || this.state.measurePreview !== null) this.setState({ measurePreview });
        },
        requestRender: () => this.requestRender(),
      },
      options.overlay ?? null,
    );
    this.commands.onChanged.add(() => this.setState({ canUndo: this.commands.canUndo, canRedo: this.commands.canRedo }));
    this.context = this.createContext();
    const ctx = this.context;
    this.straightening = new StraighteningController(ctx);
    // The engine's state shows the status too (the status bar, the tests), and the tool's hint follows it.
    this.straightening.subscribe(() => this.publishTool());
    this.base = new BaseFeature(ctx);
    this.slots = new SlotFeature(ctx, () => options.slots ?? getSlotClient());
    this.smoothing = new SmoothFeature(ctx);
    this.analysis = new AnalysisController(ctx);
    this.base.onChanged.add(() => this.analysis.sync());
    this.wires = new WireFeature(ctx, wireKit(ctx.geometry, ctx));
    // The engine's state shows the selected wire (read from the store): a new selection is a new state.
    let selectedWire = this.wires.selectedId;
    this.wires.subscribe(() => {
      if (this.wires.selectedId === selectedWire) return;
      selectedWire = this.wires.selectedId;
      this.notifyState();
    });
    this.bite = new BiteFeature(ctx, ctx.geometry);
    // The jaws follow the bite shown: the document's, else the server's.
    this.bite.subscribe(() => {
      this.adoptServerBite();
      this.applyBite();
    });
    this.teeth = new TeethFeature(ctx, ctx.geometry, () => this.overlays.element);
    this.wires.setTeethSource((jaw) => this.teeth.crowns(jaw));
    // The tool's hint follows the picked tooth and the mode.
    let teethShown = false;
    this.teeth.subscribe(() => {
      if (this.tool?.id === 'teeth') this.publishTool();
      if (this.teeth.getState().shown === teethShown) return;
      teethShown = this.teeth.getState().shown;
      // The correction tool needs the display.
      if (!teethShown && this.tool?.id === 'teeth') this.setTool(null);
      // Both colour the jaws' vertices: the Teeth display and a heatmap are shown one at a time.
      if (teethShown) this.analysis.setMode('off');
      this.notifyState();
    });
    this.order = new OrderLifecycle({
      document: () => this.state.document,
      checksSettled: () => this.wires.settled(),
      check: (id) => this.wires.check(id),
      change: (label, next) => this.changeDocument(label, next),
      needsSave: () => this.adoptedAt === this.state.revision && this.state.document.bite !== undefined,
    });
    this.baseFile = new BaseStorage(() => this.base.exportAllStl());
    // The designer generated a base: the order's stored base follows (the local one stays whatever happens).
    this.base.onDesignerGenerated.add(() => void this.baseFile.store());
    this.modelVersions = new ModelVersions({
      document: () => this.state.document,
      smoothingSettled: () => this.smoothing.settled(),
      exportJaw: async (jaw) => {
        const handle = this.handleOf(jaw);
        return handle === null ? null : this.geometry.exportStl(handle, `Archwright ${jaw}`);
      },
      loadDocument: (doc) => this.loadDocument(doc),
      reloadJaw: async (jaw, name, source) => {
        // Dropped first, and what hangs on its mesh (measurements, wires) let go, so that it is drawn again on the new one.
        this.models.drop(jaw);
        this.overlays.sync();
        this.wires.sync();
        await this.openModels([{ role: jaw, name, source }]);
      },
      modelsChanged: () => void this.order.refreshStatus(),
    });
    this.stlExport = new StlExportController({
      jawsWithBase: () => (['upper', 'lower'] as const).filter((jaw) => this.state.baseMeshes[jaw] !== null),
      baseStl: (jaw, matrix) => this.base.exportStl(jaw, matrix),
      modelRoles: () => this.state.models.filter((m) => m.status === 'ready').map((m) => m.role),
      modelStl: async (role, matrix) => {
        const handle = this.handleOf(role);
        return handle === null ? null : this.geometry.exportStl(handle, `Archwright ${role}`, matrix);
      },
      wires: () => this.state.document.wires ?? [],
      meshStl: (positions, indices, header, matrix) => {
        if (!this.geometry.meshStl) throw new Error('meshStl is not available');
        return this.geometry.meshStl(positions, indices, header, matrix);
      },
      // As shown straightened with the registered bite; the opened bite's offset is left out.
      matrixOf: (role) => modelToWorldMatrix(this.models.pose, [0, 0, 0], this.models.biteOf(role)),
    });
    this.devices = new DeviceController({
      geometry: ctx.geometry,
      selectedWire: () => {
        const id = this.wires.selectedId;
        return id === null ? null : (this.state.document.wires?.find((w) => w.id === id) ?? null);
      },
    });

    const engine = createRenderEngine(canvas, options.engine);
    if (!engine) {
      this.state = { ...this.state, error: { code: 'WEBGL_UNAVAILABLE' } };
      return;
    }
    this.engine = engine;
    const scene = createScene(engine);
    this.scene = scene;

    const camera = createCamera(scene, canvas);
    this.camera = camera;
    this.cameraHold = new CameraHold(scene, camera);
    this.headlight = createLights(scene);

    scene.onBeforeRenderObservable.add(() => this.beforeRender());
    // Arrow keys orbit the camera, except where the tool uses them (straightening nudges).
    scene.onPreKeyboardObservable.add((info) => {
      if (takesArrow(this.tool, info.event.key)) info.skipOnKeyboardObservable = true;
    });
    scene.onAfterRenderObservable.add(() => this.overlays.placeLabels());
    camera.onViewMatrixChangedObservable.add(() => this.requestRender());
    runFrames(engine, scene, {
      heldUntil: () => this.models.framesHeldUntil,
      clock: this.frameClock,
      summarize: () =>
        summarize(scene, {
          view: this.state.view,
          models: this.state.models.map((m) => ({ role: m.role, mesh: this.models.meshOf(m.role) })),
          heatmap: this.analysis.paintedMode,
          revision: this.state.revision,
        }),
    });

    if (canvas)
      this.cleanups.push(
        ...listenInput(canvas, {
          tool: () => this.tool,
          pointer: (type, e) => this.pointer(type, e),
          actions: this.actions,
          fitToView: () => this.fitToView(),
          requestRender: () => this.requestRender(),
          resize: () => {
            this.engine?.resize();
            this.requestRender();
          },
        }),
      );
    this.state = { ...this.state, viewportReady: true };
    this.requestRender();
    perfMark(PERF_MARKS.engine);
  }

  /** The features' view of the engine: built once, before any feature. */
  private createContext(): EditorContext {
    return {
      geometry: this.geometry,
      document: () => this.state.document,
      change: (label, next) => this.changeDocument(label, next),
      changeWith: (label, next, effect) => this.changeDocumentWith(label, next, effect),
      execute: (command) => this.execute(command),
      state: () => this.getState(),
      share: (patch) => this.setState(patch),
      // The base feature's, reached through the engine when called (the feature is built after the context).
      generatedBase: {
        onGenerated: (listener) => {
          const observer = this.base.onGenerated.add(({ jaw, arrays }) => listener(jaw, arrays));
          return () => this.base.onGenerated.remove(observer);
        },
        settled: () => this.base.settled(),
        handleOf: (jaw) => this.base.generatedHandleOf(jaw),
        replace: (jaw, handle, arrays) => this.base.replaceMesh(jaw, handle, arrays),
        holdExport: (wait) => {
          this.base.beforeExport = wait;
        },
      },
      scene: () => this.scene,
      meshOf: (role) => this.models.get(role)?.mesh ?? null,
      handleOf: (role) => this.handleOf(role),
      modelState: (role) => {
        const v = this.models.get(role)?.view;
        return v ? { status: v.status, ...(v.error ? { errorCode: v.error.code } : {}) } : { status: 'absent' };
      },
      modelVisible: (role) => this.models.get(role)?.view.visible ?? false,
      bounds: () => this.models.bounds(true),
      previewPose: (matrix) => this.setPose(matrix ?? this.state.document.straightening?.matrix ?? null),
      project: (role, p) => this.projectModelPoint(role, p),
      projectMany: (role, points) => this.picking.projectModelPoints(role, points),
      rayAt: (role, x, y) => this.modelRayAt(role, x, y),
      viewAxis: (role) => this.picking.viewAxis(role),
      viewDirection: () => {
        const c = this.camera;
        const v = c ? c.position.subtract(c.target) : null;
        if (!v || v.lengthSquared() === 0) return null;
        const n = v.normalize();
        return [n.x, n.y, n.z];
      },
      fitToView: () => this.fitToView(),
      requestRender: (ms) => this.requestRender(ms),
      track: (work) => this.frameClock.track(work),
    };
  }

  // ---------------------------------------------------------------- state

  /**
   * The state now: the engine's own with the straightening's status and the selected wire read
   * from their stores. The same object until one of them changes (React compares snapshots).
   */
  getState = (): EditorState => {
    // Features built on the context may read the state before the later ones exist.
    const straighten = (this.straightening as StraighteningController | undefined)?.getState() ?? IDLE_STRAIGHTEN;
    const selectedId = (this.wires as WireFeature | undefined)?.selectedId ?? null;
    const teethShown = (this.teeth as TeethFeature | undefined)?.getState().shown ?? false;
    const last = this.snapshot;
    if (last && last.from === this.state && last.state.straighten === straighten && last.state.wires.selectedId === selectedId && last.state.teethShown === teethShown) return last.state;
    const wires = last && last.state.wires.selectedId === selectedId ? last.state.wires : { selectedId };
    this.snapshot = { from: this.state, state: { ...this.state, straighten, wires, teethShown } };
    return this.snapshot.state;
  };

  /** For useSyncExternalStore. */
  subscribe = (listener: () => void): (() => void) => {
    const observer = this.onStateChanged.add(listener);
    return () => this.onStateChanged.remove(observer);
  };

  private setState(patch: Partial<EngineState>): void {
    if (this.disposed) return;
    this.state = { ...this.state, ...patch };
    this.notifyState();
  }

  /** Tells the subscribers of a new state (the engine's or a feature store's part of it). */
  private notifyState(): void {
    if (this.disposed) return;
    this.onStateChanged.notifyObservers(this.getState());
  }

  /** Frames drawn so far (tests, diagnostics). */
  get renderedFrames(): number {
    return this.frameClock.status().frames;
  }

  /** Whether a change is not yet on screen, and what the last complete frame showed. */
  get frameStatus(): FrameStatus {
    return this.frameClock.status();
  }

  /** Fires when a frame is owed and after every frame (the page mirrors it for tests). */
  get onFrame(): FrameClock['onStatus'] {
    return this.frameClock.onStatus;
  }

  // ---------------------------------------------------------------- loading (models.ts)

  /**
   * Opens a local STL file as the upper model (the page without an order). A load in progress is
   * cancelled. Errors land in state.error; this never rejects.
   */
  async openStl(file: Blob, fileName = file instanceof File ? file.name : 'model.stl'): Promise<void> {
    if (!this.scene) return; // no WebGL: state.error already says so
    return this.models.openStl(file, fileName);
  }

  /**
   * Opens the order's models: each source downloads its bytes (with progress), the worker parses
   * and keeps them; each model fails on its own (state.models[].error). Resolves when all are
   * settled, the first frame with them is drawn and their BVHs are built (picking is instant).
   */
  async openModels(sources: { role: ModelRole; name: string; source: ModelSource }[]): Promise<void> {
    if (!this.scene) return;
    return this.models.openModels(sources);
  }

  /** Whether meshes opened by `client` live in this engine's worker (prefetched ones, say). */
  usesGeometry(client: unknown): boolean {
    return this.geometry === client;
  }

  /** Removes every model (and releases it in the worker). */
  clearModels(): void {
    this.models.clear();
  }

  /** A model slot that cannot be loaded (the order has no such file, say): shown with its error. */
  markMissing(role: ModelRole, name: string, error: EditorError): void {
    this.models.markMissing(role, name, error);
  }

  /** Stops the current load, if any: models still loading show "cancelled". */
  cancelLoad(): void {
    this.models.cancelLoad();
  }

  dismissError(): void {
    if (this.state.error && this.state.error.code !== 'WEBGL_UNAVAILABLE') this.setState({ error: null });
  }

  // ---------------------------------------------------------------- models

  /** Draws the models in a pose (the document's, or a drag's preview); null: as in their files. */
  private setPose(matrix: Matrix4 | null): void {
    if (!this.models.setPose(matrix)) return;
    this.tool?.poseChanged?.();
    this.requestRender();
  }

  /** The revision at which the server's bite was written into the document (not saved by itself), or null. */
  private adoptedAt: number | null = null;

  /**
   * The server's registration, for a document without a bite of its own: written into the
   * document without a command (undo never takes it away) and without a new revision (opening an
   * order saves nothing by itself); the next save stores it. Features that map a jaw's points
   * to the canonical frame read the bite from the document (document.ts modelToCanonical).
   */
  private adoptServerBite(): void {
    const doc = this.state.document;
    const bite = doc.bite ? null : serverBite(this.bite.getState().server);
    if (!bite) return;
    this.adoptedAt = this.state.revision;
    this.setState({ document: { ...doc, bite } });
  }

  /** Places the jaws in the bite shown (the document's, else the server's registration). */
  private applyBite(): void {
    const bite = this.bite as BiteFeature | undefined; // the document may be applied before the feature exists
    if (!bite || !this.models.setBites(placement(bite.effective()))) return;
    this.tool?.poseChanged?.();
    this.overlays.sync();
    this.wires.sync();
    this.requestRender();
  }

  /** A model's registered bite transform (model → bite frame) as placed now, or null (tests, diagnostics). */
  modelBite(role: ModelRole): Matrix4 | null {
    return this.models.biteOf(role);
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
    this.models.setAppearance(role, { visible });
  }

  setOpacity(role: ModelRole, opacity: number): void {
    this.models.setAppearance(role, { opacity: Math.min(1, Math.max(0.05, opacity)) });
  }

  /** Opens (lower jaw down by BITE_OPENING) or closes the bite, animated. */
  setBiteOpen(open: boolean): void {
    if (this.state.biteOpen === open) return;
    const lower = this.models.get('lower');
    const from = lower?.offset[2] ?? 0;
    this.biteAnimation = { from, to: open ? -BITE_OPENING : 0, start: performance.now() };
    this.setState({ biteOpen: open });
    this.requestRender();
    if (!this.scene || !lower?.mesh) this.finishBite();
  }

  private finishBite(): void {
    const animation = this.biteAnimation;
    if (!animation) return;
    this.biteAnimation = null;
    this.models.setLowerOffset(animation.to);
  }

  // ---------------------------------------------------------------- camera (navigation.ts)

  /** Frames every visible model: keeps the viewing direction, moves the target and distance. */
  fitToView(): void {
    const camera = this.camera;
    const engine = this.engine;
    const box = this.models.bounds(true);
    if (!camera || !engine || !box) return;
    fitCamera(camera, engine, box);
    this.requestRender();
  }

  /**
   * The viewport changed size because of the page (a dock opened or closed beside it): resize now
   * rather than on the next resize observation, and frame the models in the new shape.
   */
  viewportResized(): void {
    this.engine?.resize();
    this.fitToView();
    this.requestRender();
  }

  /** Looks from a preset direction and frames the models. */
  setView(view: ViewPreset): void {
    const camera = this.camera;
    if (!camera) return;
    aimCamera(camera, view);
    this.fitToView();
    this.setState({ view });
  }

  /** Camera angles (tests, diagnostics). */
  get cameraAngles(): { alpha: number; beta: number; radius: number } | null {
    const c = this.camera;
    return c ? { alpha: c.alpha, beta: c.beta, radius: c.radius } : null;
  }

  /** The point the camera looks at (moved by panning; tests, diagnostics). */
  get cameraTarget(): Xyz | null {
    const c = this.camera;
    return c ? [c.target.x, c.target.y, c.target.z] : null;
  }

  /** A plane across the arch (normal -y): everything in front of `offset` (y < offset) is cut away. */
  setClipping(enabled: boolean, offset: number = this.state.clipping.offset): void {
    const { min, max } = this.state.clipping;
    const clamped = mm(Math.min(max, Math.max(min, offset)));
    if (this.scene) this.scene.clipPlane = enabled ? new Plane(0, -1, 0, clamped) : null;
    this.setState({ clipping: { ...this.state.clipping, enabled, offset: clamped } });
    this.requestRender();
  }

  private updateClippingRange(): void {
    const box = this.models.bounds(false);
    if (!box) return;
    this.setState({ clipping: { ...this.state.clipping, ...clipRange(box) } });
    if (this.state.clipping.enabled) this.setClipping(true);
  }

  // ---------------------------------------------------------------- picking (picking.ts)

  /**
   * The first visible model surface under a canvas pixel (CSS pixels), through the worker's BVH
   * (never Babylon's CPU picking). The clipped-away part of a model is not hit.
   */
  pickAt(x: number, y: number): Promise<ModelHit | null> {
    return this.picking.pickAt(x, y);
  }

  /** Canvas CSS pixel of a point of a model (tests, labels), or null when behind the camera. */
  projectModelPoint(model: ModelRole, p: Xyz): { x: number; y: number } | null {
    return this.picking.projectModelPoint(model, p);
  }

  /** Whether a press at a canvas pixel may be on a model: synchronous, so a press can hold the camera at once. */
  mayHitModel(x: number, y: number): boolean {
    return this.picking.mayHitModel(x, y);
  }

  /** The viewing ray under a canvas pixel in a model's frame (straightening and bite undone), or null. */
  modelRayAt(model: ModelRole, x: number, y: number): { origin: Xyz; direction: Xyz } | null {
    return this.picking.modelRayAt(model, x, y);
  }

  private geodesicOf(model: ModelRole, a: ModelHit['pick'], b: ModelHit['pick']): Promise<SurfacePath | null> {
    return this.picking.geodesic(model, a, b);
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
    this.execute(snapshotCommand(label, this.state.document, next, (doc) => this.applyDocument(doc)));
  }

  /** A document change together with effects outside it (the worker's mesh), undone together. */
  changeDocumentWith(label: string, next: DesignDocument, effect: { do(): void; undo(): void }): void {
    this.execute(snapshotCommand(label, this.state.document, next, (doc) => this.applyDocument(doc), effect));
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
    this.applyBite();
    this.overlays.sync();
    this.base.sync();
    this.slots.sync();
    this.analysis.sync();
    this.wires.sync();
    const teeth = this.teeth as TeethFeature | undefined;
    if (teeth && (doc.heatmap?.mode ?? 'off') !== 'off') void teeth.setShown(false);
    void teeth?.sync();
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
    this.tool?.dispose?.();
    this.tool =
      id === null
        ? null
        : createTool(id, this.toolContext(), {
            smoothing: this.smoothing,
            base: this.base,
            analysis: this.analysis,
            wires: this.wires,
            straightening: this.straightening,
            bite: this.bite,
            teeth: this.teeth,
            cameraHold: () => this.cameraHold,
            mayHitModel: (x, y) => this.mayHitModel(x, y),
            project: (jaw, p) => this.projectModelPoint(jaw, p),
            projectWorld: (p) => this.picking.projectWorldPoint(p),
            bounds: () => this.models.bounds(true),
            setCursor: (cursor) => {
              if (this.canvas) this.canvas.style.cursor = cursor;
            },
          });
    this.publishTool();
  }

  get activeTool(): Tool | null {
    return this.tool;
  }

  private publishTool(): void {
    this.setState({ tool: this.tool?.id ?? null, toolPhase: this.tool?.phase ?? 'idle', toolHint: this.tool?.hint ?? null });
    this.overlays.refresh();
  }

  /** The designer's "Show measurements" toggle: all measurements drawn in every tool. */
  setMeasurementsShown(shown: boolean): void {
    this.setState({ measurementsView: { ...this.state.measurementsView, shown } });
    this.overlays.refresh();
  }

  /** The page's language changed: measurement labels follow its number format. */
  relabelMeasurements(): void {
    this.overlays.relabel();
  }

  /** Ids of the measurements drawn now (tests, diagnostics). */
  shownMeasurements(): string[] {
    return this.overlays.shownIds();
  }

  /** The measurement hovered or focused in the side panel's list (drawn in any tool); null: none. */
  focusMeasurement(id: string | null): void {
    if (this.state.measurementsView.focused === id) return;
    this.setState({ measurementsView: { ...this.state.measurementsView, focused: id } });
    this.overlays.refresh();
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
      showPending: (points) => this.overlays.showPending(points),
      showPreview: (from, to) => this.overlays.showPreview(from, to),
      notify: () => this.publishTool(),
    };
  }

  /** Where measurement labels go (a positioned element over the canvas); null detaches. */
  attachOverlay(element: HTMLElement | null): void {
    this.overlays.attach(element);
    void this.teeth.sync(); // its numbers are labels on that element
  }

  // ---------------------------------------------------------------- frames

  /** A frame is owed (a change, input); `ms` keeps frames coming that long (an animation). */
  requestRender(ms = 0): void {
    this.frameClock.request(ms);
  }

  /** Renders one frame now (tests and screenshots). */
  renderNow(): void {
    this.scene?.render();
  }

  private beforeRender(): void {
    followCamera(this.camera!, this.engine!, this.headlight!);
    const bite = this.biteAnimation;
    if (bite) {
      const { z, done } = biteHeight(bite, performance.now());
      this.models.setLowerOffset(z);
      if (done) this.finishBite();
      else this.requestRender(); // the animation's next frame
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.models.stopLoad();
    for (const fn of this.cleanups.splice(0)) fn();
    this.overlays.dispose();
    this.straightening.dispose();
    this.slots.dispose();
    this.base.dispose();
    this.smoothing.dispose();
    this.cameraHold?.dispose();
    this.analysis.dispose();
    this.wires.dispose();
    this.devices.dispose();
    this.stlExport.dispose();
    this.bite.dispose();
    this.teeth.dispose();
    this.order.clear();
    this.baseFile.clear();
    this.modelVersions.clear();
    this.models.dispose();
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
