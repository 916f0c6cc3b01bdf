// A reserved attempt is "pending" while its password is being checked. A full bucket whose
// attempts are still pending makes the next attempt wait for them instead of refusing it: the
// reservations that succeed are given back, and only failures fill the bucket for good.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('base_rate_attempt').addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('base_rate_attempt').dropColumn('pending').execute();
}
