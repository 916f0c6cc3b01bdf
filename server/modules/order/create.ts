// What follows the insert of a new order, whoever made it (the back office's add, a partner's
// open `order`), inside the insert's transaction: the first history row, the models' jobs (bite,
// teeth) and, with AI on, the automatic design's submission after them. And the rule on the set
// of models an order has.
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import { fail } from '../../core/errors.ts';
import type { Database } from '../../db/schema.ts';
import { submitAi } from '../ai/status.ts';
import { modelsChanged, recordCreated } from './lifecycle.ts';

export async function orderCreated(ctx: AppContext, trx: Kysely<Database>, orderId: number, userId: number, enableAI: boolean): Promise<void> {
  await recordCreated(trx, orderId, userId, ctx.clock.now());
  await modelsChanged(ctx, trx, orderId, userId);
  if (enableAI) await submitAi(ctx, trx, orderId);
}

/** An order has an upper or a lower model; an occlusion model only with both. */
export function checkModelSet(m: { upperFileId?: unknown; lowerFileId?: unknown; occlusionFileId?: unknown }): void {
  if (!m.upperFileId && !m.lowerFileId) throw fail('orderModelRequired');
  if (m.occlusionFileId && !(m.upperFileId && m.lowerFileId)) throw fail('orderBothModels');
}
