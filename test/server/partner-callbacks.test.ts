// Partners' callbacks (server/modules/callbacks, docs/partner-api.md "Callbacks"), with a fake
// partner as a real HTTP server on a free port and the clock moved by the test: an order's status
// and AI status changes are queued in their transaction (none for a rolled-back one) for the
// enabled partners of the order's department only; each arrives signed with the entry's secret;
// a refusal is retried after the backoff, never before; an order's later event waits for its
// earlier one; two deliverers racing post a delivery once; a private target is refused unless
// allowed; a disabled entry gets nothing; attempts run out into failed; the deliveries list shows
// states and reasons, never the secret, and only to who may see it; a failed one is sent again.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_BASE_DELAY_MS, CALLBACK_MAX_ATTEMPTS, CALLBACK_MAX_DELAY_MS, DELIVERY_HEADER, type CallbackBody } from '../../common/callbacks.ts';
import { AI_STATUS, ORDER_STATUS } from '../../common/orders.ts';
import { isPrivateAddress, OutboundRefused, postSigned } from '../../server/core/outbound.ts';
import { CallbackDeliverer } from '../../server/modules/callbacks/deliverer.ts';
import { recipientsOf } from '../../server/modules/callbacks/queue.ts';
import { moveOrder } from '../../server/modules/order/lifecycle.ts';
import { cubeStl } from '../fixtures/stl.ts';
import { verifyIncoming } from './ai-vendor-signer.ts';
import { addUser, createRole, manualClock, setup, type TestServer } from './helpers.ts';
import { uploadOne } from './space-helpers.ts';

interface Received {
  path: string;
  keyId: string;
  /** The signature checks with the entry's secret at the app's clock. */
  verified: boolean;
  deliveryHeader: string;
  body: CallbackBody;
  answered: number;
}

let t: TestServer;
let partner: http.Server;
let partnerUrl: string;
let admin: string;
let anna: string;
let bob: string;
let depA: number;
let depB: number;
const secrets = new Map<string, string>();
const received: Received[] = [];
/** Answers still to refuse, per path (503 each). */
const refusals = new Map<string, number>();

const read = (req: http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (text += c));
    req.on('end', () => resolve(text));
  });

function startPartner(): Promise<void> {
  partner = http.createServer(async (req, res) => {
    const text = await read(req);
    const path = req.url ?? '';
    const secret = secrets.get(path) ?? '';
    const verified = await verifyIncoming(secret, { method: req.method ?? '', path, headers: req.headers, body: text }, t.clock.now());
    if (path === '/redirect') {
      res.writeHead(302, { Location: `${partnerUrl}/a` });
      return res.end();
    }
    const left = refusals.get(path) ?? 0;
    const status = left > 0 ? 503 : 200;
    if (left > 0) refusals.set(path, left - 1);
    received.push({ path, keyId: String(req.headers['x-archwright-key']), verified, deliveryHeader: String(req.headers[DELIVERY_HEADER.toLowerCase()]), body: JSON.parse(text) as CallbackBody, answered: status });
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(status === 200 ? { ok: true } : { error: 'busy' }));
  });
  return new Promise((resolve) => partner.listen(0, '127.0.0.1', () => resolve()));
}

const call = (method: 'GET' | 'POST', p: string, token: string, body?: unknown) => t.call(method, p, { token, lang: 'en', body });

async function addEntry(name: string, departmentId: number, path: string, o: { enabled?: 0 | 1; kind?: string } = {}) {
  const res = await call('POST', '/admin/device/apiConfig/add', admin, { name, url: 'https://partner.example/api', callbackUrl: `${partnerUrl}${path}`, departmentId, enabled: o.enabled ?? 1, kind: o.kind ?? 'partner' });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 1000 });
  const entry = { id: res.body.data.id as number, secret: res.body.data.secret as string };
  secrets.set(path, entry.secret);
  return entry;
}

let made = 0;
async function addOrder(token: string, withBite: boolean) {
  const model = async () => ((await uploadOne(t, token, { name: `m${++made}.stl`, bytes: cubeStl({ size: 10 + made }) }, { kind: 'model' })) as { id: number }).id;
  const body = withBite ? { patientName: 'Pat', upper: await model(), lower: await model(), occlusion: await model(), enableAI: 1 } : { patientName: 'Pat', upper: await model(), enableAI: 1 };
  const res = await call('POST', '/admin/order/info/add', token, body);
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 1000 });
  return res.body.data.id as number;
}

const rows = (configId: number) => t.ctx.db.selectFrom('partner_delivery').selectAll().where('configId', '=', configId).orderBy('id').execute();
const to = (path: string) => received.filter((r) => r.path === path);
/** A change of the order's status made by the server (the bite job's end), in its own transaction. */
const biteEnded = (orderId: number) =>
  t.ctx.db.transaction().execute((trx) => moveOrder(trx, { orderId, to: ORDER_STATUS.design, reason: 'bite', userId: null, now: t.clock.now() }));
const biteAgain = (orderId: number) =>
  t.ctx.db.transaction().execute((trx) => moveOrder(trx, { orderId, to: ORDER_STATUS.biteRegistration, reason: 'models', userId: null, now: t.clock.now() }));

/** Deliverers with the jitter in the middle (waits exactly as the schedule says). */
const deliverer = (owner: string, ctx = t.ctx) => new CallbackDeliverer(ctx, { owner, random: () => 0.5 });

let entryA: { id: number; secret: string };
let entryOff: { id: number; secret: string };
let entryB: { id: number; secret: string };
let annaOrder: number;
let bobOrder: number;

beforeAll(async () => {
  t = await setup({ CALLBACK_ALLOW_PRIVATE: 'on' }, { clock: manualClock(Date.now()) });
  await startPartner();
  partnerUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}`;
  admin = (await t.login()).token;
  const dep = async (name: string) => (await call('POST', '/admin/base/sys/department/add', admin, { name, orderNum: 0 })).body.data.id as number;
  depA = await dep('Lab A');
  depB = await dep('Lab B');
  const designer = await createRole(t.ctx, 'designer', ['order:info:add', 'order:info:info']);
  await addUser(t, admin, { username: 'anna', password: 'anna-pass', roleIdList: [designer], departmentId: depA } as never);
  await addUser(t, admin, { username: 'bob', password: 'bob-pass-1', roleIdList: [designer], departmentId: depB } as never);
  anna = (await t.login('anna', 'anna-pass')).token;
  bob = (await t.login('bob', 'bob-pass-1')).token;
  entryA = await addEntry('Clinic A', depA, '/a');
  entryOff = await addEntry('Clinic A (off)', depA, '/off', { enabled: 0 });
  entryB = await addEntry('Clinic B', depB, '/b');
  await addEntry('AI of A', depA, '/ai', { kind: 'aiService' });
}, 60_000);

afterAll(async () => {
  await new Promise<void>((r) => partner?.close(() => r()));
  await t?.close();
});

describe('queueing', () => {
  it("queues an order's status and AI status changes for its department's enabled partners only", async () => {
    annaOrder = await addOrder(anna, true);
    bobOrder = await addOrder(bob, false);
    const a = await rows(entryA.id);
    expect(a.map((r) => [r.orderId, r.event, r.state, r.attempts])).toEqual([
      [annaOrder, 'orderStatus', 'pending', 0],
      [annaOrder, 'aiStatus', 'pending', 0],
    ]);
    expect(JSON.parse(a[0]!.payload)).toMatchObject({ event: 'orderStatus', orderId: annaOrder, status: ORDER_STATUS.biteRegistration, fromStatus: ORDER_STATUS.design, reason: 'models' });
    expect(JSON.parse(a[1]!.payload)).toMatchObject({ event: 'aiStatus', orderId: annaOrder, aiStatus: AI_STATUS.submitted });
    expect((await rows(entryB.id)).map((r) => [r.orderId, r.event])).toEqual([[bobOrder, 'aiStatus']]);
    expect(await rows(entryOff.id)).toEqual([]);
    // An AI service entry is no partner: it gets no callbacks.
    const all = await t.ctx.db.selectFrom('partner_delivery').select('configId').execute();
    expect(new Set(all.map((r) => r.configId))).toEqual(new Set([entryA.id, entryB.id]));
  });

  it("reaches a partner of a department above the designer's, and the partner that created the order", async () => {
    const group = (await call('POST', '/admin/base/sys/department/add', admin, { name: 'Group', orderNum: 0 })).body.data.id as number;
    const lab = (await call('POST', '/admin/base/sys/department/add', admin, { name: 'Lab C', orderNum: 0, parentId: group })).body.data.id as number;
    const groupEntry = await addEntry('Group clinic', group, '/group');
    await addUser(t, admin, { username: 'cara', password: 'cara-pass', departmentId: lab } as never);
    const userId = async (username: string) => (await t.ctx.db.selectFrom('base_sys_user').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const order = bobOrder;
    await t.ctx.db.updateTable('order_info').set({ designerId: await userId('cara') }).where('id', '=', order).execute();
    expect(await t.ctx.db.transaction().execute((trx) => recipientsOf(trx, order))).toEqual([groupEntry.id]);
    // Created by the partner of Lab B: it hears of it too, wherever its designer is.
    await t.ctx.db.insertInto('partner_order').values({ configId: entryB.id, partnerOrderNo: 'B-1', orderId: order, createTime: '2026-01-01 00:00:00' }).execute();
    expect(await t.ctx.db.transaction().execute((trx) => recipientsOf(trx, order))).toEqual([entryB.id, groupEntry.id].sort((x, y) => x - y));
    await t.ctx.db.updateTable('order_info').set({ designerId: await userId('bob') }).where('id', '=', order).execute();
    await t.ctx.db.deleteFrom('partner_order').where('orderId', '=', order).execute();
    await t.ctx.db.deleteFrom('device_api_config').where('id', '=', groupEntry.id).execute();
  });

  it('queues nothing for a change that was rolled back', async () => {
    const before = (await rows(entryA.id)).length;
    await expect(
      t.ctx.db.transaction().execute(async (trx) => {
        expect(await moveOrder(trx, { orderId: annaOrder, to: ORDER_STATUS.design, reason: 'bite', userId: null, now: t.clock.now() })).toBe(ORDER_STATUS.biteRegistration);
        throw new Error('the rest of the change failed');
      }),
    ).rejects.toThrow('the rest of the change failed');
    expect((await rows(entryA.id)).length).toBe(before);
  });
});

describe('delivering', () => {
  it('retries a refused callback after the backoff, signed each time, and keeps the order of events', async () => {
    refusals.set('/a', 2);
    const d = deliverer('one');
    await d.tick();
    // The first event was refused; the second waits behind it.
    expect(to('/a').map((r) => [r.body.event, r.answered])).toEqual([['orderStatus', 503]]);
    let [first, second] = await rows(entryA.id);
    expect(first).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 503, lastError: expect.stringContaining('HTTP 503') });
    expect(Number(first!.nextAttemptAt)).toBe(t.clock.now() + CALLBACK_BASE_DELAY_MS);
    expect(second).toMatchObject({ state: 'pending', attempts: 0 });
    // Not before its time.
    await d.tick();
    t.clock.advance(CALLBACK_BASE_DELAY_MS - 1000);
    await d.tick();
    expect(to('/a').length).toBe(1);
    t.clock.advance(1000);
    await d.tick();
    expect(to('/a').map((r) => r.answered)).toEqual([503, 503]);
    // The wait doubles.
    t.clock.advance(2 * CALLBACK_BASE_DELAY_MS - 1000);
    await d.tick();
    expect(to('/a').length).toBe(2);
    t.clock.advance(1000);
    await d.tick();
    await d.tick();
    expect(to('/a').map((r) => [r.body.event, r.answered])).toEqual([
      ['orderStatus', 503],
      ['orderStatus', 503],
      ['orderStatus', 200],
      ['aiStatus', 200],
    ]);
    [first, second] = await rows(entryA.id);
    expect(first).toMatchObject({ state: 'delivered', attempts: 3, lastStatus: 200, lastError: null });
    expect(second).toMatchObject({ state: 'delivered', attempts: 1 });
    for (const r of to('/a')) {
      expect(r.verified).toBe(true);
      expect(r.keyId).toBe(String(entryA.id));
      expect(r.deliveryHeader).toBe(String(r.body.deliveryId));
    }
    expect(to('/a')[3]!.body).toMatchObject({ deliveryId: second!.id, event: 'aiStatus', orderId: annaOrder, aiStatus: AI_STATUS.submitted, status: ORDER_STATUS.biteRegistration });
    // Bob's order went to his department's partner only; the disabled entry got nothing.
    expect(to('/b').map((r) => [r.body.orderId, r.verified])).toEqual([[bobOrder, true]]);
    expect(to('/off')).toEqual([]);
    expect(to('/ai')).toEqual([]);
  });

  it('posts a delivery once when two deliverers race for it', async () => {
    await biteEnded(annaOrder);
    await biteAgain(annaOrder);
    const before = to('/a').length;
    const d1 = deliverer('one');
    const d2 = deliverer('two');
    await Promise.all([d1.tick(), d2.tick(), d1.tick(), d2.tick()]);
    await Promise.all([d1.tick(), d2.tick(), d1.tick(), d2.tick()]);
    const got = to('/a').slice(before);
    expect(got.map((r) => [r.body.event, r.body.status, r.body.reason])).toEqual([
      ['orderStatus', ORDER_STATUS.design, 'bite'],
      ['orderStatus', ORDER_STATUS.biteRegistration, 'models'],
    ]);
    expect(new Set(got.map((r) => r.body.deliveryId)).size).toBe(2);
    const last = (await rows(entryA.id)).slice(-2);
    expect(last.map((r) => [r.state, r.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
  });

  it('refuses a private target unless the setting allows it, and sends it again on request', async () => {
    const strict = deliverer('strict', { ...t.ctx, config: { ...t.ctx.config, callbackAllowPrivate: false } });
    await biteEnded(annaOrder);
    const before = to('/a').length;
    await strict.tick();
    let row = (await rows(entryA.id)).at(-1)!;
    expect(row).toMatchObject({ state: 'failed', attempts: 1, lastStatus: null, lastError: expect.stringMatching(/^refused: 127\.0\.0\.1 is a private address/) });
    // A name is checked on the address it resolves to.
    await call('POST', '/admin/device/apiConfig/update', admin, { id: entryA.id, callbackUrl: partnerUrl.replace('127.0.0.1', 'localhost') + '/a' });
    expect((await call('POST', '/admin/device/apiConfig/redeliver', admin, { id: row.id })).body).toMatchObject({ code: 1000 });
    await strict.tick();
    row = (await rows(entryA.id)).at(-1)!;
    expect(row).toMatchObject({ state: 'failed', lastError: expect.stringContaining('localhost resolves to a private address') });
    expect(to('/a').length).toBe(before);
    // Sent again where private targets are allowed: delivered, counted afresh.
    expect((await call('POST', '/admin/device/apiConfig/redeliver', admin, { id: row.id })).body).toMatchObject({ code: 1000 });
    await deliverer('one').tick();
    row = (await rows(entryA.id)).at(-1)!;
    expect(row).toMatchObject({ state: 'delivered', attempts: 1 });
    expect(to('/a').length).toBe(before + 1);
    // Only a failed one can be sent again.
    expect((await call('POST', '/admin/device/apiConfig/redeliver', admin, { id: row.id })).body).toMatchObject({ code: 1001, message: 'Only a failed delivery can be sent again' });
  });

  it('sends nothing for an entry disabled since the change', async () => {
    await biteAgain(annaOrder);
    await call('POST', '/admin/device/apiConfig/update', admin, { id: entryA.id, enabled: 0 });
    const before = to('/a').length;
    await deliverer('one').tick();
    expect((await rows(entryA.id)).at(-1)).toMatchObject({ state: 'failed', lastError: 'the API configuration entry is disabled' });
    expect(to('/a').length).toBe(before);
    // Disabled, it gets no new deliveries either.
    const count = (await rows(entryA.id)).length;
    await biteEnded(annaOrder);
    expect((await rows(entryA.id)).length).toBe(count);
    await call('POST', '/admin/device/apiConfig/update', admin, { id: entryA.id, enabled: 1 });
  });

  it('fails a delivery for good after the last attempt', async () => {
    refusals.set('/b', 1000);
    await t.ctx.db.transaction().execute((trx) => moveOrder(trx, { orderId: bobOrder, to: ORDER_STATUS.pending, reason: 'submit', userId: null, now: t.clock.now() }));
    const d = deliverer('one');
    for (let i = 0; i < CALLBACK_MAX_ATTEMPTS + 2; i++) {
      await d.tick();
      t.clock.advance(CALLBACK_MAX_DELAY_MS * 1.25);
    }
    const row = (await rows(entryB.id)).at(-1)!;
    expect(row).toMatchObject({ state: 'failed', attempts: CALLBACK_MAX_ATTEMPTS, lastStatus: 503 });
    expect(to('/b').filter((r) => r.body.deliveryId === row.id).length).toBe(CALLBACK_MAX_ATTEMPTS);
    refusals.set('/b', 0);
  });
});

describe('targets', () => {
  it('counts loopback, private, link-local, mapped and reserved addresses as private', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', 'not-an-ip']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it('posts only http(s), refuses private literals and credentials, and follows no redirect', async () => {
    const post = (url: string, allowPrivate = false) => postSigned({ url, keyId: '1', secret: 's', body: '{}', now: t.clock.now(), timeoutMs: 2000, allowPrivate });
    for (const url of ['file:///etc/passwd', 'ftp://partner.example/x', 'http://[::1]:1/x', 'http://169.254.169.254/latest', 'https://user:pw@partner.example/x', 'not a url']) {
      await expect(post(url), url).rejects.toBeInstanceOf(OutboundRefused);
    }
    const before = to('/a').length;
    expect(await post(`${partnerUrl}/redirect`, true)).toMatchObject({ status: 302 });
    expect(to('/a').length).toBe(before);
  });
});

describe('the deliveries list', () => {
  // The clock ran hours ahead: fresh sign-ins.
  beforeAll(async () => {
    admin = (await t.login()).token;
    anna = (await t.login('anna', 'anna-pass')).token;
  });

  it('shows states, attempts and reasons, never the secret', async () => {
    const res = await call('GET', `/admin/device/apiConfig/deliveries?id=${entryA.id}&size=100`, admin);
    expect(res.body.code).toBe(1000);
    const list = res.body.data.list as Record<string, unknown>[];
    expect(res.body.data.pagination.total).toBe((await rows(entryA.id)).length);
    expect(new Set(list.map((d) => d.state))).toEqual(new Set(['delivered', 'failed']));
    expect(list.at(-1)).toMatchObject({ orderId: annaOrder, event: 'orderStatus', state: 'delivered', attempts: 3, lastStatus: 200, caseNo: expect.any(String) });
    expect(list.find((d) => d.state === 'failed')).toMatchObject({ lastError: 'the API configuration entry is disabled', nextAttemptTime: null });
    const failed = await call('GET', `/admin/device/apiConfig/deliveries?id=${entryA.id}&state=failed`, admin);
    expect((failed.body.data.list as { state: string }[]).every((d) => d.state === 'failed')).toBe(true);
    const text = JSON.stringify(res.body) + JSON.stringify(failed.body) + t.logger.lines.join('\n');
    for (const secret of secrets.values()) expect(text).not.toContain(secret);
  });

  it('answers only who may see it, and checks its input', async () => {
    expect((await call('GET', `/admin/device/apiConfig/deliveries?id=${entryA.id}`, anna)).status).toBe(403);
    expect((await call('POST', '/admin/device/apiConfig/redeliver', anna, { id: 1 })).status).toBe(403);
    const viewer = await createRole(t.ctx, 'callbacks viewer', ['device:apiConfig:deliveries']);
    await addUser(t, admin, { username: 'vera', password: 'vera-pass-1', roleIdList: [viewer] });
    const vera = (await t.login('vera', 'vera-pass-1')).token;
    expect((await call('GET', `/admin/device/apiConfig/deliveries?id=${entryA.id}`, vera)).body.code).toBe(1000);
    expect((await call('POST', '/admin/device/apiConfig/redeliver', vera, { id: 1 })).status).toBe(403);
    expect((await call('GET', '/admin/device/apiConfig/deliveries?id=x', admin)).body.code).not.toBe(1000);
    expect((await call('GET', `/admin/device/apiConfig/deliveries?id=${entryA.id}&size=100000`, admin)).body.code).not.toBe(1000);
    expect((await call('POST', '/admin/device/apiConfig/redeliver', admin, { id: 999999 })).body).toMatchObject({ code: 1001 });
  });
});
