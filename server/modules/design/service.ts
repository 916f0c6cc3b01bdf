// The design module's queries: who may design an order, and the design document's versions.
import type { AppContext } from '../../context.ts';
import { SEE_ALL, seesAll } from '../../core/access.ts';
import type { Db } from '../../db/index.ts';

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

/** Writes version baseVersion + 1 if the stored version is still baseVersion; false when it is not (a stale save). */
export async function writeDesign(ctx: AppContext, w: DesignWrite): Promise<boolean> {
  const values = { version: w.baseVersion + 1, schemaVersion: w.schemaVersion, data: w.text, userId: w.userId, updateTime: w.time };
  // The version check is part of the write itself, so concurrent saves cannot both pass it.
  if (w.baseVersion === 0) {
    const result = await ctx.db
      .insertInto('design_data')
      .values({ orderId: w.orderId, createTime: w.time, ...values })
      .onConflict((oc) => oc.column('orderId').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const result = await ctx.db
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
