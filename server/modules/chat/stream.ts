// GET /admin/chat/message/stream: a user's new messages as server-sent events, read with fetch
// (the token goes in the Authorization header, which EventSource cannot send). Events:
// `ready` (the unread counts, once), `message` (a ChatMessage of a conversation the user is a
// party to, their own included, for their other tabs), `end` (the session ended: signed out,
// expired or revoked; the stream closes).
//
// A stream wakes when this process stores a message for the user (the notifier) and re-checks
// the database every RECHECK_MS anyway, so that a message stored by another process arrives too;
// each re-check also checks the token again. Open streams are rows (chat_stream) with a heartbeat,
// so the cap per user holds across processes; a stream whose process died frees its place once
// its heartbeat is stale.
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { authOf } from '../../core/access.ts';
import { tooManyRequests } from '../../core/errors.ts';
import { tokenFromHeader, verifyAccessToken } from '../../core/tokens.ts';
import { messageRows, unreadOf, viewMessages, type MessageRow } from './messages.ts';
import type { ChatNotifier } from './notifier.ts';
import { withKeyLock } from '../../db/dialect.ts';

/** Most streams one user may hold open (browser tabs). */
export const STREAMS_PER_USER = 4;
/** How often a stream looks in the database without being woken. */
export const RECHECK_MS = 3_000;
const HEARTBEAT_MS = 20_000;
const SLOT_STALE_MS = 3 * HEARTBEAT_MS;
/** Messages this recent are looked at again (an id given out earlier may commit later on PostgreSQL). */
const LOOKBACK_MS = 30_000;

/** Takes one of the user's stream places (one conditional insert), or null when all are taken. */
async function openSlot(ctx: AppContext, userId: number): Promise<number | null> {
  const now = ctx.clock.now();
  await ctx.db.deleteFrom('chat_stream').where('seenAt', '<', now - SLOT_STALE_MS).execute();
  // Under the user's lock: on PostgreSQL two such inserts at once would both count the old rows.
  const row = await withKeyLock(ctx.db, `chat-stream:${userId}`, (db) =>
    db
      .insertInto('chat_stream')
      .columns(['userId', 'seenAt'])
      .expression(
        db
          .selectNoFrom((eb) => [eb.val(userId).as('userId'), eb.val(now).as('seenAt')])
          .where((eb) => eb.selectFrom('chat_stream').select((eb) => eb.fn.countAll().as('n')).where('userId', '=', userId), '<', STREAMS_PER_USER),
      )
      .returning('id')
      .executeTakeFirst(),
  );
  return row ? row.id : null;
}

/** New messages for the user since the last look, each once; `start` marks what is already stored. */
function messageFeed(ctx: AppContext, userId: number) {
  const delivered = new Map<number, number>();
  let cursor = 0;
  const look = async (): Promise<MessageRow[]> => {
    const since = ctx.clock.now() - LOOKBACK_MS;
    const mine = () => messageRows(ctx.db).where((eb) => eb.or([eb('o.creatorId', '=', userId), eb('o.designerId', '=', userId)]));
    // What came after the last one seen, and recent ones below it not seen yet (ids given out
    // earlier that committed later).
    const after = await mine().where('m.id', '>', cursor).orderBy('m.id').limit(200).execute();
    let late = mine().where('m.at', '>', since).where('m.id', '<=', cursor);
    if (delivered.size) late = late.where('m.id', 'not in', [...delivered.keys()]);
    const fresh = [...(await late.orderBy('m.id').limit(200).execute()), ...after];
    for (const r of fresh) {
      delivered.set(r.id, Number(r.at));
      cursor = Math.max(cursor, r.id);
    }
    for (const [id, at] of delivered) if (at <= since) delivered.delete(id);
    return fresh;
  };
  return {
    async start(): Promise<void> {
      const top = await ctx.db.selectFrom('chat_message').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
      cursor = Number(top?.id ?? 0);
      await look();
    },
    async next() {
      return viewMessages(ctx.db, await look());
    },
  };
}

export function messageStream(ctx: AppContext, notifier: ChatNotifier) {
  return async (c: Context<AppEnv>) => {
    const { userId } = authOf(c);
    const token = tokenFromHeader(c.req.header('authorization'))!;
    const slot = await openSlot(ctx, userId);
    if (slot === null) throw tooManyRequests('chatTooManyStreams');
    return streamSSE(c, async (stream) => {
      let wake: (() => void) | null = null;
      let woken = false;
      const unlisten = notifier.listen(userId, () => {
        woken = true;
        wake?.();
      });
      stream.onAbort(() => wake?.());
      const feed = messageFeed(ctx, userId);
      try {
        await feed.start(); // what is already stored is the page's to load
        await stream.writeSSE({ event: 'ready', data: JSON.stringify(await unreadOf(ctx.db, userId)) });
        let beat = performance.now();
        while (!stream.aborted && !stream.closed) {
          if (!woken) {
            await new Promise<void>((resolve) => {
              const done = () => {
                clearTimeout(timer);
                wake = null;
                resolve();
              };
              const timer = setTimeout(done, RECHECK_MS);
              wake = done;
            });
          }
          woken = false;
          if (stream.aborted || stream.closed) break;
          try {
            await verifyAccessToken(ctx, token);
          } catch {
            await stream.writeSSE({ event: 'end', data: '' });
            break;
          }
          for (const message of await feed.next()) {
            await stream.writeSSE({ event: 'message', id: String(message.id), data: JSON.stringify(message) });
          }
          if (performance.now() - beat >= HEARTBEAT_MS) {
            beat = performance.now();
            await ctx.db.updateTable('chat_stream').set({ seenAt: ctx.clock.now() }).where('id', '=', slot).execute();
            await stream.write(': ping\n\n');
          }
        }
      } catch (err) {
        // Logged, never sent: the stream just ends, and the client opens another.
        if (!stream.aborted) ctx.logger.error('Chat stream failed', err);
      } finally {
        unlisten();
        await ctx.db.deleteFrom('chat_stream').where('id', '=', slot).execute();
      }
    });
  };
}
