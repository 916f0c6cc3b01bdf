// The design module's queries: who may design an order, and the design document's versions.
import { ORDER_STATUS, type OrderStatus } from '../../../common/orders.ts';
import type { AppContext } from '../../context.ts';
import { SEE_ALL, seesAll } from '../../core/access.ts';
import { Code } from '../../core/envelope.ts';
import { ApiError } from '../../core/errors.ts';
import { t, type Lang } from '../../core/i18n.ts';
import type { Db } from '../../db/index.ts';
import { ORDER_STATUS_LABELS } from '../order/status.ts';

export interface DesignRecord {
  orderId: number;
  version: number;
  schemaVersion: number;
  data: Record<string, unknown>;
  updateTime: string;
}

/** The order, if this user may design it (the order list's scope): its designer or an orders admin. */
export async function visibleOrder(db: Db, userId: number, orderId: number): Promise<boolean> {
  let query = db.selectFrom('order_info').select('id').where('id', '=', orderId);
  if (!(await seesAll(db, userId, SEE_ALL.orders))) query = query.where('designerId', '=', userId);
  return !!(await query.executeTakeFirst());
}

/** The order's row, if this user may design it (its designer or an orders admin). */
export async function scopedOrder(db: Db, userId: number, orderId: number) {
  let q = db.selectFrom('order_info').selectAll().where('id', '=', orderId);
  if (!(await seesAll(db, userId, SEE_ALL.orders))) q = q.where('designerId', '=', userId);
  return q.executeTakeFirst();
}

/** "Not possible while the order is <status>", in the caller's language. */
export function wrongStatus(lang: Lang, status: number): ApiError {
  return new ApiError(Code.fail, 'orderWrongStatus', 200, { status: t(lang, ORDER_STATUS_LABELS[status as OrderStatus] ?? 'orderStatusDesign') });
}

/** A submitted or processed order's design is what goes (went) to the machines: it is not changed (reopen first). */
export function assertEditable(lang: Lang, status: number): void {
  if (status === ORDER_STATUS.pending || status === ORDER_STATUS.processed) throw wrongStatus(lang, status);
}

export async function currentVersion(db: Db, orderId: number): Promise<number> {
  const row = await db.selectFrom('design_data').select('version').where('orderId', '=', orderId).executeTakeFirst();
  return row?.version ?? 0;
}

export interface DesignWrite {
  orderId: number;
  userId: number;
  /** The version the document was based on: 0 for the first save. */
  baseVersion: number;
  schemaVersion: number;
  /** The document as JSON text. */
  text: string;
  time: string;
}

/** Writes version baseVersion + 1 if the stored version is still baseVersion; false when it is not (a stale save). `db`: a transaction (the automatic design's job end). */
export async function writeDesign(ctx: AppContext, w: DesignWrite, db: Db = ctx.db): Promise<boolean> {
  const values = { version: w.baseVersion + 1, schemaVersion: w.schemaVersion, data: w.text, userId: w.userId, updateTime: w.time };
  // The version check is part of the write itself, so concurrent saves cannot both pass it.
  if (w.baseVersion === 0) {
    const result = await db
      .insertInto('design_data')
      .values({ orderId: w.orderId, createTime: w.time, ...values })
      .onConflict((oc) => oc.column('orderId').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const result = await db
    .updateTable('design_data')
    .set(values)
    .where('orderId', '=', w.orderId)
    .where('version', '=', w.baseVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The latest design document of an order, or null. */
export async function readDesign(db: Db, orderId: number): Promise<DesignRecord | null> {
  const row = await db
    .selectFrom('design_data')
    .select(['orderId', 'version', 'schemaVersion', 'data', 'updateTime'])
    .where('orderId', '=', orderId)
    .executeTakeFirst();
  return row ? { ...row, data: JSON.parse(row.data) as Record<string, unknown> } : null;
}
