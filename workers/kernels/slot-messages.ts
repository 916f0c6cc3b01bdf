// Slotting's wire types, codes and the specification's messages: kept apart
// from slot.ts so that the page can import them without manifold-3d.

/** Every wire type of the editor (issue 6: templates). */
export type WireType = 'labialBow' | 'singleArmClasp' | 'arrowClasp' | 'wraparoundBow';

/** Specification: "Slotting supports only labial bow, single arm clasp and arrow clasp". */
export const SLOTTABLE_WIRE_TYPES: readonly WireType[] = ['labialBow', 'singleArmClasp', 'arrowClasp'];

export type SlotErrorCode = 'NO_BASE' | 'SLOT_WIRE_TYPE' | 'SLOT_BASE_NOT_MANIFOLD' | 'SLOTTING_FAILED';

/** The specification's message for each code (English; the editor translates). SLOT_BASE_NOT_MANIFOLD has none in the spec. */
export const SLOT_MESSAGES: Readonly<Record<SlotErrorCode, string>> = {
  NO_BASE: 'Invalid operation, no base generated',
  SLOT_WIRE_TYPE: 'Slotting supports only labial bow, single arm clasp and arrow clasp',
  SLOT_BASE_NOT_MANIFOLD: 'The base is not a closed manifold mesh; generate it again',
  SLOTTING_FAILED: 'Slotting failed',
};
