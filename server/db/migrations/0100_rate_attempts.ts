// Rate limiting by reservation: one row per attempt that was let through to the expensive
// check (a password verification), in a named bucket ("login:<account>|<ip>", "login-ip:<ip>",
// "password:<userId>"). An attempt is admitted only by an insert that sees fewer rows in the
// window, so concurrent requests cannot all slip past the count. It replaces the failure and
// lock tables, whose check-then-record let a burst be evaluated in full; their rows are only
// minutes of throttling state and are dropped.
import type { Kysely } from 'kysely';
import { idColumn } from '../dialect.ts';
import { createLoginThrottleTables } from './0001_init.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('base_rate_attempt')
    .$call(idColumn(db))
    .addColumn('bucket', 'varchar(200)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('base_rate_attempt_bucket').on('base_rate_attempt').columns(['bucket', 'at']).execute();
  await db.schema.createIndex('base_rate_attempt_at').on('base_rate_attempt').column('at').execute();
  await db.schema.dropTable('base_login_failure').execute();
  await db.schema.dropTable('base_login_lock').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('base_rate_attempt').execute();
  await createLoginThrottleTables(db);
}
