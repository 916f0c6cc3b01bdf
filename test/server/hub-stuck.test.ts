// No job sticks: after a restart of the back end a device that comes back and says it is not
// bending gets its `bending` jobs marked failed `interrupted` (never sent again), its sent and
// acked jobs again; a job held by a device gone for DEVICE_GONE_CANCEL_SECONDS may be cancelled
// by its owner or an admin, not before and by nobody else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDesigner, addDevice, jobStatus, RawClient, startHubServer, steps, until, WIRE, type HubServer } from './hub-helpers.ts';

let h: HubServer;
beforeAll(async () => {
  h = await startHubServer();
});
afterAll(async () => {
  await h?.close();
});

const bend = async (deviceId: number, token = h.adminToken) => {
  const r = await h.post('/admin/design/bend', { deviceId, wire: WIRE, steps: steps(3) }, token);
  expect(r.code, r.message).toBe(1000);
  return r.data.jobId as string;
};
const job = (jobId: string) =>
  h.server.ctx.db.selectFrom('device_job').select(['status', 'errorCode', 'errorMessage', 'sendCount']).where('jobId', '=', jobId).executeTakeFirstOrThrow();
const offline = async (id: number) =>
  until(async () => (await h.server.ctx.db.selectFrom('device_link').select('online').where('deviceId', '=', id).executeTakeFirstOrThrow()).online === 0, 'offline');

describe('reconciling on reconnect', () => {
  it('after a restart, a device that reports idle leaves no job bending: interrupted, never resent; sent and acked ones come again', async () => {
    const d = await addDevice(h);
    const [j1, j2, j3, j4] = [await bend(d.id), await bend(d.id), await bend(d.id), await bend(d.id)];
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    await a.next((m) => m.jobId === j4);
    for (const j of [j1, j2, j3]) a.send({ type: 'ack', jobId: j });
    a.send({ type: 'progress', jobId: j1, step: 1, steps: 3 });
    a.send({ type: 'progress', jobId: j2, step: 2, steps: 3 });
    await until(async () => (await jobStatus(h, j2)) === 'bending' && (await jobStatus(h, j3)) === 'acked', 'bending and acked');
    // The back end goes down and comes back on the same data; the device reconnects, idle.
    const { dir, port } = { dir: h.dir, port: h.server.port };
    await h.close(true);
    a.close();
    h = await startHubServer({ dir, port });
    const b = new RawClient(h.wsUrl);
    await b.hello(d.key);
    await b.next((m) => m.type === 'job' && m.jobId === j4);
    await b.next((m) => m.type === 'job' && m.jobId === j3);
    b.send({ type: 'status', state: 'idle' });
    await until(async () => (await jobStatus(h, j1)) === 'failed' && (await jobStatus(h, j2)) === 'failed', 'interrupted');
    expect(await job(j1)).toMatchObject({ status: 'failed', errorCode: 'interrupted' });
    expect((await job(j1)).errorMessage).toContain('not sent again');
    const list = await h.post('/admin/design/getQueueList', { deviceId: d.id }, h.adminToken);
    expect(list.data.filter((x: any) => x.status === 'bending')).toEqual([]);
    // The device's own late report still counts (its done was lost with the connection).
    b.send({ type: 'done', jobId: j2, ms: 900 });
    await until(async () => (await jobStatus(h, j2)) === 'done', 'late done');
    expect(await job(j2)).toMatchObject({ errorCode: null, errorMessage: null });
    // An interrupted job is never sent again, on a tick or a reconnect.
    h.clock!.advance(60_000);
    await h.server.hub.tick();
    b.close();
    const c = new RawClient(h.wsUrl);
    await c.hello(d.key);
    await c.next((m) => m.type === 'job' && m.jobId === j3);
    expect([...b.messages, ...c.messages].filter((m) => m.type === 'job' && (m.jobId === j1 || m.jobId === j2))).toEqual([]);
    expect(await jobStatus(h, j1)).toBe('failed');
    c.close();
  });

  it('a device that comes back bending the job keeps it bending, and finishes it', async () => {
    const d = await addDevice(h);
    const j = await bend(d.id);
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    await a.next((m) => m.jobId === j);
    a.send({ type: 'ack', jobId: j });
    a.send({ type: 'progress', jobId: j, step: 1, steps: 3 });
    await until(async () => (await jobStatus(h, j)) === 'bending', 'bending');
    a.close();
    await offline(d.id);
    const b = new RawClient(h.wsUrl);
    await b.hello(d.key);
    await b.next((m) => m.type === 'welcome');
    b.send({ type: 'status', state: 'bending', jobId: j });
    b.send({ type: 'progress', jobId: j, step: 3, steps: 3 });
    b.send({ type: 'done', jobId: j, ms: 100 });
    await until(async () => (await jobStatus(h, j)) === 'done', 'done');
    expect(b.messages.filter((m) => m.type === 'job')).toEqual([]);
    const log = await h.server.ctx.db.selectFrom('device_job_log').select('status').where('jobId', '=', j).orderBy('id').execute();
    expect(log.map((l) => l.status)).toEqual(['queued', 'sent', 'acked', 'bending', 'done']);
    b.close();
  });
});

describe('cancelling a job stuck on a device that is gone', () => {
  it('a bending job: refused while the device may still report, allowed to its owner or an admin after 10 minutes offline, never to another user', async () => {
    const d = await addDevice(h);
    const owner = await addDesigner(h, 'stuck-owner');
    const other = await addDesigner(h, 'stuck-other');
    expect((await h.post('/admin/device/info/bind', { id: d.id, userIds: [owner.id, other.id] }, h.adminToken)).code).toBe(1000);
    const bending = await bend(d.id, owner.token);
    const bending2 = await bend(d.id, owner.token);
    const held = await bend(d.id, owner.token);
    const a = new RawClient(h.wsUrl);
    await a.hello(d.key);
    await a.next((m) => m.jobId === held);
    a.send({ type: 'ack', jobId: bending });
    a.send({ type: 'ack', jobId: held });
    a.send({ type: 'ack', jobId: bending2 });
    a.send({ type: 'progress', jobId: bending, step: 1, steps: 3 });
    a.send({ type: 'progress', jobId: bending2, step: 1, steps: 3 });
    await until(async () => (await jobStatus(h, bending2)) === 'bending' && (await jobStatus(h, held)) === 'acked', 'on the device');
    // Online: the device will say what became of it.
    const online = await h.post('/admin/design/cancel', { jobId: bending }, owner.token);
    expect([online.code, online.message]).toEqual([1001, 'The job is bending on the device; it can be cancelled once the device has been offline for 10 minutes']);
    a.close();
    await offline(d.id);
    // A job the device holds but has not started may be cancelled at any time, as before.
    expect((await h.post('/admin/design/cancelJob', { jobId: held }, owner.token)).data).toEqual({ jobId: held, status: 'cancelled' });
    h.clock!.advance(600_000 - 1);
    expect((await h.post('/admin/design/cancel', { jobId: bending }, owner.token)).code).toBe(1001);
    expect((await h.post('/admin/design/cancel', { jobId: bending }, h.adminToken)).code).toBe(1001);
    const cancellable = async () =>
      (await h.post('/admin/design/getQueueList', { deviceId: d.id }, owner.token)).data.find((x: any) => x.jobId === bending).cancellable;
    expect(await cancellable()).toBe(false);
    h.clock!.advance(1);
    expect(await cancellable()).toBe(true);
    // Another user, even one bound to the device: not theirs.
    expect((await h.post('/admin/design/cancel', { jobId: bending }, other.token)).message).toBe('The bending job does not exist');
    expect(await jobStatus(h, bending)).toBe('bending');
    expect((await h.post('/admin/design/cancel', { jobId: bending }, owner.token)).data).toEqual({ jobId: bending, status: 'cancelled' });
    expect((await h.post('/admin/design/cancel', { jobId: bending2 }, h.adminToken)).data).toEqual({ jobId: bending2, status: 'cancelled' });
    // Back, the device is told to drop both and gets neither again.
    const b = new RawClient(h.wsUrl);
    await b.hello(d.key);
    await b.next((m) => m.type === 'cancel' && m.jobId === held);
    await b.next((m) => m.type === 'cancel' && m.jobId === bending);
    await b.next((m) => m.type === 'cancel' && m.jobId === bending2);
    b.send({ type: 'status', state: 'idle' });
    b.send({ type: 'done', jobId: bending, ms: 1 });
    await new Promise((r) => setTimeout(r, 100));
    expect(b.messages.filter((m) => m.type === 'job')).toEqual([]);
    expect([await jobStatus(h, bending), await jobStatus(h, held)]).toEqual(['cancelled', 'cancelled']);
    b.close();
  });

  it('DEVICE_GONE_CANCEL_SECONDS sets the time', async () => {
    const { loadConfig } = await import('../../server/config.ts');
    expect(loadConfig({}).deviceGoneCancelMs).toBe(600_000);
    expect(loadConfig({ DEVICE_GONE_CANCEL_SECONDS: '30' }).deviceGoneCancelMs).toBe(30_000);
    expect(() => loadConfig({ DEVICE_GONE_CANCEL_SECONDS: 'soon' })).toThrow(/DEVICE_GONE_CANCEL_SECONDS/);
  });
});
