// The wire templates' working frame: the canonical frame (docs/geometry.md "The canonical
// frame") turned so that the teeth of the wire's jaw face +z. For a lower jaw it is the canonical
// frame itself; for an upper jaw the canonical frame turned 180° about y (x and z mirrored).
// Either way: incisors towards -y, the occlusal side up (+z), the gums and the base below.
// A LocalSurface answers surface queries in that frame (the worker's mesh stays in the model's).
import { invertRigid, multiply, rotateVector, transformPoint, type Matrix4 } from '../../engine/pose.ts';
import { modelPoint, type ModelPoint } from '../../engine/units.ts';
import type { RayHitsXyz, SurfaceHits, SurfaceQuery } from './surface.ts';

export type Vec = [number, number, number];

/** Where a wire is designed: the straightening (model → canonical; identity when not straightened) and the wire's jaw. */
export interface WireFrame {
  matrix: number[];
  jaw: 'upper' | 'lower';
}

const FLIP_UPPER: Matrix4 = [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1];

export class LocalSurface implements SurfaceQuery {
  /** Model → local. */
  readonly toLocal: number[];
  /** Local → model. */
  readonly toModel: number[];

  constructor(
    readonly model: SurfaceQuery,
    frame: WireFrame,
  ) {
    this.toLocal = frame.jaw === 'upper' ? multiply(FLIP_UPPER, frame.matrix) : [...frame.matrix];
    this.toModel = invertRigid(this.toLocal);
  }

  local(p: ArrayLike<number>): Vec {
    return transformPoint(this.toLocal, [p[0]!, p[1]!, p[2]!]);
  }

  modelPoint(p: Vec): ModelPoint {
    const q = transformPoint(this.toModel, p);
    return modelPoint(q[0], q[1], q[2]);
  }

  private pointsTo(m: Matrix4, pts: Float32Array): Float32Array {
    const out = new Float32Array(pts.length);
    for (let i = 0; i < pts.length; i += 3) out.set(transformPoint(m, [pts[i]!, pts[i + 1]!, pts[i + 2]!]), i);
    return out;
  }

  async closest(points: Float32Array): Promise<SurfaceHits> {
    const r = await this.model.closest(this.pointsTo(this.toModel, points));
    const normal = new Float32Array(r.normal.length);
    for (let i = 0; i < normal.length; i += 3) normal.set(rotateVector(this.toLocal, [r.normal[i]!, r.normal[i + 1]!, r.normal[i + 2]!]), i);
    return { point: this.pointsTo(this.toLocal, r.point), normal, triangle: r.triangle };
  }

  async raycast(rays: Float32Array): Promise<RayHitsXyz> {
    const inModel = new Float32Array(rays.length);
    for (let i = 0; i < rays.length; i += 6) {
      inModel.set(transformPoint(this.toModel, [rays[i]!, rays[i + 1]!, rays[i + 2]!]), i);
      inModel.set(rotateVector(this.toModel, [rays[i + 3]!, rays[i + 4]!, rays[i + 5]!]), i + 3);
    }
    const r = await this.model.raycast(inModel);
    return { t: r.t, point: this.pointsTo(this.toLocal, r.point), triangle: r.triangle };
  }
}

// ---- small vector helpers (local frame)

export const add = (a: Vec, b: Vec): Vec => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec, s: number): Vec => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const len = (a: Vec): number => Math.hypot(a[0], a[1], a[2]);
export const dist = (a: Vec, b: Vec): number => len(sub(a, b));
export const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a: Vec): Vec => {
  const l = len(a);
  return l > 0 ? scale(a, 1 / l) : [0, 0, 0];
};
/** The horizontal part of a vector, unit (zero when vertical). */
export const flat = (a: Vec): Vec => norm([a[0], a[1], 0]);
/** a + b·s + c·t + z up. */
export const at = (a: Vec, b: Vec, s: number, c: Vec, t: number, z: number): Vec => [a[0] + b[0] * s + c[0] * t, a[1] + b[1] * s + c[1] * t, z];

/** Die tangent length of the corner at b between a and c (mm): R tan(turn / 2). */
export function tangentLength(a: Vec, b: Vec, c: Vec, radius: number): number {
  const u = norm(sub(b, a)), v = norm(sub(c, b));
  const turn = Math.acos(Math.max(-1, Math.min(1, dot(u, v))));
  return radius * Math.tan(Math.min(turn, (160 * Math.PI) / 180) / 2);
}
