// PostgreSQL connections (DATABASE_URL=postgres://...): a `pg` pool behind Kysely's dialect, with
// the type parsers that make results match SQLite's (the DDL mapping is in dialect.ts).
import pg from 'pg';
import { PostgresDialect } from 'kysely';

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unreadable URL)';
  }
}

// SQLite hands back integers and sums as numbers; pg hands back int8 (count(*), bigint columns)
// and numeric (sum of bigints, avg) as strings. Every integer here is far below 2^53 (ids, counts,
// millisecond times) and the schema has no decimal columns, so both parse to numbers.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

export function createPostgresDialect(url: string, poolSize: number): PostgresDialect {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types });
  // A pooled connection that dies while idle (server restart, network) is dropped from the pool and
  // the next query opens a new one; without a listener the error would end the process.
  pool.on('error', (err) => console.error(`PostgreSQL connection lost (${redactUrl(url)}): ${err.message}`));
  return new PostgresDialect({ pool });
}
