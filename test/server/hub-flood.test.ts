// A device that floods its connection: the hub's per-connection rate limit (a token bucket,
// 20 frames/s, burst 100), the one `rate` error, the 1008 close, and status writes coalesced so
// that no flood turns into a database write per frame. The well-behaved machine next to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDevice, jobStatus, startHubServer, steps, until, welcomed, WIRE, type HubServer } from './hub-helpers.ts';

let h: HubServer;
beforeAll(async () => {
  h = await startHubServer();
});
afterAll(async () => {
  await h?.close();
});

/** Database writes of a device's link (each setLink emits one online/offline event). */
function linkWrites(deviceId: number) {
  const writes = { n: 0 };
  const off = h.server.hub.on((e) => {
    if (e.type !== 'job' && e.deviceId === deviceId) writes.n++;
  });
  return { writes, off };
}

const state = async (id: number) =>
  (await h.server.ctx.db.selectFrom('device_link').select(['state', 'detail']).where('deviceId', '=', id).executeTakeFirstOrThrow());

describe('device hub: message rate', () => {
  it('an authenticated device flooding 50,000 frames is told once, limited and closed with 1008; HTTP is answered meanwhile', async () => {
    const d = await addDevice(h);
    const { writes, off } = linkWrites(d.id);
    const flood = await welcomed(h.wsUrl, d.key);
    const before = writes.n;
    for (let i = 0; i < 50_000; i++) flood.send({ type: 'status', state: i % 2 ? 'idle' : 'bending', detail: String(i) });
    // Another caller's request while the frames pour in.
    const answered = await h.post('/admin/design/getQueueList', {}, h.adminToken);
    expect(answered.code).toBe(1000);
    expect(await flood.closed).toBe(1008);
    expect(flood.messages.filter((m) => m.type === 'error')).toEqual([{ type: 'error', code: 'rate', message: expect.any(String) }]);
    // The frames let through (the burst) changed the status 100 times: one write, the rest waits.
    expect(writes.n - before).toBeLessThanOrEqual(2);
    await until(async () => (await h.post('/admin/design/userDeviceList', {}, h.adminToken)).data.find((x: any) => x.id === d.id)?.online === false, 'offline');
    off();
  });

  it('a machine within the limit is never told; a short burst over it is told once, dropped, and the machine goes on', async () => {
    const d = await addDevice(h);
    const a = await welcomed(h.wsUrl, d.key);
    const j = (await h.post('/admin/design/bend', { deviceId: d.id, wire: WIRE, steps: steps(2) }, h.adminToken)).data.jobId;
    await a.next((m) => m.jobId === j);
    // 101 frames after hello: within the burst of 100 and the two frames its job earned (ack, outcome).
    for (let i = 0; i < 100; i++) a.send({ type: 'pong', t: i });
    a.send({ type: 'ack', jobId: j });
    await until(async () => (await jobStatus(h, j)) === 'acked', 'acked');
    expect(a.messages.some((m) => m.type === 'error')).toBe(false);
    // Over it: 20 frames dropped, one error, the connection stays.
    for (let i = 0; i < 20; i++) a.send({ type: 'progress', jobId: j, step: 1, steps: 2 });
    await a.next((m) => m.type === 'error' && m.code === 'rate');
    await new Promise((r) => setTimeout(r, 50));
    expect(await jobStatus(h, j)).toBe('acked');
    // A second later the bucket holds 20 again.
    h.clock!.advance(1000);
    a.send({ type: 'done', jobId: j, ms: 5 });
    await until(async () => (await jobStatus(h, j)) === 'done', 'done');
    expect(a.messages.filter((m) => m.type === 'error')).toHaveLength(1);
    expect(a.ws.readyState).toBe(a.ws.OPEN);
    a.close();
  });

  it('an outcome that finds the bucket empty closes the line instead of being lost; reported again after welcome, the job is done', async () => {
    const d = await addDevice(h);
    const a = await welcomed(h.wsUrl, d.key);
    const j = (await h.post('/admin/design/bend', { deviceId: d.id, wire: WIRE, steps: steps(2) }, h.adminToken)).data.jobId;
    await a.next((m) => m.jobId === j);
    a.send({ type: 'ack', jobId: j });
    // A chatty machine: its progress empties the bucket, then the wire is done.
    for (let i = 0; i < 120; i++) a.send({ type: 'progress', jobId: j, step: 1, steps: 2 });
    a.send({ type: 'done', jobId: j, ms: 5 });
    expect(await a.closed).toBe(1008);
    expect(await jobStatus(h, j)).not.toBe('done');
    // After the next welcome the machine says it again, and it counts.
    const b = await welcomed(h.wsUrl, d.key);
    b.send({ type: 'done', jobId: j, ms: 5 });
    await until(async () => (await jobStatus(h, j)) === 'done', 'done after the reconnect');
    b.close();
  });

  it('a machine back with more waiting jobs than the burst answers each with ack and outcome, and is neither told nor closed', async () => {
    // 70 jobs sent while it was away; it finished 40 of them (the reports lost): 110 frames back.
    const d = await addDevice(h);
    const a = await welcomed(h.wsUrl, d.key);
    a.close();
    await until(async () => !h.server.hub.isOnline(d.id), 'offline');
    const jobs: string[] = [];
    for (let i = 0; i < 70; i++) {
      const r = await h.post('/admin/design/bend', { deviceId: d.id, wire: WIRE, steps: steps(1) }, h.adminToken);
      expect(r.code, r.message).toBe(1000);
      jobs.push(r.data.jobId);
    }
    const b = await welcomed(h.wsUrl, d.key);
    for (const j of jobs) {
      await b.next((m) => m.type === 'job' && m.jobId === j);
      b.send({ type: 'ack', jobId: j });
      if (jobs.indexOf(j) < 40) b.send({ type: 'done', jobId: j, ms: 5 });
    }
    await until(async () => (await jobStatus(h, jobs[69]!)) === 'acked', 'the last job acked');
    expect(await jobStatus(h, jobs[0]!)).toBe('done');
    expect(b.messages.filter((m) => m.type === 'error')).toEqual([]);
    expect(b.ws.readyState).toBe(b.ws.OPEN);
    // Its own frames still count: what the jobs earned is bounded (two frames each), then a flood
    // of its own is limited.
    for (let i = 0; i < 250; i++) b.send({ type: 'pong', t: i });
    await b.next((m) => m.type === 'error' && m.code === 'rate');
    b.close();
  });

  it('welcome lists the jobs whose outcome the machine may still owe: bending or interrupted, not finished or waiting', async () => {
    const d = await addDevice(h);
    const a = await welcomed(h.wsUrl, d.key);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const j = (await h.post('/admin/design/bend', { deviceId: d.id, wire: WIRE, steps: steps(2) }, h.adminToken)).data.jobId;
      ids.push(j);
      await a.next((m) => m.jobId === j);
      a.send({ type: 'ack', jobId: j });
    }
    const [finished, bending, waiting] = ids as [string, string, string];
    a.send({ type: 'progress', jobId: finished, step: 1, steps: 2 });
    a.send({ type: 'done', jobId: finished, ms: 5 });
    a.send({ type: 'progress', jobId: bending, step: 1, steps: 2 });
    await until(async () => (await jobStatus(h, bending)) === 'bending', 'bending');
    expect(await jobStatus(h, waiting)).toBe('acked');
    a.close();
    await until(async () => !h.server.hub.isOnline(d.id), 'offline');
    const b = await welcomed(h.wsUrl, d.key);
    expect(b.messages.find((m) => m.type === 'welcome').awaiting).toEqual([bending]);
    // It says it is idle: the bending job is interrupted, and still awaited on the next welcome.
    b.send({ type: 'status', state: 'idle' });
    await until(async () => (await jobStatus(h, bending)) === 'failed', 'interrupted');
    b.close();
    await until(async () => !h.server.hub.isOnline(d.id), 'offline again');
    const c = await welcomed(h.wsUrl, d.key);
    expect(c.messages.find((m) => m.type === 'welcome').awaiting).toEqual([bending]);
    c.close();
  });

  it('status changes are written at most once a second, the latest one winning', async () => {
    const d = await addDevice(h);
    const { writes, off } = linkWrites(d.id);
    const a = await welcomed(h.wsUrl, d.key);
    const before = writes.n;
    a.send({ type: 'status', state: 'maintenance', detail: 'first' });
    await until(async () => (await state(d.id)).detail === 'first', 'first status written at once');
    for (let i = 0; i < 50; i++) a.send({ type: 'status', state: i % 2 ? 'idle' : 'bending', detail: `change ${i}` });
    a.send({ type: 'pong', t: 1 });
    a.send({ type: 'selfDestruct' });
    await a.next((m) => m.type === 'error' && m.code === 'unknownType');
    expect(writes.n - before).toBe(1);
    expect(await state(d.id)).toEqual({ state: 'maintenance', detail: 'first' });
    h.clock!.advance(1000);
    await h.server.hub.tick();
    expect(await state(d.id)).toEqual({ state: 'idle', detail: 'change 49' });
    expect(writes.n - before).toBe(2);
    a.close();
    off();
  });
});
