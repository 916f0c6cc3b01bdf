// A user's preferences and one-time sign-in links:
// - base_sys_user.habby: the user's theme, language and editor preferences as JSON
//   (common/habby.ts), kept on the server so that every browser applies them at sign-in;
// - base_redirect_ticket: one-time, short-lived codes that sign a user in elsewhere
//   (POST /admin/base/open/redirect); only the SHA-256 of a code is kept, with the user's password
//   version then (a password change voids the codes issued before it, as it ends the sessions).
import type { Kysely } from 'kysely';
import { idColumn } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('base_sys_user').addColumn('habby', 'text').execute();
  await db.schema
    .createTable('base_redirect_ticket')
    .$call(idColumn(db))
    .addColumn('codeHash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('userId', 'integer', (c) => c.notNull())
    .addColumn('passwordVersion', 'integer', (c) => c.notNull())
    .addColumn('target', 'varchar(512)', (c) => c.notNull())
    .addColumn('expiresAt', 'bigint', (c) => c.notNull())
    .addColumn('usedAt', 'bigint')
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('base_redirect_ticket_expires').on('base_redirect_ticket').column('expiresAt').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('base_redirect_ticket').execute();
  await db.schema.alterTable('base_sys_user').dropColumn('habby').execute();
}
