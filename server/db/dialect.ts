// The only place that knows which SQL dialect runs. Migrations ask here instead of writing
// dialect-specific SQL themselves.
import {
  OperationNodeTransformer,
  PostgresAdapter,
  type CreateTableBuilder,
  type DataTypeNode,
  type Kysely,
  type KyselyPlugin,
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
 * Migrations name SQLite's column types; on PostgreSQL they would mean something narrower. This
 * plugin (PostgreSQL only) maps them so both store the same values:
 * - `integer` -> `bigint`: SQLite integers are 64-bit (millisecond times, sizes); PG's are 32-bit.
 * - `real` -> `double precision`: SQLite's REAL is 8 bytes; PG's is 4.
 * - `varchar(n)` -> `varchar`: SQLite never enforces the length; the API's validation does.
 */
export const postgresColumnTypes: KyselyPlugin = {
  transformQuery: (args) => columnTypes.transformNode(args.node),
  transformResult: async (args) => args.result,
};

class ColumnTypes extends OperationNodeTransformer {
  protected override transformDataType(node: DataTypeNode): DataTypeNode {
    const type = node.dataType;
    if (type === 'integer') return { ...node, dataType: 'bigint' };
    if (type === 'real') return { ...node, dataType: 'double precision' };
    if (type.startsWith('varchar(')) return { ...node, dataType: 'varchar' };
    return node;
  }
}

const columnTypes = new ColumnTypes();
