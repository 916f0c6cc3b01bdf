// On PostgreSQL (the `postgres` vitest project, TEST_DATABASE_URL) every test server gets a
// database of its own, named in its data folder so a server restarted on that folder finds it
// again. Copied synchronously (testEnv is synchronous) by a short child process from the run's
// migrated template; dropped when the server's folder is, and whatever is left at the end by
// test-database-setup.ts.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

export const onPostgres = process.env.AW_TEST_POSTGRES === '1';

const NAME_FILE = '.test-database';

/** The migrated database every test database of the run is a copy of. */
export function templateName(prefix: string): string {
  return `${prefix}template`;
}

/** TEST_DATABASE_URL with another database name. */
export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = '/' + name;
  return url.toString();
}

/** The running test project's database URL for a data folder, creating its database at first. */
export function testDatabaseUrl(dir: string): string {
  const base = process.env.TEST_DATABASE_URL!;
  const file = path.join(dir, NAME_FILE);
  if (fs.existsSync(file)) return databaseUrl(base, fs.readFileSync(file, 'utf8'));
  const prefix = inject('testDatabasePrefix');
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  const script = `const pg = require(${JSON.stringify(createRequire(import.meta.url).resolve('pg'))});
const c = new pg.Client(process.env.TEST_DATABASE_URL);
c.connect().then(() => c.query('CREATE DATABASE "${name}" TEMPLATE "${templateName(prefix)}"')).then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });`;
  execFileSync(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit'] });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, name);
  return databaseUrl(base, name);
}

/** Drops a data folder's database, if it has one. */
export async function dropTestDatabase(dir: string): Promise<void> {
  const file = path.join(dir, NAME_FILE);
  if (!onPostgres || !fs.existsSync(file)) return;
  await dropDatabases(process.env.TEST_DATABASE_URL!, [fs.readFileSync(file, 'utf8')]);
}

export async function dropDatabases(base: string, names: string[]): Promise<void> {
  if (!names.length) return;
  const client = new pg.Client(base);
  await client.connect();
  try {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabasePrefix: string;
  }
}
