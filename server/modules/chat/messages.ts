// Reading conversations: messages with their senders' names and files, a page of them, the
// unread counts of a user (messages of others after their read marker) and the read marker.
import type { Db } from '../../db/index.ts';
import type { ChatFile, ChatMessage, ChatUnread } from '../../../common/chat.ts';
import { fileUrl } from '../space/upload.routes.ts';

export interface MessageRow {
  id: number;
  sessionId: number;
  orderId: number;
  senderId: number;
  text: string;
  at: number;
  createTime: string;
}

/** Messages joined with their session's order (for the selects below). */
export function messageRows(db: Db) {
  return db
    .selectFrom('chat_message as m')
    .innerJoin('chat_session as s', 's.id', 'm.sessionId')
    .innerJoin('order_info as o', 'o.id', 's.orderId')
    .select(['m.id', 'm.sessionId', 's.orderId', 'm.senderId', 'm.text', 'm.at', 'm.createTime']);
}

/** The rows as the client sees them: sender names and attached files. */
export async function viewMessages(db: Db, rows: MessageRow[]): Promise<ChatMessage[]> {
  if (rows.length === 0) return [];
  const senderIds = [...new Set(rows.map((r) => r.senderId))];
  const users = await db.selectFrom('base_sys_user').select(['id', 'username', 'nickName', 'name']).where('id', 'in', senderIds).execute();
  const nameOf = new Map(users.map((u) => [u.id, u.nickName || u.name || u.username]));
  const files = await db
    .selectFrom('chat_attachment as a')
    .innerJoin('space_info as f', 'f.id', 'a.fileId')
    .select(['a.messageId', 'f.id', 'f.name', 'f.size', 'f.kind'])
    .where('a.messageId', 'in', rows.map((r) => r.id))
    .orderBy('a.id')
    .execute();
  const filesOf = new Map<number, ChatFile[]>();
  for (const f of files) {
    const list = filesOf.get(f.messageId) ?? [];
    list.push({ id: f.id, name: f.name, size: Number(f.size), kind: f.kind, url: fileUrl(f.id) });
    filesOf.set(f.messageId, list);
  }
  return rows.map((r) => ({
    id: r.id,
    orderId: r.orderId,
    senderId: r.senderId,
    senderName: nameOf.get(r.senderId) ?? '',
    text: r.text,
    createTime: r.createTime,
    files: filesOf.get(r.id) ?? [],
  }));
}

/** A page of the order's conversation, oldest first: the newest `size`, or those before `beforeId`. */
export async function messagePage(db: Db, orderId: number, size: number, beforeId?: number): Promise<{ list: ChatMessage[]; hasMore: boolean }> {
  let q = messageRows(db).where('s.orderId', '=', orderId);
  if (beforeId !== undefined) q = q.where('m.id', '<', beforeId);
  const rows = await q.orderBy('m.id', 'desc').limit(size + 1).execute();
  const hasMore = rows.length > size;
  return { list: await viewMessages(db, rows.slice(0, size).reverse()), hasMore };
}

/** The user's unread messages per order (of orders they are a party to) and in all. */
export async function unreadOf(db: Db, userId: number): Promise<ChatUnread> {
  const rows = await db
    .selectFrom('chat_message as m')
    .innerJoin('chat_session as s', 's.id', 'm.sessionId')
    .innerJoin('order_info as o', 'o.id', 's.orderId')
    .leftJoin('chat_read as r', (join) => join.onRef('r.sessionId', '=', 's.id').on('r.userId', '=', userId))
    .select((eb) => ['s.orderId', eb.fn.countAll<number>().as('unread')])
    .where((eb) => eb.or([eb('o.creatorId', '=', userId), eb('o.designerId', '=', userId)]))
    .where('m.senderId', '<>', userId)
    .where((eb) => eb('m.id', '>', eb.fn.coalesce('r.lastReadId', eb.lit(0))))
    .groupBy('s.orderId')
    .execute();
  const orders = rows.map((r) => ({ orderId: r.orderId, unread: Number(r.unread) }));
  return { total: orders.reduce((n, o) => n + o.unread, 0), orders };
}

/** Moves the user's read marker of the order's session forward (never back) to `lastId` or the newest. */
export async function markRead(db: Db, userId: number, orderId: number, lastId?: number): Promise<void> {
  const session = await db.selectFrom('chat_session').select('id').where('orderId', '=', orderId).executeTakeFirst();
  if (!session) return;
  let newest = db.selectFrom('chat_message').select((eb) => eb.fn.max('id').as('id')).where('sessionId', '=', session.id);
  if (lastId !== undefined) newest = newest.where('id', '<=', lastId);
  const top = Number((await newest.executeTakeFirst())?.id ?? 0);
  if (!top) return;
  await db
    .insertInto('chat_read')
    .values({ sessionId: session.id, userId, lastReadId: top })
    .onConflict((oc) =>
      oc.columns(['sessionId', 'userId']).doUpdateSet((eb) => ({
        lastReadId: eb
          .case()
          .when('excluded.lastReadId', '>', eb.ref('chat_read.lastReadId'))
          .then(eb.ref('excluded.lastReadId'))
          .else(eb.ref('chat_read.lastReadId'))
          .end(),
      })),
    )
    .execute();
}
