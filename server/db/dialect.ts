// The only place that knows which SQL dialect runs. Migrations ask here instead of writing
// dialect-specific SQL themselves.
import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-incrementing integer primary key named `id`. */
export function idColumn(db: Kysely<any>) {
  return <T extends string>(table: CreateTableBuilder<T, never>) =>
    isPostgres(db)
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** The `createTime` and `updateTime` columns every resource table has ('YYYY-MM-DD HH:mm:ss'). */
export function timeColumns<T extends string>(table: CreateTableBuilder<T, never>) {
  return table
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addColumn('updateTime', 'varchar(19)', (c) => c.notNull());
}

/**
 * Runs `work` in one transaction that holds an exclusive lock named `key` until it ends, so that
 * a read-then-write under the same name is never interleaved with another's, whichever process
 * runs it. PostgreSQL (READ COMMITTED) takes a transaction-level advisory lock on the key's hash.
 * SQLite runs one writer at a time and a statement sees the rows committed before it: there `work`
 * runs as is, so it must do its read and its write in one statement.
 */
export async function withLock<DB, T>(db: Kysely<DB>, key: string, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return work(db);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
    return work(trx);
  });
}
