// Branded numbers and points for the mistakes that are easy to make in the editor: a length in
// model units shown as millimetres without checking, degrees passed where radians are due, and a
// point of a model's own frame (what the worker's BVH answers) used as a world point (where the
// scene draws it, after the bite offset or a straightening transform).
//
// Brands cost nothing at run time; construct them through the functions below.

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A length in millimetres (STL models are in millimetres). */
export type Millimetres = Brand<number, 'mm'>;
export type Radians = Brand<number, 'rad'>;
export type Degrees = Brand<number, 'deg'>;

export const mm = (value: number): Millimetres => value as Millimetres;
export const rad = (value: number): Radians => value as Radians;
export const deg = (value: number): Degrees => value as Degrees;
export const toRadians = (d: Degrees): Radians => rad((d * Math.PI) / 180);
export const toDegrees = (r: Radians): Degrees => deg((r * 180) / Math.PI);

export type Xyz = readonly [number, number, number];
/** A point in a model's own frame: the frame of its STL and of its mesh in the worker. */
export type ModelPoint = Brand<Xyz, 'model'>;
/** A point in the scene (world) frame. */
export type WorldPoint = Brand<Xyz, 'world'>;

export const modelPoint = (x: number, y: number, z: number): ModelPoint => [x, y, z] as unknown as ModelPoint;
export const worldPoint = (x: number, y: number, z: number): WorldPoint => [x, y, z] as unknown as WorldPoint;

/** Models only move by translation in the scene so far (the bite offset). */
export function modelToWorld(p: ModelPoint, offset: Xyz): WorldPoint {
  return worldPoint(p[0] + offset[0], p[1] + offset[1], p[2] + offset[2]);
}
export function worldToModel(p: WorldPoint, offset: Xyz): ModelPoint {
  return modelPoint(p[0] - offset[0], p[1] - offset[1], p[2] - offset[2]);
}

export function distance(a: Xyz, b: Xyz): Millimetres {
  return mm(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
}
