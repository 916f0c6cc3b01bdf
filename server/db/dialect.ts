// The only place that knows which SQL dialect runs. Migrations ask here instead of writing
// dialect-specific SQL themselves.
import {
  ColumnNode,
  OperationNodeTransformer,
  PostgresAdapter,
  RawNode,
  ReferenceNode,
  sql,
  type CreateTableBuilder,
  type DataTypeNode,
  type Kysely,
  type KyselyPlugin,
  type OperationNode,
  type OrderByItemNode,
  type RawBuilder,
} from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-incrementing integer primary key named `id`. */
export function idColumn(db: Kysely<any>) {
  return <T extends string>(table: CreateTableBuilder<T, never>) =>
    isPostgres(db)
      ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** The `createTime` and `updateTime` columns every resource table has ('YYYY-MM-DD HH:mm:ss'). */
export function timeColumns<T extends string>(table: CreateTableBuilder<T, never>) {
  return table
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addColumn('updateTime', 'varchar(19)', (c) => c.notNull());
}

/**
 * PostgreSQL only: makes the SQL written for SQLite mean the same there.
 * - Column types (migrations name SQLite's): `integer` -> `bigint` (SQLite integers are 64-bit:
 *   millisecond times, sizes), `real` -> `double precision` (SQLite's REAL is 8 bytes),
 *   `varchar(n)` -> `varchar` (SQLite never enforces the length; the API's validation does).
 * - Order of NULLs: SQLite sorts them first ascending and last descending, PostgreSQL the other
 *   way round; an ORDER BY item that does not say gets SQLite's order. Not on the columns that
 *   are never NULL (`id`, `createTime`, `updateTime`): PostgreSQL could no longer walk their
 *   indexes in that order.
 */
export const postgresLikeSqlite: KyselyPlugin = {
  transformQuery: (args) => likeSqlite.transformNode(args.node),
  transformResult: async (args) => args.result,
};

class LikeSqlite extends OperationNodeTransformer {
  protected override transformDataType(node: DataTypeNode): DataTypeNode {
    const type = node.dataType;
    if (type === 'integer') return { ...node, dataType: 'bigint' };
    if (type === 'real') return { ...node, dataType: 'double precision' };
    if (type.startsWith('varchar(')) return { ...node, dataType: 'varchar' };
    return node;
  }

  protected override transformOrderByItem(node: OrderByItemNode): OrderByItemNode {
    const item = super.transformOrderByItem(node);
    if (item.nulls || isNeverNull(item.orderBy)) return item;
    const descending = !!item.direction && RawNode.is(item.direction) && item.direction.sqlFragments.join('').trim().toLowerCase() === 'desc';
    return { ...item, nulls: descending ? 'last' : 'first' };
  }
}

const likeSqlite = new LikeSqlite();

// Primary keys and timeColumns(): NOT NULL in every table.
const NEVER_NULL = new Set(['id', 'createTime', 'updateTime']);

function isNeverNull(node: OperationNode): boolean {
  const column = ReferenceNode.is(node) ? node.column : node;
  return ColumnNode.is(column) && NEVER_NULL.has(column.column.name);
}

/**
 * `column` contains `text` (% and _ in it are literal), ignoring the case of ASCII letters as
 * SQLite's LIKE does: ILIKE on PostgreSQL, whose LIKE is case-sensitive.
 */
export function containsText(db: Kysely<any>, column: string, text: string): RawBuilder<boolean> {
  const pattern = `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return sql<boolean>`${sql.ref(column)} ${sql.raw(isPostgres(db) ? 'ilike' : 'like')} ${pattern} escape '\\'`;
}

/**
 * Runs `fn` holding a lock on `key` until the transaction ends, for a read-then-write (count, then
 * insert) that must not interleave with another for the same key. SQLite runs one writer at a time,
 * so there `fn` runs as it is; on PostgreSQL (READ COMMITTED) it runs in a transaction (or the one
 * `db` is) that first takes a transaction-scoped advisory lock on the key.
 */
export async function withKeyLock<DB, T>(db: Kysely<DB>, key: string, fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return fn(db);
  const locked = async (trx: Kysely<DB>) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
    return fn(trx);
  };
  return db.isTransaction ? locked(db) : db.transaction().execute(locked);
}

/**
 * Runs one statement inside transaction `trx` whose failure the caller handles and goes on: SQLite
 * undoes only the failed statement; PostgreSQL fails the whole transaction unless the statement ran
 * inside a savepoint, which is rolled back to on failure.
 */
export async function tolerated<T>(trx: Kysely<any>, fn: () => Promise<T>): Promise<T> {
  if (!isPostgres(trx)) return fn();
  await sql`savepoint tolerated`.execute(trx);
  try {
    const result = await fn();
    await sql`release savepoint tolerated`.execute(trx);
    return result;
  } catch (err) {
    await sql`rollback to savepoint tolerated`.execute(trx);
    throw err;
  }
}

/**
 * Runs `work` while holding an exclusive lock named `key` that spans several statements and
 * transactions of its own, whichever process asks: a PostgreSQL session-level advisory lock held
 * on one pooled connection until `work` ends. On SQLite (one process) callers need nothing more
 * than their own in-process section, so `work` runs as is.
 */
export async function withSessionLock<DB, T>(db: Kysely<DB>, key: string, work: () => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return work();
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtextextended(${key}, 0))`.execute(conn);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(conn);
    }
  });
}
