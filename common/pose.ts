// Vectors and rigid poses of the models in the scene: the straightening (a column-major 4x4,
// model → canonical, one for the whole set of models so that the bite is kept) and the bite offset
// (a translation in the world, after the straightening). Worker meshes and everything stored in
// the design stay in the model's own frame; these functions carry points and rays across. The
// editor's one vector type and its vector arithmetic are here too, so that features (the wires'
// templates, their tubes) compute with the same ones as the poses.

/** A point or direction: x, y, z in millimetres (a model's frame or the world's, as its name says). */
export type Xyz = readonly [number, number, number];

export const add = (a: Xyz, b: Xyz): [number, number, number] => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Xyz, b: Xyz): [number, number, number] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Xyz, s: number): [number, number, number] => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Xyz, b: Xyz): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const len = (a: Xyz): number => Math.hypot(a[0], a[1], a[2]);
export const dist = (a: Xyz, b: Xyz): number => len(sub(a, b));
/** The distance from p to the segment a-b. */
export function segmentDistance(p: Xyz, a: Xyz, b: Xyz): number {
  const ab = sub(b, a), ap = sub(p, a);
  const len2 = dot(ab, ab);
  const t = len2 > 0 ? Math.max(0, Math.min(1, dot(ap, ab) / len2)) : 0;
  return Math.hypot(ap[0] - t * ab[0], ap[1] - t * ab[1], ap[2] - t * ab[2]);
}
/** The part of `v` across the unit direction `d` (its projection on the plane normal to d). */
export const across = (v: Xyz, d: Xyz): [number, number, number] => sub(v, scale(d, dot(v, d)));
export const cross = (a: Xyz, b: Xyz): [number, number, number] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
/** The unit vector along a (the zero vector for the zero vector). */
export const norm = (a: Xyz): [number, number, number] => {
  const l = len(a);
  return l > 0 ? scale(a, 1 / l) : [0, 0, 0];
};

/** Column-major 4x4, p' = R p + t (m[12..14] = t), as the worker's straighten returns it. */
export type Matrix4 = ArrayLike<number>;

export const IDENTITY: Matrix4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

export function transformPoint(m: Matrix4, p: Xyz): [number, number, number] {
  const [x, y, z] = p;
  return [m[0]! * x + m[4]! * y + m[8]! * z + m[12]!, m[1]! * x + m[5]! * y + m[9]! * z + m[13]!, m[2]! * x + m[6]! * y + m[10]! * z + m[14]!];
}

export function rotateVector(m: Matrix4, v: Xyz): [number, number, number] {
  const [x, y, z] = v;
  return [m[0]! * x + m[4]! * y + m[8]! * z, m[1]! * x + m[5]! * y + m[9]! * z, m[2]! * x + m[6]! * y + m[10]! * z];
}

/** a · b (apply b first). */
export function multiply(a: Matrix4, b: Matrix4): number[] {
  const out = new Array<number>(16).fill(0);
  for (let col = 0; col < 4; col++)
    for (let row = 0; row < 4; row++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + row]! * b[col * 4 + k]!;
      out[col * 4 + row] = s;
    }
  return out;
}

/** Inverse of a rigid transform: Rᵀ, -Rᵀ t. */
export function invertRigid(m: Matrix4): number[] {
  const out = [m[0]!, m[4]!, m[8]!, 0, m[1]!, m[5]!, m[9]!, 0, m[2]!, m[6]!, m[10]!, 0, 0, 0, 0, 1];
  const t = rotateVector(out, [m[12]!, m[13]!, m[14]!]);
  out[12] = -t[0];
  out[13] = -t[1];
  out[14] = -t[2];
  return out;
}

export function translation(t: Xyz): number[] {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, t[0], t[1], t[2], 1];
}

/** Rotation by `radians` about the unit `axis` through `center` (Rodrigues). */
export function rotationAbout(axis: Xyz, radians: number, center: Xyz = [0, 0, 0]): number[] {
  const [x, y, z] = axis;
  const c = Math.cos(radians), s = Math.sin(radians), C = 1 - c;
  const r = [
    c + x * x * C, y * x * C + z * s, z * x * C - y * s, 0,
    x * y * C - z * s, c + y * y * C, z * y * C + x * s, 0,
    x * z * C + y * s, y * z * C - x * s, c + z * z * C, 0,
    0, 0, 0, 1,
  ];
  return multiply(translation(center), multiply(r, translation([-center[0], -center[1], -center[2]])));
}

/**
 * Rounds away the float noise of repeated composition and re-orthonormalises the rotation, so that
 * a pose nudged a hundred times stays rigid and the saved JSON stays short.
 */
export function cleanRigid(m: Matrix4): number[] {
  const col = (i: number): [number, number, number] => [m[i * 4]!, m[i * 4 + 1]!, m[i * 4 + 2]!];
  // Divides by the length rather than scaling by its inverse (norm): the last digits of a saved
  // pose depend on it, and a pose nudged again must round the same way it did before.
  const unit = (v: Xyz): [number, number, number] => {
    const l = len(v) || 1;
    return [v[0] / l, v[1] / l, v[2] / l];
  };
  const x = unit(col(0));
  const z = unit(cross(x, col(1)));
  const y = cross(z, x);
  const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits || 0;
  return [...x.map((v) => round(v, 9)), 0, ...y.map((v) => round(v, 9)), 0, ...z.map((v) => round(v, 9)), 0, round(m[12]!, 6), round(m[13]!, 6), round(m[14]!, 6), 1];
}

export function isRigidMatrix(m: unknown): m is number[] {
  if (!Array.isArray(m) || m.length !== 16 || !m.every((v) => typeof v === 'number' && Number.isFinite(v))) return false;
  const t = multiply(m, invertRigid(m));
  return t.every((v, i) => Math.abs(v - IDENTITY[i]!) < 1e-4);
}

/**
 * Model → world: the model's registered bite (model → bite frame; features/bite), the
 * straightening, then the bite offset (the opened bite's translation).
 */
export function modelToWorldMatrix(pose: Matrix4 | null, offset: Xyz, bite: Matrix4 | null = null): number[] {
  return multiply(translation(offset), bite ? multiply(pose ?? IDENTITY, bite) : (pose ?? IDENTITY));
}

/** A world ray in a model's frame (rigid, so distances along the ray are unchanged). */
export function rayToModel(
  pose: Matrix4 | null,
  offset: Xyz,
  origin: Xyz,
  direction: Xyz,
  bite: Matrix4 | null = null,
): { origin: [number, number, number]; direction: [number, number, number] } {
  const inverse = invertRigid(modelToWorldMatrix(pose, offset, bite));
  return { origin: transformPoint(inverse, origin), direction: rotateVector(inverse, direction) };
}
