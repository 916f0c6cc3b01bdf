// The wire templates' working frame: the canonical frame (docs/geometry.md "The canonical
// frame") turned so that the teeth of the wire's jaw face +z. For a lower jaw it is the canonical
// frame itself; for an upper jaw the canonical frame turned 180° about y (x and z mirrored).
// Either way: incisors towards -y, the occlusal side up (+z), the gums and the base below.
// A LocalSurface answers surface queries in that frame (the worker's mesh stays in the model's).
import { dot, invertRigid, multiply, norm, rotateVector, sub, transformPoint, type Matrix4, type Xyz } from '../pose.ts';
import type { RayHitsXyz, SurfaceHits, SurfaceQuery } from './surface.ts';

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

  local(p: ArrayLike<number>): Xyz {
    return transformPoint(this.toLocal, [p[0]!, p[1]!, p[2]!]);
  }

  modelPoint(p: Xyz): Xyz {
    return transformPoint(this.toModel, p);
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

// ---- vectors of the local frame (z up); the arithmetic itself is engine/pose.ts's

/** The horizontal part of a vector, unit (zero when vertical). */
export const flat = (a: Xyz): Xyz => norm([a[0], a[1], 0]);
/** a + b·s + c·t + z up. */
export const at = (a: Xyz, b: Xyz, s: number, c: Xyz, t: number, z: number): Xyz => [a[0] + b[0] * s + c[0] * t, a[1] + b[1] * s + c[1] * t, z];

/** Die tangent length of the corner at b between a and c (mm): R tan(turn / 2). */
export function tangentLength(a: Xyz, b: Xyz, c: Xyz, radius: number): number {
  const u = norm(sub(b, a)), v = norm(sub(c, b));
  const turn = Math.acos(Math.max(-1, Math.min(1, dot(u, v))));
  return radius * Math.tan(Math.min(turn, (160 * Math.PI) / 180) / 2);
}
