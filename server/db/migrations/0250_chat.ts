// Order conversations (server/modules/chat): one session per order between its creator and its
// designer (who they are is read from the order, so a new designer joins the conversation).
// - chat_session: the order's conversation, created on first use (one per order: unique).
// - chat_message: trimmed plain text (capped) by a sender; `at` orders the stream's re-checks.
// - chat_attachment: files of the file space a message refers to (never copies).
// - chat_read: how far each user has read a session (the last message id seen).
// - chat_stream: each open message stream (a user's browser tab) with its last heartbeat, so the
//   cap on a user's streams holds across server processes.
import type { Kysely } from 'kysely';
import { idColumn } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('chat_session')
    .$call(idColumn(db))
    .addColumn('orderId', 'integer', (c) => c.notNull().unique())
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('chat_message')
    .$call(idColumn(db))
    .addColumn('sessionId', 'integer', (c) => c.notNull())
    .addColumn('senderId', 'integer', (c) => c.notNull())
    .addColumn('text', 'varchar(4000)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chat_message_session').on('chat_message').columns(['sessionId', 'id']).execute();
  await db.schema.createIndex('chat_message_at').on('chat_message').column('at').execute();
  await db.schema
    .createTable('chat_attachment')
    .$call(idColumn(db))
    .addColumn('messageId', 'integer', (c) => c.notNull())
    .addColumn('sessionId', 'integer', (c) => c.notNull())
    .addColumn('fileId', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chat_attachment_message').on('chat_attachment').column('messageId').execute();
  await db.schema.createIndex('chat_attachment_file').on('chat_attachment').columns(['fileId', 'sessionId']).execute();
  await db.schema
    .createTable('chat_read')
    .$call(idColumn(db))
    .addColumn('sessionId', 'integer', (c) => c.notNull())
    .addColumn('userId', 'integer', (c) => c.notNull())
    .addColumn('lastReadId', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('chat_read_session_user', ['sessionId', 'userId'])
    .execute();
  await db.schema
    .createTable('chat_stream')
    .$call(idColumn(db))
    .addColumn('userId', 'integer', (c) => c.notNull())
    .addColumn('seenAt', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chat_stream_user').on('chat_stream').columns(['userId', 'seenAt']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['chat_stream', 'chat_read', 'chat_attachment', 'chat_message', 'chat_session']) {
    await db.schema.dropTable(table).execute();
  }
}
