// Undercut analysis and heatmaps: the insertion direction, the
// undercut map of a jaw along it, the occlusal distance map (upper to lower) and the base
// thickness map, drawn as per-vertex colours on the model's Babylon mesh (only the colour buffer
// is uploaded; positions stay as they are). The direction and the heatmap choice are part of the
// design document (`insertionDirections`, one per jaw, and `heatmap`), so they are undoable and saved; the maps
// themselves are recomputed from the document, debounced, an older computation cancelled through
// its AbortSignal.
//
// Frames: a jaw's insertion direction is in the canonical frame (after straightening); the worker's
// meshes stay in their own frame, so the direction is turned into the model frame with the
// straightening rotation before it is sent (identity while there is none).
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { CreateLines } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import type { GeometryClient, MeshHandle } from '../../../geometry/client.ts';
import { isAbortError } from '../../../geometry/errors.ts';
import { modelToCanonical, withInsertionDirection, type DesignDocument, type HeatmapMode, type HeatmapSettings } from '../../engine/document.ts';
import { invertRigid, rotateVector, type Xyz } from '../../engine/pose.ts';
import type { EditorContext } from '../../engine/context.ts';
import { FeatureStore } from '../../engine/store.ts';
import { Debounced } from '../../engine/debounce.ts';
import { markAfterNextFrame, perfMark, PERF_MARKS } from '../../engine/openTiming.ts';

export type { HeatmapMode, HeatmapSettings } from '../../engine/document.ts';
export type AnalysisJaw = 'upper' | 'lower';

/** Legend ranges in millimetres. Undercut: clasp-relevant depths (0.25..0.75 mm) sit in the middle. */
export const UNDERCUT_RANGE = { min: 0, max: 1 } as const;
/** Occlusal distance: slight penetration (scan noise) blue, 3 mm and more red. */
const OCCLUSAL_RANGE = { min: -0.5, max: 3 } as const;
/** Distances beyond this are not searched (grey): the occlusal map is about the contacts. */
const OCCLUSAL_MAX_DISTANCE = 6;
const THICKNESS_RANGE = { min: 0, max: 4 } as const;
/** Half-angle of the cone around the current direction searched by "Best direction". */
export const BEST_DIRECTION_CONE_DEG = 20;
/** Tilt slider limits (degrees away from the jaw's axis). */
export const MAX_TILT_DEG = 45;

export type AnalysisGeometry = Pick<GeometryClient, 'undercut' | 'bestInsertionDirection' | 'distanceMap'>;

export interface HeatmapLegend {
  mode: Exclude<HeatmapMode, 'off'>;
  min: number;
  max: number;
}

export interface AnalysisState {
  mode: HeatmapMode;
  /** The jaw analysed for undercuts (whose direction is edited, and whose base the thickness map shows). */
  model: AnalysisJaw;
  /** The analysed jaw's insertion direction, canonical frame (the document's or the jaw's default). */
  direction: Xyz;
  /** Whether the document holds a direction for the jaw (false: the default ±z). */
  directionSet: boolean;
  status: 'idle' | 'computing' | 'ready' | 'error';
  progress: number | null;
  legend: HeatmapLegend | null;
  /** Undercut map: undercut area and the model's area, mm². */
  undercutArea: number | null;
  totalArea: number | null;
  /** Largest undercut depth or distance range found, mm. */
  maxValue: number | null;
  best: { running: boolean; progress: number; angleDeg: number | null; area: number | null; hintArea: number | null } | null;
  error: 'MODEL_MISSING' | 'FAILED' | null;
  thicknessAvailable: boolean;
  /** Recomputations done (tests, diagnostics). */
  computed: number;
}

export function defaultDirection(jaw: AnalysisJaw): Xyz {
  return jaw === 'upper' ? [0, 0, -1] : [0, 0, 1];
}

function normalize(v: Xyz): Xyz {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}

/** Tilts (degrees) of a direction: about x (front/back, moves y) and about y (left/right, moves x), relative to the jaw's axis. */
export function tiltsOf(d: Xyz, jaw: AnalysisJaw): { front: number; side: number } {
  const s = defaultDirection(jaw)[2];
  const z = Math.max(1e-9, s * d[2]);
  return { front: (Math.atan2(d[1], z) * 180) / Math.PI, side: (Math.atan2(d[0], z) * 180) / Math.PI };
}

/** The direction with these tilts (inverse of tiltsOf). */
function directionFromTilts(front: number, side: number, jaw: AnalysisJaw): Xyz {
  const s = defaultDirection(jaw)[2];
  const clamp = (a: number) => (Math.min(MAX_TILT_DEG, Math.max(-MAX_TILT_DEG, a)) * Math.PI) / 180;
  return normalize([Math.tan(clamp(side)), Math.tan(clamp(front)), s]);
}

/** The jaw's model frame → canonical (its bite, then the straightening), or null when both are absent. */
function straighteningOf(doc: DesignDocument, jaw: AnalysisJaw): number[] | null {
  if (!doc.straightening && !doc.bite) return null;
  return modelToCanonical(doc, jaw);
}
/** Canonical → the jaw's model frame: the inverse rotation (its transpose). */
function toModelFrame(doc: DesignDocument, d: Xyz, jaw: AnalysisJaw): Xyz {
  const m = straighteningOf(doc, jaw);
  return m ? normalize(rotateVector(invertRigid(m), d)) : d;
}
function toCanonicalFrame(doc: DesignDocument, d: Xyz, jaw: AnalysisJaw): Xyz {
  const m = straighteningOf(doc, jaw);
  return m ? normalize(rotateVector(m, d)) : d;
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

interface Painted {
  mesh: Mesh;
  diffuse: Color3 | null;
}

export class AnalysisController {
  private readonly store: FeatureStore<AnalysisState>;
  /** Wait after a change before recomputing (slider drags); tests set 0. */
  debounceMs = 250;

  /** The recomputation waiting for changes to stop. */
  private readonly wait = new Debounced<string>((key) => this.compute(key), () => this.debounceMs);
  private job: { key: string; abort: AbortController; done: Promise<void> } | null = null;
  /** Key of the map on screen (mode, model, direction, handles). */
  private shownKey = 'off';
  private bestAbort: AbortController | null = null;
  private readonly painted = new Map<string, Painted>();
  /** The map whose colours are on the meshes. */
  private paintedAs: HeatmapMode = 'off';
  private arrow: LinesMesh | null = null;
  private disposed = false;

  constructor(private readonly host: EditorContext) {
    this.store = new FeatureStore<AnalysisState>({
      mode: 'off',
      model: 'upper',
      direction: defaultDirection('upper'),
      directionSet: false,
      status: 'idle',
      progress: null,
      legend: null,
      undercutArea: null,
      totalArea: null,
      maxValue: null,
      best: null,
      error: null,
      thicknessAvailable: false,
      computed: 0,
    });
    this.onChanged = this.store.onChanged;
    this.getState = this.store.getState;
    this.subscribe = this.store.subscribe;
  }

  /** Fires with the new state after every change. */
  readonly onChanged: FeatureStore<AnalysisState>['onChanged'];
  readonly getState: () => AnalysisState;
  readonly subscribe: (listener: () => void) => () => void;
  private get state(): AnalysisState {
    return this.store.getState();
  }

  /**
   * The base whose thickness is shown, its worker handle and Babylon mesh: the analysed jaw's,
   * else the other jaw's when only that one has a base; null until a base is shown.
   */
  private shownBase(): { handle: MeshHandle; mesh: Mesh | null; jaw: AnalysisJaw } | null {
    const shown = this.host.state().baseMeshes;
    const model = this.settings().model;
    const other: AnalysisJaw = model === 'upper' ? 'lower' : 'upper';
    const jaw = shown[model] !== null ? model : shown[other] !== null && !this.host.document().bases?.[model] ? other : null;
    const handle = jaw ? shown[jaw] : null;
    if (!jaw || handle === null) return null;
    const parent = this.host.meshOf(jaw);
    const mesh = (this.host.scene()?.meshes.find((m) => m.name === 'base' && m.parent === parent) as Mesh | undefined) ?? null;
    return { handle, mesh, jaw };
  }

  private setState(patch: Partial<AnalysisState>): void {
    if (this.disposed) return;
    this.store.set(patch);
  }

  // ---------------------------------------------------------------- design changes (commands)

  private settings(doc = this.host.document()): HeatmapSettings {
    return doc.heatmap ?? { mode: 'off', model: 'upper' };
  }

  /** Shows a heatmap (or 'off'): one undoable change of the design. */
  setMode(mode: HeatmapMode): void {
    const doc = this.host.document();
    const current = this.settings(doc);
    if (current.mode === mode) return;
    if (mode === 'thickness' && !this.shownBase()) return;
    this.host.change('analysis.heatmap', { ...doc, heatmap: { ...current, mode } });
  }

  /** The jaw analysed for undercuts; its own insertion direction comes with it. */
  setModel(model: AnalysisJaw): void {
    const doc = this.host.document();
    const current = this.settings(doc);
    if (current.model === model) return;
    this.host.change('analysis.model', { ...doc, heatmap: { ...current, model } });
  }

  /** Sets the analysed jaw's insertion direction (canonical frame): one undoable step. */
  setDirection(direction: Xyz): void {
    const d = normalize(direction);
    if (!d.every(Number.isFinite)) return;
    const doc = this.host.document();
    const jaw = this.settings(doc).model;
    const next: [number, number, number] = [round(d[0]), round(d[1]), round(d[2])];
    const old = doc.insertionDirections?.[jaw];
    if (old && old.every((v, i) => Math.abs(v - next[i]!) < 1e-6)) return;
    perfMark(PERF_MARKS.direction);
    this.host.change('analysis.direction', withInsertionDirection(doc, jaw, next));
  }

  setTilts(front: number, side: number): void {
    this.setDirection(directionFromTilts(front, side, this.state.model));
  }

  /** The analysed jaw back to its axis (±z). */
  resetDirection(): void {
    const doc = this.host.document();
    const jaw = this.settings(doc).model;
    if (!doc.insertionDirections?.[jaw]) return;
    this.host.change('analysis.direction', withInsertionDirection(doc, jaw, undefined));
  }

  /** The direction along the current view, towards the viewer (the "aim" click on a model). */
  aimAlongView(): boolean {
    const v = this.host.viewDirection();
    if (!v) return false;
    this.setDirection(v);
    return true;
  }

  // ---------------------------------------------------------------- best direction

  /** Searches the cone around the current direction for the least undercut area; sets it (undoable). */
  async findBestDirection(): Promise<void> {
    this.cancelBest();
    const handle = this.host.handleOf(this.state.model);
    if (handle === null) {
      this.setState({ error: 'MODEL_MISSING' });
      return;
    }
    const abort = new AbortController();
    this.bestAbort = abort;
    const doc = this.host.document();
    this.setState({ best: { running: true, progress: 0, angleDeg: null, area: null, hintArea: null } });
    try {
      const result = await this.host.geometry.bestInsertionDirection(
        handle,
        [...toModelFrame(doc, this.state.direction, this.state.model)] as [number, number, number],
        { halfAngleDeg: BEST_DIRECTION_CONE_DEG },
        {
          signal: abort.signal,
          onProgress: (f) => {
            if (!abort.signal.aborted && this.state.best) this.setState({ best: { ...this.state.best, progress: f } });
          },
        },
      );
      if (abort.signal.aborted) return;
      this.setState({ best: { running: false, progress: 1, angleDeg: result.angleDeg, area: result.area, hintArea: result.hintArea } });
      this.setDirection(toCanonicalFrame(this.host.document(), result.direction as unknown as Xyz, this.state.model));
    } catch (e) {
      if (abort.signal.aborted || isAbortError(e)) return;
      console.error('Best insertion direction failed', e);
      this.setState({ best: null, error: 'FAILED' });
    } finally {
      if (this.bestAbort === abort) this.bestAbort = null;
    }
  }

  cancelBest(): void {
    if (!this.bestAbort) return;
    this.bestAbort.abort();
    this.bestAbort = null;
    this.setState({ best: null });
  }

  // ---------------------------------------------------------------- recomputation

  /** The document or the models changed: recompute what is shown when it differs (debounced). */
  sync(): void {
    if (this.disposed) return;
    const doc = this.host.document();
    const { mode, model } = this.settings(doc);
    const set = doc.insertionDirections?.[model];
    const direction = set ? normalize(set) : defaultDirection(model);
    const base = this.shownBase();
    this.setState({ mode, model, direction, directionSet: !!set, thicknessAvailable: !!base });
    this.updateArrow();
    const key = this.keyOf();
    if (key === this.shownKey || key === this.job?.key) return;
    this.cancelJob();
    this.wait.cancel();
    if (mode === 'off' || key === 'unavailable') {
      this.clearColors();
      this.shownKey = key;
      this.setState({ status: 'idle', progress: null, legend: null, undercutArea: null, totalArea: null, maxValue: null, error: null });
      return;
    }
    this.setState({ status: 'computing', progress: 0, error: null });
    this.wait.schedule(key);
    this.host.track(this.settled());
  }

  /** Forces a recomputation (a model's vertices changed in the worker: smoothing, a transform). */
  invalidate(): void {
    this.shownKey = '';
    if (this.job) this.cancelJob();
    this.sync();
  }

  private keyOf(): string {
    const { mode, model, direction } = this.state;
    if (mode === 'off') return 'off';
    // In the model frame: a new straightening turns the direction the worker sees, so it recomputes.
    const d = toModelFrame(this.host.document(), direction, model).map((v) => v.toFixed(6)).join(',');
    if (mode === 'undercut') return `undercut|${model}|${this.host.handleOf(model)}|${d}`;
    if (mode === 'occlusal') return `occlusal|${this.host.handleOf('upper')}|${this.host.handleOf('lower')}`;
    const base = this.shownBase();
    return base ? `thickness|${base.handle}|${this.host.handleOf(base.jaw)}` : 'unavailable';
  }

  private cancelJob(): void {
    this.job?.abort.abort();
    this.job = null;
  }

  /** Resolves when no recomputation is waiting or running (tests). */
  async settled(): Promise<void> {
    for (;;) {
      if (this.wait.pending) await new Promise((r) => setTimeout(r, Math.max(5, this.debounceMs)));
      else if (this.job) await this.job.done;
      else return;
    }
  }

  private compute(key: string): void {
    const abort = new AbortController();
    const done = this.run(key, abort.signal).finally(() => {
      if (this.job?.abort === abort) this.job = null;
    });
    this.job = { key, abort, done };
  }

  private async run(key: string, signal: AbortSignal): Promise<void> {
    const { mode, model } = this.state;
    const doc = this.host.document();
    const onProgress = (f: number) => {
      if (!signal.aborted) this.setState({ progress: f });
    };
    const missing = () => {
      this.clearColors();
      this.shownKey = key;
      this.setState({ status: 'error', progress: null, legend: null, error: 'MODEL_MISSING' });
    };
    try {
      if (mode === 'undercut') {
        const handle = this.host.handleOf(model);
        if (handle === null) return missing();
        const d = toModelFrame(doc, this.state.direction, model);
        const result = await this.host.geometry.undercut(handle, [d[0], d[1], d[2]], { colors: { ...UNDERCUT_RANGE } }, { signal, onProgress });
        if (signal.aborted) return;
        perfMark(PERF_MARKS.computed);
        this.show('undercut', [[model, result.colors!]]);
        this.finish(key, { mode, ...UNDERCUT_RANGE }, { undercutArea: result.area, totalArea: result.totalArea, maxValue: result.maxDepth });
      } else if (mode === 'occlusal') {
        const upper = this.host.handleOf('upper');
        const lower = this.host.handleOf('lower');
        if (upper === null || lower === null) return missing();
        // Both meshes in their own (closed-bite) frames: opening the bite moves the lower
        // jaw's Babylon mesh only, so the distances stay those of the closed bite.
        const result = await this.host.geometry.distanceMap(upper, lower, { maxDistance: OCCLUSAL_MAX_DISTANCE, colors: { ...OCCLUSAL_RANGE } }, { signal, onProgress });
        if (signal.aborted) return;
        this.show('occlusal', [['upper', result.colors!]]);
        this.finish(key, { mode, ...OCCLUSAL_RANGE }, { undercutArea: null, totalArea: null, maxValue: result.found ? result.min : null });
      } else if (mode === 'thickness') {
        const base = this.shownBase();
        const handle = base ? this.host.handleOf(base.jaw) : null;
        if (!base || handle === null) return missing();
        const result = await this.host.geometry.distanceMap(base.handle, handle, { colors: { ...THICKNESS_RANGE } }, { signal, onProgress });
        if (signal.aborted) return;
        this.show('thickness', []);
        if (base.mesh) this.paint('base', base.mesh, result.colors!);
        this.finish(key, { mode, ...THICKNESS_RANGE }, { undercutArea: null, totalArea: null, maxValue: result.max });
      }
    } catch (e) {
      if (signal.aborted || isAbortError(e)) return;
      console.error('Heatmap failed', e);
      this.clearColors();
      this.shownKey = key;
      this.setState({ status: 'error', progress: null, legend: null, error: 'FAILED' });
    }
  }

  private finish(key: string, legend: HeatmapLegend, values: Pick<AnalysisState, 'undercutArea' | 'totalArea' | 'maxValue'>): void {
    this.shownKey = key;
    this.setState({ status: 'ready', progress: null, legend, error: null, computed: this.state.computed + 1, ...values });
  }

  // ---------------------------------------------------------------- colours on the meshes

  /** Colours these models (a map of `mode`) and restores the others. */
  private show(mode: HeatmapMode, maps: [AnalysisJaw, Float32Array][]): void {
    this.paintedAs = mode;
    const keep = new Set(maps.map(([role]) => role as string));
    for (const id of [...this.painted.keys()]) if (!keep.has(id)) this.unpaint(id);
    for (const [role, colors] of maps) {
      const mesh = this.host.meshOf(role);
      if (mesh) this.paint(role, mesh, colors);
    }
  }

  private paint(id: string, mesh: Mesh, colors: Float32Array): void {
    if (colors.length !== mesh.getTotalVertices() * 4) return; // another mesh meanwhile
    const was = this.painted.get(id);
    if (was && was.mesh !== mesh) this.unpaint(id);
    if (mesh.isVerticesDataPresent(VertexBuffer.ColorKind)) mesh.updateVerticesData(VertexBuffer.ColorKind, colors);
    else mesh.setVerticesData(VertexBuffer.ColorKind, colors, true, 4);
    mesh.useVertexColors = true;
    markAfterNextFrame(mesh.getScene(), PERF_MARKS.painted);
    if (!this.painted.has(id)) {
      const material = mesh.material instanceof StandardMaterial ? mesh.material : null;
      const diffuse = material ? material.diffuseColor.clone() : null;
      // The vertex colour is multiplied by the diffuse colour: white shows the ramp as is.
      if (material) material.diffuseColor = new Color3(1, 1, 1);
      this.painted.set(id, { mesh, diffuse });
    }
    this.host.requestRender();
  }

  private unpaint(id: string): void {
    const p = this.painted.get(id);
    if (!p) return;
    this.painted.delete(id);
    if (p.mesh.isDisposed()) return;
    p.mesh.removeVerticesData(VertexBuffer.ColorKind);
    // Marks the mesh's shader attributes dirty: the material drops the vertex-colour variant.
    p.mesh.useVertexColors = false;
    const material = p.mesh.material instanceof StandardMaterial ? p.mesh.material : null;
    if (material && p.diffuse) material.diffuseColor = p.diffuse;
    this.host.requestRender();
  }

  private clearColors(): void {
    for (const id of [...this.painted.keys()]) this.unpaint(id);
  }

  /** The heatmap whose colours are on the meshes now ('off' when none is). */
  get paintedMode(): HeatmapMode {
    return this.painted.size ? this.paintedAs : 'off';
  }

  /** Whether a model's mesh shows heatmap colours now (tests, the page's data attributes). */
  isPainted(role: AnalysisJaw | 'base'): boolean {
    const p = this.painted.get(role);
    return !!p && p.mesh === this.meshFor(role);
  }

  private meshFor(role: AnalysisJaw | 'base'): Mesh | null {
    return role === 'base' ? (this.shownBase()?.mesh ?? null) : this.host.meshOf(role);
  }

  /** What a model's Babylon mesh holds now: its vertex colours (null without a heatmap) and positions (tests). */
  meshColors(role: AnalysisJaw | 'base'): { colors: Float32Array | null; positions: Float32Array | null } | null {
    const mesh = this.meshFor(role);
    if (!mesh) return null;
    const colors = mesh.getVerticesData(VertexBuffer.ColorKind);
    const positions = mesh.getVerticesData(VertexBuffer.PositionKind);
    return { colors: colors ? Float32Array.from(colors) : null, positions: positions ? Float32Array.from(positions) : null };
  }

  // ---------------------------------------------------------------- direction arrow

  /** An arrow along the insertion direction from the analysed jaw's centre, shown with the undercut map. */
  private updateArrow(): void {
    this.arrow?.dispose();
    this.arrow = null;
    const { mode, model, direction } = this.state;
    const mesh = this.host.meshOf(model);
    if (mode !== 'undercut' || !mesh) return;
    mesh.refreshBoundingInfo();
    const box = mesh.getBoundingInfo().boundingBox;
    const centre = box.center;
    const length = Math.max(5, box.extendSize.length() * 1.2);
    const d = toModelFrame(this.host.document(), direction, model);
    const tip = centre.add(new Vector3(d[0], d[1], d[2]).scale(length));
    // Two short barbs at the tip, across the arrow.
    const side = Math.abs(d[0]) < 0.9 ? new Vector3(1, 0, 0) : new Vector3(0, 1, 0);
    const across = Vector3.Cross(new Vector3(d[0], d[1], d[2]), side).normalize().scale(length * 0.06);
    const back = new Vector3(d[0], d[1], d[2]).scale(-length * 0.12);
    const arrow = CreateLines(
      'insertion-direction',
      { points: [centre, tip, tip.add(back).add(across), tip, tip.add(back).subtract(across)] },
      mesh.getScene(),
    );
    arrow.color = new Color3(0.55, 0.1, 0.75);
    arrow.renderingGroupId = 1;
    arrow.isPickable = false;
    arrow.parent = mesh;
    this.arrow = arrow;
    this.host.requestRender();
  }

  /** A model's mesh was replaced or removed: colours are gone with the old mesh. */
  modelsChanged(): void {
    for (const [id, p] of [...this.painted]) if (p.mesh.isDisposed()) this.painted.delete(id);
    this.shownKey = '';
    this.sync();
  }

  dispose(): void {
    this.cancelJob();
    this.cancelBest();
    this.wait.cancel();
    this.arrow?.dispose();
    this.disposed = true;
    this.store.clear();
  }
}
