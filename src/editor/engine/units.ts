// Branded numbers and points for the mistakes that are easy to make in the editor: a length in
// model units shown as millimetres without checking, degrees passed where radians are due, and a
// point of a model's own frame (what the worker's BVH answers) stored without saying so.
//
// Brands cost nothing at run time; construct them through the functions below.

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A length in millimetres (STL models are in millimetres). */
export type Millimetres = Brand<number, 'mm'>;
export type Radians = Brand<number, 'rad'>;

export const mm = (value: number): Millimetres => value as Millimetres;
export const rad = (value: number): Radians => value as Radians;

export type Xyz = readonly [number, number, number];
/** A point in a model's own frame: the frame of its STL and of its mesh in the worker. */
export type ModelPoint = Brand<Xyz, 'model'>;

export const modelPoint = (x: number, y: number, z: number): ModelPoint => [x, y, z] as unknown as ModelPoint;

export function distance(a: Xyz, b: Xyz): Millimetres {
  return mm(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
}
