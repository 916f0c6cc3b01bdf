// Global setup of the `postgres` vitest project: a name prefix for this run's databases and a
// migrated template they are copied from (migrating each anew was most of a test server's start),
// and at the end the dropping of those the tests left (servers whose folders a test removed).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../server/config.ts';
import { createDb } from '../../server/db/index.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { databaseUrl, dropDatabases, templateName } from './test-database.ts';

export default async function setup(project: TestProject) {
  const base = process.env.TEST_DATABASE_URL!;
  const prefix = `aw_test_${randomBytes(3).toString('hex')}_`;
  project.provide('testDatabasePrefix', prefix);
  await query(base, `CREATE DATABASE "${templateName(prefix)}"`);
  const db = createDb(loadConfig({ DATABASE_URL: databaseUrl(base, templateName(prefix)) }));
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  return async () => {
    const { rows } = await query(base, 'SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    await dropDatabases(base, rows.map((r) => r.datname as string));
  };
}

async function query(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}
