// A throw-away PostgreSQL database for a bench run: created on the server of `base` (a
// postgres:// URL whose role may CREATE DATABASE), dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function throwawayDatabase(base: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `aw_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client(base);
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
