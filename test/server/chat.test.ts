// Order conversations through the real app and database: the creator and the designer of an order
// converse (unread counts, read markers, attachments from the file space), an orders admin reads
// only, everyone else is answered as for a missing order; the message limit under a burst; the
// message stream (woken in process, and by its re-check when another process stored the message),
// its cap per user and its end at sign-out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cubeStl } from '../fixtures/stl.ts';
import { createApp } from '../../server/app.ts';
import { CHAT_MESSAGES_PER_MINUTE } from '../../server/modules/chat/send.ts';
import { STREAMS_PER_USER } from '../../server/modules/chat/stream.ts';
import { CHAT_TEXT_MAX } from '../../common/chat.ts';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';
import { download, uploadOne } from './space-helpers.ts';

let t: TestServer;
let admin: string;
let carl: string; // creates orders for designers (order:info:all)
let dana: string; // the designer
let olga: string; // an orders admin who is no party
let mallory: string; // a designer of other orders
let carlId: number;
let danaId: number;
let orderId: number;

const ORDER_PERMS = ['order:info:add', 'order:info:update', 'order:info:info', 'order:info:list', 'order:info:page'];

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
  const designer = await createRole(t.ctx, 'designer', ORDER_PERMS);
  const manager = await createRole(t.ctx, 'manager', [...ORDER_PERMS, 'order:info:all']);
  carlId = await addUser(t, admin, { username: 'carl', password: 'carl-pass', roleIdList: [manager] });
  danaId = await addUser(t, admin, { username: 'dana', password: 'dana-pass', roleIdList: [designer] });
  await addUser(t, admin, { username: 'olga', password: 'olga-pass', roleIdList: [manager] });
  await addUser(t, admin, { username: 'mallory', password: 'mallory-pass', roleIdList: [designer] });
  carl = (await t.login('carl', 'carl-pass')).token;
  dana = (await t.login('dana', 'dana-pass')).token;
  olga = (await t.login('olga', 'olga-pass')).token;
  mallory = (await t.login('mallory', 'mallory-pass')).token;
  const upper = await uploadOne(t, carl, { name: 'upper.stl', bytes: cubeStl() }, { kind: 'model' });
  const add = await t.call('POST', '/admin/order/info/add', { token: carl, body: { patientName: 'Max', upperFileId: upper.id, designerId: danaId } });
  expect(add.body.code).toBe(1000);
  orderId = add.body.data.id;
});
afterAll(() => t.close());

const send = (token: string, body: Record<string, unknown>) => t.call('POST', '/admin/chat/message/send', { token, lang: 'en', body: { orderId, ...body } });
const page = (token: string, body: Record<string, unknown> = {}) => t.call('POST', '/admin/chat/message/page', { token, lang: 'en', body: { orderId, ...body } });
const unread = async (token: string) => (await t.call('GET', '/admin/chat/session/unread', { token })).body.data as { total: number; orders: { orderId: number; unread: number }[] };
const read = (token: string, body: Record<string, unknown> = {}) => t.call('POST', '/admin/chat/session/read', { token, lang: 'en', body: { orderId, ...body } });

/** The events of a message stream, read as they come. */
function events(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const queue: { event: string; data: string }[] = [];
  return {
    async next(): Promise<{ event: string; data: string }> {
      for (;;) {
        const ready = queue.shift();
        if (ready) return ready;
        const { value, done } = await reader.read();
        if (done) return { event: 'closed', data: '' };
        buffer += value;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const lines = block.split('\n');
          const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
          if (event) queue.push({ event, data: lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n') });
        }
      }
    },
    close: () => reader.cancel(),
  };
}

const openStream = (token: string, app = t.app) => app.request('/admin/chat/message/stream', { headers: { Authorization: token } });

describe('order conversations', () => {
  it('the creator and the designer converse: plain trimmed text, unread counts, read markers', async () => {
    const info = await t.call('GET', `/admin/chat/session/info?orderId=${orderId}`, { token: dana });
    expect(info.body.data).toMatchObject({ orderId, patientName: 'Max', canWrite: true, unread: 0, creator: { id: carlId, name: 'carl' }, designer: { id: danaId, name: 'dana' } });
    expect((await page(dana)).body.data).toEqual({ list: [], hasMore: false });

    const first = await send(carl, { text: '  Please check <b>the clasp</b>\non 16  ' });
    expect(first.body.code).toBe(1000);
    // Stored as sent, trimmed: markup is text (the page renders it as text).
    expect(first.body.data).toMatchObject({ orderId, senderId: carlId, senderName: 'carl', text: 'Please check <b>the clasp</b>\non 16', files: [] });
    await send(carl, { text: 'And the base' });
    expect(await unread(dana)).toEqual({ total: 2, orders: [{ orderId, unread: 2 }] });
    expect(await unread(carl)).toEqual({ total: 0, orders: [] });

    const list = (await page(dana)).body.data.list;
    expect(list.map((m: { text: string }) => m.text)).toEqual(['Please check <b>the clasp</b>\non 16', 'And the base']);
    // Read up to the first: one left; then all.
    expect((await read(dana, { lastId: list[0].id })).body.data.total).toBe(1);
    expect((await read(dana)).body.data).toEqual({ total: 0, orders: [] });
    // The marker never moves back.
    expect((await read(dana, { lastId: list[0].id })).body.data.total).toBe(0);

    await send(dana, { text: 'Done' });
    expect((await unread(carl)).total).toBe(1);
    expect((await unread(dana)).total).toBe(0);

    // Paging back: the newest first page, then the one before.
    const newest = (await page(carl, { size: 2 })).body.data;
    expect(newest.hasMore).toBe(true);
    expect(newest.list.map((m: { text: string }) => m.text)).toEqual(['And the base', 'Done']);
    const older = (await page(carl, { size: 2, beforeId: newest.list[0].id })).body.data;
    expect(older).toMatchObject({ hasMore: false, list: [{ text: 'Please check <b>the clasp</b>\non 16' }] });
  });

  it('attachments are files of the file space the sender may read, and the other party may open them', async () => {
    const notes = await uploadOne(t, carl, { name: 'notes.txt', bytes: new TextEncoder().encode('clasp notes'), type: 'text/plain' });
    const foreign = await uploadOne(t, mallory, { name: 'mine.txt', bytes: new TextEncoder().encode('not yours'), type: 'text/plain' });
    // Before it is attached the designer may not read the creator's file.
    expect((await download(t, dana, notes.url)).status).not.toBe(200);

    const files = (await t.call('POST', '/admin/chat/session/files', { token: carl, body: { keyWord: 'notes' } })).body.data;
    expect(files).toEqual([expect.objectContaining({ id: notes.id, name: 'notes.txt' })]);

    const sent = await send(carl, { text: '', fileIds: [notes.id, notes.id] });
    expect(sent.body.code).toBe(1000);
    expect(sent.body.data.files).toEqual([expect.objectContaining({ id: notes.id, name: 'notes.txt', url: notes.url })]);
    const got = await download(t, dana, notes.url);
    expect(got.status).toBe(200);
    expect(new TextDecoder().decode(got.bytes)).toBe('clasp notes');

    // Someone else's file, or one that does not exist: refused, nothing stored.
    const before = (await page(dana, { size: 100 })).body.data.list.length;
    for (const fileIds of [[foreign.id], [notes.id, 999_999]]) {
      expect((await send(carl, { text: 'x', fileIds })).body).toMatchObject({ code: 1002, message: expect.stringMatching(/fileIds/) });
    }
    expect((await page(dana, { size: 100 })).body.data.list.length).toBe(before);
    // Mallory still may not read the attached file: not a party.
    expect((await download(t, mallory, notes.url)).status).not.toBe(200);
  });

  it('attackers: another order answers like a missing one; an orders admin reads but does not write; bad bodies are refused', async () => {
    const missing = await t.call('POST', '/admin/chat/message/page', { token: mallory, lang: 'en', body: { orderId: 999_999 } });
    expect(missing.body).toEqual({ code: 1001, message: 'Data does not exist' });
    for (const reply of [
      await page(mallory),
      await send(mallory, { text: 'hi' }),
      await read(mallory),
      await t.call('GET', `/admin/chat/session/info?orderId=${orderId}`, { token: mallory, lang: 'en' }),
    ]) {
      expect(reply.body).toEqual(missing.body);
    }
    expect((await unread(mallory)).total).toBe(0);

    // The orders admin reads the conversation, is refused writing, and has no unread count.
    expect((await page(olga)).body.data.list.length).toBeGreaterThan(0);
    expect((await t.call('GET', `/admin/chat/session/info?orderId=${orderId}`, { token: olga })).body.data.canWrite).toBe(false);
    expect((await send(olga, { text: 'hi' })).body).toMatchObject({ code: 1001, message: expect.stringMatching(/creator and designer/) });
    expect((await read(olga)).body.data.total).toBe(0);

    expect((await send(dana, { text: 'x'.repeat(CHAT_TEXT_MAX + 1) })).body.code).toBe(1002);
    expect((await send(dana, { text: '   ' })).body).toMatchObject({ code: 1002, message: expect.stringMatching(/text/) });
    expect((await send(dana, { text: 'x', fileIds: [1, 2, 3, 4, 5, 6] })).body.code).toBe(1002);
    expect((await send(dana, { text: 42 })).body.code).toBe(1002);
    expect((await t.call('POST', '/admin/chat/message/page', { token: dana, body: { orderId: 'x' } })).body.code).toBe(1002);
    expect((await t.call('POST', '/admin/chat/message/page', { token: dana, body: { orderId, size: 1000 } })).body.code).toBe(1002);
    expect((await t.call('POST', '/admin/chat/message/send', { body: { orderId, text: 'x' } })).status).toBe(401);
    expect((await openStream('not-a-token')).status).toBe(401);
  });

  it('the message limit holds under a burst of parallel sends, and frees up after its minute', async () => {
    t.clock.advance(61_000); // the earlier tests' messages leave the window
    const burst = await Promise.all(Array.from({ length: CHAT_MESSAGES_PER_MINUTE + 6 }, (_, i) => send(dana, { text: `burst ${i}` })));
    expect(burst.filter((r) => r.body.code === 1000)).toHaveLength(CHAT_MESSAGES_PER_MINUTE);
    const refused = burst.filter((r) => r.body.code !== 1000);
    expect(refused).toHaveLength(6);
    for (const r of refused) expect(r.status).toBe(429);
    // The other party is limited on their own.
    expect((await send(carl, { text: 'still here' })).body.code).toBe(1000);
    t.clock.advance(61_000);
    expect((await send(dana, { text: 'after the minute' })).body.code).toBe(1000);
    await read(carl);
  });
});

describe('message stream', () => {
  it('delivers a message to the other party as it is stored, with the unread counts first', async () => {
    const res = await openStream(dana);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const stream = events(res);
    const ready = await stream.next();
    expect(ready.event).toBe('ready');
    expect(JSON.parse(ready.data)).toMatchObject({ total: expect.any(Number) });
    await send(carl, { text: 'live' });
    const got = await stream.next();
    expect(got.event).toBe('message');
    expect(JSON.parse(got.data)).toMatchObject({ orderId, senderId: carlId, text: 'live' });
    await stream.close();
  });

  it('a message stored by another process arrives through the re-check', { timeout: 15_000 }, async () => {
    const other = createApp(t.ctx); // its own notifier: nothing wakes this process's streams
    const stream = events(await openStream(dana));
    expect((await stream.next()).event).toBe('ready');
    const sent = await other.request('/admin/chat/message/send', {
      method: 'POST',
      headers: { Authorization: carl, 'Content-Type': 'application/json' },
      body: JSON.stringify({ orderId, text: 'from elsewhere' }),
    });
    expect(((await sent.json()) as { code: number }).code).toBe(1000);
    const got = await stream.next();
    expect(JSON.parse(got.data)).toMatchObject({ text: 'from elsewhere' });
    await stream.close();
  });

  it('caps the streams of a user, and frees a place when one closes', async () => {
    const open = [];
    for (let i = 0; i < STREAMS_PER_USER; i++) {
      const s = events(await openStream(carl));
      expect((await s.next()).event).toBe('ready');
      open.push(s);
    }
    const refused = await openStream(carl, t.app);
    expect(refused.status).toBe(429);
    // Another user is not affected.
    const danas = events(await openStream(dana));
    expect((await danas.next()).event).toBe('ready');
    await danas.close();
    await open.pop()!.close();
    // The closed stream gives its place back once its loop sees it closed: wait on the table.
    await expect.poll(async () => (await t.ctx.db.selectFrom('chat_stream').select('id').where('userId', '=', carlId).execute()).length).toBe(STREAMS_PER_USER - 1);
    const again = events(await openStream(carl));
    expect((await again.next()).event).toBe('ready');
    for (const s of [...open, again]) await s.close();
  });

  it('ends when its session is signed out', { timeout: 15_000 }, async () => {
    const pair = await t.login('dana', 'dana-pass');
    const stream = events(await openStream(pair.token));
    expect((await stream.next()).event).toBe('ready');
    expect((await t.call('POST', '/admin/base/comm/logout', { token: pair.token })).status).toBe(200);
    expect((await stream.next()).event).toBe('end');
    expect((await stream.next()).event).toBe('closed');
  });

  it('ends when its token expires (last: every token of this file expires)', { timeout: 15_000 }, async () => {
    const stream = events(await openStream(dana));
    expect((await stream.next()).event).toBe('ready');
    t.clock.advance(t.ctx.config.tokenExpire * 1000 + 1000);
    expect((await stream.next()).event).toBe('end');
    expect((await stream.next()).event).toBe('closed');
  });
});
