// /admin/chat: order conversations between an order's creator and its designer (access.ts says
// who reads and who writes). Every call needs only a login (core/auth.ts, LOGIN_ONLY_PATHS): what
// a caller may touch is decided per order here, and an order that is not theirs answers like a
// missing one.
//   GET  session/info?orderId=   the conversation's order, parties, whether the caller may write
//   GET  session/unread           the caller's unread messages per order and in all
//   POST session/read             { orderId, lastId? }: the caller's read marker moves forward
//   POST session/files            { keyWord? }: the caller's own files to attach (newest 50)
//   POST message/page             { orderId, beforeId?, size? }: messages, oldest first
//   POST message/send             { orderId, text, fileIds? }: limited per user (send.ts)
//   GET  message/stream           new messages as server-sent events (stream.ts)
import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { authOf } from '../../core/access.ts';
import { ok } from '../../core/envelope.ts';
import { validate } from '../../core/validate.ts';
import type { ChatFile } from '../../../common/chat.ts';
import { chatFilesSchema, chatOrderSchema, chatPageSchema, chatReadSchema, chatSendSchema } from '../../../common/chat-request.ts';
import { fileUrl } from '../space/upload.routes.ts';
import { chatOrder, writableOrder } from './access.ts';
import { markRead, messagePage, unreadOf } from './messages.ts';
import { localChatNotifier, type ChatNotifier } from './notifier.ts';
import { sendMessage } from './send.ts';
import { messageStream } from './stream.ts';
import { CHAT_PREFIX } from './paths.ts';

function userName(u: { username: string; nickName: string | null; name: string | null } | undefined): string {
  return u ? u.nickName || u.name || u.username : '';
}

export function chatModule(ctx: AppContext, notifier: ChatNotifier = localChatNotifier()) {
  return new Hono<AppEnv>()
    .get(`${CHAT_PREFIX}/session/info`, validate('query', chatOrderSchema), async (c) => {
      const { userId } = authOf(c);
      const order = await chatOrder(ctx.db, userId, c.req.valid('query').orderId);
      const users = await ctx.db
        .selectFrom('base_sys_user')
        .select(['id', 'username', 'nickName', 'name'])
        .where('id', 'in', [order.creatorId, order.designerId])
        .execute();
      const byId = new Map(users.map((u) => [u.id, u]));
      const unread = (await unreadOf(ctx.db, userId)).orders.find((o) => o.orderId === order.id)?.unread ?? 0;
      return ok(c, {
        orderId: order.id,
        caseNo: order.caseNo,
        patientName: order.patientName,
        creator: { id: order.creatorId, name: userName(byId.get(order.creatorId)) },
        designer: { id: order.designerId, name: userName(byId.get(order.designerId)) },
        canWrite: order.participant,
        unread,
      });
    })
    .get(`${CHAT_PREFIX}/session/unread`, async (c) => ok(c, await unreadOf(ctx.db, authOf(c).userId)))
    .post(`${CHAT_PREFIX}/session/read`, validate('json', chatReadSchema), async (c) => {
      const { userId } = authOf(c);
      const { orderId, lastId } = c.req.valid('json');
      // Readers who are not a party have no unread count to clear.
      if ((await chatOrder(ctx.db, userId, orderId)).participant) await markRead(ctx.db, userId, orderId, lastId);
      return ok(c, await unreadOf(ctx.db, userId));
    })
    .post(`${CHAT_PREFIX}/session/files`, validate('json', chatFilesSchema), async (c) => {
      const { userId } = authOf(c);
      const { keyWord } = c.req.valid('json');
      let q = ctx.db.selectFrom('space_info').select(['id', 'name', 'size', 'kind']).where('userId', '=', userId);
      // % and _ are literal characters, as in the lists' keyword search (core/crud.ts).
      if (keyWord) q = q.where(sql<boolean>`${sql.ref('name')} like ${`%${keyWord.replace(/[\\%_]/g, (m) => `\\${m}`)}%`} escape '\\'`);
      const rows = await q.orderBy('id', 'desc').limit(50).execute();
      return ok(c, rows.map((f): ChatFile => ({ ...f, size: Number(f.size), url: fileUrl(f.id) })));
    })
    .post(`${CHAT_PREFIX}/message/page`, validate('json', chatPageSchema), async (c) => {
      const { orderId, beforeId, size } = c.req.valid('json');
      await chatOrder(ctx.db, authOf(c).userId, orderId);
      return ok(c, await messagePage(ctx.db, orderId, size, beforeId));
    })
    .post(`${CHAT_PREFIX}/message/send`, validate('json', chatSendSchema), async (c) => {
      const { userId } = authOf(c);
      const body = c.req.valid('json');
      const order = await writableOrder(ctx.db, userId, body.orderId);
      return ok(c, await sendMessage(ctx, notifier, userId, order, body));
    })
    .get(`${CHAT_PREFIX}/message/stream`, messageStream(ctx, notifier));
}
