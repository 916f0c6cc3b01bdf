// Global setup of the `postgres` vitest project: a name prefix for this run's databases, and at
// the end the dropping of those the tests left (servers whose folders a test removed itself).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { dropDatabases } from './test-database.ts';

export default function setup(project: TestProject) {
  const prefix = `aw_test_${randomBytes(3).toString('hex')}_`;
  project.provide('testDatabasePrefix', prefix);
  return async () => {
    const base = process.env.TEST_DATABASE_URL!;
    const client = new pg.Client(base);
    await client.connect();
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    await client.end();
    await dropDatabases(base, rows.map((r) => r.datname));
  };
}
