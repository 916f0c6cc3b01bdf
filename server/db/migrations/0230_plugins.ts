// Plugins (server/modules/plugin): one row per installed package, and per built-in plugin once an
// administrator has disabled or configured it (a built-in without a row is enabled with its
// defaults). `manifest` is the checked manifest as JSON, `settings` the validated settings as
// JSON, `menuIds` the ids of the menu rows the package added (removed on uninstall), `files` the
// package's other files' names and sizes (kept inert: nothing in a package is ever run).
import type { Kysely } from 'kysely';
import { idColumn, timeColumns } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plugin_info')
    .$call(idColumn(db))
    .addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('builtIn', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('settings', 'text')
    .addColumn('manifest', 'text')
    .addColumn('menuIds', 'text')
    .addColumn('files', 'text')
    .$call(timeColumns)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('plugin_info').execute();
}
