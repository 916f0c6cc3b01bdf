// The acrylic bases in the scene: one per jaw (jawBase.ts), each with its own outline,
// generation, progress and problem, so that changing one jaw's base never regenerates the
// other's. The feature keeps the jaw the designer works on (`jaw` of the view: the jaw clicked
// with the base tool or picked in the side panel); the panel's fields, generation and export
// act on it. The engine owns one and calls sync() after every document change.
import { Observable } from '@babylonjs/core/Misc/observable';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Material } from '@babylonjs/core/Materials/material';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import type { MeshHandle } from '../../../geometry/client.ts';
import { mergeBinaryStl } from '../../../geometry/stlMerge.ts';
import { JAWS, withBase, type BaseDesign, type Jaw } from '../../engine/document.ts';
import type { EditorContext } from '../../engine/context.ts';
import { FeatureStore } from '../../engine/store.ts';
import { JawBase, NO_JAW_BASE, type BaseMeshArrays, type JawBaseView } from './jawBase.ts';
import type { BaseProblem } from './rules.ts';

export type { BaseGeometry, BaseMeshArrays, JawBaseView } from './jawBase.ts';

/** The active jaw's base (the top-level fields), each jaw's, and the display option of both. */
export interface BaseView extends JawBaseView {
  /** The jaw the designer works on: the panel, generation and export are its. */
  jaw: Jaw;
  jaws: Record<Jaw, JawBaseView>;
  transparent: boolean;
}

export const NO_BASE_VIEW: BaseView = { ...NO_JAW_BASE, jaw: 'upper', jaws: { upper: NO_JAW_BASE, lower: NO_JAW_BASE }, transparent: false };

const OUTLINE_COLOR = new Color3(0.1, 0.55, 0.25);
const BASE_COLOR = new Color3(0.95, 0.55, 0.65);

export class BaseFeature {
  private readonly store = new FeatureStore<BaseView>(NO_BASE_VIEW);
  readonly onChanged = this.store.onChanged;
  readonly getState = this.store.getState;
  readonly subscribe = this.store.subscribe;
  /** A freshly generated base of a jaw is shown (its arrays as the worker made them), or it went (null): that jaw's slotting starts over. */
  readonly onGenerated = new Observable<{ jaw: Jaw; arrays: BaseMeshArrays | null }>();
  /** The designer generated (or regenerated) a jaw's base (generate(), not a regeneration on reopening or redo): the order stores it. */
  readonly onDesignerGenerated = new Observable<Jaw>();
  /** Awaited before an export (slotting: the document's slots are all cut into the shown bases). */
  beforeExport: (() => Promise<void>) | null = null;
  private readonly jaws: Record<Jaw, JawBase>;
  /** One material per jaw (the thickness map whitens the one of the base it colours). */
  private readonly materials: Partial<Record<Jaw, StandardMaterial>> = {};
  private lineMaterial: StandardMaterial | null = null;
  /** The designer picked the jaw (tool, panel): it no longer follows the document's bases. */
  private picked = false;
  private disposed = false;

  constructor(private readonly host: EditorContext) {
    const jawHost = {
      ctx: host,
      material: (jaw: Jaw) => this.baseMaterial(jaw),
      lineMaterial: () => this.outlineMaterial(),
      changed: (jaw: Jaw, view: JawBaseView) => this.publish({ jaws: { ...this.state.jaws, [jaw]: view } }),
      shown: (jaw: Jaw, handle: MeshHandle | null) => {
        if (!this.disposed) this.host.share({ baseMeshes: { ...this.host.state().baseMeshes, [jaw]: handle } });
      },
      generated: (jaw: Jaw, arrays: BaseMeshArrays | null) => this.onGenerated.notifyObservers({ jaw, arrays }),
    };
    this.jaws = { upper: new JawBase('upper', jawHost), lower: new JawBase('lower', jawHost) };
  }

  private get state(): BaseView {
    return this.store.getState();
  }
  get view(): BaseView {
    return this.state;
  }
  /** The jaw the designer works on. */
  get jaw(): Jaw {
    return this.state.jaw;
  }
  /** The worker handle of the active jaw's shown base (export, thickness map), or null. */
  get handle(): MeshHandle | null {
    return this.jaws[this.jaw].handle;
  }
  /** The worker handle of a jaw's shown base, or null. */
  handleOf(jaw: Jaw): MeshHandle | null {
    return this.jaws[jaw].handle;
  }
  /** The worker handle of a jaw's base as generated (before slots), or null. */
  generatedHandleOf(jaw: Jaw): MeshHandle | null {
    return this.jaws[jaw].generatedHandle;
  }

  /** The view with the active jaw's fields on top. */
  private publish(patch: Partial<Pick<BaseView, 'jaw' | 'jaws' | 'transparent'>>): void {
    if (this.disposed) return;
    const jaw = patch.jaw ?? this.state.jaw;
    const jaws = patch.jaws ?? this.state.jaws;
    this.store.set({ ...patch, ...jaws[jaw] });
  }

  /** Works on this jaw from now on (the panel's switch, a click of the base tool). */
  setJaw(jaw: Jaw): void {
    this.picked = true;
    if (jaw !== this.state.jaw) this.publish({ jaw });
  }

  /** Shows a problem found elsewhere (the measure tool's refusal) with the active jaw's base. */
  report(problem: BaseProblem | null): void {
    this.jaws[this.jaw].set({ problem });
  }

  setTransparent(on: boolean): void {
    this.publish({ transparent: on });
    this.applyMaterial();
  }

  /** Changes thickness and height of a jaw's base (one undoable change; a generated base must be generated again). */
  setSettings(patch: Partial<Pick<BaseDesign, 'thickness' | 'height'>>, jaw: Jaw = this.jaw): void {
    const doc = this.host.document();
    const base = doc.bases?.[jaw];
    if (!base) return;
    this.host.change('base.settings', withBase(doc, jaw, { ...base, ...patch, generated: false }));
  }

  /** Removes a jaw's outline and base (undoable); the other jaw's stays. */
  clear(jaw: Jaw = this.jaw): void {
    const doc = this.host.document();
    if (!doc.bases?.[jaw]) return;
    this.host.change('base.clear', withBase(doc, jaw, undefined));
  }

  /** The rules, then the worker, for a jaw (default: the active one, which it becomes): resolves true when its base is shown. */
  async generate(jaw: Jaw = this.jaw): Promise<boolean> {
    this.setJaw(jaw);
    const ok = await this.jaws[jaw].generate();
    const now = this.host.document();
    const base = now.bases?.[jaw];
    if (ok && base && !base.generated && this.jaws[jaw].showsDocument(now)) this.host.change('base.generate', withBase(now, jaw, { ...base, generated: true }));
    if (ok) this.onDesignerGenerated.notifyObservers(jaw);
    return ok;
  }

  /** Stops a jaw's generation under way (default: the active jaw's). */
  cancel(jaw: Jaw = this.jaw): void {
    this.jaws[jaw].cancel();
  }

  /** Resolves when the generations under way (if any) have ended (tests, reopening). */
  async settled(): Promise<void> {
    await Promise.all(JAWS.map((jaw) => this.jaws[jaw].settled()));
  }

  /**
   * Shows other arrays for a jaw's base (slotted, or back to as generated), kept in the worker
   * under `handle`. False, and `handle` released, when that jaw shows no base any more.
   */
  replaceMesh(jaw: Jaw, handle: MeshHandle, mesh: BaseMeshArrays): boolean {
    return this.jaws[jaw].replaceMesh(handle, mesh);
  }

  /** STL bytes of a jaw's shown base (default: the active jaw's), slots cut, moved by a rigid `matrix` when given; null without one. */
  async exportStl(jaw: Jaw = this.jaw, matrix?: number[]): Promise<Uint8Array | null> {
    await this.beforeExport?.();
    return this.jaws[jaw].exportStl(matrix);
  }

  /** STL bytes of every shown base (slots cut), one shell per jaw, upper first; null without any: the order's one base file. */
  async exportAllStl(): Promise<Uint8Array | null> {
    await this.beforeExport?.();
    const parts: { name: string; bytes: Uint8Array }[] = [];
    for (const jaw of JAWS) {
      const bytes = await this.jaws[jaw].exportStl();
      if (bytes) parts.push({ name: `${jaw} base`, bytes });
    }
    if (parts.length <= 1) return parts[0]?.bytes ?? null;
    return mergeBinaryStl(parts, 'bases');
  }

  /** A model was dropped (a restored version reloads its jaw): a base on it went with its mesh and is made again when the jaw is back. */
  modelDropped(role: string): void {
    if (role === 'upper' || role === 'lower') this.jaws[role].modelDropped();
  }

  /** Makes the scene match the document: each jaw's outline and base (dropped or regenerated). */
  sync(): void {
    const doc = this.host.document();
    // Until the designer picks a jaw, the panel shows a base the document has (reopening).
    if (!this.picked && !doc.bases?.[this.jaw]) {
      const other = JAWS.find((j) => doc.bases?.[j]);
      if (other) this.publish({ jaw: other });
    }
    for (const jaw of JAWS) this.jaws[jaw].sync(doc);
  }

  private baseMaterial(jaw: Jaw): StandardMaterial | null {
    const scene = this.host.scene();
    if (!scene) return null;
    if (!this.materials[jaw]) {
      this.materials[jaw] = new StandardMaterial(`base-material-${jaw}`, scene);
      this.applyMaterial();
    }
    return this.materials[jaw];
  }

  // One material for every redraw: a line disposing its own material takes the shared colour
  // effect with it, and the line drawn in its place would stay invisible.
  private outlineMaterial(): StandardMaterial | null {
    const scene = this.host.scene();
    if (!scene) return null;
    if (!this.lineMaterial) {
      this.lineMaterial = new StandardMaterial('base-outline-material', scene);
      this.lineMaterial.emissiveColor = OUTLINE_COLOR;
      this.lineMaterial.disableLighting = true;
    }
    return this.lineMaterial;
  }

  private applyMaterial(): void {
    for (const m of Object.values(this.materials)) {
      m.diffuseColor = BASE_COLOR;
      m.specularColor = new Color3(0.3, 0.3, 0.3);
      m.backFaceCulling = false;
      m.alpha = this.state.transparent ? 0.55 : 1;
      m.needDepthPrePass = this.state.transparent;
      m.transparencyMode = this.state.transparent ? Material.MATERIAL_ALPHABLEND : Material.MATERIAL_OPAQUE;
    }
    this.host.requestRender();
  }

  dispose(): void {
    for (const jaw of JAWS) this.jaws[jaw].dispose();
    this.disposed = true;
    this.lineMaterial?.dispose();
    this.store.clear();
    this.onGenerated.clear();
    this.onDesignerGenerated.clear();
  }
}
