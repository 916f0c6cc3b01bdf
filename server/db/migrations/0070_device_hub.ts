// The device hub: bend jobs with every state change logged, and each device's link
// (connection, reported state, last time heard from). Jobs live here so none is lost when the
// back end restarts: pending ones are sent again when their device connects.
import type { Kysely } from 'kysely';
import { idColumn } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('device_job')
    .$call(idColumn(db))
    .addColumn('jobId', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('deviceId', 'integer', (c) => c.notNull())
    .addColumn('userId', 'integer', (c) => c.notNull())
    .addColumn('orderId', 'integer')
    .addColumn('wire', 'text', (c) => c.notNull())
    .addColumn('steps', 'text', (c) => c.notNull())
    .addColumn('stepCount', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('step', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sendCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lastSentAt', 'integer')
    .addColumn('errorCode', 'varchar(64)')
    .addColumn('errorMessage', 'varchar(1024)')
    .addColumn('bendMs', 'integer')
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addColumn('updateTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_job_device_status').on('device_job').columns(['deviceId', 'status']).execute();
  await db.schema.createIndex('device_job_user').on('device_job').columns(['userId']).execute();
  await db.schema
    .createTable('device_job_log')
    .$call(idColumn(db))
    .addColumn('jobId', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('detail', 'varchar(1024)')
    .addColumn('at', 'integer', (c) => c.notNull())
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_job_log_job').on('device_job_log').columns(['jobId']).execute();
  await db.schema
    .createTable('device_link')
    .addColumn('deviceId', 'integer', (c) => c.primaryKey())
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'varchar(16)')
    .addColumn('detail', 'varchar(1024)')
    .addColumn('serial', 'varchar(128)')
    .addColumn('firmware', 'varchar(128)')
    .addColumn('diameters', 'varchar(255)')
    .addColumn('memory', 'integer')
    .addColumn('lastSeenAt', 'integer')
    .addColumn('statusTime', 'varchar(19)')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_link').execute();
  await db.schema.dropTable('device_job_log').execute();
  await db.schema.dropTable('device_job').execute();
}
