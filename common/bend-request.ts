// The request schemas of a bend job (POST /admin/design/bend): a wire and its steps as they
// travel. The limits the values must keep are bend-program.ts.
import { z } from 'zod';
import type { BendStep } from './bend-program.ts';

/** One step: three finite numbers (zod's number refuses Infinity and NaN). */
export const bendStepSchema: z.ZodType<BendStep> = z.object({ feed: z.number(), rotate: z.number(), bend: z.number() });

/** The wire of a job: a type, a diameter in mm, an optional material. */
export const bendWireSchema = z.object({
  type: z.string().trim().min(1).max(64),
  diameter: z.coerce.number().positive().max(10),
  material: z.string().max(64).nullable().optional(),
});
