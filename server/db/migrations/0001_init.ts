// Users, roles, menus, the request log, sessions and login throttling.
import type { Kysely } from 'kysely';
import { idColumn, timeColumns } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const id = idColumn(db);

  await db.schema
    .createTable('base_sys_user')
    .$call(id)
    .addColumn('username', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('password', 'varchar(255)', (c) => c.notNull())
    .addColumn('passwordVersion', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', 'varchar(255)')
    .addColumn('nickName', 'varchar(255)')
    .addColumn('headImg', 'varchar(1024)')
    .addColumn('phone', 'varchar(32)')
    .addColumn('email', 'varchar(255)')
    .addColumn('remark', 'varchar(1024)')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('departmentId', 'integer')
    .$call(timeColumns)
    .execute();

  await db.schema
    .createTable('base_sys_role')
    .$call(id)
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('label', 'varchar(100)', (c) => c.notNull())
    .addColumn('remark', 'varchar(1024)')
    .addColumn('relevance', 'integer', (c) => c.notNull().defaultTo(1))
    .$call(timeColumns)
    .execute();

  await db.schema
    .createTable('base_sys_user_role')
    .$call(id)
    .addColumn('userId', 'integer', (c) => c.notNull().references('base_sys_user.id').onDelete('cascade'))
    .addColumn('roleId', 'integer', (c) => c.notNull().references('base_sys_role.id').onDelete('cascade'))
    .addUniqueConstraint('base_sys_user_role_pair', ['userId', 'roleId'])
    .execute();
  await db.schema.createIndex('base_sys_user_role_role').on('base_sys_user_role').column('roleId').execute();

  await db.schema
    .createTable('base_sys_menu')
    .$call(id)
    .addColumn('parentId', 'integer')
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('router', 'varchar(255)')
    .addColumn('perms', 'varchar(2048)')
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('icon', 'varchar(255)')
    .addColumn('orderNum', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('viewPath', 'varchar(255)')
    .addColumn('keepAlive', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('isShow', 'integer', (c) => c.notNull().defaultTo(1))
    .$call(timeColumns)
    .execute();
  await db.schema.createIndex('base_sys_menu_parent').on('base_sys_menu').column('parentId').execute();

  await db.schema
    .createTable('base_sys_role_menu')
    .$call(id)
    .addColumn('roleId', 'integer', (c) => c.notNull().references('base_sys_role.id').onDelete('cascade'))
    .addColumn('menuId', 'integer', (c) => c.notNull().references('base_sys_menu.id').onDelete('cascade'))
    .addUniqueConstraint('base_sys_role_menu_pair', ['roleId', 'menuId'])
    .execute();
  await db.schema.createIndex('base_sys_role_menu_menu').on('base_sys_role_menu').column('menuId').execute();

  await db.schema
    .createTable('base_sys_log')
    .$call(id)
    .addColumn('userId', 'integer')
    .addColumn('username', 'varchar(100)')
    .addColumn('action', 'varchar(255)', (c) => c.notNull())
    .addColumn('method', 'varchar(10)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('timeMs', 'integer', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('params', 'text')
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('base_sys_log_time').on('base_sys_log').column('createTime').execute();

  await db.schema
    .createTable('base_session')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('userId', 'integer', (c) => c.notNull().references('base_sys_user.id').onDelete('cascade'))
    .addColumn('passwordVersion', 'integer', (c) => c.notNull())
    .addColumn('createdAt', 'bigint', (c) => c.notNull())
    .addColumn('revokedAt', 'bigint')
    .execute();
  await db.schema.createIndex('base_session_user').on('base_session').column('userId').execute();

  await db.schema
    .createTable('base_refresh_token')
    .$call(id)
    .addColumn('sessionId', 'varchar(64)', (c) => c.notNull().references('base_session.id').onDelete('cascade'))
    .addColumn('tokenHash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expiresAt', 'bigint', (c) => c.notNull())
    .addColumn('usedAt', 'bigint')
    .addColumn('createdAt', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('base_refresh_token_session').on('base_refresh_token').column('sessionId').execute();

  await createLoginThrottleTables(db);

  await db.schema
    .createTable('base_captcha')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('answer', 'varchar(32)', (c) => c.notNull())
    .addColumn('expiresAt', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('base_captcha_expiry').on('base_captcha').column('expiresAt').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'base_captcha',
    'base_login_lock',
    'base_login_failure',
    'base_refresh_token',
    'base_session',
    'base_sys_log',
    'base_sys_role_menu',
    'base_sys_menu',
    'base_sys_user_role',
    'base_sys_role',
    'base_sys_user',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

/** The login throttling tables of this first schema (0100_rate_attempts replaces them; its down
 * migration brings them back). */
export async function createLoginThrottleTables(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('base_login_failure')
    .$call(idColumn(db))
    .addColumn('account', 'varchar(100)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('base_login_failure_key')
    .on('base_login_failure')
    .columns(['account', 'ip', 'at'])
    .execute();

  await db.schema
    .createTable('base_login_lock')
    .addColumn('account', 'varchar(100)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('until', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('base_login_lock_pk', ['account', 'ip'])
    .execute();
}
