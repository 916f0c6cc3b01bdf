// The automatic design's calls as the server checks them (zod; the browser does not bundle it).
import { z } from 'zod';
import { AI_REPORT_LIMITS, type AiBaseReport, type AiWireReport } from './ai-report.ts';
import { wireTypeSchema } from './bend-request.ts';

/** POST /admin/design/retryAI: the failed order to send again ({ orderId }, or { id } as the order list's call). */
export const aiRetrySchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !('orderId' in v) && 'id' in v ? { orderId: (v as { id: unknown }).id } : v),
  z.object({ orderId: z.coerce.number().int().positive() }),
);
export type AiRetryRequest = z.input<typeof aiRetrySchema>;

/** GET /admin/design/aiStatistics?period= (day | week | month | year | all; default week). */
export const aiStatisticsSchema = z.object({ period: z.enum(['day', 'week', 'month', 'year', 'all']).optional() });

const L = AI_REPORT_LIMITS;
const jaw = z.enum(['upper', 'lower']);
const universal = z.number().int().min(1).max(32);
const text = z.string().max(L.message);
const code = z.string().regex(/^[A-Za-z0-9_.-]+$/).max(L.code);
const wireId = z.string().min(1).max(L.id);

/**
 * One prescribed wire's entry. `status` placed | failed; an entry of the first callback contract
 * may say `ok` instead (true: placed). Unknown fields are dropped.
 */
export const aiWireReportSchema = z
  .object({
    wireId: wireId.optional(),
    jaw,
    type: wireTypeSchema,
    teeth: z.array(universal).max(16),
    status: z.enum(['placed', 'failed']).optional(),
    ok: z.boolean().optional(),
    code: z.enum(['DETECTION_FAILED', 'CHECKS_FAILED', 'COLLISION']).optional(),
    tooth: universal.optional(),
    message: text.optional(),
    tipUndercut: z.number().min(0).max(10).optional(),
    dieRadius: z.number().positive().max(10).optional(),
  })
  .refine((w) => w.status !== undefined || w.ok !== undefined, { message: 'status (placed | failed) is required' })
  .transform(({ ok, status, ...w }): AiWireReport => ({ ...w, status: status ?? (ok ? 'placed' : 'failed') }));

/** One jaw's base entry: its slots and the tags it holds short (inside: mm, outside: corners). */
export const aiBaseReportSchema = z.object({
  jaw,
  status: z.enum(['generated', 'failed']),
  code: code.optional(),
  message: text.optional(),
  slots: z.array(z.object({ wireId, status: z.enum(['cut', 'failed']), code: code.optional() })).max(L.slots).default([]),
  tags: z.array(z.object({ wireId, inside: z.number().min(-100).max(100), outside: z.number().int().min(0).max(64) })).max(L.tags).optional(),
}) satisfies z.ZodType<AiBaseReport, unknown>;

/** A report as the engine or a service hands it over: per wire, and per base (optional). */
export const aiReportSchema = z.object({
  wires: z.array(aiWireReportSchema).max(L.wires),
  bases: z.array(aiBaseReportSchema).max(L.bases).default([]),
});
