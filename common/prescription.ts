// What the automatic design builds on each jaw: its wires (type and the teeth each goes on, as
// Universal numbers like the teeth labels), whether it gets a base, and the wire diameter. The
// system params hold the lab's default; an order may carry its own. Checked the same way on
// every path (order form, partner API, system params): the teeth must be the jaw's, the right
// count per type, and the arrow clasp's two teeth neighbours.
import { z } from 'zod';
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

/** Why a jaw's prescription is refused (null: fine). */
export function prescriptionProblem(jaw: Jaw, p: JawPrescription): string | null {
  for (const w of p.wires) {
    if (w.teeth.length !== PRESCRIPTION_TEETH[w.type]) return `${w.type} needs ${PRESCRIPTION_TEETH[w.type]} teeth`;
    if (w.teeth.some((n) => jawOf(n) !== jaw)) return `${w.type}: teeth ${w.teeth.join(', ')} are not all on the ${jaw} jaw`;
    if (w.type === 'arrowClasp' && distalOf(w.teeth[0]!) !== w.teeth[1] && distalOf(w.teeth[1]!) !== w.teeth[0]) return `arrowClasp: teeth ${w.teeth.join(' and ')} are not neighbours`;
    if ((w.type === 'labialBow' || w.type === 'wraparoundBow') && w.teeth[0] === w.teeth[1]) return `${w.type}: two different teeth`;
  }
  return null;
}

const tooth = z.number().int().min(1).max(32);
const wireSchema = z.object({ type: z.enum(WIRE_TYPES), teeth: z.array(tooth).min(1).max(2) }).strict();
const jawSchema = z
  .object({
    wires: z.array(wireSchema).max(8),
    base: z.boolean(),
    diameter: z.union([z.literal(0.7), z.literal(0.8), z.literal(0.9), z.literal(1)]),
  })
  .strict();

/** A prescription as it arrives (order form, partner API, system params), checked per jaw. */
export const prescriptionSchema = z
  .object({ upper: jawSchema.nullable(), lower: jawSchema.nullable() })
  .strict()
  .superRefine((p, ctx) => {
    for (const jaw of ['upper', 'lower'] as const) {
      const j = p[jaw];
      const problem = j ? prescriptionProblem(jaw, j) : null;
      if (problem) ctx.addIssue({ code: 'custom', path: [jaw], message: problem });
    }
  });
