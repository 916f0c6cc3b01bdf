// Sending a message: its files checked (each one the sender may read), counted against the
// sender's message limit (kept in the database, so a burst across processes is refused too),
// stored with the session created on first use, and the parties' streams woken.
import type { AppContext } from '../../context.ts';
import type { ChatMessage } from '../../../common/chat.ts';
import { formatTime } from '../../core/clock.ts';
import { invalidField } from '../../core/errors.ts';
import { release, reserveAll, settle, type Bucket } from '../../core/rate-limit.ts';
import { canReadFile } from '../space/access.ts';
import type { ChatOrder } from './access.ts';
import { messageRows, viewMessages } from './messages.ts';
import type { ChatNotifier } from './notifier.ts';

/** Messages one user may send per minute, over all conversations. */
export const CHAT_MESSAGES_PER_MINUTE = 20;

export const chatBucket = (userId: number): Bucket => ({ key: `chat:${userId}`, max: CHAT_MESSAGES_PER_MINUTE, windowMs: 60_000 });

export async function sendMessage(
  ctx: AppContext,
  notifier: ChatNotifier,
  senderId: number,
  order: ChatOrder,
  body: { text: string; fileIds: number[] },
): Promise<ChatMessage> {
  const fileIds = [...new Set(body.fileIds)];
  for (const id of fileIds) if (!(await canReadFile(ctx, senderId, id))) throw invalidField('fileIds');
  const held = await reserveAll(ctx, [chatBucket(senderId)], 'chatTooManyMessages');
  let messageId: number;
  try {
    const now = ctx.clock.now();
    const time = formatTime(now);
    messageId = await ctx.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('chat_session')
        .values({ orderId: order.id, createTime: time })
        .onConflict((oc) => oc.column('orderId').doNothing())
        .execute();
      const session = await trx.selectFrom('chat_session').select('id').where('orderId', '=', order.id).executeTakeFirstOrThrow();
      const message = await trx
        .insertInto('chat_message')
        .values({ sessionId: session.id, senderId, text: body.text, at: now, createTime: time })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (fileIds.length) {
        await trx
          .insertInto('chat_attachment')
          .values(fileIds.map((fileId) => ({ messageId: message.id, sessionId: session.id, fileId })))
          .execute();
      }
      return message.id;
    });
  } catch (e) {
    await release(ctx, held);
    throw e;
  }
  // Sent: it keeps its place in the limit's window.
  await settle(ctx, held);
  notifier.notify([order.creatorId, order.designerId]);
  const row = await messageRows(ctx.db).where('m.id', '=', messageId).executeTakeFirstOrThrow();
  return (await viewMessages(ctx.db, [row]))[0]!;
}
