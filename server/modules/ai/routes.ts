// The automatic design's calls under /admin/design/* (spec section 7): retryAI and aiStatistics.
// - retryAI { orderId } (design:retryAI): only an order the caller may design (its designer or an
//   orders admin, the same scope as every design call: another designer's order is "not found"),
//   only when its automatic design failed; resubmits it (aiStatus fail -> submitted, a new job).
// - aiStatistics ?period= (design:aiStatistics): the figures of statistics.ts, counted within the
//   caller's order scope (non-admins: their own orders).
import { Hono } from 'hono';
import { aiRetrySchema, aiStatisticsSchema } from '../../../common/ai-request.ts';
import { AI_STATUS } from '../../../common/orders.ts';
import type { AppContext } from '../../context.ts';
import { authOf } from '../../core/access.ts';
import type { AppEnv } from '../../core/env.ts';
import { ok } from '../../core/envelope.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { fail } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import { scopeOf } from '../dashboard/common.ts';
import { rangeOf } from '../dashboard/periods.ts';
import { scopedOrder } from '../design/service.ts';
import { aiStatistics } from './statistics.ts';
import { submitAi } from './status.ts';

const PREFIX = '/admin/design';
const AI = epsGroup('design', PREFIX, 'DesignAi');

export function aiRoutes(ctx: AppContext) {
  const doc = entryDoc(AI);
  return new Hono<AppEnv>()
    .post(`${PREFIX}/retryAI`, doc('Send a failed automatic design again ({ orderId }): aiStatus fail -> submitted'), validate('json', aiRetrySchema), async (c) => {
      const { orderId } = c.req.valid('json');
      const order = await scopedOrder(ctx.db, authOf(c).userId, orderId);
      if (!order) throw fail('designOrderNotFound');
      if (!order.enableAI || order.aiStatus !== AI_STATUS.fail) throw fail('orderAiNotRetryable');
      if (!(await ctx.db.transaction().execute((trx) => submitAi(ctx, trx, orderId, 'retry')))) throw fail('orderAiNotRetryable');
      return ok(c, { orderId, aiStatus: AI_STATUS.submitted });
    })
    .get(`${PREFIX}/aiStatistics`, doc('Automatic design figures of a period (?period=day|week|month|year|all): counts by aiStatus, success rate, mean time, series'), validate('query', aiStatisticsSchema), async (c) => {
      const { period } = c.req.valid('query');
      const now = ctx.clock.now();
      return ok(c, await aiStatistics(ctx.db, rangeOf(period ?? 'week', now), await scopeOf(ctx.db, authOf(c).userId), now));
    });
}
