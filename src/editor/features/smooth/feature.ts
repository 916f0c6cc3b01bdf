// The smoothing brush ("smudging") on the models: dabs through the worker's smoothDab while the
// pointer drags over a model, the moved vertices written into the Babylon vertex buffers (only
// the range they span), one undoable command per stroke, "Smooth all" (smoothRegion), and the
// cursor ring. The document keeps every operation (SmoothOp) so that autosave sees it and
// reopening replays it on the freshly loaded model; a command keeps the moved vertices' old
// and new positions and normals, which undo and redo write back through the worker.
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { CreateTorus } from '@babylonjs/core/Meshes/Builders/torusBuilder';
import type { GeometryClient, MeshHandle, SmoothResult } from '../../../geometry/client.ts';
import type { DesignDocument, ModelRole, SmoothOp } from '../../engine/document.ts';
import { BRUSH_VERSION, dabFilter } from './brush.ts';
import { mm } from '../../engine/units.ts';
import type { ModelHit } from '../../engine/tools/tool.ts';
import type { EditorContext } from '../../engine/context.ts';
import { FeatureStore } from '../../engine/store.ts';

export type SmoothGeometry = Pick<GeometryClient, 'smoothDab' | 'smoothRegion' | 'setVertices'>;

export interface SmoothView {
  radius: number;
  /** 0..1 */
  strength: number;
  /** "Smooth all" under way: 0..1. */
  progress: number | null;
  /** A stroke is being drawn. */
  stroking: boolean;
}

/** Old and new values of the vertices an operation touched (xyz each, in `vertices` order). */
interface VertexChange {
  model: ModelRole;
  vertices: Uint32Array;
  before: { positions: Float32Array; normals: Float32Array };
  after: { positions: Float32Array; normals: Float32Array };
}

interface Stroke {
  model: ModelRole;
  handle: MeshHandle;
  dabs: number[];
  /** Vertex → its values before the stroke (first time seen) and after (latest). */
  touched: Map<number, { before: number[]; after: number[] }>;
}

export const BRUSH_RADIUS = { min: 0.5, max: 10, initial: 2 };

export class SmoothFeature {
  private readonly store = new FeatureStore<SmoothView>({ radius: BRUSH_RADIUS.initial, strength: 0.5, progress: null, stroking: false });
  readonly onChanged = this.store.onChanged;
  readonly getState = this.store.getState;
  readonly subscribe = this.store.subscribe;
  private get state(): SmoothView {
    return this.store.getState();
  }
  private stroke: Stroke | null = null;
  private queue: Promise<void> = Promise.resolve();
  private ring: TransformNode | null = null;
  /** Models whose saved operations were replayed (once, when they arrive). */
  private readonly replayed = new Set<ModelRole>();

  private readonly geometry: Partial<SmoothGeometry>;

  constructor(private readonly host: EditorContext) {
    this.geometry = host.geometry;
  }

  get view(): SmoothView {
    return this.state;
  }
  private set(patch: Partial<SmoothView>): void {
    this.store.set(patch);
  }
  setRadius(radius: number): void {
    this.set({ radius: Math.min(BRUSH_RADIUS.max, Math.max(BRUSH_RADIUS.min, radius)) });
  }
  setStrength(strength: number): void {
    this.set({ strength: Math.min(1, Math.max(0.05, strength)) });
  }

  // ------------------------------------------------------------------ cursor ring

  /** The ring under the pointer (null hides it): brush size on the surface, facing the camera. */
  showCursor(hit: ModelHit | null): void {
    const scene = this.host.scene();
    const parent = hit ? this.host.meshOf(hit.model) : null;
    if (!scene || !hit || !parent) {
      this.ring?.setEnabled(false);
      this.host.requestRender();
      return;
    }
    if (!this.ring) {
      const node = new TransformNode('brush-cursor', scene);
      node.billboardMode = TransformNode.BILLBOARDMODE_ALL;
      const torus = CreateTorus('brush-ring', { diameter: 2, thickness: 0.04, tessellation: 48 }, scene);
      torus.rotation.x = Math.PI / 2; // its axis (local y) towards the camera (the billboard's z)
      const material = new StandardMaterial('brush-ring-material', scene);
      material.emissiveColor = new Color3(0.1, 0.5, 0.95);
      material.disableLighting = true;
      torus.material = material;
      torus.isPickable = false;
      torus.renderingGroupId = 1;
      torus.parent = node;
      this.ring = node;
    }
    this.ring.parent = parent;
    this.ring.position.set(hit.pick.point[0], hit.pick.point[1], hit.pick.point[2]);
    this.ring.scaling.setAll(this.state.radius);
    this.ring.setEnabled(true);
    this.host.requestRender();
  }

  /** The ring's centre and radius (tests). */
  get cursor(): { point: [number, number, number]; radius: number } | null {
    if (!this.ring?.isEnabled()) return null;
    const p = this.ring.position;
    return { point: [p.x, p.y, p.z], radius: this.ring.scaling.x };
  }

  // ------------------------------------------------------------------ strokes

  /** Starts a stroke with a dab at a hit; false when the model cannot be smoothed. */
  begin(hit: ModelHit): boolean {
    const handle = this.host.handleOf(hit.model);
    if (handle === null || !this.geometry.smoothDab || this.stroke) return false;
    this.stroke = { model: hit.model, handle, dabs: [], touched: new Map() };
    this.set({ stroking: true });
    this.dab(hit);
    return true;
  }

  /** One more dab of the stroke (dabs run one after another in the worker). */
  dab(hit: ModelHit): void {
    const stroke = this.stroke;
    if (!stroke || hit.model !== stroke.model) return;
    const { radius, strength } = this.state;
    const p = hit.pick.point;
    stroke.dabs.push(round(p[0]), round(p[1]), round(p[2]), hit.pick.triangle);
    this.enqueue(async () => {
      try {
        const result = await this.geometry.smoothDab!(stroke.handle, { center: [p[0], p[1], p[2]], triangle: hit.pick.triangle, radius, ...dabFilter(BRUSH_VERSION, strength) });
        this.apply(stroke.model, result, stroke.touched);
      } catch (e) {
        console.error('Smoothing dab failed', e);
      }
    });
  }

  /** Ends the stroke: one command (undo writes the old vertices back). Resolves when its dabs are done. */
  async end(): Promise<void> {
    const stroke = this.stroke;
    if (!stroke) return;
    await this.queue;
    this.stroke = null;
    this.set({ stroking: false });
    if (stroke.dabs.length === 0 || stroke.touched.size === 0) return;
    const change = changeOf(stroke.model, stroke.touched);
    const op: SmoothOp = { model: stroke.model, radius: mm(this.state.radius), strength: this.state.strength, dabs: stroke.dabs, brush: BRUSH_VERSION };
    this.commit('smooth.stroke', op, change);
  }

  /** Smooths a whole model (progress); one undoable command. */
  async smoothAll(model: ModelRole): Promise<boolean> {
    const handle = this.host.handleOf(model);
    const mesh = this.host.meshOf(model);
    if (handle === null || !this.geometry.smoothRegion || this.state.progress !== null) return false;
    const before = mesh ? snapshot(mesh) : null;
    this.set({ progress: 0 });
    try {
      const result = await this.geometry.smoothRegion(handle, {}, { onProgress: (f) => this.set({ progress: f }) });
      this.apply(model, result, null);
      const after = mesh ? snapshot(mesh) : null;
      const all = Uint32Array.from({ length: (before?.positions.length ?? 0) / 3 }, (_, i) => i);
      const change: VertexChange | null = before && after ? { model, vertices: all, before, after } : null;
      this.commit('smooth.all', { model, radius: mm(0), strength: 1, all: true }, change);
      return true;
    } catch (e) {
      console.error('Smoothing the model failed', e);
      return false;
    } finally {
      this.set({ progress: null });
    }
  }

  private commit(label: string, op: SmoothOp, change: VertexChange | null): void {
    const doc = this.host.document();
    const next: DesignDocument = { ...doc, smoothing: [...(doc.smoothing ?? []), op] };
    let first = true;
    this.host.changeWith(label, next, {
      do: () => {
        if (first) first = false; // the mesh already shows it
        else if (change) void this.write(change, 'after');
      },
      undo: () => {
        if (change) void this.write(change, 'before');
      },
    });
  }

  /** Writes one side of a change into the worker's mesh and the vertex buffers. */
  private write(change: VertexChange, side: 'before' | 'after'): Promise<void> {
    const handle = this.host.handleOf(change.model);
    const values = change[side];
    return this.enqueue(async () => {
      if (handle === null || !this.geometry.setVertices) return;
      try {
        await this.geometry.setVertices(handle, change.vertices, values.positions, values.normals);
        this.upload(change.model, change.vertices, values.positions, values.normals);
      } catch (e) {
        console.error('Restoring smoothed vertices failed', e);
      }
    });
  }

  /** A copy of a model's positions as the renderer has them (tests, diagnostics). */
  drawnPositions(model: ModelRole): Float32Array | null {
    const data = this.host.meshOf(model)?.getVerticesData(VertexBuffer.PositionKind);
    return data ? Float32Array.from(data) : null;
  }

  /** Runs after every queued dab and write; the picture is pending until it is done. */
  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work);
    this.host.track(this.queue);
    return this.queue;
  }

  /** Resolves when every queued dab and write has reached the vertex buffers (tests). */
  settled(): Promise<void> {
    return this.queue;
  }

  /**
   * Puts a dab's result into the buffers, remembering the first old values per vertex. `render`
   * false leaves the frame to the caller (a replay draws once at its end, not once per dab).
   */
  private apply(model: ModelRole, r: SmoothResult, touched: Stroke['touched'] | null, render = true): void {
    const mesh = this.host.meshOf(model);
    if (!mesh) return;
    if (touched) {
      const pos = mesh.getVerticesData(VertexBuffer.PositionKind);
      const nrm = mesh.getVerticesData(VertexBuffer.NormalKind);
      for (let i = 0; i < r.vertices.length; i++) {
        const v = r.vertices[i]!;
        const after = [r.positions[i * 3]!, r.positions[i * 3 + 1]!, r.positions[i * 3 + 2]!, ...(r.normals ? [r.normals[i * 3]!, r.normals[i * 3 + 1]!, r.normals[i * 3 + 2]!] : [0, 0, 1])];
        const seen = touched.get(v);
        if (seen) seen.after = after;
        else {
          const o = v * 3;
          const before = pos && nrm ? [pos[o]!, pos[o + 1]!, pos[o + 2]!, nrm[o]!, nrm[o + 1]!, nrm[o + 2]!] : after;
          touched.set(v, { before, after });
        }
      }
    }
    this.upload(model, r.vertices, r.positions, r.normals ?? null, render);
  }

  /** Writes listed vertices into the Babylon buffers, uploading only the range they span. */
  private upload(model: ModelRole, vertices: Uint32Array, positions: Float32Array, normals: Float32Array | null, render = true): void {
    const mesh = this.host.meshOf(model);
    if (!mesh || vertices.length === 0) return;
    let lo = Infinity, hi = -1;
    for (const v of vertices) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    for (const [kind, values] of [[VertexBuffer.PositionKind, positions], [VertexBuffer.NormalKind, normals]] as const) {
      if (!values) continue;
      const buffer = mesh.getVertexBuffer(kind);
      // The buffer's own CPU copy, written in place (Babylon's partial updateDirectly would drop it).
      const data = buffer?.getData();
      if (!buffer || !(data instanceof Float32Array)) continue;
      for (let i = 0; i < vertices.length; i++) {
        const o = vertices[i]! * 3;
        data[o] = values[i * 3]!;
        data[o + 1] = values[i * 3 + 1]!;
        data[o + 2] = values[i * 3 + 2]!;
      }
      const gpu = buffer.getBuffer();
      if (buffer.isUpdatable() && gpu) mesh.getEngine().updateDynamicVertexBuffer(gpu, data.subarray(lo * 3, (hi + 1) * 3), lo * 3 * 4);
      else mesh.updateVerticesData(kind, data); // a mesh built without dynamic buffers: whole upload
    }
    if (render) this.host.requestRender();
  }

  // ------------------------------------------------------------------ reopening

  /** Replays the document's operations on a model that has just arrived (once per model). */
  async replay(model: ModelRole): Promise<void> {
    if (this.replayed.has(model)) return;
    this.replayed.add(model);
    const ops = (this.host.document().smoothing ?? []).filter((o) => o.model === model);
    const handle = this.host.handleOf(model);
    if (ops.length === 0 || handle === null) return;
    return this.enqueue(async () => {
      try {
        for (const op of ops) {
          if (op.all) {
            this.apply(model, await this.geometry.smoothRegion!(handle, {}), null, false);
            continue;
          }
          const d = op.dabs ?? [];
          const filter = dabFilter(op.brush ?? 1, op.strength);
          for (let i = 0; i + 3 < d.length; i += 4) {
            const r = await this.geometry.smoothDab!(handle, { center: [d[i]!, d[i + 1]!, d[i + 2]!], triangle: d[i + 3]!, radius: op.radius, ...filter });
            // No frame per dab: with a software renderer a frame costs far more than the dab
            // (reopening a stroke of some 50 dabs: 33 s instead of 7 on a busy machine, the
            // browser test's figures). The frame after the replay shows it all.
            this.apply(model, r, null, false);
          }
        }
      } catch (e) {
        console.error('Replaying the smoothing failed', e);
      }
      this.host.requestRender();
    });
  }

  /** A model was dropped (another order): its operations replay when it comes back. */
  forget(model: ModelRole): void {
    this.replayed.delete(model);
  }

  dispose(): void {
    this.ring?.dispose(false, true);
    this.ring = null;
    this.store.clear();
  }
}

const round = (v: number): number => Math.round(v * 1e4) / 1e4;

function snapshot(mesh: Mesh): { positions: Float32Array; normals: Float32Array } {
  return {
    positions: Float32Array.from(mesh.getVerticesData(VertexBuffer.PositionKind) ?? []),
    normals: Float32Array.from(mesh.getVerticesData(VertexBuffer.NormalKind) ?? []),
  };
}

function changeOf(model: ModelRole, touched: Stroke['touched']): VertexChange {
  const n = touched.size;
  const vertices = new Uint32Array(n);
  const before = { positions: new Float32Array(n * 3), normals: new Float32Array(n * 3) };
  const after = { positions: new Float32Array(n * 3), normals: new Float32Array(n * 3) };
  let i = 0;
  for (const [v, t] of touched) {
    vertices[i] = v;
    before.positions.set(t.before.slice(0, 3), i * 3);
    before.normals.set(t.before.slice(3, 6), i * 3);
    after.positions.set(t.after.slice(0, 3), i * 3);
    after.normals.set(t.after.slice(3, 6), i * 3);
    i++;
  }
  return { model, vertices, before, after };
}
