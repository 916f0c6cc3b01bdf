// The order's aiStatus (common/ai.ts AI_TRANSITIONS): every move is a conditional update (WHERE
// aiStatus IN the statuses the move starts from, and AI on unless it is switched off), so a job's
// end never overwrites a newer submission or a switch-off. Who may ask is the caller's business
// (routes check the order's scope first). Run inside the transaction of the change.
import type { Kysely, Updateable } from 'kysely';
import { AI_TRANSITIONS } from '../../../common/ai.ts';
import { AI_STATUS, type AiStatus } from '../../../common/orders.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import type { Database, OrderInfoTable } from '../../db/schema.ts';
import { queueCallbacks } from '../callbacks/queue.ts';
import { enqueueJob, supersedeJobs } from '../geo-jobs/store.ts';
import { uploadsDir } from '../order/lifecycle.ts';

type Trx = Kysely<Database>;
type Why = (typeof AI_TRANSITIONS)[number][2];

export const AUTODESIGN_KIND = 'autodesign';

/** What an autodesign job row stores; the rest is read when it starts (kind.ts prepare). */
export interface AutodesignJobInput {
  orderId: number;
  uploads: string;
}

/** The statuses `to` may be reached from by `why`. */
export function aiFrom(to: AiStatus, why: Why): AiStatus[] {
  return AI_TRANSITIONS.filter(([, t, w]) => t === to && w === why).map(([f]) => f);
}

/** Moves the order's aiStatus if it allows (and queues the partners' callbacks); true when it moved. */
export async function moveAi(trx: Trx, m: { orderId: number; to: AiStatus; why: Why; now: number; set?: Updateable<OrderInfoTable> }): Promise<boolean> {
  let q = trx
    .updateTable('order_info')
    .set({ ...m.set, aiStatus: m.to, updateTime: formatTime(m.now) })
    .where('id', '=', m.orderId)
    .where('aiStatus', 'in', aiFrom(m.to, m.why));
  if (m.why !== 'off') q = q.where('enableAI', '=', 1);
  const res = await q.executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  await queueCallbacks(trx, { orderId: m.orderId, event: 'aiStatus', now: m.now });
  return true;
}

/**
 * Submits the order's automatic design: aiStatus -> submitted (reason and end cleared) and an
 * autodesign job (superseding the order's pending one), taken after the order's bite and teeth
 * jobs. False when the order's AI is off (or, for a retry, when it had not failed).
 */
export async function submitAi(ctx: AppContext, trx: Trx, orderId: number, why: 'submit' | 'retry' = 'submit'): Promise<boolean> {
  const now = ctx.clock.now();
  const time = formatTime(now);
  const moved = await moveAi(trx, { orderId, to: AI_STATUS.submitted, why, now, set: { aiError: null, aiSubmitTime: time, aiEndTime: null } });
  if (!moved) return false;
  const input: AutodesignJobInput = { orderId, uploads: uploadsDir(ctx) };
  await enqueueJob(trx, { kind: AUTODESIGN_KIND, orderId, input }, now);
  ctx.geoJobs?.wake();
  return true;
}

/** AI switched off: aiStatus -> not enabled, the order's pending autodesign job superseded. */
export async function aiOff(ctx: AppContext, trx: Trx, orderId: number): Promise<void> {
  const now = ctx.clock.now();
  await moveAi(trx, { orderId, to: AI_STATUS.notEnabled, why: 'off', now, set: { aiError: null } });
  await supersedeJobs(trx, { orderId, kind: AUTODESIGN_KIND }, now);
}
