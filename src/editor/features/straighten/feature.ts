// Straightening of the models: the worker finds the rigid transform that puts the jaw
// into the canonical frame (occlusal plane level, midline along y, incisors towards -y); the
// designer then rotates and moves the set by hand. The result is one matrix in the design
// document (`straightening`), applied to the upper, lower and bite models alike so that the bite
// is kept; the worker meshes are never moved (picks stay in the model frame, engine.pickAt
// carries the ray across). Every change is one command on the undo stack.
import type { MeshHandle } from '../../../geometry/client.ts';
import { GeometryError, isAbortError, type GeometryErrorCode } from '../../../geometry/errors.ts';
import type { ModelRole, Straightening } from '../../engine/document.ts';
import { cleanRigid, IDENTITY, invertRigid, multiply, rotationAbout, translation, type Matrix4, type Xyz } from '../../engine/pose.ts';
import type { EditorContext } from '../../engine/context.ts';
import { FeatureStore } from '../../engine/store.ts';
import { StraightenHandles, type HandleId, type HandleLayout } from './handles.ts';

/** Nudge steps of the side panel's buttons. */
export const ROTATE_STEP_DEGREES = 0.5;
export const MOVE_STEP_MM = 0.1;

export type StraightenErrorCode = GeometryErrorCode | 'NO_MODEL';

export interface StraightenStatus {
  busy: boolean;
  /** Why the last automatic straightening failed; null after a success or any other change. */
  error: StraightenErrorCode | null;
  /** How the last automatic straightening went: 'box' means no dental arch was recognised. */
  method: 'arch' | 'box' | null;
}

export const IDLE_STRAIGHTEN: StraightenStatus = { busy: false, error: null, method: null };

export type Axis = 0 | 1 | 2;
const AXES: readonly Xyz[] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

export class StraighteningController {
  private abort: AbortController | null = null;
  /** The tool's handles in the scene (handles.ts). */
  private handles: StraightenHandles | null = null;
  private readonly store = new FeatureStore<StraightenStatus>(IDLE_STRAIGHTEN);
  /** The automatic straightening: running, or why it failed. */
  readonly getState = this.store.getState;
  readonly subscribe = this.store.subscribe;
  private get status(): StraightenStatus {
    return this.store.getState();
  }

  constructor(private readonly host: EditorContext) {}

  /** The worker's handle of a model that is ready, or null. */
  private readyHandle(role: ModelRole): MeshHandle | null {
    return this.host.modelState(role).status === 'ready' ? this.host.handleOf(role) : null;
  }

  /** The pose in the document (identity when not straightened). */
  get pose(): Matrix4 {
    return this.host.document().straightening?.matrix ?? IDENTITY;
  }

  get busy(): boolean {
    return this.status.busy;
  }

  /** The jaw the worker analyses: the upper one, or the lower one when there is no upper. */
  jaw(): 'upper' | 'lower' | null {
    if (this.readyHandle('upper') !== null) return 'upper';
    if (this.readyHandle('lower') !== null) return 'lower';
    return null;
  }

  /** Centre of the models as drawn: the pivot of the rotations. */
  center(): Xyz | null {
    const box = this.host.bounds();
    if (!box) return null;
    return [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2, (box.min[2] + box.max[2]) / 2];
  }

  private setStatus(status: StraightenStatus): void {
    this.store.set(status);
  }

  /** Automatic straightening: one command; failures land in the status (never rejects). */
  async auto(): Promise<void> {
    if (this.status.busy) return;
    const jaw = this.jaw();
    const handle = jaw ? this.readyHandle(jaw) : null;
    if (!jaw || handle === null) return this.setStatus({ busy: false, error: 'NO_MODEL', method: null });
    const abort = new AbortController();
    this.abort = abort;
    this.setStatus({ busy: true, error: null, method: null });
    try {
      const result = await this.host.geometry.straighten(handle, jaw, { signal: abort.signal });
      if (abort.signal.aborted) return;
      // The worker straightens the jaw's own frame; the set is drawn in the bite's: undo the jaw's bite first.
      const bite = this.host.document().bite?.[jaw];
      this.commit('straighten.auto', bite ? multiply(result.matrix, invertRigid(bite)) : Array.from(result.matrix), jaw);
      this.setStatus({ busy: false, error: null, method: result.method });
      this.host.fitToView();
    } catch (e) {
      if (abort.signal.aborted || isAbortError(e)) return this.setStatus(IDLE_STRAIGHTEN);
      if (!(e instanceof GeometryError)) console.error('Straightening failed', e);
      this.setStatus({ busy: false, error: e instanceof GeometryError ? e.code : 'WORKER_FAILED', method: null });
    } finally {
      if (this.abort === abort) this.abort = null;
    }
  }

  cancel(): void {
    this.abort?.abort();
    this.abort = null;
    if (this.status.busy) this.setStatus(IDLE_STRAIGHTEN);
  }

  /** Draws the tool's rings and arrows (null: hides them); made on first use. */
  showHandles(layout: HandleLayout | null, hot: HandleId | null): void {
    const scene = this.host.scene();
    if (!scene) return;
    this.handles ??= new StraightenHandles(scene);
    this.handles.show(layout, hot);
    this.host.requestRender();
  }

  dispose(): void {
    this.cancel();
    this.handles?.dispose();
    this.handles = null;
  }

  /** The pose after rotating `from` by `degrees` about a world axis through `center`. */
  rotated(from: Matrix4, axis: Axis, degrees: number, center: Xyz): number[] {
    return multiply(rotationAbout(AXES[axis]!, (degrees * Math.PI) / 180, center), from);
  }

  /** The pose after moving `from` by `millimetres` along a world axis. */
  moved(from: Matrix4, axis: Axis, millimetres: number): number[] {
    const a = AXES[axis]!;
    return multiply(translation([a[0] * millimetres, a[1] * millimetres, a[2] * millimetres]), from);
  }

  /** A nudge button: one command. */
  rotate(axis: Axis, degrees: number): void {
    const center = this.center();
    if (!center) return;
    this.commit('straighten.rotate', this.rotated(this.pose, axis, degrees, center));
  }

  move(axis: Axis, millimetres: number): void {
    if (!this.center()) return;
    this.commit('straighten.move', this.moved(this.pose, axis, millimetres));
  }

  /** Back to the models' original pose (one command, so it can be undone and is saved). */
  reset(): void {
    this.cancel();
    const doc = this.host.document();
    if (!doc.straightening) return;
    const next = { ...doc };
    delete next.straightening;
    this.host.change('straighten.reset', next);
    this.setStatus(IDLE_STRAIGHTEN);
    this.host.fitToView();
  }

  /** Stores a pose in the document: one undoable command. */
  commit(label: string, matrix: Matrix4, jaw: Straightening['jaw'] | null = null): void {
    const doc = this.host.document();
    const straightening: Straightening = { matrix: cleanRigid(matrix), jaw: jaw ?? doc.straightening?.jaw ?? this.jaw() ?? 'upper' };
    this.host.change(label, { ...doc, straightening });
    if (this.status.error) this.setStatus({ ...this.status, error: null });
  }

  preview(matrix: Matrix4 | null): void {
    this.host.previewPose(matrix);
  }
}
