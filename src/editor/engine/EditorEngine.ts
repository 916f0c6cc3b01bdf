// The editor's 3D engine: a Babylon.js scene in a canvas, plus the state of
// the model being loaded or shown. Framework-free: React reads it through
// useEditor() (src/editor/useEditor.ts), which subscribes to onStateChanged.
//
// Coordinates: right-handed, z up, millimetres, exactly as in the STL (a
// left-handed scene would mirror the patient's left and right).
//
// Rendering is on demand: frames are drawn while the camera moves, after a
// change, and for a short tail after input, not 60 times a second forever.

import { Engine } from '@babylonjs/core/Engines/engine';
import { Scene } from '@babylonjs/core/scene';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Material } from '@babylonjs/core/Materials/material';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { Observable } from '@babylonjs/core/Misc/observable';
// Side effect: scene.createPickingRay, used by the camera's zoom-to-mouse.
import '@babylonjs/core/Culling/ray';

import { GeometryClient, type StlStage, type Vec3 } from '../geometry/client.ts';
import { GeometryError, isAbortError, type GeometryErrorCode } from '../geometry/errors.ts';

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

export type EditorErrorCode = GeometryErrorCode | 'WEBGL_UNAVAILABLE';

export interface EditorError {
  code: EditorErrorCode;
  fileName?: string;
  /** ASCII STL: line of the syntax error. */
  line?: number;
}

export interface EditorState {
  /** False when WebGL could not start: the page shows why. */
  viewportReady: boolean;
  loading: { fileName: string; fraction: number; stage: StlStage } | null;
  error: EditorError | null;
  /** The model on screen. */
  model: ModelInfo | null;
}

export interface EditorEngineOptions {
  /** Shared geometry worker client. Default: the engine starts its own and terminates it on dispose(). */
  geometry?: GeometryClient;
}

const MODEL_ID = 'model';
const IVORY = new Color3(0.93, 0.89, 0.8);
const BACKGROUND = new Color4(0.925, 0.933, 0.945, 1);
/** Pan and rotation inertia: low, so that the model stops where it is let go. */
const INERTIA = 0.6;
/** How long rendering continues after the last input or change, ms. */
const RENDER_TAIL_MS = 600;

function isEditableTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

export class EditorEngine {
  /** Fires after every state change (immutable snapshots). */
  readonly onStateChanged = new Observable<EditorState>();
  /** Fires when a model is added, replaced or removed. */
  readonly onModelChanged = new Observable<ModelInfo | null>();

  private state: EditorState = { viewportReady: false, loading: null, error: null, model: null };
  private readonly canvas: HTMLCanvasElement;
  private readonly geometry: GeometryClient;
  private readonly ownsGeometry: boolean;
  private readonly engine: Engine | null = null;
  private readonly scene: Scene | null = null;
  private readonly camera: ArcRotateCamera | null = null;
  private readonly headlight: DirectionalLight | null = null;
  private readonly material: StandardMaterial | null = null;
  private readonly meshes = new Map<string, { mesh: Mesh; info: ModelInfo }>();
  private loadAbort: AbortController | null = null;
  private renderUntil = 0;
  private frames = 0;
  private readonly cleanups: (() => void)[] = [];
  private disposed = false;

  constructor(canvas: HTMLCanvasElement, options: EditorEngineOptions = {}) {
    this.canvas = canvas;
    this.geometry = options.geometry ?? new GeometryClient();
    this.ownsGeometry = !options.geometry;
    try {
      const engine = new Engine(
        canvas,
        true,
        { preserveDrawingBuffer: true, stencil: false, antialias: true, powerPreference: 'high-performance', doNotHandleContextLost: false },
        true,
      );
      this.engine = engine;
    } catch {
      this.state = { ...this.state, error: { code: 'WEBGL_UNAVAILABLE' } };
      return;
    }
    const engine = this.engine;
    const scene = new Scene(engine);
    scene.useRightHandedSystem = true;
    scene.clearColor = BACKGROUND;
    scene.skipPointerMovePicking = true; // no picking yet; large meshes make it costly
    this.scene = scene;

    // The dentist's frontal view: from the patient's front (-y, where scans put the incisors), a
    // little above the occlusal plane (z up), so upper and lower models both show their teeth.
    const camera = new ArcRotateCamera('camera', Math.PI / 2, Math.PI * 0.45, 100, Vector3.Zero(), scene);
    camera.upVector = new Vector3(0, 0, 1);
    camera.inertia = INERTIA;
    camera.panningInertia = INERTIA;
    camera.wheelDeltaPercentage = 0.04; // wheel zoom proportional to the distance (about 10 % a notch)
    camera.zoomToMouseLocation = true;
    camera.useInputToRestoreState = false;
    camera.minZ = 0.1;
    camera.maxZ = 10000;
    // Pan: right button and ctrl+left are Babylon's defaults; shift+left too.
    camera.movement.input.addEntry({ source: 'pointer', button: 0, modifiers: { shift: true }, interaction: 'pan' });
    camera.attachControl(); // and preventDefault: the wheel must not scroll the page
    this.camera = camera;

    const sky = new HemisphericLight('sky', new Vector3(0, 0, 1), scene);
    sky.intensity = 0.45;
    sky.diffuse = new Color3(1, 1, 1);
    sky.groundColor = new Color3(0.45, 0.45, 0.5);
    sky.specular = Color3.Black();
    const headlight = new DirectionalLight('headlight', new Vector3(0, 1, 0), scene);
    headlight.intensity = 0.6;
    headlight.specular = new Color3(0.5, 0.5, 0.5);
    this.headlight = headlight;

    const material = new StandardMaterial('dental', scene);
    material.diffuseColor = IVORY;
    material.specularColor = new Color3(0.22, 0.22, 0.2);
    material.specularPower = 40;
    material.backFaceCulling = false; // scans are open surfaces: their inside shows
    material.twoSidedLighting = true;
    this.material = material;

    scene.onBeforeRenderObservable.add(() => this.beforeRender());
    camera.onViewMatrixChangedObservable.add(() => this.requestRender());
    engine.runRenderLoop(() => {
      if (performance.now() < this.renderUntil || !scene.isReady()) {
        scene.render();
        this.frames++;
      }
    });

    this.listen();
    this.state = { ...this.state, viewportReady: true };
    this.requestRender();
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

  /** Frames drawn so far (tests, diagnostics). */
  get renderedFrames(): number {
    return this.frames;
  }

  // ---------------------------------------------------------------- loading

  /**
   * Reads and parses an STL file in the geometry worker and shows it. A load
   * in progress is cancelled. Errors land in state.error; this never rejects.
   */
  async openStl(file: Blob, fileName = file instanceof File ? file.name : 'model.stl'): Promise<void> {
    if (!this.scene) return; // no WebGL: state.error already says so
    this.loadAbort?.abort();
    const abort = new AbortController();
    this.loadAbort = abort;
    this.setState({ loading: { fileName, fraction: 0, stage: 'read' }, error: null });
    try {
      const mesh = await this.geometry.loadStl(file, {
        signal: abort.signal,
        onProgress: (fraction, stage) => {
          if (!abort.signal.aborted) this.setState({ loading: { fileName, fraction, stage } });
        },
      });
      if (abort.signal.aborted || this.disposed) return;
      const info = this.setModel(MODEL_ID, mesh, { name: fileName, bounds: mesh.bounds });
      this.fitToView();
      // state.model (and the page's data-model-triangles) means "on screen":
      // wait until the shaders are ready and a frame with the model is drawn.
      await this.whenRendered();
      if (abort.signal.aborted || this.disposed) return;
      this.setState({ loading: null, error: null, model: info });
    } catch (e) {
      if (abort.signal.aborted || this.disposed) return;
      if (isAbortError(e)) {
        this.setState({ loading: null });
        return;
      }
      const code: GeometryErrorCode = e instanceof GeometryError ? e.code : 'WORKER_FAILED';
      const error: EditorError = { code, fileName };
      if (e instanceof GeometryError && e.line !== undefined) error.line = e.line;
      if (!(e instanceof GeometryError)) console.error('Loading the STL file failed', e);
      this.setState({ loading: null, error });
    } finally {
      if (this.loadAbort === abort) this.loadAbort = null;
    }
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

  /** Stops the current load, if any. */
  cancelLoad(): void {
    if (!this.loadAbort) return;
    this.loadAbort.abort();
    this.loadAbort = null;
    this.setState({ loading: null });
  }

  dismissError(): void {
    if (this.state.error && this.state.error.code !== 'WEBGL_UNAVAILABLE') this.setState({ error: null });
  }

  // ---------------------------------------------------------------- scene

  /**
   * Shows a mesh under `id`, replacing one with the same id. The arrays are
   * handed to the GPU as they are (no copy); do not modify them afterwards.
   */
  setModel(id: string, buffers: MeshBuffers, meta: { name?: string; bounds?: { min: Vec3; max: Vec3 } } = {}): ModelInfo {
    const bounds = meta.bounds ?? computeBounds(buffers.positions);
    const info: ModelInfo = {
      id,
      name: meta.name ?? id,
      triangles: buffers.indices.length / 3,
      vertices: buffers.positions.length / 3,
      bounds,
    };
    if (this.scene && this.material) {
      this.meshes.get(id)?.mesh.dispose();
      const mesh = new Mesh(id, this.scene);
      // STL triangles are counter-clockwise seen from outside; Babylon's
      // right-handed default is clockwise, which would light the inside.
      mesh.sideOrientation = Material.CounterClockWiseSideOrientation;
      const data = new VertexData();
      data.positions = buffers.positions;
      data.normals = buffers.normals;
      data.indices = buffers.indices;
      data.applyToMesh(mesh, false);
      mesh.material = this.material;
      mesh.isPickable = false;
      mesh.freezeWorldMatrix();
      mesh.doNotSyncBoundingInfo = true;
      this.meshes.set(id, { mesh, info });
      this.scene.executeWhenReady(() => this.requestRender());
    }
    this.onModelChanged.notifyObservers(info);
    this.requestRender();
    return info;
  }

  removeModel(id: string): void {
    const entry = this.meshes.get(id);
    if (!entry) return;
    entry.mesh.dispose();
    this.meshes.delete(id);
    if (this.state.model?.id === id) this.setState({ model: null });
    this.onModelChanged.notifyObservers(null);
    this.requestRender();
  }

  /** Frames every model: keeps the viewing direction, moves the target and distance. */
  fitToView(): void {
    const camera = this.camera;
    const engine = this.engine;
    if (!camera || !engine || this.meshes.size === 0) return;
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (const { info } of this.meshes.values()) {
      for (let a = 0; a < 3; a++) {
        min[a] = Math.min(min[a]!, info.bounds.min[a]!);
        max[a] = Math.max(max[a]!, info.bounds.max[a]!);
      }
    }
    const center = new Vector3((min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, (min[2]! + max[2]!) / 2);
    const radius = Math.max(1e-3, Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!) / 2);
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
          const corner = new Vector3(i & 1 ? max[0]! : min[0]!, i & 2 ? max[1]! : min[1]!, i & 4 ? max[2]! : min[2]!).subtractInPlace(center);
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
  }

  private listen(): void {
    const canvas = this.canvas;
    const on = <K extends keyof HTMLElementEventMap>(type: K, fn: (e: HTMLElementEventMap[K]) => void): void => {
      canvas.addEventListener(type, fn);
      this.cleanups.push(() => canvas.removeEventListener(type, fn));
    };
    const wake = (): void => this.requestRender();
    on('pointerdown', wake);
    on('pointerup', wake);
    on('wheel', wake);
    on('keydown', wake);
    on('pointermove', (e) => {
      if (e.buttons !== 0) this.requestRender();
    });
    on('dblclick', () => this.fitToView());
    on('contextmenu', (e) => e.preventDefault());

    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'f' && e.key !== 'F') return;
      if (e.ctrlKey || e.metaKey || e.altKey || isEditableTarget(e.target)) return;
      this.fitToView();
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
    this.disposed = true;
    if (this.ownsGeometry) this.geometry.dispose();
    this.engine?.stopRenderLoop();
    this.scene?.dispose();
    this.engine?.dispose();
    this.meshes.clear();
    this.onStateChanged.clear();
    this.onModelChanged.clear();
  }
}

function computeBounds(positions: Float32Array): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const v = positions[i + a]!;
      if (v < min[a]!) min[a] = v;
      if (v > max[a]!) max[a] = v;
    }
  }
  return { min, max };
}
