// The teeth of each jaw: the segmentation (labels per welded vertex, Universal 1-32, 0 gum), its
// display (drawing.ts) and the designer's corrections. The automatic labels come from the
// server's stored result when the page has a way to it (TeethPort.loadStored), else from the
// worker's segmentTeeth; either is kept per model (by worker handle) for the session, so a tool
// switch or a second "show" never computes again. Corrections are undoable document changes: the
// document's `teeth` holds a jaw's corrected labels, and wins over the automatic ones while its
// vertex count is the model's. Gum lines and centroids are recomputed in the worker
// (toothOutlines) after every change of the labels shown.
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import type { Observer } from '@babylonjs/core/Misc/observable';
import type { Scene } from '@babylonjs/core/scene';
import { FeatureStore } from '../../engine/store.ts';
import type { EditorContext } from '../../engine/context.ts';
import { modelToCanonical, type DesignDocument } from '../../engine/document.ts';
import { invertRigid, rotateVector, type Xyz } from '../../engine/pose.ts';
import type { MeshHandle, TeethSegmentation, ToothOutlines } from '../../../geometry/client.ts';
import { isAbortError } from '../../../geometry/errors.ts';
import { decodeLabels, encodeLabels, type StoredTeeth } from '../../../../common/teeth.ts';
import { getToothNumbering, onToothNumberingChange, setToothNumbering } from '../../../ui/toothNumbering.ts';
import { TeethDrawing } from './drawing.ts';
import * as ops from './labels.ts';
import type { Jaw, Numbering } from './labels.ts';

export type { Jaw, Numbering } from './labels.ts';

/** The teeth calls of the editor's worker (src/geometry/client.ts); optional like the bite's, so a stand-in without them disables the display with a message. */
export interface TeethGeometry {
  segmentTeeth?(handle: MeshHandle, jaw: Jaw, options?: { signal?: AbortSignal; onProgress?: (fraction: number) => void }): Promise<TeethSegmentation>;
  toothOutlines?(handle: MeshHandle, labels: Uint8Array): Promise<ToothOutlines>;
}

/** Where the server's segmentation of an order's jaw comes from (null: none stored); absent: always computed here. */
export interface TeethPort {
  loadStored?(jaw: Jaw): Promise<StoredTeeth | null>;
}

export type TeethProblem = 'TEETH_UNAVAILABLE' | 'TEETH_FAILED' | 'TEETH_NONE' | 'TEETH_NUMBER_USED' | 'TEETH_NO_FREE_NUMBER' | 'TEETH_WRONG_JAW';

export interface ToothSummary {
  number: number;
  vertexCount: number;
  centroid: Xyz;
}

export interface JawTeeth {
  status: 'idle' | 'running' | 'ready' | 'error';
  /** The segmentation's progress 0..1 while it runs. */
  progress: number | null;
  /** The labels shown are the designer's (the document's), not the automatic ones. */
  corrected: boolean;
  teeth: ToothSummary[];
  /** Gum line points drawn (tests, diagnostics). */
  linePoints: number;
}

/**
 * What the teeth tool does with the pointer: pick a tooth (the panel then renumbers or merges it),
 * lasso a region onto the picked tooth or off to the gum, or draw the line that splits the picked tooth.
 */
export type TeethMode = 'pick' | 'add' | 'remove' | 'split';

export interface TeethView {
  /** The Teeth display is on. */
  shown: boolean;
  mode: TeethMode;
  /** The number the part beyond a split line gets (a free number of the picked tooth's jaw); null: the first free one. */
  splitNumber: number | null;
  numbering: Numbering;
  jaws: Record<Jaw, JawTeeth>;
  /** The tooth clicked last (the panel's picker acts on it). */
  selected: { jaw: Jaw; number: number } | null;
  problem: TeethProblem | null;
}

const IDLE_JAW: JawTeeth = { status: 'idle', progress: null, corrected: false, teeth: [], linePoints: 0 };
const JAWS: readonly Jaw[] = ['upper', 'lower'];

/** The document with a jaw's labels as corrected. */
export function withTeeth(doc: DesignDocument, jaw: Jaw, labels: Uint8Array): DesignDocument {
  return { ...doc, teeth: { ...doc.teeth, [jaw]: { vertexCount: labels.length, labels: encodeLabels(labels) } } };
}

/** A jaw's corrected labels in the document, if they belong to a model of `vertexCount` vertices. */
export function documentLabels(doc: DesignDocument, jaw: Jaw, vertexCount: number): Uint8Array | null {
  const t = doc.teeth?.[jaw];
  if (!t || t.vertexCount !== vertexCount) return null;
  try {
    return decodeLabels(t.labels, vertexCount);
  } catch {
    return null;
  }
}

export class TeethFeature extends FeatureStore<TeethView> {
  /** Automatic labels per model (worker handle), for the session. */
  private readonly automatic = new Map<MeshHandle, Uint8Array>();
  private readonly running = new Map<Jaw, { handle: MeshHandle; abort: AbortController; done: Promise<Uint8Array | null> }>();
  /** The labels drawn now per jaw. */
  private readonly shownLabels = new Map<Jaw, Uint8Array>();
  private readonly drawing: TeethDrawing;
  private afterRender: { scene: Scene; observer: Observer<Scene> } | null = null;
  private readonly unwatch: () => void;
  /** Bumped by every refresh: an older one's answer is dropped. */
  private generation = 0;
  private refreshing: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(
    private readonly ctx: EditorContext,
    private readonly geometry: TeethGeometry,
    private readonly overlay: () => HTMLElement | null,
    private port: TeethPort = {},
  ) {
    super({ shown: false, mode: 'pick', splitNumber: null, numbering: getToothNumbering(), jaws: { upper: IDLE_JAW, lower: IDLE_JAW }, selected: null, problem: null });
    this.drawing = new TeethDrawing({ overlay, project: (jaw, p) => ctx.project(jaw, p), requestRender: () => ctx.requestRender() });
    this.unwatch = onToothNumberingChange(() => {
      const numbering = getToothNumbering();
      this.set({ numbering });
      this.drawing.renumber(numbering);
    });
  }

  /** Where the server's segmentation comes from (openOrder sets it; null: computed here). */
  setPort(port: TeethPort | null): void {
    this.port = port ?? {};
  }

  /** FDI or Universal numbers (the user's setting, remembered for every page). */
  setNumbering(numbering: Numbering): void {
    setToothNumbering(numbering);
  }

  private setJaw(jaw: Jaw, patch: Partial<JawTeeth>): void {
    if (this.disposed) return;
    const jaws = this.getState().jaws;
    this.set({ jaws: { ...jaws, [jaw]: { ...jaws[jaw], ...patch } } });
  }

  private jawsReady(): Jaw[] {
    return JAWS.filter((jaw) => this.ctx.handleOf(jaw) !== null && this.ctx.modelState(jaw).status === 'ready');
  }

  canShow(): boolean {
    return this.jawsReady().length > 0;
  }

  /** The Teeth display on or off; on finds the teeth of every ready jaw first (once per model). */
  setShown(shown: boolean): Promise<void> {
    if (this.getState().shown === shown) return this.refreshing;
    this.set({ shown, problem: null, selected: null });
    if (!shown) {
      this.cancel();
      this.drawing.eraseAll();
      this.shownLabels.clear();
      return Promise.resolve();
    }
    return this.sync();
  }

  /** Redraws after a change of the document or of the models (EditorEngine calls it); resolves when drawn. */
  sync(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (!this.getState().shown) {
      if (this.drawing.jaws().length) this.drawing.eraseAll();
      return Promise.resolve();
    }
    const generation = ++this.generation;
    this.watchFrames();
    const work = Promise.all(JAWS.map((jaw) => this.refresh(jaw, generation))).then(() => undefined);
    this.refreshing = work;
    this.ctx.track(work);
    return work;
  }

  /** Resolves when the display has caught up with the last change. */
  settled(): Promise<void> {
    return this.refreshing;
  }

  private watchFrames(): void {
    const scene = this.ctx.scene();
    if (!scene || this.afterRender?.scene === scene) return;
    this.afterRender = { scene, observer: scene.onAfterRenderObservable.add(() => this.drawing.place())! };
  }

  private async refresh(jaw: Jaw, generation: number): Promise<void> {
    const mesh = this.ctx.meshOf(jaw);
    const handle = this.ctx.handleOf(jaw);
    if (!mesh || handle === null || this.ctx.modelState(jaw).status !== 'ready') {
      this.drawing.erase(jaw);
      this.shownLabels.delete(jaw);
      this.setJaw(jaw, IDLE_JAW);
      return;
    }
    const labels = await this.labels(jaw);
    if (generation !== this.generation || !this.getState().shown) return;
    if (!labels) {
      this.drawing.erase(jaw);
      this.shownLabels.delete(jaw);
      return;
    }
    if (!this.geometry.toothOutlines) return this.fail(jaw, 'TEETH_UNAVAILABLE');
    let outlines: ToothOutlines;
    try {
      outlines = await this.geometry.toothOutlines(handle, labels);
    } catch (e) {
      console.error('Tooth outlines failed', e);
      return this.fail(jaw, 'TEETH_FAILED');
    }
    if (generation !== this.generation || !this.getState().shown || this.ctx.meshOf(jaw) !== mesh) return;
    this.shownLabels.set(jaw, labels);
    this.drawing.draw(jaw, mesh, labels, outlines, this.getState().numbering);
    const selected = this.getState().selected;
    if (selected?.jaw === jaw && !outlines.teeth.some((t) => t.number === selected.number)) this.set({ selected: null });
    this.setJaw(jaw, {
      status: 'ready',
      progress: null,
      corrected: documentLabels(this.ctx.document(), jaw, labels.length) !== null,
      teeth: outlines.teeth,
      linePoints: outlines.lines.reduce((s, l) => s + l.loops.reduce((t, loop) => t + loop.length / 3, 0), 0),
    });
  }

  private fail(jaw: Jaw, problem: TeethProblem): void {
    this.setJaw(jaw, { status: 'error', progress: null });
    if (!this.disposed) this.set({ problem });
  }

  private vertexCount(jaw: Jaw): number {
    return this.ctx.meshOf(jaw)?.getTotalVertices() ?? 0;
  }

  /** A jaw's labels as shown: the document's corrections, else the automatic result (found now if need be); null when there are none. */
  async labels(jaw: Jaw): Promise<Uint8Array | null> {
    const fromDocument = documentLabels(this.ctx.document(), jaw, this.vertexCount(jaw));
    if (fromDocument) return fromDocument;
    return this.automaticLabels(jaw);
  }

  /**
   * A jaw's teeth as the wire templates are placed on them (wires/tooth-anchors.ts): per number its
   * centroid and tip (towards the opposing jaw), model frame, from the labels shown (found now if
   * need be); null without labels.
   */
  async crowns(jaw: Jaw): Promise<{ number: number; centroid: Xyz; tip: Xyz }[] | null> {
    const labels = await this.labels(jaw);
    const positions = this.ctx.meshOf(jaw)?.getVerticesData(VertexBuffer.PositionKind);
    if (!labels || !positions || positions.length !== 3 * labels.length) return null;
    const up = rotateVector(invertRigid(modelToCanonical(this.ctx.document(), jaw)), [0, 0, jaw === 'upper' ? -1 : 1]);
    return ops.crownPoints(positions, labels, up);
  }

  /** The labels drawn now (what a correction starts from), or null. */
  current(jaw: Jaw): Uint8Array | null {
    return this.shownLabels.get(jaw) ?? null;
  }

  private automaticLabels(jaw: Jaw): Promise<Uint8Array | null> {
    const handle = this.ctx.handleOf(jaw);
    if (handle === null) return Promise.resolve(null);
    const known = this.automatic.get(handle);
    if (known) return Promise.resolve(known);
    const running = this.running.get(jaw);
    if (running?.handle === handle) return running.done;
    running?.abort.abort();
    const abort = new AbortController();
    const done = this.segment(jaw, handle, abort.signal).finally(() => {
      if (this.running.get(jaw)?.abort === abort) this.running.delete(jaw);
    });
    this.running.set(jaw, { handle, abort, done });
    return done;
  }

  private async segment(jaw: Jaw, handle: MeshHandle, signal: AbortSignal): Promise<Uint8Array | null> {
    const vertexCount = this.vertexCount(jaw);
    this.setJaw(jaw, { status: 'running', progress: 0 });
    try {
      let labels: Uint8Array | null = null;
      const stored = this.port.loadStored ? await this.port.loadStored(jaw).catch(() => null) : null;
      if (stored && stored.jaw === jaw && stored.vertexCount === vertexCount) {
        try {
          labels = decodeLabels(stored.labels, vertexCount);
        } catch {
          labels = null; // a result for another version of the model: computed here instead
        }
      }
      if (!labels) {
        if (!this.geometry.segmentTeeth) {
          this.fail(jaw, 'TEETH_UNAVAILABLE');
          return null;
        }
        const result = await this.geometry.segmentTeeth(handle, jaw, { signal, onProgress: (f) => this.setJaw(jaw, { progress: f }) });
        labels = result.labels;
      }
      if (signal.aborted) return null;
      this.automatic.set(handle, labels);
      if (!labels.some((v) => v > 0)) this.set({ problem: 'TEETH_NONE' });
      return labels;
    } catch (e) {
      if (signal.aborted || isAbortError(e)) return null;
      console.error('Teeth segmentation failed', e);
      this.fail(jaw, 'TEETH_FAILED');
      return null;
    }
  }

  /** Whether a segmentation is running. */
  busy(): boolean {
    return this.running.size > 0;
  }

  /** Stops the segmentations under way (the display stays off for their jaws until shown again). */
  cancel(): void {
    for (const [jaw, r] of [...this.running]) {
      r.abort.abort();
      this.running.delete(jaw);
      this.setJaw(jaw, { status: 'idle', progress: null });
    }
    if (this.getState().shown && !JAWS.some((jaw) => this.getState().jaws[jaw].status === 'ready')) this.set({ shown: false });
  }

  // ---------------------------------------------------------------- selection and corrections

  /** The tooth at a picked point of a jaw (its triangle's nearest corner; 0: gum), or null when the jaw shows no teeth. */
  toothAt(jaw: Jaw, pick: { point: Xyz; triangle: number }): number | null {
    const labels = this.shownLabels.get(jaw);
    const mesh = this.ctx.meshOf(jaw);
    const indices = mesh?.getIndices();
    const positions = mesh?.getVerticesData(VertexBuffer.PositionKind);
    if (!labels || !indices || !positions || pick.triangle < 0 || 3 * pick.triangle + 2 >= indices.length) return null;
    let best = 0, bestD = Infinity;
    for (let k = 0; k < 3; k++) {
      const v = indices[3 * pick.triangle + k]!;
      const d = Math.hypot(positions[3 * v]! - pick.point[0], positions[3 * v + 1]! - pick.point[1], positions[3 * v + 2]! - pick.point[2]);
      if (d < bestD) (bestD = d), (best = labels[v] ?? 0);
    }
    return best;
  }

  select(selected: { jaw: Jaw; number: number } | null): void {
    this.set({ selected, problem: null, splitNumber: null });
  }

  setMode(mode: TeethMode): void {
    this.set({ mode, problem: null });
  }

  setSplitNumber(splitNumber: number | null): void {
    this.set({ splitNumber });
  }

  /** The number a split gives the new part: the chosen one, else the picked tooth's jaw's first free one. */
  splitTarget(): number | null {
    const { selected, splitNumber } = this.getState();
    if (!selected) return null;
    const free = this.freeNumbers(selected.jaw);
    return splitNumber !== null && free.includes(splitNumber) ? splitNumber : (free[0] ?? null);
  }

  private apply(label: string, jaw: Jaw, next: (labels: Uint8Array) => Uint8Array | null): boolean {
    const labels = this.current(jaw);
    if (!labels) return false;
    const changed = next(labels);
    if (!changed || ops.sameLabels(labels, changed)) return false;
    this.set({ problem: null });
    this.ctx.change(label, withTeeth(this.ctx.document(), jaw, changed));
    return true;
  }

  /** Gives a tooth another number of its jaw; a number already on another tooth is swapped with it. */
  renumber(jaw: Jaw, from: number, to: number): boolean {
    if (!ops.numbersOf(jaw).includes(to)) {
      this.set({ problem: 'TEETH_WRONG_JAW' });
      return false;
    }
    const done = this.apply('teeth.renumber', jaw, (labels) => ops.renumber(labels, from, to));
    if (done && this.getState().selected?.number === from) this.set({ selected: { jaw, number: to } });
    return done;
  }

  /** Tooth `gone` becomes part of tooth `keep`. */
  merge(jaw: Jaw, keep: number, gone: number): boolean {
    const done = this.apply('teeth.merge', jaw, (labels) => ops.merge(labels, keep, gone));
    if (done) this.set({ selected: { jaw, number: keep } });
    return done;
  }

  /** The vertices inside a screen polygon, facing the camera, become `to` (a tooth, or 0: gum). */
  assignRegion(jaw: Jaw, polygon: readonly { x: number; y: number }[], to: number): boolean {
    if (to !== 0 && !ops.numbersOf(jaw).includes(to)) {
      this.set({ problem: 'TEETH_WRONG_JAW' });
      return false;
    }
    const vertices = this.verticesInPolygon(jaw, polygon);
    return this.apply(to === 0 ? 'teeth.remove' : 'teeth.add', jaw, (labels) => ops.assign(labels, vertices, to));
  }

  /**
   * Splits a tooth along the screen line a→b: the part on the line's left keeps the number, the
   * other part gets `other` (a number of the jaw on no tooth).
   */
  splitTooth(jaw: Jaw, number: number, a: { x: number; y: number }, b: { x: number; y: number }, other: number | null): boolean {
    const labels = this.current(jaw);
    if (!labels) return false;
    if (other === null) {
      this.set({ problem: 'TEETH_NO_FREE_NUMBER' });
      return false;
    }
    if (!ops.freeNumbers(labels, jaw).includes(other)) {
      this.set({ problem: 'TEETH_NUMBER_USED' });
      return false;
    }
    const screen = this.screenPoints(jaw, (v) => labels[v] === number);
    return this.apply('teeth.split', jaw, (current) => ops.split(current, number, (v) => { const p = screen.get(v); return !p || ops.leftOf(p, a, b); }, other));
  }

  /** Canvas pixels of the vertices of a jaw that pass `want`, as drawn now. */
  private screenPoints(jaw: Jaw, want: (vertex: number) => boolean, facing = false): Map<number, { x: number; y: number }> {
    const out = new Map<number, { x: number; y: number }>();
    const mesh: Mesh | null = this.ctx.meshOf(jaw);
    const positions = mesh?.getVerticesData(VertexBuffer.PositionKind);
    const normals = mesh?.getVerticesData(VertexBuffer.NormalKind);
    const axis = facing ? this.ctx.viewAxis(jaw) : null;
    const screen = positions ? this.ctx.projectMany(jaw, positions) : null;
    if (!positions || !screen) return out;
    for (let v = 0; v < positions.length / 3; v++) {
      if (!want(v) || Number.isNaN(screen[2 * v]!)) continue;
      if (axis && normals && normals[3 * v]! * axis[0] + normals[3 * v + 1]! * axis[1] + normals[3 * v + 2]! * axis[2] > 0) continue;
      out.set(v, { x: screen[2 * v]!, y: screen[2 * v + 1]! });
    }
    return out;
  }

  /** Vertices of a jaw inside a screen polygon that face the camera. */
  verticesInPolygon(jaw: Jaw, polygon: readonly { x: number; y: number }[]): number[] {
    if (polygon.length < 3) return [];
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const p of polygon) (minX = Math.min(minX, p.x)), (maxX = Math.max(maxX, p.x)), (minY = Math.min(minY, p.y)), (maxY = Math.max(maxY, p.y));
    const out: number[] = [];
    for (const [v, p] of this.screenPoints(jaw, () => true, true)) {
      if (p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY && ops.insidePolygon(p.x, p.y, polygon)) out.push(v);
    }
    return out;
  }

  /** The tool's lasso or split line while it is drawn (null: none). */
  showStroke(points: readonly { x: number; y: number }[] | null, closed: boolean): void {
    this.drawing.showStroke(points, closed);
  }

  /** A jaw's numbers on no tooth (the split's and the picker's choices). */
  freeNumbers(jaw: Jaw): number[] {
    const labels = this.current(jaw);
    return labels ? ops.freeNumbers(labels, jaw) : ops.numbersOf(jaw);
  }

  /** The numbers drawn now, as the designer reads them (tests, diagnostics). */
  shownNumbers(jaw: Jaw): string[] {
    const { numbering, jaws } = this.getState();
    return jaws[jaw].teeth.map((t) => ops.toothName(t.number, numbering));
  }

  dispose(): void {
    this.disposed = true;
    for (const r of this.running.values()) r.abort.abort();
    this.running.clear();
    this.unwatch();
    if (this.afterRender) this.afterRender.scene.onAfterRenderObservable.remove(this.afterRender.observer);
    this.drawing.eraseAll();
    this.clear();
  }
}
