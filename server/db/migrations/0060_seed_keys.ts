// Which seeded menu entries were applied, by a stable key, so that a newer version adds its new
// menu entries to an existing database once, and an entry an admin deleted does not come back.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('base_sys_seed')
    .addColumn('key', 'varchar(512)', (c) => c.primaryKey())
    .addColumn('menuId', 'integer')
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('base_sys_seed').execute();
}
