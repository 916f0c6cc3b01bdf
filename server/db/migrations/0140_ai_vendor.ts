// Outside AI services and signed calls (server/modules/ai/vendor*.ts, server/core/signature.ts):
// - device_api_config.kind: 'partner' (the default: a partner calling our API) or 'aiService' (an
//   outside engine that designs in place of the built-in one); secret: the HMAC secret the server
//   generated, shown once (add, rotateSecret) and kept readable to check signatures (null for rows
//   from before: rotate to get one);
// - api_nonce: the nonces a key has used, unique per entry, so a replayed request is refused even
//   when two copies arrive together; rows older than the timestamp window are purged;
// - ai_vendor_job: the order whose automatic design an AI service holds, which entry it was sent to,
//   with which job id, and until when its answer is awaited.
import type { Kysely } from 'kysely';
import { idColumn } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('device_api_config').addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('partner')).execute();
  await db.schema.alterTable('device_api_config').addColumn('secret', 'varchar(128)').execute();
  await db.schema
    .createTable('api_nonce')
    .$call(idColumn(db))
    .addColumn('configId', 'integer', (c) => c.notNull())
    .addColumn('nonce', 'varchar(64)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('api_nonce_unique', ['configId', 'nonce'])
    .execute();
  await db.schema.createIndex('api_nonce_at').on('api_nonce').column('at').execute();
  await db.schema
    .createTable('ai_vendor_job')
    .addColumn('orderId', 'integer', (c) => c.primaryKey())
    .addColumn('configId', 'integer', (c) => c.notNull())
    .addColumn('jobId', 'integer', (c) => c.notNull())
    .addColumn('deadline', 'bigint', (c) => c.notNull())
    .addColumn('sentTime', 'varchar(19)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ai_vendor_job').execute();
  await db.schema.dropTable('api_nonce').execute();
  await db.schema.alterTable('device_api_config').dropColumn('secret').execute();
  await db.schema.alterTable('device_api_config').dropColumn('kind').execute();
}
