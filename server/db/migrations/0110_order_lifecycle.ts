// The order's lifecycle and the server's geometry jobs:
// - geo_job: durable jobs of the job runner (server/modules/geo-jobs), claimed with a
//   conditional update and held by a lease (owner + leaseUntil, epoch ms) so that several
//   processes can share the table and a dead process's job is picked up again;
// - order_status_log: every status change of an order (who, why, from, to);
// - order_bite: the registered bite of an order (auto from a job, or manual);
// - order_model_version: versions of an order's upper/lower model (modifyModel);
// - order_info.baseFileId (the generated denture base, a space file) and drc (the design rule
//   check of a design version, JSON).
import type { Kysely } from 'kysely';
import { idColumn } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('geo_job')
    .$call(idColumn(db))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('orderId', 'integer')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('owner', 'varchar(64)')
    .addColumn('leaseUntil', 'bigint')
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addColumn('startTime', 'varchar(19)')
    .addColumn('endTime', 'varchar(19)')
    .addColumn('updateTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('geo_job_state').on('geo_job').columns(['state', 'id']).execute();
  await db.schema.createIndex('geo_job_order').on('geo_job').columns(['orderId', 'kind', 'id']).execute();

  await db.schema
    .createTable('order_status_log')
    .$call(idColumn(db))
    .addColumn('orderId', 'integer', (c) => c.notNull())
    .addColumn('fromStatus', 'integer')
    .addColumn('toStatus', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(32)', (c) => c.notNull())
    .addColumn('userId', 'integer')
    .addColumn('detail', 'text')
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_status_log_order').on('order_status_log').columns(['orderId', 'id']).execute();

  await db.schema
    .createTable('order_bite')
    .$call(idColumn(db))
    .addColumn('orderId', 'integer', (c) => c.notNull().unique())
    .addColumn('jobId', 'integer')
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addColumn('updateTime', 'varchar(19)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('order_model_version')
    .$call(idColumn(db))
    .addColumn('orderId', 'integer', (c) => c.notNull())
    .addColumn('jaw', 'varchar(8)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('fileId', 'integer', (c) => c.notNull())
    .addColumn('note', 'varchar(32)')
    .addColumn('userId', 'integer')
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addUniqueConstraint('order_model_version_unique', ['orderId', 'jaw', 'version'])
    .execute();

  await db.schema.alterTable('order_info').addColumn('baseFileId', 'integer').execute();
  await db.schema.alterTable('order_info').addColumn('drc', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_info').dropColumn('drc').execute();
  await db.schema.alterTable('order_info').dropColumn('baseFileId').execute();
  await db.schema.dropTable('order_model_version').execute();
  await db.schema.dropTable('order_bite').execute();
  await db.schema.dropTable('order_status_log').execute();
  await db.schema.dropTable('geo_job').execute();
}
