// createDb(config) picks the dialect: embedded SQLite under DATA_DIR today; a postgres://
// DATABASE_URL is the place PostgreSQL plugs in later.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export function sqliteFile(config: Config): string {
  return path.join(config.dataDir, 'archwright.db');
}

export function createDb(config: Config): Db {
  if (config.databaseUrl) {
    if (/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
      throw new Error('DATABASE_URL=postgres://... is not supported yet; unset it to use SQLite under DATA_DIR');
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
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
