// Params, a small key-value store for settings (log keep days), dictionaries, tasks and their
// run log, releases and who read them, help articles and their categories.
import type { Kysely } from 'kysely';
import { formatTime } from '../../core/clock.ts';
import { idColumn, timeColumns } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const id = idColumn(db);

  await db.schema
    .createTable('base_sys_param')
    .$call(id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('keyName', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('data', 'text')
    .addColumn('dataType', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'varchar(1024)')
    .$call(timeColumns)
    .execute();

  await db.schema
    .createTable('base_sys_conf')
    .addColumn('cKey', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('cValue', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('dict_type')
    .$call(id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('key', 'varchar(255)', (c) => c.notNull().unique())
    .$call(timeColumns)
    .execute();
  await db.schema
    .createTable('dict_info')
    .$call(id)
    .addColumn('typeId', 'integer', (c) => c.notNull().references('dict_type.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'varchar(1024)')
    .addColumn('parentId', 'integer', (c) => c.references('dict_info.id').onDelete('cascade'))
    .addColumn('orderNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'varchar(1024)')
    .$call(timeColumns)
    .execute();
  await db.schema.createIndex('dict_info_type').on('dict_info').column('typeId').execute();
  await db.schema.createIndex('dict_info_parent').on('dict_info').column('parentId').execute();

  await db.schema
    .createTable('task_info')
    .$call(id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('taskType', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cron', 'varchar(255)')
    .addColumn('every', 'integer')
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('service', 'varchar(255)', (c) => c.notNull())
    .addColumn('data', 'text')
    .addColumn('nextRunTime', 'varchar(19)')
    .addColumn('lastRunTime', 'varchar(19)')
    .addColumn('limit', 'integer')
    .addColumn('runCount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('startDate', 'varchar(19)')
    .addColumn('endDate', 'varchar(19)')
    .addColumn('remark', 'varchar(1024)')
    .$call(timeColumns)
    .execute();
  await db.schema
    .createTable('task_log')
    .$call(id)
    .addColumn('taskId', 'integer', (c) => c.notNull().references('task_info.id').onDelete('cascade'))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('trigger', 'varchar(16)', (c) => c.notNull())
    .addColumn('timeMs', 'integer', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_log_task').on('task_log').columns(['taskId', 'id']).execute();

  await db.schema
    .createTable('base_sys_release')
    .$call(id)
    .addColumn('version', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('forceUpdate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('releaseTime', 'varchar(19)', (c) => c.notNull())
    .$call(timeColumns)
    .execute();
  await db.schema
    .createTable('base_sys_release_read')
    .$call(id)
    .addColumn('userId', 'integer', (c) => c.notNull().references('base_sys_user.id').onDelete('cascade'))
    .addColumn('releaseId', 'integer', (c) => c.notNull().references('base_sys_release.id').onDelete('cascade'))
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addUniqueConstraint('base_sys_release_read_pair', ['userId', 'releaseId'])
    .execute();

  await db.schema
    .createTable('base_sys_article_category')
    .$call(id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('parentId', 'integer', (c) => c.references('base_sys_article_category.id').onDelete('cascade'))
    .addColumn('orderNum', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timeColumns)
    .execute();
  await db.schema
    .createTable('base_sys_article')
    .$call(id)
    .addColumn('categoryId', 'integer', (c) => c.references('base_sys_article_category.id').onDelete('set null'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('orderNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timeColumns)
    .execute();
  await db.schema.createIndex('base_sys_article_category_idx').on('base_sys_article').column('categoryId').execute();

  // The two system tasks: purge the request log and the recycle bin once a day.
  const now = formatTime(Date.now());
  await db
    .insertInto('task_info')
    .values([
      { name: 'Request log purge', taskType: 0, cron: '0 3 * * *', type: 0, status: 1, service: 'log.purge', data: null, remark: 'Deletes request log entries older than the keep days', createTime: now, updateTime: now },
      { name: 'Recycle bin purge', taskType: 0, cron: '30 3 * * *', type: 0, status: 1, service: 'recycle.purge', data: '{"days":30}', remark: 'Deletes recycle bin entries older than the given days', createTime: now, updateTime: now },
    ])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'base_sys_article',
    'base_sys_article_category',
    'base_sys_release_read',
    'base_sys_release',
    'task_log',
    'task_info',
    'dict_info',
    'dict_type',
    'base_sys_conf',
    'base_sys_param',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
