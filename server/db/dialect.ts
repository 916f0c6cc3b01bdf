// The only place that knows which SQL dialect runs. Migrations ask here instead of writing
// dialect-specific SQL themselves.
import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

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
