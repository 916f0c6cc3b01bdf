// What the automatic design builds on each jaw: its wires (type and the teeth each goes on, as
// Universal numbers like the teeth labels), whether it gets a base, and the wire diameter. The
// system params hold the lab's default; an order may carry its own. Checked the same way on
// every path (order form, partner API, system params): the teeth must be the jaw's, the right
// count per type, and the arrow clasp's two teeth neighbours.
import { WIRE_TYPES, type WireType } from './wires.ts';
import { caninesOf, distalOf, jawOf, type Jaw } from './teeth.ts';

/** The machines' wire diameters (mm). */
export const PRESCRIPTION_DIAMETERS = [0.7, 0.8, 0.9, 1] as const;

export interface WirePrescription {
  type: WireType;
  /** Universal numbers: singleArmClasp [tooth]; arrowClasp [tooth, its distal neighbour]; labialBow [canine, canine]; wraparoundBow [last molar, last molar]. */
  teeth: number[];
}

export interface JawPrescription {
  wires: WirePrescription[];
  base: boolean;
  diameter: number;
}

export interface Prescription {
  upper: JawPrescription | null;
  lower: JawPrescription | null;
}

/** Teeth each wire type is named by. */
export const PRESCRIPTION_TEETH: Record<WireType, number> = { singleArmClasp: 1, arrowClasp: 2, labialBow: 2, wraparoundBow: 2 };

/** The default of a fresh install: single-arm clasps on both first molars, a labial bow from canine to canine, a base; the same on the lower jaw. */
export const DEFAULT_PRESCRIPTION: Prescription = {
  upper: {
    wires: [
      { type: 'singleArmClasp', teeth: [3] },
      { type: 'singleArmClasp', teeth: [14] },
      { type: 'labialBow', teeth: caninesOf('upper') },
    ],
    base: true,
    diameter: 0.8,
  },
  lower: {
    wires: [
      { type: 'singleArmClasp', teeth: [30] },
      { type: 'singleArmClasp', teeth: [19] },
      { type: 'labialBow', teeth: caninesOf('lower') },
    ],
    base: true,
    diameter: 0.8,
  },
};

/** Why a wire's teeth are refused: their count for its type, a tooth of the other jaw, an arrow clasp's teeth apart, a bow's two teeth the same. */
export type PrescriptionProblemCode = 'TEETH_COUNT' | 'WRONG_JAW' | 'NOT_NEIGHBOURS' | 'SAME_TEETH';

export interface PrescriptionProblem {
  code: PrescriptionProblemCode;
  wire: WirePrescription;
}

/** The first wire of a jaw's prescription whose teeth are refused, and why (null: fine). */
export function prescriptionProblem(jaw: Jaw, p: JawPrescription): PrescriptionProblem | null {
  for (const w of p.wires) {
    if (w.teeth.length !== PRESCRIPTION_TEETH[w.type]) return { code: 'TEETH_COUNT', wire: w };
    if (w.teeth.some((n) => jawOf(n) !== jaw)) return { code: 'WRONG_JAW', wire: w };
    if (w.type === 'arrowClasp' && distalOf(w.teeth[0]!) !== w.teeth[1] && distalOf(w.teeth[1]!) !== w.teeth[0]) return { code: 'NOT_NEIGHBOURS', wire: w };
    if ((w.type === 'labialBow' || w.type === 'wraparoundBow') && w.teeth[0] === w.teeth[1]) return { code: 'SAME_TEETH', wire: w };
  }
  return null;
}

/** The problem in English (the command line, the zod issue). */
export function prescriptionProblemText(jaw: Jaw, { code, wire: w }: PrescriptionProblem): string {
  switch (code) {
    case 'TEETH_COUNT':
      return `${w.type} needs ${PRESCRIPTION_TEETH[w.type]} teeth`;
    case 'WRONG_JAW':
      return `${w.type}: teeth ${w.teeth.join(', ')} are not all on the ${jaw} jaw`;
    case 'NOT_NEIGHBOURS':
      return `arrowClasp: teeth ${w.teeth.join(' and ')} are not neighbours`;
    case 'SAME_TEETH':
      return `${w.type}: two different teeth`;
  }
}

/** Whether `value` is a prescription of the right shape whose teeth pass prescriptionProblem (pure: the browser's check; the server's is prescription-schema.ts, with field paths). */
export function isPrescription(value: unknown): value is Prescription {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const onlyKeys = (v: Record<string, unknown>, keys: string[]) => Object.keys(v).every((k) => keys.includes(k)) && keys.every((k) => k in v);
  const isJaw = (jaw: Jaw, v: unknown): boolean => {
    if (v === null) return true;
    if (!isObject(v) || !onlyKeys(v, ['wires', 'base', 'diameter'])) return false;
    if (typeof v.base !== 'boolean' || !(PRESCRIPTION_DIAMETERS as readonly unknown[]).includes(v.diameter)) return false;
    const wires = v.wires;
    if (!Array.isArray(wires) || wires.length > 8) return false;
    for (const w of wires as unknown[]) {
      if (!isObject(w) || !onlyKeys(w, ['type', 'teeth']) || !(WIRE_TYPES as readonly unknown[]).includes(w.type)) return false;
      const teeth = w.teeth;
      if (!Array.isArray(teeth) || teeth.length < 1 || teeth.length > 2 || !teeth.every((n) => Number.isInteger(n) && n >= 1 && n <= 32)) return false;
    }
    return prescriptionProblem(jaw, v as unknown as JawPrescription) === null;
  };
  return isObject(value) && onlyKeys(value, ['upper', 'lower']) && isJaw('upper', value.upper) && isJaw('lower', value.lower);
}
