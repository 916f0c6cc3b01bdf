// The sentences of wire design: type names, the specification's rule messages for the worker's
// bendCheck issues (BEND_MESSAGES keys), why a wire action was refused, and the automatic
// design's review (a wire left out, a tag the base holds short, a base not made).
import { msg, plural } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { BendIssueCode } from '../../../geometry/client.ts';
import type { WireType } from '../../engine/document.ts';
import type { WireProblemCode } from './feature.ts';
import type { AutodesignFailure } from '../../../../common/autodesign.ts';

/** The editor's one name of each wire type (the wire, slot and device panels); common's WIRE_TYPE_LABELS says the same words. */
export const WIRE_TYPE_NAMES: Record<WireType, MessageDescriptor> = {
  labialBow: msg`Labial bow`,
  singleArmClasp: msg`Single-arm clasp`,
  arrowClasp: msg`Arrow clasp`,
  wraparoundBow: msg`Wraparound bow`,
};

export function bendIssueMessage(code: BendIssueCode): MessageDescriptor {
  switch (code) {
    case 'START_LENGTH':
      return msg`Start straight length must be a valid number from 5 to 100 mm`;
    case 'END_LENGTH':
      return msg`End straight length must be a valid number from 5 to 100 mm`;
    case 'ARC_CAPPED':
      return msg`Arc angles above 160 degrees are capped at 160`;
    case 'WRAPAROUND_FIRST_STRAIGHT':
      return msg`The wraparound bow first straight section is advised at or under 30 mm`;
    case 'ARROW_DOUBLE_BEND':
      return msg`The arrow clasp needs a double bend of two arcs`;
    case 'DIAMETER_MISMATCH':
      return msg`Wire diameter mismatch`;
    case 'OVER_MEMORY':
      return msg`Wire data over machine memory`;
    case 'FEED_LIMIT':
    case 'BEND_LIMIT':
    case 'ROTATE_LIMIT':
      return msg`A step is outside the machine limits`;
    case 'COLLISION':
      return msg`The bending path collided with the machine and was skipped`;
    case 'WIRE_INVALID':
      return msg`The wire cannot be bent`;
  }
}

/** `tooth`: the tooth the problem names, as the designer reads it (FDI or Universal). */
export function wireProblemMessage(code: WireProblemCode, tooth = ''): MessageDescriptor {
  switch (code) {
    case 'AUTOFIT_ONLY_CLASP':
      return msg`Auto-fit supports only the single-arm clasp`;
    case 'MIN_CORNERS':
      return msg`A wire keeps at least two corners.`;
    case 'PLACE_FAILED':
      return msg`The wire could not be placed on these teeth; click them again.`;
    case 'FIT_FAILED':
      return msg`Auto-fit failed; move the corners by hand.`;
    case 'NO_TEETH':
      return msg`No teeth were found on this jaw to place the wire on; click the teeth instead.`;
    case 'TOOTH_NOT_FOUND':
      return msg`Tooth ${tooth} was not found; correct the teeth or click the tooth instead.`;
    case 'TEETH_APART':
      return msg`Tooth ${tooth} does not touch the named tooth; the arrow clasp needs two neighbours.`;
  }
}

/** The status bar while placing: which tooth to click next ("wire.place.<type>.<clicked>.<needed>"). */
export function wirePlaceHint(hint: string): MessageDescriptor {
  const [, , type, clickedText, neededText] = hint.split('.');
  const next = Number(clickedText) + 1;
  const needed = Number(neededText);
  switch (type as WireType) {
    case 'singleArmClasp':
      return msg`Single-arm clasp: click the buccal face of the tooth to clasp.`;
    case 'arrowClasp':
      return msg`Arrow clasp: click the buccal side at the contact between the two teeth to clasp.`;
    case 'labialBow':
      return next === 1
        ? msg`Labial bow: click the labial face of the canine on one side (click 1 of ${needed}).`
        : msg`Labial bow: click the labial face of the canine on the other side (click ${next} of ${needed}).`;
    case 'wraparoundBow':
      return next === 1
        ? msg`Wraparound bow: click the buccal face of the last molar on one side (click 1 of ${needed}).`
        : msg`Wraparound bow: click the buccal face of the last molar on the other side (click ${next} of ${needed}).`;
    default:
      return msg`Wire: click tooth ${next} of ${needed}.`;
  }
}

/**
 * Why the automatic design left a prescribed wire out (common/autodesign.ts's codes). `wire`: its
 * name and teeth, `tooth`: the tooth to blame ('' when none), as the designer reads them.
 */
export function aiLeftOutMessage(code: AutodesignFailure | undefined, wire: string, tooth: string): MessageDescriptor {
  switch (code) {
    case 'DETECTION_FAILED':
      return tooth ? msg`${wire}: AI detection failed on tooth ${tooth}; left out.` : msg`${wire}: AI detection failed; left out.`;
    case 'COLLISION':
      return msg`${wire}: the bending path collided with the machine; left out.`;
    case 'CHECKS_FAILED':
      return msg`${wire}: fails the bending checks; left out.`;
    default:
      return msg`${wire}: could not be made; left out.`;
  }
}

/**
 * A tag the generated base holds short: its corner nearest the rim `distance` (formatted, mm)
 * inside the base (or outside it, `inside` false), `outside` corners outside the acrylic.
 */
export function aiTagMessage(wire: string, distance: string, inside: boolean, outside: number): MessageDescriptor {
  if (outside === 0) {
    return inside
      ? msg`Tag of ${wire} only ${distance} mm inside the base: check before processing.`
      : msg`Tag of ${wire} ${distance} mm outside the base: check before processing.`;
  }
  return inside
    ? msg`Tag of ${wire} ${distance} mm inside the base, ${plural(outside, { one: '# corner', other: '# corners' })} outside the acrylic: check before processing.`
    : msg`Tag of ${wire} ${distance} mm outside the base, ${plural(outside, { one: '# corner', other: '# corners' })} outside the acrylic: check before processing.`;
}

/** A tag of the automatic design that the base as shown now holds as it should (measured again since). */
export function aiTagHeldMessage(wire: string, distance: string): MessageDescriptor {
  return msg`Tag of ${wire} now ${distance} mm inside the base.`;
}

/** A wire's tag, named in its rows: the only one, or the n-th. */
export function tagName(n: number, of: number): MessageDescriptor {
  return of === 1 ? msg`Tag` : msg`Tag ${n}`;
}

/**
 * Where a tag lies in its jaw's base as shown: its corner nearest the rim `distance` (formatted,
 * mm) inside the base's plan (`inside`) or outside it; `held` at least `least` mm inside.
 */
export function tagFitMessage(tag: string, distance: string, inside: boolean, held: boolean, least: string): MessageDescriptor {
  if (held) return msg`${tag}: ${distance} mm inside the base.`;
  return inside ? msg`${tag}: only ${distance} mm inside the base (at least ${least} mm).` : msg`${tag}: ${distance} mm outside the base.`;
}

/** Corners of a tag that lie outside the acrylic (beside or above the plate). */
export function tagOutsideMessage(outside: number): MessageDescriptor {
  return msg`${plural(outside, { one: '# corner', other: '# corners' })} outside the acrylic.`;
}

/** A wire's slot the automatic design could not cut into its base (the wire and the base are kept). */
export function aiSlotFailedMessage(wire: string): MessageDescriptor {
  return msg`Slot of ${wire} could not be cut into the base: slot it in the editor.`;
}

/** A jaw's base the automatic design could not make (its wires are kept). */
export function aiBaseFailedMessage(jaw: 'upper' | 'lower'): MessageDescriptor {
  return jaw === 'upper'
    ? msg`The upper base could not be designed automatically; the wires are kept.`
    : msg`The lower base could not be designed automatically; the wires are kept.`;
}
