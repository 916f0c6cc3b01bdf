// The order's lifecycle (docs/api.md, "Order lifecycle"): statuses move only along
// common/order-lifecycle.ts ORDER_TRANSITIONS, each move a conditional update (WHERE status =
// the status read) with its history row in the same transaction. Who may ask for a move is the
// caller's business (routes check the order's scope first); this file only keeps the table.
import type { Kysely } from 'kysely';
import { ORDER_TRANSITIONS, type TransitionReason } from '../../../common/order-lifecycle.ts';
import { ORDER_STATUS, type OrderStatus } from '../../../common/orders.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import type { Database, OrderInfoTable } from '../../db/schema.ts';
import type { Updateable } from 'kysely';
import { queueCallbacks } from '../callbacks/queue.ts';
import { enqueueJob, supersedeJobs } from '../geo-jobs/store.ts';
import { queueTeeth } from '../geo-jobs/teeth.ts';
import { localBlobPath } from '../space/storage.ts';
import path from 'node:path';

type Trx = Kysely<Database>;

export interface Move {
  orderId: number;
  to: OrderStatus;
  reason: TransitionReason;
  /** null: the server itself. */
  userId: number | null;
  detail?: string | null;
  /** Columns written with the status (times). */
  set?: Updateable<OrderInfoTable>;
  now: number;
}

/** The statuses an order may be in for `to` by `reason`. */
export function fromStatuses(to: OrderStatus, reason: TransitionReason): OrderStatus[] {
  return ORDER_TRANSITIONS.filter((t) => t.to === to && t.reason === reason).map((t) => t.from);
}

/**
 * Moves the order if its status allows (the table) and nobody moved it meanwhile; records the
 * change and queues the partners' callbacks. Returns the status it came from, or null when it did not move. Run inside a transaction.
 */
export async function moveOrder(trx: Trx, m: Move): Promise<OrderStatus | null> {
  const row = await trx.selectFrom('order_info').select('status').where('id', '=', m.orderId).executeTakeFirst();
  if (!row) return null;
  const from = row.status as OrderStatus;
  if (!fromStatuses(m.to, m.reason).includes(from)) return null;
  const time = formatTime(m.now);
  const res = await trx
    .updateTable('order_info')
    .set({ ...m.set, status: m.to, updateTime: time })
    .where('id', '=', m.orderId)
    .where('status', '=', from)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return null;
  await trx
    .insertInto('order_status_log')
    .values({ orderId: m.orderId, fromStatus: from, toStatus: m.to, reason: m.reason, userId: m.userId, detail: m.detail?.slice(0, 2000) ?? null, createTime: time })
    .execute();
  await queueCallbacks(trx, { orderId: m.orderId, event: 'orderStatus', fromStatus: from, reason: m.reason, now: m.now });
  return from;
}

/** The first history row of a new order. */
export async function recordCreated(trx: Trx, orderId: number, userId: number, now: number): Promise<void> {
  await trx
    .insertInto('order_status_log')
    .values({ orderId, fromStatus: null, toStatus: ORDER_STATUS.design, reason: 'created', userId, detail: null, createTime: formatTime(now) })
    .execute();
}

/** What a bite job reads: the storage keys of the order's three models, where they live. */
export interface BiteInput {
  orderId: number;
  uploads: string;
  upper: string;
  lower: string;
  occlusion: string;
}

/**
 * The order's models changed (or were given): the bite as below, then the teeth of each jaw
 * model (geo-jobs/teeth.ts; no lifecycle step, the status stays), queued after the bite job and
 * taken after it. Inside the transaction of the change.
 */
export async function modelsChanged(ctx: AppContext, trx: Trx, orderId: number, userId: number): Promise<void> {
  await biteModelsChanged(ctx, trx, orderId, userId);
  await queueTeeth(ctx, trx, orderId, uploadsDir(ctx));
}

/**
 * With an occlusion model present: status 3 and a bite job (a newer job supersedes the order's
 * older one). Without an occlusion model an order waiting for its bite goes back to design (its
 * job is superseded).
 */
async function biteModelsChanged(ctx: AppContext, trx: Trx, orderId: number, userId: number): Promise<void> {
  const now = ctx.clock.now();
  const order = await trx.selectFrom('order_info').select(['status', 'upperFileId', 'lowerFileId', 'occlusionFileId']).where('id', '=', orderId).executeTakeFirst();
  if (!order) return;
  if (!order.occlusionFileId || !order.upperFileId || !order.lowerFileId) {
    if (order.status === ORDER_STATUS.biteRegistration) {
      await supersedeJobs(trx, { orderId, kind: 'bite' }, now);
      await moveOrder(trx, { orderId, to: ORDER_STATUS.design, reason: 'bite', userId, detail: 'the occlusion model was removed', now });
    }
    return;
  }
  const ids = [order.upperFileId, order.lowerFileId, order.occlusionFileId];
  const files = await trx.selectFrom('space_info').select(['id', 'key']).where('id', 'in', ids).execute();
  const key = (id: number) => files.find((f) => f.id === id)?.key;
  const [upper, lower, occlusion] = ids.map(key);
  if (!upper || !lower || !occlusion) return;
  // (moveOrder answers the status it came from, 0 included, or null.)
  if ((await moveOrder(trx, { orderId, to: ORDER_STATUS.biteRegistration, reason: 'models', userId, now })) === null) return;
  const input: BiteInput = { orderId, uploads: uploadsDir(ctx), upper, lower, occlusion };
  await enqueueJob(trx, { kind: 'bite', orderId, input }, now);
  ctx.geoJobs?.wake();
}

export const uploadsDir = (ctx: AppContext) => path.resolve(ctx.config.storageDir);

/** The ids of a design document's wires (each wire's `id`, else its position as `#i`). */
export function wireIds(designJson: string | null | undefined): string[] {
  if (!designJson) return [];
  try {
    const doc = JSON.parse(designJson) as { wires?: unknown };
    if (!Array.isArray(doc.wires)) return [];
    return doc.wires.map((w, i) => {
      const id = (w as { id?: unknown } | null)?.id;
      return typeof id === 'string' || typeof id === 'number' ? String(id) : `#${i}`;
    });
  } catch {
    return [];
  }
}

/**
 * After a bend job of the order was done: when every wire of its design has a done job
 * (matched by the job's wire id), the order moves 1 -> 2 and processEndTime is set.
 */
export async function checkBent(ctx: AppContext, orderId: number): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    const order = await trx.selectFrom('order_info').select('status').where('id', '=', orderId).executeTakeFirst();
    if (order?.status !== ORDER_STATUS.pending) return false;
    const design = await trx.selectFrom('design_data').select('data').where('orderId', '=', orderId).executeTakeFirst();
    const wires = wireIds(design?.data);
    if (!wires.length) return false;
    const jobs = await trx.selectFrom('device_job').select('wire').where('orderId', '=', orderId).where('status', '=', 'done').execute();
    const bent = new Set(jobs.map((j) => {
      try {
        const id = (JSON.parse(j.wire) as { id?: unknown }).id;
        return id === undefined || id === null ? null : String(id);
      } catch {
        return null;
      }
    }));
    if (!wires.every((w) => bent.has(w))) return false;
    const now = ctx.clock.now();
    return (await moveOrder(trx, { orderId, to: ORDER_STATUS.processed, reason: 'bent', userId: null, set: { processEndTime: formatTime(now) }, now })) !== null;
  });
}

/** The bite job's path to the model bytes (read in its thread). */
export const blobPathOf = (input: BiteInput, key: string) => localBlobPath(input.uploads, key);
