// The deliveries of an API configuration entry, as its page lists them
// (GET /admin/device/apiConfig/deliveries, device:apiConfig:deliveries), and sending a failed one
// again (POST /admin/device/apiConfig/redeliver { id }, device:apiConfig:redeliver): pending
// again, due now, its attempts and age limit counted afresh. The list carries states, attempts,
// the last answer and reason; never the payload's signature or the entry's secret.
import { z } from 'zod';
import { DELIVERY_STATES, type CallbackEvent, type DeliveryState, type DeliveryView } from '../../../common/callbacks.ts';
import { formatTime } from '../../core/clock.ts';
import { fail } from '../../core/errors.ts';
import type { Db } from '../../db/index.ts';

export const deliveriesQuery = z.object({
  id: z.coerce.number().int().positive(),
  state: z.enum(DELIVERY_STATES).optional(),
  page: z.coerce.number().int().positive().max(100_000).default(1),
  size: z.coerce.number().int().positive().max(100).default(20),
});
export const redeliverSchema = z.object({ id: z.coerce.number().int().positive() });

export async function listDeliveries(db: Db, q: z.infer<typeof deliveriesQuery>) {
  let base = db.selectFrom('partner_delivery as d').where('d.configId', '=', q.id);
  if (q.state) base = base.where('d.state', '=', q.state);
  const { total } = await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .leftJoin('order_info as o', 'o.id', 'd.orderId')
    .select(['d.id', 'd.configId', 'd.orderId', 'o.caseNo', 'd.event', 'd.state', 'd.attempts', 'd.nextAttemptAt', 'd.lastStatus', 'd.lastError', 'd.deliveredTime', 'd.createTime', 'd.updateTime'])
    .orderBy('d.id', 'desc')
    .limit(q.size)
    .offset((q.page - 1) * q.size)
    .execute();
  const list: DeliveryView[] = rows.map(({ nextAttemptAt, ...r }) => ({
    ...r,
    caseNo: r.caseNo ?? null,
    event: r.event as CallbackEvent,
    state: r.state as DeliveryState,
    nextAttemptTime: r.state === 'pending' ? formatTime(Number(nextAttemptAt)) : null,
  }));
  return { list, pagination: { page: q.page, size: q.size, total: Number(total) } };
}

/** Queues a failed delivery again; throws when it is not a failed one. */
export async function redeliver(db: Db, id: number, now: number): Promise<void> {
  const res = await db
    .updateTable('partner_delivery')
    .set({ state: 'pending', attempts: 0, nextAttemptAt: now, queuedAt: now, owner: null, leaseUntil: null, updateTime: formatTime(now) })
    .where('id', '=', id)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 1) return;
  const exists = await db.selectFrom('partner_delivery').select('id').where('id', '=', id).executeTakeFirst();
  throw fail(exists ? 'deliveryNotFailed' : 'dataNotFound');
}
