// The device hub over real WebSockets: authentication, replaced connections, malformed and
// oversize frames, unknown types, pending jobs after welcome, resend, offline after silence,
// exactly-once state changes and cancel (/work/shared/device-protocol.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimDevice } from '../device-sim.ts';
import { addDevice, jobStatus, RawClient, startHubServer, steps, until, WIRE, type HubServer } from './hub-helpers.ts';

let h: HubServer;
beforeAll(async () => {
  h = await startHubServer();
});
afterAll(async () => {
  await h?.close();
});

const bend = async (deviceId: number, n = 3) => {
  const r = await h.post('/admin/design/bend', { deviceId, wire: WIRE, steps: steps(n) }, h.adminToken);
  expect(r.code, r.message).toBe(1000);
  return r.data.jobId as string;
};
const online = async (id: number) =>
  (await h.server.ctx.db.selectFrom('device_info').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

describe('device hub: connecting', () => {
  it('closes with 4003 on a bad key, in hello or in the header, and on a first message that is not hello', async () => {
    const a = new RawClient(h.wsUrl);
    await a.hello('awd_not-a-real-key');
    expect(await a.closed).toBe(4003);
    const b = new RawClient(h.wsUrl, { Authorization: 'Device awd_wrong' });
    await b.hello(undefined);
    expect(await b.closed).toBe(4003);
    const c = new RawClient(h.wsUrl);
    await c.opened();
    c.send({ type: 'status', state: 'idle' });
    expect(await c.closed).toBe(4003);
  });

  it('welcomes a device by hello key or by header, marks it online, and offline when it leaves', async () => {
    const d = await addDevice(h, { devicename: 'Bender A' });
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    const welcome = await a.next((m) => m.type === 'welcome');
    expect(welcome).toMatchObject({ deviceId: d.id, name: 'Bender A' });
    expect(typeof welcome.serverTime).toBe('string');
    expect(await online(d.id)).toBe(1);
    a.close();
    await until(async () => (await online(d.id)) === 0, 'offline');
    const b = new RawClient(h.wsUrl, { Authorization: `Device ${d.key}` });
    await b.hello(undefined);
    expect((await b.next((m) => m.type === 'welcome')).deviceId).toBe(d.id);
    b.close();
  });

  it('replaces the first connection of a key with the second (4001) and keeps the device online', async () => {
    const d = await addDevice(h);
    const first = new RawClient(h.wsUrl);
    await first.hello(d.key);
    await first.next((m) => m.type === 'welcome');
    const second = new RawClient(h.wsUrl);
    await second.hello(d.key);
    await second.next((m) => m.type === 'welcome');
    expect(await first.closed).toBe(4001);
    await new Promise((r) => setTimeout(r, 50));
    expect(await online(d.id)).toBe(1);
    expect(h.server.hub.isOnline(d.id)).toBe(true);
    second.close();
  });

  it('ends the connection of a device whose key was reset (4003) and one that never says hello', async () => {
    const d = await addDevice(h);
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    await a.next((m) => m.type === 'welcome');
    await h.server.hub.tick();
    expect(h.server.hub.isOnline(d.id)).toBe(true);
    expect((await h.post('/admin/device/info/resetKey', { id: d.id }, h.adminToken)).code).toBe(1000);
    await h.server.hub.tick();
    expect(await a.closed).toBe(4003);
    await until(async () => (await online(d.id)) === 0, 'offline');
    const mute = new RawClient(h.wsUrl);
    await mute.opened();
    h.clock!.advance(10_000);
    await h.server.hub.tick();
    expect(await mute.closed).toBe(4003);
  });

  it('closes with 1007 on a frame that is not JSON and 1009 on a frame over 1 MiB', async () => {
    const d = await addDevice(h);
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    await a.next((m) => m.type === 'welcome');
    a.send('{"type": "status", oops');
    expect(await a.closed).toBe(1007);
    const b = new RawClient(h.wsUrl);
    await b.hello(d.key);
    await b.next((m) => m.type === 'welcome');
    b.send(JSON.stringify({ type: 'status', state: 'idle', detail: 'x'.repeat(1024 * 1024) }));
    expect(await b.closed).toBe(1009);
  });

  it('answers an unknown type with an error and keeps the connection', async () => {
    const d = await addDevice(h);
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    await a.next((m) => m.type === 'welcome');
    a.send({ type: 'selfDestruct' });
    expect(await a.next((m) => m.type === 'error')).toMatchObject({ code: 'unknownType' });
    a.send({ type: 'status', state: 'maintenance', detail: 'oiling' });
    await until(async () => {
      const r = await h.post('/admin/design/userDeviceList', {}, h.adminToken);
      return r.data.find((x: any) => x.id === d.id)?.state === 'maintenance';
    }, 'maintenance state');
    a.close();
  });

  it('marks a device silent for 60 s offline and closes it; pings keep it alive', async () => {
    const d = await addDevice(h);
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    await a.next((m) => m.type === 'welcome');
    h.clock!.advance(30_000);
    await h.server.hub.tick();
    const ping = await a.next((m) => m.type === 'ping');
    a.send({ type: 'pong', t: ping.t });
    await new Promise((r) => setTimeout(r, 50));
    h.clock!.advance(40_000);
    await h.server.hub.tick();
    expect(await online(d.id)).toBe(1);
    h.clock!.advance(21_000);
    await h.server.hub.tick();
    expect(await a.closed).toBe(4008);
    await until(async () => (await online(d.id)) === 0, 'offline');
    const link = await h.server.ctx.db.selectFrom('device_link').selectAll().where('deviceId', '=', d.id).executeTakeFirstOrThrow();
    expect(link.online).toBe(0);
    expect(link.statusTime).toBeTruthy();
  });
});

describe('device hub: jobs', () => {
  it('sends jobs queued while offline after the welcome, and again after 10 s without ack', async () => {
    const d = await addDevice(h);
    const j1 = await bend(d.id);
    const j2 = await bend(d.id);
    expect(await jobStatus(h, j1)).toBe('queued');
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    await a.next((m) => m.type === 'welcome');
    const first = await a.next((m) => m.type === 'job' && m.jobId === j1);
    expect(first).toMatchObject({ wire: { type: 'labialBow', diameter: 0.8, material: 'ss' }, steps: steps(3) });
    await a.next((m) => m.type === 'job' && m.jobId === j2);
    expect(a.messages.findIndex((m) => m.type === 'welcome')).toBeLessThan(a.messages.findIndex((m) => m.jobId === j1));
    expect(await jobStatus(h, j1)).toBe('sent');
    a.send({ type: 'ack', jobId: j1 });
    await until(async () => (await jobStatus(h, j1)) === 'acked', 'ack stored');
    const count = a.messages.length;
    h.clock!.advance(9_000);
    await h.server.hub.tick();
    expect(a.messages.slice(count).filter((m) => m.type === 'job')).toEqual([]);
    h.clock!.advance(1_500);
    await h.server.hub.tick();
    await a.next((m) => m.type === 'job' && m.jobId === j2, count);
    expect(a.messages.slice(count).some((m) => m.type === 'job' && m.jobId === j1)).toBe(false);
    // After a reconnect both come again: the unacked one, and the acked one, which the device
    // dedups by jobId (one that lost it gets it back; docs/device-bridge.md, "Reconciling").
    a.close();
    const b = new RawClient(h.wsUrl);
    await b.hello(d.key);
    await b.next((m) => m.type === 'job' && m.jobId === j2);
    await b.next((m) => m.type === 'job' && m.jobId === j1);
    // Not on the 10 s resend, though: acked is acked.
    const seen = b.messages.length;
    h.clock!.advance(11_000);
    await h.server.hub.tick();
    await b.next((m) => m.type === 'job' && m.jobId === j2, seen);
    expect(b.messages.slice(seen).some((m) => m.jobId === j1)).toBe(false);
    b.close();
  });

  it('records progress, done and failed once each, whatever the device repeats', async () => {
    const d = await addDevice(h);
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    await a.next((m) => m.type === 'welcome');
    const ok = await bend(d.id, 2);
    const bad = await bend(d.id, 2);
    await a.next((m) => m.jobId === bad);
    for (const m of [
      { type: 'ack', jobId: ok }, { type: 'ack', jobId: ok }, { type: 'progress', jobId: ok, step: 1, steps: 2 },
      { type: 'progress', jobId: ok, step: 2, steps: 2 }, { type: 'done', jobId: ok, ms: 600 }, { type: 'done', jobId: ok, ms: 600 },
      { type: 'ack', jobId: ok }, { type: 'ack', jobId: bad }, { type: 'failed', jobId: bad, code: 'collision', message: 'head hit' },
      { type: 'done', jobId: bad, ms: 1 },
    ]) a.send(m);
    await until(async () => (await jobStatus(h, bad)) === 'failed', 'failed stored');
    await new Promise((r) => setTimeout(r, 50));
    expect(await jobStatus(h, ok)).toBe('done');
    const log = await h.server.ctx.db.selectFrom('device_job_log').select(['jobId', 'status']).where('jobId', 'in', [ok, bad]).orderBy('id').execute();
    expect(log.filter((l) => l.jobId === ok).map((l) => l.status)).toEqual(['queued', 'sent', 'acked', 'bending', 'done']);
    expect(log.filter((l) => l.jobId === bad).map((l) => l.status)).toEqual(['queued', 'sent', 'acked', 'failed']);
    const list = await h.post('/admin/design/getQueueList', { deviceId: d.id }, h.adminToken);
    expect(list.data.map((j: any) => [j.jobId, j.status])).toEqual([[bad, 'failed'], [ok, 'done']]);
    expect(list.data[0]).toMatchObject({ errorCode: 'collision', errorMessage: 'head hit' });
    expect(list.data[1]).toMatchObject({ step: 2, steps: 2, bendMs: 600, deviceId: d.id });
    // Another device cannot touch these jobs.
    const other = await addDevice(h);
    const o = new RawClient(h.wsUrl);
    await o.hello(other.key);
    await o.next((m) => m.type === 'welcome');
    o.send({ type: 'ack', jobId: ok });
    expect(await o.next((m) => m.type === 'error')).toMatchObject({ code: 'unknownJob' });
    a.close();
    o.close();
  });

  it('a simulated machine acks a repeated job again and bends it once', async () => {
    const d = await addDevice(h);
    const sim = new SimDevice({ url: h.wsUrl, key: d.key, stepMs: 5, reconnectMs: 20 });
    await sim.start();
    const j = await bend(d.id, 3);
    await until(() => sim.bent.includes(j), 'bent');
    // The device's reports may still be on their way to the database.
    await until(async () => (await jobStatus(h, j)) === 'done', 'done');
    // Force a resend: the server believes the job unacked.
    await h.server.ctx.db.updateTable('device_job').set({ status: 'sent' }).where('jobId', '=', j).execute();
    h.clock!.advance(11_000);
    await h.server.hub.tick();
    await until(() => (sim.received.get(j) ?? 0) >= 2, 'resent job received');
    await until(async () => (await jobStatus(h, j)) === 'done', 'done');
    expect(sim.bent.filter((x) => x === j)).toHaveLength(1);
    await sim.stop();
  });

  it('fills the order processing milestones from its jobs and refuses an order the user may not see', async () => {
    const d = await addDevice(h);
    const order = await h.server.ctx.db
      .insertInto('order_info')
      .values({ caseNo: 'HUB-1', patientName: 'P', designerId: 1, creatorId: 1, createTime: '2026-01-01 08:00:00', updateTime: '2026-01-01 08:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const missing = await h.post('/admin/design/bend', { deviceId: d.id, orderId: 987_654, wire: WIRE, steps: steps(1) }, h.adminToken);
    expect(missing.message).toBe('The order does not exist or you may not design it');
    const r = await h.post('/admin/design/bend', { deviceId: d.id, orderId: order.id, wire: WIRE, steps: steps(2) }, h.adminToken);
    const sim = new SimDevice({ url: h.wsUrl, key: d.key, stepMs: 2 });
    await sim.start();
    await until(async () => (await jobStatus(h, r.data.jobId)) === 'done', 'done');
    const row = await h.server.ctx.db.selectFrom('order_info').select(['processStartTime', 'processEndTime']).where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(row.processStartTime).toMatch(/^2026-01-01 /);
    expect(row.processEndTime).toMatch(/^2026-01-01 /);
    await sim.stop();
  });

  it('an order to be processed becomes processed when the machine has bent every wire of its design', async () => {
    const d = await addDevice(h);
    const db = h.server.ctx.db;
    const time = '2026-01-01 08:00:00';
    const order = await db
      .insertInto('order_info')
      .values({ caseNo: 'HUB-2', patientName: 'P', status: 1, designerId: 1, creatorId: 1, createTime: time, updateTime: time })
      .returning('id')
      .executeTakeFirstOrThrow();
    const wires = [{ id: 'w1', type: 'labialBow' }, { id: 'w2', type: 'labialBow' }];
    await db.insertInto('design_data').values({ orderId: order.id, version: 1, schemaVersion: 1, data: JSON.stringify({ schemaVersion: 1, wires }), userId: 1, createTime: time, updateTime: time }).execute();
    const sim = new SimDevice({ url: h.wsUrl, key: d.key, stepMs: 2 });
    await sim.start();
    const status = async () => (await db.selectFrom('order_info').select('status').where('id', '=', order.id).executeTakeFirstOrThrow()).status;
    const first = await h.post('/admin/design/bend', { deviceId: d.id, orderId: order.id, wire: { ...WIRE, id: 'w1' }, steps: steps(2) }, h.adminToken);
    await until(async () => (await jobStatus(h, first.data.jobId)) === 'done', 'first done');
    expect(await status()).toBe(1);
    const second = await h.post('/admin/design/bend', { deviceId: d.id, orderId: order.id, wire: { ...WIRE, id: 'w2' }, steps: steps(2) }, h.adminToken);
    await until(async () => (await status()) === 2, 'processed');
    expect(await jobStatus(h, second.data.jobId)).toBe('done');
    const log = await db.selectFrom('order_status_log').selectAll().where('orderId', '=', order.id).execute();
    expect(log.map((l) => [l.fromStatus, l.toStatus, l.reason, l.userId])).toEqual([[1, 2, 'bent', null]]);
    await sim.stop();
  });

  it('a simulated machine told to fail reports failed, shown in the queue with its reason', async () => {
    const d = await addDevice(h);
    const sim = new SimDevice({ url: h.wsUrl, key: d.key, stepMs: 2, failRate: 1, headerAuth: true });
    await sim.start();
    const j = await bend(d.id, 2);
    await until(async () => (await jobStatus(h, j)) === 'failed', 'failed');
    const list = await h.post('/admin/design/getQueueList', { deviceId: d.id }, h.adminToken);
    expect(list.data[0]).toMatchObject({ jobId: j, status: 'failed', errorCode: 'collision', step: 2 });
    await sim.stop();
  });

  it('cancels a job not yet started (the device is told) and refuses one that is done', async () => {
    const d = await addDevice(h);
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    await a.next((m) => m.type === 'welcome');
    const j = await bend(d.id);
    await a.next((m) => m.jobId === j);
    a.send({ type: 'ack', jobId: j });
    await until(async () => (await jobStatus(h, j)) === 'acked', 'acked');
    const r = await h.post('/admin/design/cancel', { jobId: j }, h.adminToken);
    expect(r.code).toBe(1000);
    expect(await a.next((m) => m.type === 'cancel')).toEqual({ type: 'cancel', jobId: j });
    a.send({ type: 'done', jobId: j, ms: 5 });
    await new Promise((r) => setTimeout(r, 50));
    expect(await jobStatus(h, j)).toBe('cancelled');
    const again = await h.post('/admin/design/cancel', { jobId: j }, h.adminToken);
    expect(again.code).toBe(1001);
    expect(again.message).toBe('The job can no longer be cancelled: it is cancelled');
    const missing = await h.post('/admin/design/cancelJob', { jobId: 'nope' }, h.adminToken);
    expect(missing.message).toBe('The bending job does not exist');
    a.close();
  });

  it('keeps jobs across a restart of the back end and sends them when the device connects', async () => {
    const dir = h.dir;
    const d = await addDevice(h);
    const j = await bend(d.id);
    const port = h.server.port;
    await h.server.close();
    h = await startHubServer({ dir, port });
    expect(await jobStatus(h, j)).toBe('queued');
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    await a.next((m) => m.type === 'job' && m.jobId === j);
    a.close();
  });
});
