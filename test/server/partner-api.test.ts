// The partners' open API (/admin/sy/open, server/modules/open) with a partner client that signs
// like a real one (partner-signer.ts, the example of docs/partner-api.md): good, tampered, stale
// and replayed requests; another department's orders, users and devices refused alike; the
// per-key rate limit under concurrent calls; a disabled or rotated key refused at once; calls not
// granted refused; each call; `order` idempotent on the partner's number (retries and copies at
// once make one order), by upload and by link, with the link checks (http and local addresses
// refused unless the test setting allows them, redirects, size, STL); deleteOrder refused once
// the design started; bowWire with the device's compensated program; bend once per key through
// the hub queue; redirect links are base one-time sign-in codes (/transfer): good once, also
// under two spends at once, not after they expire, not for another department's, a disabled or
// re-passworded user, nor once the user left the department or the entry is disabled.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARTNER_BATCH_MAX, PARTNER_CALLS, PARTNER_REDIRECT_TTL_MS } from '../../common/partner-api.ts';
import { cubeStl } from '../fixtures/stl.ts';
import { multipart, partnerCall, signRequest, type PartnerKey } from './partner-signer.ts';
import { addUser, setup, type TestServer } from './helpers.ts';

const P = '/admin/sy/open';
const NOW = '2026-01-01 00:00:00';

interface World {
  t: TestServer;
  admin: string;
  lab: number;
  branch: number;
  other: number;
  alice: number;
  bob: number;
  carol: number;
  device: number;
  otherDevice: number;
  partner: PartnerKey & { id: number };
  rival: PartnerKey & { id: number };
}

async function world(env: Record<string, string> = {}): Promise<World> {
  const t = await setup(env);
  const admin = (await t.login()).token;
  const dept = async (name: string, parentId: number | null) =>
    (await t.ctx.db.insertInto('base_sys_department').values({ name, parentId, createTime: NOW, updateTime: NOW }).returning('id').executeTakeFirstOrThrow()).id;
  const lab = await dept('Lab', null);
  const branch = await dept('Lab branch', lab);
  const other = await dept('Other lab', null);
  const user = async (username: string, departmentId: number) => addUser(t, admin, { username, password: 'secret-123456', departmentId } as never);
  const alice = await user('alice', lab);
  const bob = await user('bob', branch);
  const carol = await user('carol', other);
  const addDevice = async (name: string, personnelId: number) =>
    (await t.call('POST', '/admin/device/info/add', { token: admin, body: { devicename: name, diameters: '0.8', memory: 100, personnelId, dieRadius: 1.5 } })).body.data.id as number;
  const device = await addDevice('Bender A', alice);
  const otherDevice = await addDevice('Bender C', carol);
  const entry = async (name: string, departmentId: number) => {
    const res = await t.call('POST', '/admin/device/apiConfig/add', { token: admin, body: { name, url: 'https://partner.example/', departmentId, kind: 'partner', callbackUrl: 'https://partner.example/cb' } });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 1000 });
    return { id: res.body.data.id as number, secret: res.body.data.secret as string };
  };
  return { t, admin, lab, branch, other, alice, bob, carol, device, otherDevice, partner: await entry('Clinic system', lab), rival: await entry('Rival system', other) };
}

/** A partner client over the app (app.request), signing at the test clock's time. */
function client(w: World, key: PartnerKey) {
  const send = async (url: string, init: RequestInit) => w.t.app.request(url, init);
  return async (method: 'GET' | 'POST', call: string, body?: unknown, o: Parameters<typeof partnerCall>[6] = {}) => {
    const res = await partnerCall(send, '', key, method, `${P}/${call}`, body, { at: w.t.clock.now(), lang: 'en', ...o });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as { code: number; message: string; data?: any } };
  };
}

let w: World;
let call: ReturnType<typeof client>;
let rival: ReturnType<typeof client>;
let made = 0;
const stl = () => cubeStl({ size: 10 + ++made } as never);

async function uploadOrder(c: ReturnType<typeof client>, partnerOrderNo: string, extra: Record<string, unknown> = {}) {
  const { body, contentType } = await multipart({ data: JSON.stringify({ partnerOrderNo, patientName: 'Pat', ...extra }) }, { upper: { name: 'upper.stl', bytes: stl() } });
  return c('POST', 'order', body, { contentType });
}

/** A design with one clasp on the order (saved as the admin, as a designer would). */
async function saveDesign(orderId: number) {
  const wire = {
    id: 'w1',
    type: 'singleArmClasp',
    jaw: 'upper',
    diameter: 0.8,
    clearance: 0.1,
    anchors: [],
    points: [[0, 0, 0], [10, 0, 0], [18, 6, 0], [26, 6, 3], [34, 0, 3]].map((point) => ({ point })),
  };
  const res = await w.t.call('POST', '/admin/design/save', { token: w.admin, body: { orderId, baseVersion: 0, data: { schemaVersion: 1, wires: [wire] } } });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 1000 });
}

beforeAll(async () => {
  w = await world();
  call = client(w, w.partner);
  rival = client(w, w.rival);
});
afterAll(async () => {
  await w.t.close();
});

describe('who may call', () => {
  it('a signed test call answers the partner; tampered, unknown, stale and replayed ones are 401', async () => {
    const good = await call('POST', 'test', {});
    expect(good.body).toMatchObject({ code: 1000, data: { id: w.partner.id, name: 'Clinic system', departmentId: w.lab, departmentName: 'Lab', callbackUrl: 'https://partner.example/cb' } });
    expect(good.body.data.departments).toEqual([w.lab, w.branch].sort((a, b) => a - b));
    expect(good.body.data.calls).toEqual([...PARTNER_CALLS]);

    const wrongSecret = await client(w, { id: w.partner.id, secret: 'not-the-secret' })('POST', 'test', {});
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body).toMatchObject({ code: 1001, message: 'The request signature is missing or invalid' });
    const unknown = await client(w, { id: 999_999, secret: w.partner.secret })('POST', 'test', {});
    expect(unknown.status).toBe(401);
    const tampered = await call('POST', 'test', { extra: 1 }, { override: { 'X-Archwright-Signature': 'a'.repeat(64) } });
    expect(tampered.status).toBe(401);
    const unsigned = await w.t.call('POST', `${P}/test`, { body: {} });
    expect(unsigned.status).toBe(401);

    const stale = await call('POST', 'test', {}, { at: w.t.clock.now() - 6 * 60_000 });
    expect(stale.status).toBe(401);
    const nonce = 'replayed-nonce-0001';
    expect((await call('POST', 'test', {}, { nonce })).status).toBe(200);
    const replay = await call('POST', 'test', {}, { nonce });
    expect(replay.status).toBe(401);
    // An AI service's key is no partner's.
    const ai = (await w.t.call('POST', '/admin/device/apiConfig/add', { token: w.admin, body: { name: 'AI', url: 'https://ai.example/', departmentId: w.lab, kind: 'aiService' } })).body.data;
    expect((await client(w, ai)('POST', 'test', {})).status).toBe(401);
  });

  it('disabling or rotating a key takes effect at once; a call not granted is 403', async () => {
    const entry = (await w.t.call('POST', '/admin/device/apiConfig/add', { token: w.admin, body: { name: 'Short-lived', url: 'https://x.example/', departmentId: w.lab, kind: 'partner', calls: ['orderInfo'] } })).body.data;
    const c = client(w, entry);
    expect((await c('POST', 'test', {})).status).toBe(200);
    const notGranted = await c('GET', 'userList');
    expect(notGranted.status).toBe(403);
    expect(notGranted.body.message).toBe('This partner may not call userList');

    const rotated = await w.t.call('POST', '/admin/device/apiConfig/rotateSecret', { token: w.admin, body: { id: entry.id } });
    expect((await c('POST', 'test', {})).status).toBe(401);
    const fresh = client(w, { id: entry.id, secret: rotated.body.data.secret });
    expect((await fresh('POST', 'test', {})).status).toBe(200);

    await w.t.call('POST', '/admin/device/apiConfig/update', { token: w.admin, body: { id: entry.id, enabled: 0 } });
    expect((await fresh('POST', 'test', {})).status).toBe(401);
  });

  it('validation comes before any work, in the envelope, naming the field', async () => {
    const bad = await call('POST', 'orderInfo', { orderId: 'x' });
    expect(bad.body).toMatchObject({ code: 1002, message: 'orderId is invalid' });
    const none = await call('POST', 'orderInfo', {});
    expect(none.body).toMatchObject({ code: 1002, message: 'Name the order by orderId or partnerOrderNo' });
    const zh = await call('POST', 'orderInfo', { orderId: 999_999 }, { lang: 'zh' });
    expect(zh.body).toMatchObject({ code: 1001, message: '订单不存在或不属于您的部门' });
    const tooMany = await call('POST', 'batchOrder', { orders: Array.from({ length: PARTNER_BATCH_MAX + 1 }, (_, i) => ({ partnerOrderNo: `B${i}`, patientName: 'P' })) });
    expect(tooMany.body.code).toBe(1002);
  });
});

describe('orders', () => {
  it('order by upload: created once; a retry and copies at once answer the same order', async () => {
    const first = await uploadOrder(call, 'PO-1', { remark: 'first', deliveryTime: '2026-02-01' });
    expect(first.body, JSON.stringify(first.body)).toMatchObject({ code: 1000, data: { partnerOrderNo: 'PO-1', created: true } });
    const orderId = first.body.data.orderId;
    const retry = await uploadOrder(call, 'PO-1');
    expect(retry.body.data).toMatchObject({ orderId, created: false });

    const copies = await Promise.all(Array.from({ length: 5 }, () => uploadOrder(call, 'PO-2')));
    expect(copies.every((r) => r.body.code === 1000)).toBe(true);
    expect(new Set(copies.map((r) => r.body.data.orderId)).size).toBe(1);
    expect(copies.filter((r) => r.body.data.created)).toHaveLength(1);
    const rows = await w.t.ctx.db.selectFrom('partner_order').select('orderId').where('partnerOrderNo', '=', 'PO-2').execute();
    expect(rows).toHaveLength(1);

    // The order is the back office's like any other: designed by the department's first user.
    const info = await w.t.call('GET', `/admin/order/info/info?id=${orderId}`, { token: w.admin });
    expect(info.body.data).toMatchObject({ patientName: 'Pat', remark: 'first', deliveryTime: '2026-02-01 00:00:00', designerId: w.alice, status: 0 });
    expect(info.body.data.upper).toMatchObject({ name: 'upper.stl' });
  });

  it('an upload is signed over its exact bytes: a swapped file, a replay or a foreign key is refused, nothing kept', async () => {
    const staging = () => fs.readdirSync(path.join(w.t.dir, 'uploads', 'tmp')).length;
    const before = staging();
    const signed = await multipart({ data: JSON.stringify({ partnerOrderNo: 'PO-SWAP', patientName: 'P' }) }, { upper: { name: 'upper.stl', bytes: stl() } });
    const swapped = await multipart({ data: JSON.stringify({ partnerOrderNo: 'PO-SWAP', patientName: 'P' }) }, { upper: { name: 'upper.stl', bytes: stl() } });
    const headers = signRequest(w.partner, 'POST', `${P}/order`, signed.body, { at: w.t.clock.now() });
    const res = await w.t.app.request(`${P}/order`, { method: 'POST', headers: { ...headers, 'Content-Type': swapped.contentType }, body: swapped.body as BodyInit });
    expect(res.status).toBe(401);
    // The same nonce twice at once: one gets in.
    const same = { nonce: 'upload-nonce-00001' };
    const twice = await Promise.all([call('POST', 'order', signed.body, { contentType: signed.contentType, ...same }), call('POST', 'order', signed.body, { contentType: signed.contentType, ...same })]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 401]);
    expect((await rival('POST', 'order', signed.body, { contentType: signed.contentType })).body.data).toMatchObject({ created: true });
    expect(await w.t.ctx.db.selectFrom('partner_order').select('configId').where('partnerOrderNo', '=', 'PO-SWAP').execute()).toHaveLength(2);
    expect(staging()).toBe(before);
  });

  it('a model that is not STL, or missing models, are refused and nothing is kept', async () => {
    const { body, contentType } = await multipart({ data: JSON.stringify({ partnerOrderNo: 'PO-BAD', patientName: 'P' }) }, { upper: { name: 'upper.stl', bytes: new TextEncoder().encode('not an stl at all') } });
    const res = await call('POST', 'order', body, { contentType });
    expect(res.body.code).toBe(1001);
    expect(res.body.message).toMatch(/upper\.stl/);
    const none = await call('POST', 'order', { partnerOrderNo: 'PO-NONE', patientName: 'P' });
    expect(none.body.code).toBe(1001);
    expect(await w.t.ctx.db.selectFrom('partner_order').select('id').where('partnerOrderNo', 'in', ['PO-BAD', 'PO-NONE']).execute()).toHaveLength(0);
  });

  it('orderInfo and productionInfo by id or by the partner number; another department is refused alike', async () => {
    const orderId = (await uploadOrder(call, 'PO-INFO', { designerId: w.bob })).body.data.orderId;
    const byNo = await call('POST', 'orderInfo', { partnerOrderNo: 'PO-INFO' });
    expect(byNo.body.data).toMatchObject({ orderId, partnerOrderNo: 'PO-INFO', status: 0, statusText: expect.any(String), aiStatus: 0, designer: { id: w.bob }, models: { upper: { name: 'upper.stl' } } });
    expect(byNo.body.data.design).toEqual({ version: null, updateTime: null, wires: [], base: { generated: false }, drcPassed: null });
    const prod = await call('POST', 'productionInfo', { orderId });
    expect(prod.body.data).toMatchObject({ orderId, bending: { wires: 0, bent: 0, jobs: [] } });

    const foreign = await rival('POST', 'orderInfo', { orderId });
    const missing = await rival('POST', 'orderInfo', { orderId: 999_999 });
    expect(foreign.body).toEqual(missing.body);
    expect(foreign.body.code).toBe(1001);
    // A designer of another department is refused as a missing user.
    const otherDesigner = await uploadOrder(call, 'PO-CAROL', { designerId: w.carol });
    expect(otherDesigner.body).toMatchObject({ code: 1001, message: 'The user does not exist, is disabled or is not of your department' });
  });

  it('batchOrder answers each order in turn, with its own refusal', async () => {
    const res = await call('POST', 'batchOrder', { orders: [{ partnerOrderNo: 'PO-1', patientName: 'Pat' }, { partnerOrderNo: 'PO-B1', patientName: 'P' }] });
    expect(res.body.code).toBe(1000);
    expect(res.body.data[0]).toMatchObject({ partnerOrderNo: 'PO-1', code: 1000, data: { created: false } });
    expect(res.body.data[1]).toMatchObject({ partnerOrderNo: 'PO-B1', code: 1001 });
  });

  it('updateOrder changes what may change; deleteOrder only before the design starts', async () => {
    const orderId = (await uploadOrder(call, 'PO-UPD')).body.data.orderId;
    const upd = await call('POST', 'updateOrder', { orderId, patientName: 'Renamed', designerId: w.bob });
    expect(upd.body.data).toMatchObject({ patientName: 'Renamed', designer: { id: w.bob } });
    expect((await rival('POST', 'updateOrder', { orderId, patientName: 'Hijack' })).body.code).toBe(1001);

    await saveDesign(orderId);
    const refused = await call('POST', 'deleteOrder', { orderId });
    expect(refused.body).toMatchObject({ code: 1001, message: 'The design of the order has started: it can no longer be deleted' });

    const fresh = (await uploadOrder(call, 'PO-DEL')).body.data.orderId;
    expect((await rival('POST', 'deleteOrder', { orderId: fresh })).body.code).toBe(1001);
    expect((await call('POST', 'deleteOrder', { partnerOrderNo: 'PO-DEL' })).body).toMatchObject({ code: 1000, data: { orderId: fresh, deleted: true } });
    expect(await w.t.ctx.db.selectFrom('order_info').select('id').where('id', '=', fresh).executeTakeFirst()).toBeUndefined();
    // The number is free again: a new order under it is a new order.
    expect((await uploadOrder(call, 'PO-DEL')).body.data).toMatchObject({ created: true });
  });
});

describe('users, wires, bends and links into the editor', () => {
  it("userList: the department's users and those below, no secrets", async () => {
    const res = await call('GET', 'userList');
    const names = res.body.data.map((u: { username: string }) => u.username);
    expect(names).toEqual(['alice', 'bob']);
    for (const u of res.body.data) expect(Object.keys(u).some((k) => /pass|secret|token/i.test(k))).toBe(false);
    expect((await rival('GET', 'userList')).body.data.map((u: { username: string }) => u.username)).toEqual(['carol']);
  });

  it("bowWire: geometry, the plain program and the device's compensated one; other departments' devices refused", async () => {
    const orderId = (await uploadOrder(call, 'PO-WIRE')).body.data.orderId;
    await saveDesign(orderId);
    await w.t.call('POST', '/admin/device/config/add', { token: w.admin, body: { deviceId: w.device, diameter: 0.8, springback: [[0, 0], [45, 2.5], [90, 4.1], [160, 6]] } });
    const res = await call('POST', 'bowWire', { orderId, deviceId: w.device });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 1000 });
    const [wire] = res.body.data.wires;
    expect(wire).toMatchObject({ id: 'w1', type: 'singleArmClasp', jaw: 'upper', diameter: 0.8 });
    expect(wire.points).toHaveLength(5);
    expect(wire.program.steps.length).toBeGreaterThan(1);
    expect(wire.deviceProgram).toMatchObject({ deviceId: w.device, dieRadius: 1.5, springbackCompensated: true });
    // Compensation bends further than the plain program at every bent corner.
    const plain = wire.program.steps.slice(0, -1).map((s: { bend: number }) => Math.abs(s.bend));
    const comp = wire.deviceProgram.steps.slice(0, -1).map((s: { bend: number }) => Math.abs(s.bend));
    comp.forEach((b: number, i: number) => expect(b).toBeGreaterThan(plain[i]));
    const foreign = await call('POST', 'bowWire', { orderId, deviceId: w.otherDevice });
    expect(foreign.body).toMatchObject({ code: 1001, message: 'The device does not exist or is not of your department' });
  });

  it('bend: queued through the hub once per idempotency key, even with copies at once', async () => {
    const orderId = (await call('POST', 'orderInfo', { partnerOrderNo: 'PO-WIRE' })).body.data.orderId;
    const body = { orderId, wireId: 'w1', deviceId: w.device, idempotencyKey: 'bend-key-0001' };
    const copies = await Promise.all([call('POST', 'bend', body), call('POST', 'bend', body), call('POST', 'bend', body)]);
    expect(copies.every((r) => r.body.code === 1000), JSON.stringify(copies.map((r) => r.body))).toBe(true);
    expect(new Set(copies.map((r) => r.body.data.jobId)).size).toBe(1);
    const jobs = await w.t.ctx.db.selectFrom('device_job').select(['jobId', 'status', 'deviceId', 'wire']).where('orderId', '=', orderId).execute();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'queued', deviceId: w.device });
    expect(JSON.parse(jobs[0]!.wire)).toMatchObject({ id: 'w1', type: 'singleArmClasp', diameter: 0.8 });
    // The key names that bend: reused for another is refused; the progress shows the job.
    expect((await call('POST', 'bend', { ...body, deviceId: w.device, wireId: 'nope' })).body.code).toBe(1001);
    const prod = await call('POST', 'productionInfo', { orderId });
    expect(prod.body.data.bending).toMatchObject({ wires: 1, bent: 0, jobs: [{ jobId: jobs[0]!.jobId, wireId: 'w1', status: 'queued' }] });
    expect((await call('POST', 'bend', { ...body, deviceId: w.otherDevice, idempotencyKey: 'bend-key-0002' })).body.code).toBe(1001);
    expect((await call('POST', 'bend', { ...body, wireId: 'w9', idempotencyKey: 'bend-key-0003' })).body).toMatchObject({ code: 1001, message: 'The design of the order has no wire w9' });
  });

  it('redirect: a one-time sign-in code for a department user opens the editor on the order, once, and not after it expires', async () => {
    const orderId = (await call('POST', 'orderInfo', { partnerOrderNo: 'PO-WIRE' })).body.data.orderId;
    const link = await call('POST', 'redirect', { orderId, userId: w.bob });
    expect(link.body).toMatchObject({ code: 1000, data: { token: expect.any(String), expiresAt: expect.any(String) } });
    const { url, token } = link.body.data;
    // The base one-time sign-in: the app's /transfer page spends the code.
    expect(url).toBe(`${w.t.ctx.config.publicUrl}/transfer?code=${encodeURIComponent(token)}`);
    const use = (code: string) => w.t.call('POST', '/admin/base/open/redirect', { body: { code }, lang: 'en' });
    // Two spends at once: one session.
    const [first, second] = await Promise.all([use(token), use(token)]);
    expect([first.body.code, second.body.code].sort()).toEqual([1000, 1001]);
    const won = first.body.code === 1000 ? first : second;
    expect(won.body.data).toMatchObject({ target: `/bend?orderId=${orderId}`, token: expect.any(String), refreshToken: expect.any(String) });
    const person = await w.t.call('GET', '/admin/base/comm/person', { token: won.body.data.token });
    expect(person.body.data).toMatchObject({ id: w.bob, username: 'bob' });
    expect((await use(token)).body).toMatchObject({ code: 1001, message: 'This sign-in link is invalid, used or expired' });

    // Good for the partner's two minutes (longer than a signed-in user's own code), not after.
    const lasting = (await call('POST', 'redirect', { orderId, userId: w.bob })).body.data.token;
    const late = (await call('POST', 'redirect', { orderId, userId: w.bob })).body.data.token;
    w.t.clock.advance(PARTNER_REDIRECT_TTL_MS - 1000);
    expect((await use(lasting)).body.code).toBe(1000);
    w.t.clock.advance(1001);
    expect((await use(late)).body.code).toBe(1001);
  });

  it('redirect: refused for a user outside the department, a disabled user, after a password change, and once the partner no longer acts for the user', async () => {
    const orderId = (await call('POST', 'orderInfo', { partnerOrderNo: 'PO-WIRE' })).body.data.orderId;
    const use = (code: string) => w.t.call('POST', '/admin/base/open/redirect', { body: { code } });
    // Another department's user, or the order of another partner's department: not found, no code.
    expect((await call('POST', 'redirect', { orderId, userId: w.carol })).body.code).toBe(1001);
    expect((await rival('POST', 'redirect', { orderId, userId: w.carol })).body.code).toBe(1001);

    const dave = await addUser(w.t, w.admin, { username: 'dave', password: 'secret-123456', departmentId: w.branch } as never);
    const disabled = (await call('POST', 'redirect', { orderId, userId: dave })).body.data.token;
    await w.t.ctx.db.updateTable('base_sys_user').set({ status: 0 }).where('id', '=', dave).execute();
    expect((await use(disabled)).body.code).toBe(1001);
    // A disabled user gets no code at all.
    expect((await call('POST', 'redirect', { orderId, userId: dave })).body.code).toBe(1001);

    await w.t.ctx.db.updateTable('base_sys_user').set({ status: 1 }).where('id', '=', dave).execute();
    const before = (await call('POST', 'redirect', { orderId, userId: dave })).body.data.token;
    const session = (await w.t.login('dave', 'secret-123456')).token;
    expect((await w.t.call('POST', '/admin/base/comm/personUpdate', { token: session, body: { oldPassword: 'secret-123456', password: 'secret-654321' } })).body.code).toBe(1000);
    expect((await use(before)).body.code).toBe(1001);
    // A code issued after the change signs in.
    expect((await use((await call('POST', 'redirect', { orderId, userId: dave })).body.data.token)).body.code).toBe(1000);

    // Spent only while the partner still acts for the user: not once the user left its
    // departments, nor once the entry is disabled.
    const moved = (await call('POST', 'redirect', { orderId, userId: dave })).body.data.token;
    await w.t.ctx.db.updateTable('base_sys_user').set({ departmentId: w.other }).where('id', '=', dave).execute();
    expect((await use(moved)).body.code).toBe(1001);
    await w.t.ctx.db.updateTable('base_sys_user').set({ departmentId: w.branch }).where('id', '=', dave).execute();
    const revoked = (await call('POST', 'redirect', { orderId, userId: dave })).body.data.token;
    await w.t.ctx.db.updateTable('device_api_config').set({ enabled: 0 }).where('id', '=', w.partner.id).execute();
    try {
      expect((await use(revoked)).body.code).toBe(1001);
    } finally {
      await w.t.ctx.db.updateTable('device_api_config').set({ enabled: 1 }).where('id', '=', w.partner.id).execute();
    }
  });

  it('the OpenAPI document lists every call with its request schema', async () => {
    const res = await w.t.app.request(`${P}/openapi.json`);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>> };
    expect(doc.openapi).toBe('3.1.0');
    for (const name of PARTNER_CALLS) expect(Object.keys(doc.paths)).toContain(`${P}/${name}`);
    // Redirect links are spent by the base sign-in (/admin/base/open/redirect), not by a partner path.
    expect(Object.keys(doc.paths).sort()).toEqual([...PARTNER_CALLS.map((name) => `${P}/${name}`)].sort());
    expect(doc.paths[`${P}/order`]!.post!.requestBody!.content['application/json']!.schema.properties).toHaveProperty('partnerOrderNo');
    expect(doc.paths[`${P}/order`]!.post!.requestBody!.content).toHaveProperty('multipart/form-data');
    expect(doc.paths[`${P}/userList`]).toHaveProperty('get');
  });
});

describe('links and limits', () => {
  let files: http.Server;
  let base: string;
  let loose: World;

  beforeAll(async () => {
    files = http.createServer((req, res) => {
      if (req.url === '/cube.stl') return void res.end(Buffer.from(cubeStl({ size: 33 } as never)));
      if (req.url === '/big.stl') return void res.end(Buffer.alloc(2 * 1024 * 1024, 1));
      if (req.url === '/text.stl') return void res.end('hello');
      if (req.url === '/loop') return void res.writeHead(302, { Location: '/loop' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(files.address() as net.AddressInfo).port}`;
    loose = await world({ PARTNER_LINKS_INSECURE: 'on', PARTNER_RATE_MAX: '40', UPLOAD_MAX_MB: '1' });
  });
  afterAll(async () => {
    await new Promise((r) => files.close(r));
    await loose.t.close();
  });

  it('links that are not https, or point at local addresses, are refused by default', async () => {
    const order = (no: string, link: string) => call('POST', 'order', { partnerOrderNo: no, patientName: 'P', links: { upper: link } });
    expect((await order('L-1', `${base}/cube.stl`)).body).toMatchObject({ code: 1001, message: 'The link of the upper model is refused: only https links are fetched' });
    expect((await order('L-2', `https://127.0.0.1:1/cube.stl`)).body.message).toBe('The link of the upper model is refused: it points at a private or local address');
    expect((await order('L-3', `https://[::1]:1/cube.stl`)).body.message).toMatch(/private or local/);
    expect((await order('L-4', `https://localhost:1/cube.stl`)).body.message).toMatch(/private or local/);
    expect((await order('L-5', `https://10.1.2.3/cube.stl`)).body.message).toMatch(/private or local/);
  });

  it('with the test setting, a link is fetched, checked for size, type and redirects', async () => {
    const c = client(loose, loose.partner);
    const order = (no: string, link: string) => c('POST', 'order', { partnerOrderNo: no, patientName: 'P', links: { upper: link } });
    const good = await order('L-OK', `${base}/cube.stl`);
    expect(good.body, JSON.stringify(good.body)).toMatchObject({ code: 1000, data: { created: true } });
    const info = await c('POST', 'orderInfo', { orderId: good.body.data.orderId });
    expect(info.body.data.models.upper).toMatchObject({ name: 'cube.stl', triangles: 12 });
    expect((await order('L-BIG', `${base}/big.stl`)).body.message).toBe('The link of the upper model is refused: the file is larger than 1 MB');
    expect((await order('L-TXT', `${base}/text.stl`)).body.message).toMatch(/^The link of the upper model is refused: it is not an STL file/);
    expect((await order('L-LOOP', `${base}/loop`)).body.message).toBe('The link of the upper model is refused: too many redirects');
    expect((await order('L-404', `${base}/missing.stl`)).body.message).toBe('The link of the upper model is refused: the server answered 404');
  });

  it("each key has its own limit, held under concurrent calls; another key's calls go on", async () => {
    const c = client(loose, loose.partner);
    const used = 5 + 1; // the calls of the test before, and its orderInfo
    const replies = await Promise.all(Array.from({ length: 60 }, () => c('POST', 'test', {})));
    const passed = replies.filter((r) => r.status === 200).length;
    expect(passed).toBe(40 - used);
    expect(replies.filter((r) => r.status === 429).every((r) => r.body.message === 'Too many calls with this key, try again later')).toBe(true);
    expect((await client(loose, loose.rival)('POST', 'test', {})).status).toBe(200);
  });
});
