// The teeth a template is named by, from a choice of tooth or jaw and the teeth present: what the
// editor's "on tooth" row and the automatic design both place on.
import { caninesOf, distalOf, jawOf, lastMolarsOf } from '../teeth.ts';
import type { WireType } from '../wires.ts';

/** The teeth a template is placed on, from the designer's choice and the teeth present; null when they cannot be named. */
export function teethFor(type: WireType, target: { tooth: number } | { jaw: 'upper' | 'lower' }, present: readonly number[]): number[] | null {
  if ('tooth' in target) {
    if (type === 'singleArmClasp') return [target.tooth];
    if (type === 'arrowClasp') {
      const distal = distalOf(target.tooth);
      return distal === null ? null : [target.tooth, distal];
    }
    return teethFor(type, { jaw: jawOf(target.tooth) }, present);
  }
  if (type === 'labialBow') return caninesOf(target.jaw);
  if (type === 'wraparoundBow') {
    const [right, left] = lastMolarsOf(target.jaw, present);
    return right !== null && left !== null ? [right, left] : null;
  }
  return null;
}
