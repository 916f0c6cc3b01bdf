// What one dab of the smoothing brush does, by the brush version a stroke was made with. The
// design document keeps each stroke's dabs and replays them on reopening, so a version's dab
// must never change: a new behaviour is a new version, and strokes saved without one replay as
// version 1.
import type { DabOptions } from '../../../geometry/client.ts';

/**
 * 1: three Taubin rounds (λ 0.5, μ −0.53) with strength × falloff inside each step: gentle, a
 *    fissure hardly changes even at 100 %.
 * 2: the worker's 'fair' filter (Chebyshev-designed λ|−λ pairs with the falloff in each step,
 *    shrink-free, a move capped at a quarter of the radius), `strength` of it taken: at 100 % one
 *    pass takes a 1 mm fissure to under half its depth, at 10 % to about four fifths.
 */
export type BrushVersion = 1 | 2;
export const BRUSH_VERSION = 2 satisfies BrushVersion;

/** The filter part of a dab's options for a brush version and strength (0..1). */
export function dabFilter(version: BrushVersion, strength: number): Pick<DabOptions, 'strength' | 'filter'> {
  return version === 1 ? { strength } : { strength, filter: 'fair' };
}
