// The prescription as the server and the command line check what arrives (order form, partner
// API, system params, a JSON file): zod, for field paths in the messages. The browser checks
// with the pure isPrescription (prescription.ts) and bundles no zod.
import { z } from 'zod';
import { WIRE_TYPES } from './wires.ts';
import { prescriptionProblem, prescriptionProblemText } from './prescription.ts';

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
      if (problem) ctx.addIssue({ code: 'custom', path: [jaw], message: prescriptionProblemText(jaw, problem) });
    }
  });
