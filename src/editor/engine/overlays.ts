// What the engine draws over the models for the measure tool: the measurements of the document
// (path, straight line, end points, and a DOM label on the overlay element), the points a tool
// has collected, and the rubber band while pointing. Overlays are children of their model's mesh,
// so they follow its pose; labels are placed after each frame (placeLabels).
import type { Scene } from '@babylonjs/core/scene';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { CreateLines } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Color3 } from '@babylonjs/core/Maths/math.color';

import type { Measurement, ModelRole } from './document.ts';
import type { ModelHit } from './tools/tool.ts';
import { distance, mm, type Millimetres } from './units.ts';
import type { Xyz } from './pose.ts';
import { formatMm } from '../../i18n/format.ts';

/** What the overlays need of the engine. */
export interface OverlayHost {
  scene(): Scene | null;
  modelMesh(role: ModelRole): Mesh | null;
  modelVisible(role: ModelRole): boolean;
  measurements(): readonly Measurement[];
  /** Whether a measurement's overlay is drawn now (the measure tool, the list, the toggle). */
  measurementShown(id: string): boolean;
  /** Canvas CSS pixel of a model point, or null when behind the camera. */
  project(role: ModelRole, p: Xyz): { x: number; y: number } | null;
  /** The rubber band's length (state.measurePreview); null: none. */
  setPreview(length: Millimetres | null): void;
  requestRender(): void;
}

const MEASURE_COLOR = new Color3(0.05, 0.45, 0.95);
const STRAIGHT_COLOR = new Color3(0.95, 0.45, 0.1);
const PENDING_COLOR = new Color3(0.95, 0.2, 0.35);

export class Overlays {
  private overlay: HTMLElement | null;
  private readonly nodes = new Map<string, { node: TransformNode; label: HTMLElement | null; anchor: Vector3; model: ModelRole }>();
  private pendingNode: TransformNode | null = null;
  private previewNode: Mesh | null = null;
  private previewLabel: HTMLElement | null = null;
  private previewAnchor: { model: ModelRole; point: Xyz } | null = null;

  constructor(
    private readonly host: OverlayHost,
    overlay: HTMLElement | null,
  ) {
    this.overlay = overlay;
  }

  showPending(points: ModelHit[]): void {
    this.pendingNode?.dispose();
    this.pendingNode = null;
    const scene = this.host.scene();
    if (!scene || points.length === 0) return this.host.requestRender();
    const node = new TransformNode('pending', scene);
    for (const hit of points) {
      const parent = this.host.modelMesh(hit.model);
      const dot = this.marker(`pending-dot`, PENDING_COLOR, hit.pick.point);
      dot.parent = parent ?? node;
      dot.metadata = { pending: node };
      node.onDisposeObservable.add(() => dot.dispose());
    }
    this.pendingNode = node;
    this.host.requestRender();
  }

  showPreview(from: ModelHit | null, to: ModelHit | null): void {
    this.previewNode?.dispose();
    this.previewNode = null;
    const scene = this.host.scene();
    const parent = from ? this.host.modelMesh(from.model) : null;
    if (!from || !to || !scene || !parent) {
      if (this.previewLabel) this.previewLabel.style.display = 'none';
      this.host.setPreview(null);
      this.host.requestRender();
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
    this.host.setPreview(mm(Math.round(length * 1000) / 1000));
    this.host.requestRender();
  }

  private marker(name: string, color: Color3, p: Xyz): Mesh {
    const scene = this.host.scene()!;
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
  sync(): void {
    const scene = this.host.scene();
    const wanted = new Map<string, Measurement>();
    for (const m of this.host.measurements()) if (this.host.modelMesh(m.model)) wanted.set(m.id, m);
    for (const [id, o] of this.nodes) {
      if (!wanted.has(id)) {
        o.node.dispose();
        o.label?.remove();
        this.nodes.delete(id);
      }
    }
    if (!scene) return;
    for (const m of wanted.values()) {
      if (this.nodes.has(m.id)) continue;
      const node = new TransformNode(`measure-${m.id}`, scene);
      node.parent = this.host.modelMesh(m.model);
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
      node.setEnabled(this.host.modelVisible(m.model) && this.host.measurementShown(m.id));
      const mid = points[Math.floor(points.length / 2)] ?? toVector(m.a.point).add(toVector(m.b.point)).scale(0.5);
      let label: HTMLElement | null = null;
      if (this.overlay && typeof document !== 'undefined') {
        label = document.createElement('div');
        label.className = 'editor-measure-label';
        Object.assign(label.style, LABEL_STYLE);
        label.dataset.testid = 'measure-label';
        label.dataset.measurement = m.id;
        label.textContent = labelText(m);
        this.overlay.appendChild(label);
      }
      this.nodes.set(m.id, { node, label, anchor: mid, model: m.model });
    }
    this.host.requestRender();
  }

  /** A model was shown or hidden: its measurements too. */
  setModelVisible(role: ModelRole): void {
    for (const [id, o] of this.nodes) if (o.model === role) o.node.setEnabled(this.shown(id, o.model));
    this.host.requestRender();
  }

  /** The tool, the toggle or the focused measurement changed: show and hide to match. */
  refresh(): void {
    let changed = false;
    for (const [id, o] of this.nodes) {
      const on = this.shown(id, o.model);
      if (o.node.isEnabled(false) !== on) {
        o.node.setEnabled(on);
        changed = true;
      }
    }
    if (changed) this.host.requestRender();
  }

  /** The language changed: the labels are written again in its number format. */
  relabel(): void {
    const byId = new Map(this.host.measurements().map((m) => [m.id, m]));
    for (const [id, o] of this.nodes) {
      const m = byId.get(id);
      if (o.label && m) o.label.textContent = labelText(m);
    }
  }

  /** Ids of the measurements whose overlays are enabled now. */
  shownIds(): string[] {
    return [...this.nodes].filter(([, o]) => o.node.isEnabled(false)).map(([id]) => id);
  }

  /** Whether a measurement's overlay is drawn: its model visible and the host wanting it. */
  shown(id: string, model: ModelRole): boolean {
    return this.host.modelVisible(model) && this.host.measurementShown(id);
  }

  /** Where measurement labels go (a positioned element over the canvas); null detaches. */
  attach(element: HTMLElement | null): void {
    if (this.overlay === element) return;
    for (const o of this.nodes.values()) {
      o.node.dispose();
      o.label?.remove();
    }
    this.nodes.clear();
    this.previewLabel?.remove();
    this.previewLabel = null;
    this.overlay = element;
    this.sync();
  }

  /** The element labels are placed on (features draw their own labels there too), or null. */
  get element(): HTMLElement | null {
    return this.overlay;
  }

  /** After each frame: the labels move to their points' pixels. */
  placeLabels(): void {
    if (this.previewLabel && this.previewNode && this.previewAnchor) {
      const at = this.host.project(this.previewAnchor.model, this.previewAnchor.point);
      this.previewLabel.style.display = at ? '' : 'none';
      if (at) this.previewLabel.style.transform = `translate(${Math.round(at.x)}px, ${Math.round(at.y)}px) translate(12px, -50%)`;
    }
    for (const o of this.nodes.values()) {
      if (!o.label) continue;
      o.label.dataset.shown = o.node.isEnabled(false) ? 'true' : 'false';
      const at = o.node.isEnabled(false) ? this.host.project(o.model, [o.anchor.x, o.anchor.y, o.anchor.z]) : null;
      if (!at) {
        o.label.style.display = 'none';
        continue;
      }
      o.label.style.display = '';
      o.label.style.transform = `translate(${Math.round(at.x)}px, ${Math.round(at.y)}px) translate(-50%, -130%)`;
    }
  }

  /** The labels leave the overlay element (the scene's nodes go with the scene). */
  dispose(): void {
    for (const o of this.nodes.values()) o.label?.remove();
    this.nodes.clear();
    this.previewLabel?.remove();
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

/** "6.04 mm · ⌒ 6.50 mm" in the active language's number format. */
function labelText(m: Measurement): string {
  return `${formatMm(m.straight)} · ⌒ ${m.geodesic === null ? '–' : formatMm(m.geodesic)}`;
}

function toVector(p: Xyz): Vector3 {
  return new Vector3(p[0], p[1], p[2]);
}

