// The open API for partners (server/modules/open, docs/partner-api.md):
// - device_api_config.calls: the open calls a partner entry may make (comma-separated names of
//   common/partner-api.ts PARTNER_CALLS; null: none but `test`); callbackUrl: where the partner
//   wants status changes posted (null: nowhere);
// - partner_order: the partner's own order number of each order it created, unique per entry, so
//   a retried or doubled `order` answers the same order;
// - partner_bend: the partner's idempotency key of each bend it sent, unique per entry, so a wire
//   is not bent twice for one request;
// - partner_redirect: one-time sign-in links into the editor (only the token's SHA-256 is kept).
import type { Kysely } from 'kysely';
import { idColumn } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('device_api_config').addColumn('calls', 'varchar(512)').execute();
  await db.schema.alterTable('device_api_config').addColumn('callbackUrl', 'varchar(1024)').execute();
  await db.schema
    .createTable('partner_order')
    .$call(idColumn(db))
    .addColumn('configId', 'integer', (c) => c.notNull())
    .addColumn('partnerOrderNo', 'varchar(64)', (c) => c.notNull())
    .addColumn('orderId', 'integer', (c) => c.notNull())
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addUniqueConstraint('partner_order_unique', ['configId', 'partnerOrderNo'])
    .execute();
  await db.schema.createIndex('partner_order_order').on('partner_order').column('orderId').execute();
  await db.schema
    .createTable('partner_bend')
    .$call(idColumn(db))
    .addColumn('configId', 'integer', (c) => c.notNull())
    .addColumn('idempotencyKey', 'varchar(64)', (c) => c.notNull())
    .addColumn('jobId', 'varchar(64)', (c) => c.notNull())
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addUniqueConstraint('partner_bend_unique', ['configId', 'idempotencyKey'])
    .execute();
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

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('partner_redirect').execute();
  await db.schema.dropTable('partner_bend').execute();
  await db.schema.dropTable('partner_order').execute();
  await db.schema.alterTable('device_api_config').dropColumn('callbackUrl').execute();
  await db.schema.alterTable('device_api_config').dropColumn('calls').execute();
}
