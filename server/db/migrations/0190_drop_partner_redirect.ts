// A partner's `redirect` link is now a base one-time sign-in code (base_redirect_ticket, the
// /transfer page): the partner's own table of link tokens goes. Links issued before this are void.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('partner_redirect').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('partner_redirect')
    .addColumn('tokenHash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('configId', 'integer', (c) => c.notNull())
    .addColumn('userId', 'integer', (c) => c.notNull())
    .addColumn('orderId', 'integer', (c) => c.notNull())
    .addColumn('expiresAt', 'bigint', (c) => c.notNull())
    .addColumn('usedAt', 'bigint')
    .execute();
}
