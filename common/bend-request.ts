// The request schemas of the editor's bend calls (POST /admin/design/bend, getQueueList, cancel):
// a wire and its steps as they travel, and the bodies of the calls. The limits the values must
// keep are bend-program.ts; the wire types are wires.ts. The server validates with these, and the
// client's bodies are typed from them (z.input).
import { z } from 'zod';
import type { BendStep } from './bend-program.ts';
import { JOB_STATES } from './device-jobs.ts';
import { WIRE_TYPES } from './wires.ts';

/** One of the product's wire types (wires.ts), by its key. */
export const wireTypeSchema = z.enum(WIRE_TYPES);

/** One step: three finite numbers (zod's number refuses Infinity and NaN). */
export const bendStepSchema: z.ZodType<BendStep> = z.object({ feed: z.number(), rotate: z.number(), bend: z.number() });

/** The wire of a job: a type, a diameter in mm, an optional material. */
export const bendWireSchema = z.object({
  type: wireTypeSchema,
  diameter: z.coerce.number().positive().max(10),
  material: z.string().max(64).nullable().optional(),
  /** The design's wire (design document `wires[].id`): when every wire of an order's design has a done job, the order is processed. */
  id: z.union([z.string().min(1).max(64), z.number().int()]).optional(),
  /** Made by the automatic design (common/ai.ts): not accepted by a designer, it goes only to an AI-enabled device. The stored design's mark wins. */
  ai: z.object({ accepted: z.boolean() }).nullable().optional(),
});
export type BendWire = z.input<typeof bendWireSchema>;

/**
 * POST /admin/design/bend, as the server first reads it: loose on purpose, so that a missing
 * device or wire gets the specification's message ("no device selected", "no bow wire was
 * selected") rather than "invalid"; each part is then checked with the schemas above.
 */
export const bendBodySchema = z.object({
  deviceId: z.unknown().optional(),
  orderId: z.unknown().optional(),
  wire: z.unknown().optional(),
  steps: z.unknown().optional(),
});

/** A bend body that passes every check of the schemas (what a client means to send). */
export interface BendRequest {
  deviceId: number;
  orderId?: number | null;
  wire: z.output<typeof bendWireSchema>;
  steps: BendStep[];
}

/** POST /admin/design/getQueueList: filters of the bend queue. */
export const queueListSchema = z.object({
  deviceId: z.coerce.number().int().positive().optional(),
  mine: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
  status: z.enum(JOB_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export type QueueListRequest = z.input<typeof queueListSchema>;

/** POST /admin/design/cancel (and cancelJob): the job to cancel. */
export const jobIdSchema = z.object({ jobId: z.string().min(1).max(64) });
export type JobIdRequest = z.input<typeof jobIdSchema>;
