// On PostgreSQL (the `postgres` vitest project, TEST_DATABASE_URL) every test server gets a
// database of its own, named in its data folder so a server restarted on that folder finds it
// again. testEnv is synchronous, so the copy from the run's migrated template is made by a worker
// thread that keeps one connection open, while this thread waits on a shared flag (a child process
// per database cost more than the copy itself). Dropped when the server's folder is, and whatever
// is left at the end by test-database-setup.ts.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
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
let fileCopy: boolean | undefined;

export function testDatabaseUrl(dir: string): string {
  const base = process.env.TEST_DATABASE_URL!;
  const file = path.join(dir, NAME_FILE);
  if (fs.existsSync(file)) return databaseUrl(base, fs.readFileSync(file, 'utf8'));
  const prefix = inject('testDatabasePrefix');
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  // PostgreSQL 15 copies a database through its log by default; the files at once is twice as fast here.
  fileCopy ??= Number(runSync(base, 'SHOW server_version_num')[0]?.server_version_num) >= 150_000;
  runSync(base, `CREATE DATABASE "${name}" TEMPLATE "${templateName(prefix)}"${fileCopy ? ' STRATEGY FILE_COPY' : ''}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, name);
  return databaseUrl(base, name);
}

// The worker: one statement at a time on its connection; the outcome goes through `port` (an
// error's text, or the rows) and the flag turns 1 when it is there.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const flag = new Int32Array(workerData.flag);
let client;
parentPort.on('message', async ({ statement, port }) => {
  let reply;
  try {
    if (!client) {
      client = new pg.Client(workerData.url);
      client.on('error', () => { client = undefined; });
      await client.connect();
    }
    reply = { rows: (await client.query(statement)).rows };
  } catch (err) {
    reply = { error: err && err.message ? err.message : String(err) };
    // a connection that may be broken is not used again (errors are rare: a new one costs little)
    if (client) { client.end().catch(() => {}); client = undefined; }
  }
  port.postMessage(reply);
  port.close();
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});`;

let statementWorker: { worker: Worker; flag: Int32Array } | undefined;

/** Runs one statement on the server of `url` and waits for its rows (at most a minute). */
function runSync(url: string, statement: string): Array<Record<string, unknown>> {
  if (!statementWorker) {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const pgPath = createRequire(import.meta.url).resolve('pg');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { url, pgPath, flag: flag.buffer } });
    worker.unref();
    // A worker that died is started again on the next call (its error is the timeout's then).
    worker.once('exit', () => {
      if (statementWorker?.worker === worker) statementWorker = undefined;
    });
    statementWorker = { worker, flag };
  }
  const { worker, flag } = statementWorker;
  const { port1, port2 } = new MessageChannel();
  Atomics.store(flag, 0, 0);
  worker.postMessage({ statement, port: port2 }, [port2 as MessagePort]);
  if (Atomics.wait(flag, 0, 0, 60_000) === 'timed-out') throw new Error(`test database: no answer within a minute to ${statement}`);
  const reply = receiveMessageOnPort(port1)?.message as { rows?: Array<Record<string, unknown>>; error?: string } | undefined;
  port1.close();
  if (!reply?.rows) throw new Error(`test database: ${reply?.error ?? 'no reply'} (${statement})`);
  return reply.rows;
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
