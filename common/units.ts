// Branded numbers for the mistakes that are easy to make in the editor: a length in model units
// shown as millimetres without checking, degrees passed where radians are due.
//
// Brands cost nothing at run time; construct them through the functions below.
import type { Xyz } from './pose.ts';

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A length in millimetres (STL models are in millimetres). */
export type Millimetres = Brand<number, 'mm'>;
export type Radians = Brand<number, 'rad'>;

export const mm = (value: number): Millimetres => value as Millimetres;
export const rad = (value: number): Radians => value as Radians;

export function distance(a: Xyz, b: Xyz): Millimetres {
  return mm(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
}
