// The straightening tool's on-screen handles: three rings (rotation about the world x, y, z axes
// through the models' centre) and three arrows (moves along them), drawn as lines over the
// models. Hit testing is in canvas pixels (projected polylines), so the tool needs no Babylon
// picking and runs the same in a headless test.
import type { Scene } from '@babylonjs/core/scene';
import type { LinesMesh } from '@babylonjs/core/Meshes/linesMesh';
import { TransformNode } from '@babylonjs/core/Meshes/transformNode';
import { CreateLines } from '@babylonjs/core/Meshes/Builders/linesBuilder';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Color3 } from '@babylonjs/core/Maths/math.color';
import type { Axis } from './feature.ts';
import type { Xyz } from '../../engine/pose.ts';

export interface HandleLayout {
  center: Xyz;
  /** Ring radius, mm; the arrows reach a little further. */
  radius: number;
}

export type HandleId = `rotate-${Axis}` | `move-${Axis}`;

const AXIS_COLORS = [new Color3(0.86, 0.2, 0.2), new Color3(0.2, 0.66, 0.25), new Color3(0.2, 0.4, 0.92)];
const HOT_COLOR = new Color3(0.98, 0.75, 0.1);
const RING_SEGMENTS = 96;
/** Arrow shafts run from the ring outwards to this many radii. */
export const ARROW_FROM = 1.08;
export const ARROW_TO = 1.45;

/** Points of the ring about `axis` (world). */
export function ringPoints(layout: HandleLayout, axis: Axis, segments = RING_SEGMENTS): Xyz[] {
  const u = (axis + 1) % 3;
  const v = (axis + 2) % 3;
  const out: Xyz[] = [];
  for (let i = 0; i <= segments; i++) {
    const a = (i / segments) * Math.PI * 2;
    const p: [number, number, number] = [layout.center[0], layout.center[1], layout.center[2]];
    p[u] = p[u]! + Math.cos(a) * layout.radius;
    p[v] = p[v]! + Math.sin(a) * layout.radius;
    out.push(p);
  }
  return out;
}

/** Start and end of the arrow along `axis` (world). */
export function arrowPoints(layout: HandleLayout, axis: Axis): [Xyz, Xyz] {
  const at = (k: number): Xyz => {
    const p: [number, number, number] = [layout.center[0], layout.center[1], layout.center[2]];
    p[axis] = p[axis]! + k * layout.radius;
    return p;
  };
  return [at(ARROW_FROM), at(ARROW_TO)];
}

/**
 * Draws the handles; show(null) hides them. Built once at unit size under one node that is moved
 * and scaled to the layout: disposing line meshes disposes their shader's effect, and lines
 * recreated in the same moment would not be drawn.
 */
export class StraightenHandles {
  private root: TransformNode | null = null;
  private readonly lines = new Map<HandleId, LinesMesh>();

  constructor(private readonly scene: Scene) {}

  private build(): TransformNode {
    const root = new TransformNode('straighten-handles', this.scene);
    const unit: HandleLayout = { center: [0, 0, 0], radius: 1 };
    const toV = (p: Xyz): Vector3 => new Vector3(p[0], p[1], p[2]);
    for (const axis of [0, 1, 2] as const) {
      const ring = CreateLines(`straighten-ring-${axis}`, { points: ringPoints(unit, axis).map(toV) }, this.scene);
      const [from, to] = arrowPoints(unit, axis);
      // Shaft and a small head (two strokes back from the tip).
      const side = (axis + 1) % 3;
      const tipBack = (sign: number): Vector3 => {
        const p = [to[0], to[1], to[2]];
        p[axis] = p[axis]! - 0.08;
        p[side] = p[side]! + sign * 0.05;
        return new Vector3(p[0], p[1], p[2]);
      };
      const arrow = CreateLines(`straighten-arrow-${axis}`, { points: [toV(from), toV(to), tipBack(1), toV(to), tipBack(-1)] }, this.scene);
      for (const [id, m] of [[`rotate-${axis}`, ring], [`move-${axis}`, arrow]] as const) {
        m.renderingGroupId = 1;
        m.isPickable = false;
        m.parent = root;
        this.lines.set(id, m);
      }
    }
    return root;
  }

  show(layout: HandleLayout | null, hot: HandleId | null): void {
    if (!layout) {
      this.root?.setEnabled(false);
      return;
    }
    this.root ??= this.build();
    this.root.position.set(layout.center[0], layout.center[1], layout.center[2]);
    this.root.scaling.setAll(layout.radius);
    for (const [id, m] of this.lines) m.color = id === hot ? HOT_COLOR : AXIS_COLORS[Number(id.slice(-1))]!;
    this.root.setEnabled(true);
  }

  clear(): void {
    this.root?.setEnabled(false);
  }

  dispose(): void {
    this.root?.dispose();
    this.root = null;
    this.lines.clear();
  }
}
