// What the Teeth display draws on a jaw: every vertex tinted with its tooth's hue (the gum keeps
// the model's colour), the gum lines as lines on the surface (children of the jaw's mesh, so they
// follow its pose) and each tooth's number as a DOM label over its crown, placed after each frame.
// Off takes all of it away and gives the material its colour back.
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import type { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { CreateLineSystem } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import type { ToothOutlines } from '../../../geometry/client.ts';
import type { Xyz } from '../../engine/pose.ts';
import { toothColor, toothName, type Jaw, type Numbering } from './labels.ts';

const GUM_LINE_COLOR = new Color3(0.55, 0.05, 0.1);

const LABEL_STYLE: Partial<CSSStyleDeclaration> = {
  position: 'absolute',
  left: '0',
  top: '0',
  padding: '0 4px',
  borderRadius: '4px',
  background: 'rgba(255, 255, 255, 0.85)',
  color: '#1e293b',
  font: '600 11px/16px system-ui, sans-serif',
  whiteSpace: 'nowrap',
  pointerEvents: 'none',
};

interface Painted {
  mesh: Mesh;
  diffuse: Color3 | null;
  zOffset: number;
  lines: LinesMesh | null;
  labels: { number: number; at: Xyz; element: HTMLElement | null }[];
}

export interface DrawingHost {
  overlay(): HTMLElement | null;
  project(jaw: Jaw, p: Xyz): { x: number; y: number } | null;
  requestRender(): void;
}

const SVG = 'http://www.w3.org/2000/svg';

export class TeethDrawing {
  private readonly painted = new Map<Jaw, Painted>();
  /** The lasso or split line being drawn (an SVG over the canvas). */
  private stroke: SVGSVGElement | null = null;

  constructor(private readonly host: DrawingHost) {}

  /** Tints a jaw's mesh by its labels and draws its gum lines and numbers (replacing what was drawn). */
  draw(jaw: Jaw, mesh: Mesh, labels: Uint8Array, outlines: ToothOutlines, numbering: Numbering): void {
    const was = this.painted.get(jaw);
    if (was && was.mesh !== mesh) this.erase(jaw);
    const material = mesh.material as StandardMaterial | null;
    let entry = this.painted.get(jaw);
    if (!entry) {
      entry = { mesh, diffuse: material?.diffuseColor.clone() ?? null, zOffset: material?.zOffset ?? 0, lines: null, labels: [] };
      this.painted.set(jaw, entry);
      if (material) {
        // The vertex colour is multiplied by the diffuse colour: white shows the tints as they are.
        material.diffuseColor = new Color3(1, 1, 1);
        // The surface a little farther in depth, so that the gum lines on it are not half hidden
        // by it (a polygon offset moves triangles only, not lines).
        material.zOffset = 2;
      }
    }
    const gum = entry.diffuse ?? new Color3(0.9, 0.9, 0.9);
    const n = Math.min(labels.length, mesh.getTotalVertices());
    const colors = new Float32Array(mesh.getTotalVertices() * 4);
    for (let v = 0; v < colors.length / 4; v++) {
      const label = v < n ? labels[v]! : 0;
      const [r, g, b] = label ? toothColor(label) : [gum.r, gum.g, gum.b];
      colors.set([r, g, b, 1], v * 4);
    }
    if (mesh.isVerticesDataPresent(VertexBuffer.ColorKind)) mesh.updateVerticesData(VertexBuffer.ColorKind, colors);
    else mesh.setVerticesData(VertexBuffer.ColorKind, colors, true, 4);
    mesh.useVertexColors = true;

    entry.lines?.dispose();
    entry.lines = null;
    const loops: Vector3[][] = [];
    for (const line of outlines.lines)
      for (const loop of line.loops) {
        const points: Vector3[] = [];
        for (let i = 0; i + 2 < loop.length; i += 3) points.push(new Vector3(loop[i]!, loop[i + 1]!, loop[i + 2]!));
        if (!line.open && points.length > 2) points.push(points[0]!.clone());
        if (points.length > 1) loops.push(points);
      }
    const scene = mesh.getScene();
    if (loops.length) {
      const lines = CreateLineSystem(`teeth-gumlines-${jaw}`, { lines: loops }, scene);
      lines.color = GUM_LINE_COLOR;
      lines.isPickable = false;
      lines.parent = mesh;
      entry.lines = lines;
    }
    for (const l of entry.labels) l.element?.remove();
    const overlay = this.host.overlay();
    entry.labels = outlines.teeth.map((t) => {
      let element: HTMLElement | null = null;
      if (overlay && typeof document !== 'undefined') {
        element = document.createElement('div');
        Object.assign(element.style, LABEL_STYLE, { borderLeft: `3px solid ${css(toothColor(t.number))}`, display: 'none' });
        element.dataset.testid = 'tooth-label';
        element.dataset.jaw = jaw;
        element.dataset.tooth = String(t.number);
        element.textContent = toothName(t.number, numbering);
        overlay.appendChild(element);
      }
      return { number: t.number, at: t.centroid, element };
    });
    this.host.requestRender();
  }

  /** Shows the lasso (closed) or the split line being drawn, in canvas pixels; null takes it away. */
  showStroke(points: readonly { x: number; y: number }[] | null, closed: boolean): void {
    const overlay = this.host.overlay();
    if (!points || points.length < 2 || !overlay || typeof document === 'undefined') {
      this.stroke?.remove();
      this.stroke = null;
      return;
    }
    if (!this.stroke || this.stroke.parentElement !== overlay) {
      this.stroke?.remove();
      this.stroke = document.createElementNS(SVG, 'svg');
      this.stroke.dataset.testid = 'teeth-stroke';
      Object.assign(this.stroke.style, { position: 'absolute', inset: '0', width: '100%', height: '100%', pointerEvents: 'none', overflow: 'visible' });
      this.stroke.appendChild(document.createElementNS(SVG, 'polyline'));
      overlay.appendChild(this.stroke);
    }
    const line = this.stroke.firstElementChild!;
    const all = closed ? [...points, points[0]!] : [points[0]!, points[points.length - 1]!];
    line.setAttribute('points', all.map((p) => `${Math.round(p.x)},${Math.round(p.y)}`).join(' '));
    line.setAttribute('fill', closed ? 'rgba(65, 101, 215, 0.12)' : 'none');
    line.setAttribute('stroke', 'rgb(65, 101, 215)');
    line.setAttribute('stroke-width', '2');
    line.setAttribute('stroke-dasharray', '6 4');
  }

  /** The numbers' text in another numbering. */
  renumber(numbering: Numbering): void {
    for (const entry of this.painted.values()) for (const l of entry.labels) if (l.element) l.element.textContent = toothName(l.number, numbering);
  }

  /** After each frame: every number over its crown (hidden with its model, or behind the camera). */
  place(): void {
    for (const [jaw, entry] of this.painted) {
      const shown = entry.mesh.isEnabled();
      for (const l of entry.labels) {
        if (!l.element) continue;
        const at = shown ? this.host.project(jaw, l.at) : null;
        l.element.style.display = at ? '' : 'none';
        if (at) l.element.style.transform = `translate(${Math.round(at.x)}px, ${Math.round(at.y)}px) translate(-50%, -50%)`;
      }
    }
  }

  /** The jaws drawn now. */
  jaws(): Jaw[] {
    return [...this.painted.keys()].filter((jaw) => !this.painted.get(jaw)!.mesh.isDisposed());
  }

  /** Takes a jaw's tints, lines and numbers away and gives the material its colour back. */
  erase(jaw: Jaw): void {
    const entry = this.painted.get(jaw);
    if (!entry) return;
    this.painted.delete(jaw);
    entry.lines?.dispose();
    for (const l of entry.labels) l.element?.remove();
    if (!entry.mesh.isDisposed()) {
      entry.mesh.removeVerticesData(VertexBuffer.ColorKind);
      entry.mesh.useVertexColors = false;
      const material = entry.mesh.material as StandardMaterial | null;
      if (material && entry.diffuse) material.diffuseColor = entry.diffuse;
      if (material) material.zOffset = entry.zOffset;
    }
    this.host.requestRender();
  }

  eraseAll(): void {
    for (const jaw of [...this.painted.keys()]) this.erase(jaw);
    this.showStroke(null, false);
  }
}

function css([r, g, b]: [number, number, number]): string {
  return `rgb(${Math.round(r * 255)}, ${Math.round(g * 255)}, ${Math.round(b * 255)})`;
}
