// The recycle bin behind the CRUD factory's `recycle: true`: deleted rows (with their related
// rows) are kept as JSON and can be put back with the same ids, or purged for good.
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import { tolerated } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import { formatTime } from './clock.ts';
import { fail } from './errors.ts';

type Row = Record<string, unknown>;

/** What one recycle entry's `data` column holds. */
export interface RecycledData {
  row: Row;
  /** table -> rows deleted with the row, restored after it. */
  related: Record<string, Row[]>;
  /** Columns never shown (password hashes): kept for the restore, left out of every reply. */
  hidden: string[];
}

/** Tables whose rows may be restored (only what a recycle-enabled resource put there), with the
 * resource's path prefix (`/admin/order/info`), from which its permissions derive. */
const recyclable = new Map<string, { entity: string; prefix: string }>();

export function registerRecyclable(table: string, entity: string, prefix: string): void {
  recyclable.set(table, { entity, prefix });
}

export function recyclableTables(): ReadonlyMap<string, { entity: string; prefix: string }> {
  return recyclable;
}

export interface RecycleInput {
  entity: string;
  prefix: string;
  table: string;
  hidden: string[];
  entries: { row: Row; related: Record<string, Row[]> }[];
  user?: { id: number; name: string };
  now: string;
}

/** Stores the rows and deletes their related rows; the caller deletes the rows themselves. */
export async function moveToRecycleBin(trx: Kysely<Database>, input: RecycleInput): Promise<void> {
  const db = trx as unknown as Kysely<any>;
  for (const { row, related } of input.entries) {
    for (const [table, rows] of Object.entries(related)) {
      const ids = rows.map((r) => Number(r.id));
      if (ids.length) await db.deleteFrom(table).where('id', 'in', ids).execute();
    }
    const data: RecycledData = { row, related, hidden: input.hidden };
    await trx
      .insertInto('recycle_data')
      .values({
        entity: input.entity,
        prefix: input.prefix,
        tableName: input.table,
        rowId: Number(row.id),
        data: JSON.stringify(data),
        userId: input.user?.id ?? null,
        userName: input.user?.name ?? null,
        createTime: input.now,
      })
      .execute();
  }
}

/** A stored entry's data without its hidden columns, for replies. */
export function visibleData(json: string): Row {
  const data = JSON.parse(json) as RecycledData;
  const row = { ...data.row };
  for (const key of data.hidden ?? []) delete row[key];
  return row;
}

/** A deleted row as people know it (its username, name, title...), else its entity name. */
function displayName(row: Row, entity: string): string {
  for (const key of ['username', 'name', 'label', 'caseNo', 'patientName', 'title', 'keyName', 'version', 'devicename']) {
    const value = row[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return entity;
}

/**
 * Re-inserts the entries' rows with their ids, then their related rows, and drops the entries.
 * All or nothing: a taken id or a broken reference fails the whole call with a clear message.
 */
export async function restoreFromRecycleBin(trx: Kysely<Database>, ids: number[]): Promise<number> {
  const db = trx as unknown as Kysely<any>;
  const entries = await trx.selectFrom('recycle_data').selectAll().where('id', 'in', ids).orderBy('id', 'asc').execute();
  for (const entry of entries) {
    const data = JSON.parse(entry.data) as RecycledData;
    const what = { name: displayName(data.row, entry.entity), id: entry.rowId };
    if (!recyclable.has(entry.tableName)) throw fail('recycleRestoreFailed', what);
    const taken = await db.selectFrom(entry.tableName).select('id').where('id', '=', entry.rowId).executeTakeFirst();
    if (taken) throw fail('recycleIdTaken', what);
    try {
      await db.insertInto(entry.tableName).values(data.row).execute();
    } catch (err) {
      // A unique value taken again (a username), or a row it refers to is gone.
      if (err instanceof Error && /constraint/i.test(err.message)) {
        throw fail('recycleRestoreFailed', what);
      }
      throw err;
    }
    for (const [table, rows] of Object.entries(data.related ?? {})) {
      for (const row of rows) {
        try {
          await tolerated(db, () => db.insertInto(table).values(row).onConflict((oc: any) => oc.doNothing()).execute());
        } catch (err) {
          // A link whose other end is gone meanwhile (a role's menu deleted) stays gone.
          if (!(err instanceof Error && /foreign key/i.test(err.message))) throw err;
        }
      }
    }
  }
  await trx.deleteFrom('recycle_data').where('id', 'in', entries.map((e) => e.id)).execute();
  return entries.length;
}

export const RECYCLE_KEEP_DAYS = 30;

/** Deletes for good the entries older than `olderThanDays`; answers how many went. */
export async function purgeRecycleBin(ctx: Pick<AppContext, 'db' | 'clock'>, olderThanDays = RECYCLE_KEEP_DAYS): Promise<number> {
  const cutoff = formatTime(ctx.clock.now() - olderThanDays * 24 * 60 * 60 * 1000);
  const result = await ctx.db.deleteFrom('recycle_data').where('createTime', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
