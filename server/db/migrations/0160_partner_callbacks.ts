// Callbacks to partners (server/modules/callbacks): order and AI status changes posted, signed, to
// a partner's callback URL from a durable queue.
// - device_api_config.callbackUrl: where a partner entry's callbacks go (null: none). Added only
//   when missing, since the open API's own migration may add the same column first.
// - partner_delivery: one event for one entry. state pending -> delivered | failed; a pending row
//   is due at nextAttemptAt, and while a deliverer posts it, held by `owner` until leaseUntil (a
//   conditional update claims it, so two deliverers never post the same row at once). queuedAt is
//   when it was queued (or sent again by hand): the age limit counts from it. lastError is
//   truncated and never holds a secret.
import type { Kysely } from 'kysely';
import { idColumn, timeColumns } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const tables = await db.introspection.getTables();
  const config = tables.find((t) => t.name === 'device_api_config');
  if (!config?.columns.some((c) => c.name === 'callbackUrl')) {
    await db.schema.alterTable('device_api_config').addColumn('callbackUrl', 'varchar(1024)').execute();
  }
  await db.schema
    .createTable('partner_delivery')
    .$call(idColumn(db))
    .addColumn('configId', 'integer', (c) => c.notNull())
    .addColumn('orderId', 'integer', (c) => c.notNull())
    .addColumn('event', 'varchar(16)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('nextAttemptAt', 'bigint', (c) => c.notNull())
    .addColumn('queuedAt', 'bigint', (c) => c.notNull())
    .addColumn('owner', 'varchar(64)')
    .addColumn('leaseUntil', 'bigint')
    .addColumn('lastStatus', 'integer')
    .addColumn('lastError', 'varchar(500)')
    .addColumn('deliveredTime', 'varchar(19)')
    .$call(timeColumns)
    .execute();
  await db.schema.createIndex('partner_delivery_due').on('partner_delivery').columns(['state', 'nextAttemptAt']).execute();
  await db.schema.createIndex('partner_delivery_entry').on('partner_delivery').columns(['configId', 'id']).execute();
  await db.schema.createIndex('partner_delivery_order').on('partner_delivery').columns(['orderId', 'configId', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('partner_delivery').execute();
}
