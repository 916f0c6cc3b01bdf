// The automatic design's calls as the server checks them (zod; the browser does not bundle it).
import { z } from 'zod';

/** POST /admin/design/retryAI: the failed order to send again ({ orderId }, or { id } as the order list's call). */
export const aiRetrySchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !('orderId' in v) && 'id' in v ? { orderId: (v as { id: unknown }).id } : v),
  z.object({ orderId: z.coerce.number().int().positive() }),
);
export type AiRetryRequest = z.input<typeof aiRetrySchema>;

/** GET /admin/design/aiStatistics?period= (day | week | month | year | all; default week). */
export const aiStatisticsSchema = z.object({ period: z.enum(['day', 'week', 'month', 'year', 'all']).optional() });
