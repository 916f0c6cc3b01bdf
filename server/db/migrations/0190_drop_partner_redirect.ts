// A partner's `redirect` link is now a base one-time sign-in code (base_redirect_ticket, the
// /transfer page):
// - base_redirect_ticket.partnerId: the partner entry that issued a code, if one did (the code
//   signs in only while that entry is enabled and its departments hold the user);
// - partner_redirect, the partner's own table of link tokens, goes (links issued before are void).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('base_redirect_ticket').addColumn('partnerId', 'integer').execute();
  await db.schema.dropTable('partner_redirect').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('base_redirect_ticket').dropColumn('partnerId').execute();
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
