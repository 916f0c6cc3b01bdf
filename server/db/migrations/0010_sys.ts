// Departments (a tree), a role's department grants (data scope) and the recycle bin.
import type { Kysely } from 'kysely';
import { idColumn } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const id = idColumn(db);

  await db.schema
    .createTable('base_sys_department')
    .$call(id)
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('parentId', 'integer')
    .addColumn('orderNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addColumn('updateTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('base_sys_department_parent').on('base_sys_department').column('parentId').execute();
  await db.schema.createIndex('base_sys_user_department').on('base_sys_user').column('departmentId').execute();

  await db.schema
    .createTable('base_sys_role_department')
    .$call(id)
    .addColumn('roleId', 'integer', (c) => c.notNull().references('base_sys_role.id').onDelete('cascade'))
    .addColumn('departmentId', 'integer', (c) => c.notNull().references('base_sys_department.id').onDelete('cascade'))
    .addUniqueConstraint('base_sys_role_department_pair', ['roleId', 'departmentId'])
    .execute();
  await db.schema
    .createIndex('base_sys_role_department_department')
    .on('base_sys_role_department')
    .column('departmentId')
    .execute();

  // One entry per deleted row: the row and its related rows as JSON, restorable with the same ids.
  await db.schema
    .createTable('recycle_data')
    .$call(id)
    .addColumn('entity', 'varchar(100)', (c) => c.notNull())
    .addColumn('prefix', 'varchar(255)', (c) => c.notNull())
    .addColumn('tableName', 'varchar(100)', (c) => c.notNull())
    .addColumn('rowId', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('userId', 'integer')
    .addColumn('userName', 'varchar(255)')
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recycle_data_time').on('recycle_data').column('createTime').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('recycle_data').ifExists().execute();
  await db.schema.dropTable('base_sys_role_department').ifExists().execute();
  await db.schema.dropIndex('base_sys_user_department').ifExists().execute();
  await db.schema.dropTable('base_sys_department').ifExists().execute();
}
