// Queueing callbacks (docs/partner-api.md, "Callbacks"): called by the one place each status is
// written (order/lifecycle.ts moveOrder, ai/status.ts moveAi), inside the transaction of the
// change, so a change is never lost and a rolled-back one is never sent. Each recipient gets its
// own row in partner_delivery; deliverer.ts posts them.
// Recipients: the enabled partner entries with a callback URL of the order's department (the
// department of its designer: the orders' data scope is the designer's; ai/vendor.ts picks an AI
// service by it too) or of a department above it (a partner sees the departments below its own),
// and the partner that created the order. An entry without a department acts for none of the others.
import type { Kysely } from 'kysely';
import type { CallbackBody, CallbackEvent } from '../../../common/callbacks.ts';
import type { AiStatus, OrderStatus } from '../../../common/orders.ts';
import { formatTime } from '../../core/clock.ts';
import type { Database } from '../../db/schema.ts';

type Trx = Kysely<Database>;

/** The entries that get the order's callbacks. */
export async function recipientsOf(trx: Trx, orderId: number): Promise<number[]> {
  const order = await trx
    .selectFrom('order_info')
    .leftJoin('base_sys_user', 'base_sys_user.id', 'order_info.designerId')
    .select('base_sys_user.departmentId')
    .where('order_info.id', '=', orderId)
    .executeTakeFirst();
  if (!order) return [];
  // The designer's department and those above it: a partner sees the departments below its own.
  const departments: number[] = [];
  const parents = new Map((await trx.selectFrom('base_sys_department').select(['id', 'parentId']).execute()).map((d) => [d.id, d.parentId]));
  for (let d = order.departmentId; d !== null && d !== undefined && !departments.includes(d); d = parents.get(d) ?? null) departments.push(d);
  const creator = await trx.selectFrom('partner_order').select('configId').where('orderId', '=', orderId).executeTakeFirst();
  if (!departments.length && !creator) return [];
  const rows = await trx
    .selectFrom('device_api_config')
    .select('id')
    .where('kind', '=', 'partner')
    .where('enabled', '=', 1)
    .where((eb) => {
      const who = [];
      if (departments.length) who.push(eb('departmentId', 'in', departments));
      if (creator) who.push(eb('id', '=', creator.configId));
      return eb.or(who);
    })
    .where('callbackUrl', 'is not', null)
    .where('callbackUrl', '!=', '')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

export interface StatusChange {
  orderId: number;
  event: CallbackEvent;
  /** orderStatus: where it came from and why. */
  fromStatus?: OrderStatus;
  reason?: string;
  now: number;
}

/** Queues the change for every recipient (the order as it is now, in this transaction). */
export async function queueCallbacks(trx: Trx, change: StatusChange): Promise<void> {
  const recipients = await recipientsOf(trx, change.orderId);
  if (!recipients.length) return;
  const order = await trx.selectFrom('order_info').select(['caseNo', 'status', 'aiStatus', 'aiError']).where('id', '=', change.orderId).executeTakeFirst();
  if (!order) return;
  const payload: Omit<CallbackBody, 'deliveryId'> = {
    event: change.event,
    orderId: change.orderId,
    caseNo: order.caseNo,
    status: order.status as OrderStatus,
    fromStatus: change.fromStatus ?? null,
    reason: change.reason ?? null,
    aiStatus: order.aiStatus as AiStatus,
    aiError: order.aiError,
    time: new Date(change.now).toISOString(),
  };
  const text = JSON.stringify(payload);
  const time = formatTime(change.now);
  await trx
    .insertInto('partner_delivery')
    .values(recipients.map((configId) => ({ configId, orderId: change.orderId, event: change.event, payload: text, nextAttemptAt: change.now, queuedAt: change.now, createTime: time, updateTime: time })))
    .execute();
}
