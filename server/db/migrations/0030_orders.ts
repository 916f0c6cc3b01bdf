// File space, orders, devices (with their users, calibration) and the per-department API settings.
import type { Kysely } from 'kysely';
import { idColumn, timeColumns } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const id = idColumn(db);

  await db.schema
    .createTable('space_type')
    .$call(id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('parentId', 'integer')
    .addColumn('userId', 'integer', (c) => c.notNull())
    .$call(timeColumns)
    .execute();
  await db.schema.createIndex('space_type_user').on('space_type').column('userId').execute();

  await db.schema
    .createTable('space_info')
    .$call(id)
    .addColumn('url', 'varchar(255)', (c) => c.notNull())
    // sha256 of the bytes: the storage key (equal bytes are stored once).
    .addColumn('key', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime', 'varchar(127)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('classifyId', 'integer')
    .addColumn('userId', 'integer', (c) => c.notNull())
    // Set only for files the STL kernel read successfully.
    .addColumn('triangleCount', 'integer')
    .$call(timeColumns)
    .execute();
  await db.schema.createIndex('space_info_user').on('space_info').column('userId').execute();
  await db.schema.createIndex('space_info_key').on('space_info').column('key').execute();

  await db.schema
    .createTable('order_info')
    .$call(id)
    .addColumn('caseNo', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('patientName', 'varchar(255)', (c) => c.notNull())
    .addColumn('remark', 'varchar(1024)')
    .addColumn('deliveryTime', 'varchar(19)')
    .addColumn('enableAI', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('aiStatus', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    // No foreign keys to users and files: users go to the recycle bin and may come back, and
    // the order module itself refuses to delete a file an order uses.
    .addColumn('designerId', 'integer', (c) => c.notNull())
    .addColumn('creatorId', 'integer', (c) => c.notNull())
    .addColumn('upperFileId', 'integer')
    .addColumn('lowerFileId', 'integer')
    .addColumn('occlusionFileId', 'integer')
    // Milestones for the take-time list; filled by the design and device flows.
    .addColumn('designStartTime', 'varchar(19)')
    .addColumn('designEndTime', 'varchar(19)')
    .addColumn('processStartTime', 'varchar(19)')
    .addColumn('processEndTime', 'varchar(19)')
    .$call(timeColumns)
    .execute();
  await db.schema.createIndex('order_info_designer').on('order_info').column('designerId').execute();

  await db.schema
    .createTable('device_info')
    .$call(id)
    .addColumn('devicename', 'varchar(255)', (c) => c.notNull())
    .addColumn('personnelId', 'integer')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'varchar(1024)')
    .addColumn('enableAI', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('diameters', 'varchar(255)', (c) => c.notNull())
    .addColumn('memory', 'integer', (c) => c.notNull())
    // sha256 of the device key; the key itself is shown once and never stored.
    .addColumn('keyHash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('keyHint', 'varchar(16)', (c) => c.notNull())
    .$call(timeColumns)
    .execute();

  await db.schema
    .createTable('device_user')
    .$call(id)
    .addColumn('deviceId', 'integer', (c) => c.notNull().references('device_info.id').onDelete('cascade'))
    .addColumn('userId', 'integer', (c) => c.notNull())
    .addUniqueConstraint('device_user_pair', ['deviceId', 'userId'])
    .execute();
  await db.schema.createIndex('device_user_user').on('device_user').column('userId').execute();

  await db.schema
    .createTable('device_config')
    .$call(id)
    .addColumn('deviceId', 'integer', (c) => c.notNull().references('device_info.id').onDelete('cascade'))
    .addColumn('diameter', 'real', (c) => c.notNull())
    .addColumn('springback', 'text', (c) => c.notNull())
    .addColumn('remark', 'varchar(1024)')
    .addUniqueConstraint('device_config_pair', ['deviceId', 'diameter'])
    .$call(timeColumns)
    .execute();

  await db.schema
    .createTable('device_api_config')
    .$call(id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('url', 'varchar(1024)', (c) => c.notNull())
    .addColumn('key', 'varchar(1024)')
    .addColumn('departmentId', 'integer')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(1024)')
    .$call(timeColumns)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['device_api_config', 'device_config', 'device_user', 'device_info', 'order_info', 'space_info', 'space_type']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
