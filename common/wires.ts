// The wire types of the product (spec section 9): one list for the editor's document and
// templates, the bend and slot kernels, the server's request checks and the dashboard. Pure: no
// DOM, worker or Node imports, and no zod (the workers bundle this file).

/** Every wire type the editor designs, by the key stored in documents, jobs and statistics. */
export const WIRE_TYPES = ['labialBow', 'singleArmClasp', 'arrowClasp', 'wraparoundBow'] as const;
export type WireType = (typeof WIRE_TYPES)[number];

export function isWireType(value: unknown): value is WireType {
  return typeof value === 'string' && (WIRE_TYPES as readonly string[]).includes(value);
}

/** Specification: "Slotting supports only labial bow, single arm clasp and arrow clasp". */
export const SLOTTABLE_WIRE_TYPES: readonly WireType[] = ['labialBow', 'singleArmClasp', 'arrowClasp'];

export type WireLanguage = 'en' | 'zh' | 'de';

/**
 * The display name of each wire type. `en` is the source text of the client's Lingui message
 * (msg`Labial bow`), so the client's catalogs translate it; zh and de are what those catalogs
 * say (a unit test keeps them in step) and what the server writes where it names a wire type.
 */
export const WIRE_TYPE_LABELS: Readonly<Record<WireType, Readonly<Record<WireLanguage, string>>>> = {
  labialBow: { en: 'Labial bow', zh: '唇弓', de: 'Labialbogen' },
  singleArmClasp: { en: 'Single-arm clasp', zh: '单臂卡环', de: 'Einarmige Klammer' },
  arrowClasp: { en: 'Arrow clasp', zh: '箭头卡', de: 'Pfeilklammer' },
  wraparoundBow: { en: 'Wraparound bow', zh: '环绕弓', de: 'Umlaufbogen' },
};

/** The error codes of slotting a wire into the base (workers/kernels/slot.ts). */
export type SlotErrorCode = 'NO_BASE' | 'SLOT_WIRE_TYPE' | 'SLOT_BASE_NOT_MANIFOLD' | 'SLOTTING_FAILED';

/** The specification's message for each code (English; the editor translates). SLOT_BASE_NOT_MANIFOLD has none in the spec. */
export const SLOT_MESSAGES: Readonly<Record<SlotErrorCode, string>> = {
  NO_BASE: 'Invalid operation, no base generated',
  SLOT_WIRE_TYPE: 'Slotting supports only labial bow, single arm clasp and arrow clasp',
  SLOT_BASE_NOT_MANIFOLD: 'The base is not a closed manifold mesh; generate it again',
  SLOTTING_FAILED: 'Slotting failed',
};
