// The plugin demo pages (server/modules/user, server/modules/demo):
// - user_address: a user's delivery addresses (region as codes and names, a default flag);
// - demo_article: texts saved by the rich text and markdown editor pages (the HTML sanitised on
//   the server, server/core/sanitize-html.ts), each its author's own;
// - order_info.addressId: the delivery address chosen on the order form (one of the creator's).
import type { Kysely } from 'kysely';
import { idColumn, timeColumns } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_address')
    .$call(idColumn(db))
    .addColumn('userId', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('phone', 'varchar(32)', (c) => c.notNull())
    .addColumn('regionCodes', 'varchar(32)', (c) => c.notNull())
    .addColumn('regionNames', 'varchar(255)', (c) => c.notNull())
    .addColumn('detail', 'varchar(255)', (c) => c.notNull())
    .addColumn('isDefault', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timeColumns)
    .execute();
  await db.schema.createIndex('user_address_user').on('user_address').column('userId').execute();
  await db.schema
    .createTable('demo_article')
    .$call(idColumn(db))
    .addColumn('userId', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('format', 'varchar(16)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .$call(timeColumns)
    .execute();
  await db.schema.createIndex('demo_article_user').on('demo_article').column('userId').execute();
  await db.schema.alterTable('order_info').addColumn('addressId', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_info').dropColumn('addressId').execute();
  await db.schema.dropTable('demo_article').ifExists().execute();
  await db.schema.dropTable('user_address').ifExists().execute();
}
