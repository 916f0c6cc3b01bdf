// createDb(config) picks the dialect: embedded SQLite under DATA_DIR by default, PostgreSQL when
// DATABASE_URL is a postgres:// URL.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type KyselyConfig } from 'kysely';
import type { Config } from '../config.ts';
import { postgresLikeSqlite } from './dialect.ts';
import { createPostgresDialect, isPostgresUrl } from './postgres.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export function sqliteFile(config: Config): string {
  return path.join(config.dataDir, 'archwright.db');
}

/** `log`: Kysely's query log (the load bench records a request's SQL with it). */
export function createDb(config: Config, log?: KyselyConfig['log']): Db {
  if (config.databaseUrl) {
    if (isPostgresUrl(config.databaseUrl)) {
      return new Kysely<Database>({
        dialect: createPostgresDialect(config.databaseUrl, config.databasePoolSize),
        plugins: [postgresLikeSqlite],
        log,
      });
    }
    throw new Error(`DATABASE_URL has an unknown scheme: ${config.databaseUrl.split(':')[0]}`);
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const sqlite = new SQLite(sqliteFile(config));
  // SQLite-only settings live here, in the dialect layer, and nowhere else.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log });
}

const STATEMENTS_MAX = 500;

/**
 * Kysely's SQLite driver prepares every query's SQL afresh; compiling it was about a tenth of the
 * server's time under load. The same few hundred statements (with different parameters) make up
 * nearly all traffic, so prepared statements are kept by their SQL, the least recently used going
 * first. Safe with better-sqlite3: a statement runs to completion in one call (nothing here
 * iterates one lazily).
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, key, receiver) {
      if (key !== 'prepare') {
        const value: unknown = Reflect.get(target, key, receiver);
        // Native methods need the real database as `this`.
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (source: string) => {
        let stmt = cache.get(source);
        if (stmt) {
          cache.delete(source);
        } else {
          stmt = prepare(source);
          if (cache.size >= STATEMENTS_MAX) cache.delete(cache.keys().next().value!);
        }
        cache.set(source, stmt);
        return stmt;
      };
    },
  });
}
