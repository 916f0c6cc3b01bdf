// The acrylic base in the scene: the outline drawn on its jaw (the worker's outlinePath, as the
// base will cut it), the generated base mesh (kept in the worker under its own handle, for the
// export), generation with progress and cancel, and the rules' messages. The engine owns one
// and calls sync() after every document change; the base is regenerated whenever the document
// says it was generated from an outline and settings that the shown mesh was not made from
// (reopening, redo).
import { Observable } from '@babylonjs/core/Misc/observable';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Material } from '@babylonjs/core/Materials/material';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { CreateLines } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import type { GeometryClient, MeshHandle } from '../../../geometry/client.ts';
import { GeometryError, isAbortError } from '../../../geometry/errors.ts';
import type { BaseDesign, DesignDocument } from '../../engine/document.ts';
import type { EditorContext } from '../../engine/context.ts';
import { FeatureStore } from '../../engine/store.ts';
import { checkBaseRules, insertionInModelFrame, type BaseProblem } from './rules.ts';

export type BaseGeometry = Pick<GeometryClient, 'generateBase' | 'outlinePath' | 'exportStl' | 'release'>;

export interface BaseView {
  status: 'none' | 'generating' | 'ready';
  /** 0..1 while generating. */
  progress: number | null;
  /** The last refusal or failure (a rule's or the worker's), until the next attempt. */
  problem: BaseProblem | null;
  triangles: number;
  volume: number;
  transparent: boolean;
}

/** A base's arrays as shown: the generated one (slotting starts from it) or a slotted one. */
export interface BaseMeshArrays {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  triangles: number;
  /** mm³ */
  volume: number;
}

const OUTLINE_COLOR = new Color3(0.1, 0.55, 0.25);
const BASE_COLOR = new Color3(0.95, 0.55, 0.65);

/** What a shown base was generated from: a regeneration is due when the document's differs. */
function keyOf(doc: DesignDocument): string {
  const b = doc.base;
  if (!b) return '';
  const s = (doc as { straightening?: unknown }).straightening ?? null;
  return JSON.stringify([b.jaw, b.outline.map((p) => p.point), b.thickness, b.height, s]);
}

export class BaseFeature {
  private readonly store = new FeatureStore<BaseView>({ status: 'none', progress: null, problem: null, triangles: 0, volume: 0, transparent: false });
  readonly onChanged = this.store.onChanged;
  readonly getState = this.store.getState;
  readonly subscribe = this.store.subscribe;
  private get state(): BaseView {
    return this.store.getState();
  }
  /** A freshly generated base is shown (its arrays as the worker made them), or the base went (null): slotting starts over. */
  readonly onGenerated = new Observable<BaseMeshArrays | null>();
  /** The designer generated (or regenerated) the base (generate(), not a regeneration on reopening or redo): the order stores it. */
  readonly onDesignerGenerated = new Observable<void>();
  /** Awaited before an export (slotting: the document's slots are all cut into the shown base). */
  beforeExport: (() => Promise<void>) | null = null;
  private base: { handle: MeshHandle; mesh: Mesh | null; key: string; jaw: 'upper' | 'lower' } | null = null;
  private material: StandardMaterial | null = null;
  private lineMaterial: StandardMaterial | null = null;
  private outlineNodes: Mesh[] = [];
  private outlineVersion = 0;
  private generation: { abort: AbortController; key: string } | null = null;
  private disposed = false;
  private running: Promise<boolean> | null = null;

  private readonly geometry: Partial<BaseGeometry>;

  constructor(private readonly host: EditorContext) {
    this.geometry = host.geometry;
  }

  get view(): BaseView {
    return this.state;
  }
  /** The worker handle of the shown base (export, thickness map), or null. */
  get handle(): MeshHandle | null {
    return this.base?.handle ?? null;
  }

  /** The shown base, published in the engine's state for the features that read it (the thickness map). */
  private setBase(base: BaseFeature['base']): void {
    this.base = base;
    if (!this.disposed) this.host.share({ baseMesh: base ? { handle: base.handle, jaw: base.jaw } : null });
  }

  private set(patch: Partial<BaseView>): void {
    this.store.set(patch);
  }

  /** Shows a problem found elsewhere (the measure tool's refusal). */
  report(problem: BaseProblem | null): void {
    this.set({ problem });
  }

  setTransparent(on: boolean): void {
    this.set({ transparent: on });
    this.applyMaterial();
  }

  /** Changes thickness and height (one undoable change; a generated base must be generated again). */
  setSettings(patch: Partial<Pick<BaseDesign, 'thickness' | 'height'>>): void {
    const doc = this.host.document();
    if (!doc.base) return;
    this.host.change('base.settings', { ...doc, base: { ...doc.base, ...patch, generated: false } });
  }

  /** Removes the outline and the base (undoable). */
  clear(): void {
    const doc = this.host.document();
    if (!doc.base) return;
    const next = { ...doc };
    delete next.base;
    this.host.change('base.clear', next);
  }

  /** The rules, then the worker: resolves true when a base is shown. */
  async generate(): Promise<boolean> {
    const doc = this.host.document();
    const jaw = doc.base?.jaw ?? 'upper';
    const problem = checkBaseRules(doc, this.host.modelState(jaw));
    if (problem) {
      this.set({ problem });
      return false;
    }
    const ok = await this.run(doc);
    if (ok && !this.host.document().base?.generated) {
      const now = this.host.document();
      if (keyOf(now) === this.base?.key) this.host.change('base.generate', { ...now, base: { ...now.base!, generated: true } });
    }
    if (ok) this.onDesignerGenerated.notifyObservers();
    return ok;
  }

  cancel(): void {
    this.generation?.abort.abort();
  }

  /** Resolves when the generation under way (if any) has ended (tests, reopening). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private run(doc: DesignDocument): Promise<boolean> {
    const p = this.runOnce(doc).finally(() => {
      if (this.running === p) this.running = null;
    });
    this.running = p;
    this.host.track(p);
    return p;
  }

  private async runOnce(doc: DesignDocument): Promise<boolean> {
    const base = doc.base!;
    const handle = this.host.handleOf(base.jaw);
    const generate = this.geometry.generateBase;
    if (handle === null || !generate) {
      this.set({ problem: { code: 'INIT_FAILED' } });
      return false;
    }
    this.generation?.abort.abort();
    const abort = new AbortController();
    const key = keyOf(doc);
    this.generation = { abort, key };
    this.set({ status: 'generating', progress: 0, problem: null });
    try {
      const outcome = await generate.call(
        this.geometry,
        handle,
        base.outline.map((p) => ({ triangle: p.triangle, point: [p.point[0], p.point[1], p.point[2]] })),
        { direction: insertionInModelFrame(doc, base.jaw), thickness: base.thickness, height: base.height, straightened: true },
        { signal: abort.signal, onProgress: (f) => this.generation?.abort === abort && this.set({ progress: f }) },
      );
      if (this.generation?.abort !== abort || this.disposed) {
        if (outcome.ok) void this.geometry.release?.(outcome.base.handle);
        return false;
      }
      this.generation = null;
      if (!outcome.ok) {
        this.set({ status: this.base ? 'ready' : 'none', progress: null, problem: { code: outcome.code, detail: outcome.detail } });
        return false;
      }
      this.dropBase();
      const b = outcome.base;
      this.setBase({ handle: b.handle, mesh: this.buildMesh(base.jaw, b.positions, b.normals, b.indices), key, jaw: base.jaw });
      this.set({ status: 'ready', progress: null, triangles: b.triangleCount, volume: b.volume });
      this.onGenerated.notifyObservers({ positions: b.positions, normals: b.normals, indices: b.indices, triangles: b.triangleCount, volume: b.volume });
      return true;
    } catch (e) {
      if (this.generation?.abort !== abort) return false;
      this.generation = null;
      const aborted = isAbortError(e) || (e instanceof GeometryError && e.code === 'ABORTED');
      if (!aborted) console.error('Base generation failed', e);
      this.set({ status: this.base ? 'ready' : 'none', progress: null, problem: aborted ? null : { code: 'INIT_FAILED' } });
      return false;
    }
  }

  /**
   * Shows other arrays for the same base (slotted, or back to as generated), kept in the worker
   * under `handle` (export and the thickness map use it); the handle shown before is released.
   * False, and `handle` released, when no base is shown any more.
   */
  replaceMesh(handle: MeshHandle, mesh: BaseMeshArrays): boolean {
    const b = this.base;
    if (!b || this.disposed) {
      void this.geometry.release?.(handle);
      return false;
    }
    b.mesh?.dispose();
    void this.geometry.release?.(b.handle);
    this.setBase({ ...b, handle, mesh: this.buildMesh(b.jaw, mesh.positions, mesh.normals, mesh.indices) });
    this.set({ triangles: mesh.triangles, volume: mesh.volume });
    return true;
  }

  /** STL bytes of the shown base, or null. */
  async exportStl(): Promise<Uint8Array | null> {
    await this.beforeExport?.();
    if (!this.base || !this.geometry.exportStl) return null;
    return this.geometry.exportStl(this.base.handle, 'Archwright base');
  }

  /** A model was dropped (a restored version reloads its jaw): a base on it went with its mesh and is made again when the jaw is back. */
  modelDropped(role: string): void {
    if (this.base?.jaw !== role) return;
    if (this.generation) this.cancel();
    this.dropBase();
    if (this.state.status !== 'none') this.set({ status: 'none', progress: null });
  }

  /** Makes the scene match the document: outline, and the base (dropped or regenerated). */
  sync(): void {
    const doc = this.host.document();
    void this.drawOutline(doc);
    const key = keyOf(doc);
    if (!doc.base?.generated) {
      if (this.generation) this.cancel();
      this.dropBase();
      if (this.state.status !== 'none') this.set({ status: 'none', progress: null });
      return;
    }
    if (this.base?.key === key || this.generation?.key === key) return;
    const jaw = doc.base.jaw;
    if (this.host.modelState(jaw).status !== 'ready' || this.host.handleOf(jaw) === null) return; // again when the model arrives
    void this.run(doc);
  }

  private async drawOutline(doc: DesignDocument): Promise<void> {
    const version = ++this.outlineVersion;
    const base = doc.base;
    const scene = this.host.scene();
    const parent = base ? this.host.meshOf(base.jaw) : null;
    let path: Float32Array | null = null;
    const handle = base ? this.host.handleOf(base.jaw) : null;
    if (base && base.outline.length >= 3 && handle !== null && this.geometry.outlinePath) {
      try {
        path = await this.geometry.outlinePath(
          handle,
          base.outline.map((p) => ({ triangle: p.triangle, point: [p.point[0], p.point[1], p.point[2]] })),
          { direction: insertionInModelFrame(doc, base.jaw) },
        );
      } catch (e) {
        console.error('Outline path failed', e);
      }
    }
    if (version !== this.outlineVersion || this.disposed) return;
    for (const n of this.outlineNodes) n.dispose();
    this.outlineNodes = [];
    if (!base || !scene || !parent) return this.host.requestRender();
    const points: Vector3[] = [];
    if (path && path.length >= 6) {
      for (let i = 0; i + 2 < path.length; i += 3) points.push(new Vector3(path[i], path[i + 1], path[i + 2]));
      // An open outline shows the path up to its last point; a closed one the whole loop.
      if (base.closed) points.push(points[0]!.clone());
    } else {
      for (const p of base.outline) points.push(new Vector3(p.point[0], p.point[1], p.point[2]));
    }
    if (points.length >= 2) {
      // One material for every redraw: a line disposing its own material takes the shared
      // colour effect with it, and the line drawn in its place would stay invisible.
      if (!this.lineMaterial) {
        this.lineMaterial = new StandardMaterial('base-outline-material', scene);
        this.lineMaterial.emissiveColor = OUTLINE_COLOR;
        this.lineMaterial.disableLighting = true;
      }
      const line = CreateLines('base-outline', { points, material: this.lineMaterial }, scene);
      line.renderingGroupId = 1;
      line.isPickable = false;
      line.parent = parent;
      this.outlineNodes.push(line);
    }
    base.outline.forEach((p, i) => {
      const dot = CreateSphere(`base-point-${i}`, { diameter: 0.6, segments: 8 }, scene);
      const material = new StandardMaterial(`base-point-${i}-material`, scene);
      material.emissiveColor = i === base.outline.length - 1 && !base.closed ? new Color3(0.95, 0.2, 0.35) : OUTLINE_COLOR;
      material.disableLighting = true;
      dot.material = material;
      dot.onDisposeObservable.add(() => material.dispose());
      dot.position.set(p.point[0], p.point[1], p.point[2]);
      dot.isPickable = false;
      dot.renderingGroupId = 1;
      dot.parent = parent;
      this.outlineNodes.push(dot);
    });
    this.host.requestRender();
  }

  private buildMesh(jaw: 'upper' | 'lower', positions: Float32Array, normals: Float32Array, indices: Uint32Array): Mesh | null {
    const scene = this.host.scene();
    if (!scene) return null;
    const mesh = new Mesh('base', scene);
    mesh.sideOrientation = Material.CounterClockWiseSideOrientation;
    const data = new VertexData();
    data.positions = positions;
    data.normals = normals;
    data.indices = indices;
    data.applyToMesh(mesh, false);
    this.material ??= new StandardMaterial('base-material', scene);
    mesh.material = this.material;
    mesh.isPickable = false;
    mesh.parent = this.host.meshOf(jaw);
    this.applyMaterial();
    return mesh;
  }

  private applyMaterial(): void {
    const m = this.material;
    if (!m) return;
    m.diffuseColor = BASE_COLOR;
    m.specularColor = new Color3(0.3, 0.3, 0.3);
    m.backFaceCulling = false;
    m.alpha = this.state.transparent ? 0.55 : 1;
    m.needDepthPrePass = this.state.transparent;
    m.transparencyMode = this.state.transparent ? Material.MATERIAL_ALPHABLEND : Material.MATERIAL_OPAQUE;
    this.host.requestRender();
  }

  private dropBase(): void {
    if (!this.base) return;
    this.base.mesh?.dispose();
    void this.geometry.release?.(this.base.handle);
    this.setBase(null);
    this.onGenerated.notifyObservers(null);
    this.host.requestRender();
  }

  dispose(): void {
    this.disposed = true;
    this.generation?.abort.abort();
    for (const n of this.outlineNodes) n.dispose();
    this.dropBase();
    this.lineMaterial?.dispose();
    this.store.clear();
    this.onGenerated.clear();
    this.onDesignerGenerated.clear();
  }
}
