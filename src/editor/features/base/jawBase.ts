// One jaw's acrylic base in the scene: the outline drawn on the jaw (the worker's outlinePath, as
// the base will cut it), the generated base mesh (kept in the worker under its own handle, for
// the export), generation with progress and cancel, and the rules' messages. The base feature
// (feature.ts) holds one per jaw, so generating or changing one jaw's base never touches the
// other's. sync() regenerates the base whenever the document says it was generated from an
// outline and settings that the shown mesh was not made from (reopening, redo).
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
import type { DesignDocument, Jaw } from '../../engine/document.ts';
import type { EditorContext } from '../../engine/context.ts';
import { checkBaseRules, insertionInModelFrame, type BaseProblem } from './rules.ts';

export type BaseGeometry = Pick<GeometryClient, 'generateBase' | 'outlinePath' | 'exportStl' | 'release'>;

/** One jaw's base: its generation and what is shown. */
export interface JawBaseView {
  status: 'none' | 'generating' | 'ready';
  /** 0..1 while generating. */
  progress: number | null;
  /** The last refusal or failure (a rule's or the worker's), until the next attempt. */
  problem: BaseProblem | null;
  triangles: number;
  volume: number;
}

export const NO_JAW_BASE: JawBaseView = { status: 'none', progress: null, problem: null, triangles: 0, volume: 0 };

/** A base's arrays as shown: the generated one (slotting starts from it) or a slotted one. */
export interface BaseMeshArrays {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
  triangles: number;
  /** mm³ */
  volume: number;
}

/** What a jaw's base shares with the feature: the materials of both jaws and where it reports. */
export interface JawBaseHost {
  ctx: EditorContext;
  /** The jaw's base material (the semi-transparent option applies to both jaws). */
  material(jaw: Jaw): StandardMaterial | null;
  lineMaterial(): StandardMaterial | null;
  changed(jaw: Jaw, view: JawBaseView): void;
  /** The shown base's worker mesh changed (null: none). */
  shown(jaw: Jaw, handle: MeshHandle | null): void;
  /** A freshly generated base is shown (its arrays as the worker made them), or it went (null). */
  generated(jaw: Jaw, arrays: BaseMeshArrays | null): void;
}

const OUTLINE_COLOR = new Color3(0.1, 0.55, 0.25);

/** What a jaw's shown base was generated from: a regeneration is due when the document's differs. */
function keyOf(doc: DesignDocument, jaw: Jaw): string {
  const b = doc.bases?.[jaw];
  if (!b) return '';
  return JSON.stringify([jaw, b.outline.map((p) => p.point), b.thickness, b.height, doc.straightening ?? null]);
}

export class JawBase {
  private state: JawBaseView = NO_JAW_BASE;
  /** The shown base; `generated` is the worker's base as generated (the shown one until slotted), kept for measuring tags. */
  private base: { handle: MeshHandle; generated: MeshHandle; mesh: Mesh | null; key: string } | null = null;
  private outlineNodes: Mesh[] = [];
  private outlineVersion = 0;
  private generation: { abort: AbortController; key: string } | null = null;
  private disposed = false;
  private running: Promise<boolean> | null = null;
  private readonly ctx: EditorContext;
  private readonly geometry: Partial<BaseGeometry>;

  constructor(
    readonly jaw: Jaw,
    private readonly host: JawBaseHost,
  ) {
    this.ctx = host.ctx;
    this.geometry = host.ctx.geometry;
  }

  get view(): JawBaseView {
    return this.state;
  }
  /** The worker handle of the shown base (export, thickness map), or null. */
  get handle(): MeshHandle | null {
    return this.base?.handle ?? null;
  }
  /** The worker handle of the base as generated (before slots): tags are measured against it; null without a base. */
  get generatedHandle(): MeshHandle | null {
    return this.base?.generated ?? null;
  }
  /** The shown base's Babylon mesh (the thickness map colours it), or null. */
  get mesh(): Mesh | null {
    return this.base?.mesh ?? null;
  }

  private setBase(base: JawBase['base']): void {
    this.base = base;
    if (!this.disposed) this.host.shown(this.jaw, base?.handle ?? null);
  }

  set(patch: Partial<JawBaseView>): void {
    this.state = { ...this.state, ...patch };
    if (!this.disposed) this.host.changed(this.jaw, this.state);
  }

  /** The rules, then the worker: resolves true when a base is shown (and made from the document now). */
  async generate(): Promise<boolean> {
    const doc = this.ctx.document();
    const problem = checkBaseRules(doc, this.jaw, this.ctx.modelState(this.jaw));
    if (problem) {
      this.set({ problem });
      return false;
    }
    return this.run(doc);
  }

  /** Whether the shown base was made from this document's outline and settings. */
  showsDocument(doc: DesignDocument): boolean {
    return !!this.base && keyOf(doc, this.jaw) === this.base.key;
  }

  cancel(): void {
    this.generation?.abort.abort();
  }

  /** Resolves when the generation under way (if any) has ended. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private run(doc: DesignDocument): Promise<boolean> {
    const p = this.runOnce(doc).finally(() => {
      if (this.running === p) this.running = null;
    });
    this.running = p;
    this.ctx.track(p);
    return p;
  }

  private async runOnce(doc: DesignDocument): Promise<boolean> {
    const base = doc.bases![this.jaw]!;
    const handle = this.ctx.handleOf(this.jaw);
    const generate = this.geometry.generateBase;
    if (handle === null || !generate) {
      this.set({ problem: { code: 'INIT_FAILED' } });
      return false;
    }
    this.generation?.abort.abort();
    const abort = new AbortController();
    const key = keyOf(doc, this.jaw);
    this.generation = { abort, key };
    this.set({ status: 'generating', progress: 0, problem: null });
    try {
      const outcome = await generate.call(
        this.geometry,
        handle,
        base.outline.map((p) => ({ triangle: p.triangle, point: [p.point[0], p.point[1], p.point[2]] })),
        { direction: insertionInModelFrame(doc, this.jaw), thickness: base.thickness, height: base.height, straightened: true },
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
      this.setBase({ handle: b.handle, generated: b.handle, mesh: this.buildMesh(b.positions, b.normals, b.indices), key });
      this.set({ status: 'ready', progress: null, triangles: b.triangleCount, volume: b.volume });
      this.host.generated(this.jaw, { positions: b.positions, normals: b.normals, indices: b.indices, triangles: b.triangleCount, volume: b.volume });
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
   * under `handle`; the handle shown before is released (not the generated one). False, and `handle` released, when no
   * base is shown any more.
   */
  replaceMesh(handle: MeshHandle, mesh: BaseMeshArrays): boolean {
    const b = this.base;
    if (!b || this.disposed) {
      void this.geometry.release?.(handle);
      return false;
    }
    b.mesh?.dispose();
    if (b.handle !== b.generated) void this.geometry.release?.(b.handle);
    this.setBase({ ...b, handle, mesh: this.buildMesh(mesh.positions, mesh.normals, mesh.indices) });
    this.set({ triangles: mesh.triangles, volume: mesh.volume });
    return true;
  }

  /** STL bytes of the shown base, or null. */
  async exportStl(matrix?: number[]): Promise<Uint8Array | null> {
    if (!this.base || !this.geometry.exportStl) return null;
    return matrix
      ? this.geometry.exportStl(this.base.handle, `Archwright ${this.jaw} base`, matrix)
      : this.geometry.exportStl(this.base.handle, `Archwright ${this.jaw} base`);
  }

  /** The jaw's model was dropped: the base went with its mesh and is made again when the jaw is back. */
  modelDropped(): void {
    if (this.generation) this.cancel();
    this.dropBase();
    if (this.state.status !== 'none') this.set({ status: 'none', progress: null });
  }

  /** Makes the scene match the document: outline, and the base (dropped or regenerated). */
  sync(doc: DesignDocument): void {
    void this.drawOutline(doc);
    const base = doc.bases?.[this.jaw];
    if (!base?.generated) {
      if (this.generation) this.cancel();
      this.dropBase();
      if (this.state.status !== 'none') this.set({ status: 'none', progress: null });
      return;
    }
    const key = keyOf(doc, this.jaw);
    if (this.base?.key === key || this.generation?.key === key) return;
    if (this.ctx.modelState(this.jaw).status !== 'ready' || this.ctx.handleOf(this.jaw) === null) return; // again when the model arrives
    void this.run(doc);
  }

  private async drawOutline(doc: DesignDocument): Promise<void> {
    const version = ++this.outlineVersion;
    const base = doc.bases?.[this.jaw];
    const scene = this.ctx.scene();
    const parent = base ? this.ctx.meshOf(this.jaw) : null;
    let path: Float32Array | null = null;
    const handle = base ? this.ctx.handleOf(this.jaw) : null;
    if (base && base.outline.length >= 3 && handle !== null && this.geometry.outlinePath) {
      try {
        path = await this.geometry.outlinePath(
          handle,
          base.outline.map((p) => ({ triangle: p.triangle, point: [p.point[0], p.point[1], p.point[2]] })),
          { direction: insertionInModelFrame(doc, this.jaw) },
        );
      } catch (e) {
        console.error('Outline path failed', e);
      }
    }
    if (version !== this.outlineVersion || this.disposed) return;
    for (const n of this.outlineNodes) n.dispose();
    this.outlineNodes = [];
    if (!base || !scene || !parent) return this.ctx.requestRender();
    const points: Vector3[] = [];
    if (path && path.length >= 6) {
      for (let i = 0; i + 2 < path.length; i += 3) points.push(new Vector3(path[i], path[i + 1], path[i + 2]));
      // An open outline shows the path up to its last point; a closed one the whole loop.
      if (base.closed) points.push(points[0]!.clone());
    } else {
      for (const p of base.outline) points.push(new Vector3(p.point[0], p.point[1], p.point[2]));
    }
    const lineMaterial = this.host.lineMaterial();
    if (points.length >= 2 && lineMaterial) {
      const line = CreateLines(`base-outline-${this.jaw}`, { points, material: lineMaterial }, scene);
      line.renderingGroupId = 1;
      line.isPickable = false;
      line.parent = parent;
      this.outlineNodes.push(line);
    }
    base.outline.forEach((p, i) => {
      const dot = CreateSphere(`base-point-${this.jaw}-${i}`, { diameter: 0.6, segments: 8 }, scene);
      const material = new StandardMaterial(`base-point-${this.jaw}-${i}-material`, scene);
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
    this.ctx.requestRender();
  }

  private buildMesh(positions: Float32Array, normals: Float32Array, indices: Uint32Array): Mesh | null {
    const scene = this.ctx.scene();
    if (!scene) return null;
    // Named 'base' on either jaw (the frame summary counts it); its parent is the jaw's mesh.
    const mesh = new Mesh('base', scene);
    mesh.sideOrientation = Material.CounterClockWiseSideOrientation;
    const data = new VertexData();
    data.positions = positions;
    data.normals = normals;
    data.indices = indices;
    data.applyToMesh(mesh, false);
    mesh.material = this.host.material(this.jaw);
    mesh.isPickable = false;
    mesh.parent = this.ctx.meshOf(this.jaw);
    this.ctx.requestRender();
    return mesh;
  }

  private dropBase(): void {
    if (!this.base) return;
    this.base.mesh?.dispose();
    void this.geometry.release?.(this.base.handle);
    if (this.base.generated !== this.base.handle) void this.geometry.release?.(this.base.generated);
    this.setBase(null);
    this.host.generated(this.jaw, null);
    this.ctx.requestRender();
  }

  dispose(): void {
    this.disposed = true;
    this.generation?.abort.abort();
    for (const n of this.outlineNodes) n.dispose();
    this.dropBase();
  }
}
