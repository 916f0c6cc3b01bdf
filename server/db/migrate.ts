import { Migrator, sql } from 'kysely';
import type { Db } from './index.ts';
import { migrations } from './migrations/index.ts';

/**
 * Brings the schema up to date. Fails with a message for people (not a stack) when the database
 * cannot be reached or holds a schema newer than this code knows.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  try {
    await sql`select 1`.execute(db);
  } catch (err) {
    throw new Error(`Cannot reach the database: ${reason(err)}`, { cause: err });
  }
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const newer = await unknownMigrations(db);
    if (newer.length) {
      throw new Error(
        `The database has a newer schema than this server knows (migration ${newer.join(', ')}): run the newer server version, or use another database`,
        { cause: error },
      );
    }
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${reason(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Migrations the database has run that this code does not have. */
async function unknownMigrations(db: Db): Promise<string[]> {
  try {
    const rows = await db.withTables<{ kysely_migration: { name: string } }>().selectFrom('kysely_migration').select('name').execute();
    return rows.map((r) => r.name).filter((name) => !(name in migrations));
  } catch {
    return [];
  }
}

/** A connection failure's words: Node's AggregateError (every address refused) has none of its own. */
function reason(err: unknown): string {
  if (err instanceof AggregateError && !err.message) return err.errors.map((e) => reason(e)).join('; ');
  if (err instanceof Error) return err.message || (err as NodeJS.ErrnoException).code || err.name;
  return String(err);
}
