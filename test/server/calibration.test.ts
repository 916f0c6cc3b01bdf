// A machine's calibration app, end to end with a simulated machine on the real server: it signs in
// with its device's key, reads its configuration, uploads measured springback that becomes its
// table (the previous one kept, listed and restorable), and from then on checks jobs against its
// own bending head. Next to it, the attacker's side: wrong keys, another device's key, the token
// anywhere else, another device's data, bad tables, a reset key, expiry and the rate limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HEAD, type HeadBox } from '../../common/bend-program.ts';
import { CALIBRATION_TOKEN_SECONDS } from '../../server/core/calibration.ts';
import { CALIBRATION_MAX_FAILURES, CALIBRATION_MAX_FAILURES_PER_IP } from '../../server/modules/device/calibration.routes.ts';
import { CALIBRATIONS_PER_WINDOW } from '../../server/modules/device/device-config.ts';
import { bendProgram } from '../../workers/kernels/bend.ts';
import { SimDevice, simulatedKept } from '../device-sim.ts';
import { WRAPAROUND_BOW } from '../fixtures/wraparound-bow.ts';
import { loadKernels } from '../kernels/kernels.ts';
import { setup, type TestServer } from './helpers.ts';
import { addDevice, startHubServer, until, type HubServer } from './hub-helpers.ts';

let h: HubServer;
let a: { id: number; key: string };
let b: { id: number; key: string };
let sim: SimDevice;

beforeAll(async () => {
  h = await startHubServer();
  a = await addDevice(h, { devicename: 'Bender A', diameters: [0.7, 0.8], memory: 100 });
  b = await addDevice(h, { devicename: 'Bender B', diameters: [0.8], memory: 100 });
  sim = new SimDevice({ url: h.wsUrl, key: a.key, stepMs: 1, diameters: [0.7, 0.8], memory: 100 });
  await sim.start();
  expect(sim.deviceId).toBe(a.id);
});
afterAll(async () => {
  await sim?.stop();
  await h?.close();
});

const get = async (path: string, token: string) => {
  const res = await fetch(h.server.url + path, { headers: { Authorization: token, 'Accept-Language': 'en' } });
  return { status: res.status, ...((await res.json()) as { code: number; message: string; data: any }) };
};
const post = async (path: string, body: unknown, token?: string) => {
  const res = await fetch(h.server.url + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en', ...(token ? { Authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, ...((await res.json()) as { code: number; message: string; data: any }) };
};

async function tokenOf(device: { id: number; key: string }): Promise<string> {
  const r = await post('/admin/base/open/calibration/login', { deviceId: device.id, key: device.key });
  expect(r.code).toBe(1000);
  return r.data.token;
}

describe('calibration sign-in', () => {
  it('the device key signs the calibration app in, for that device, for a short while', async () => {
    const r = await sim.calibrationLogin();
    expect(r.code).toBe(1000);
    expect(r.data).toMatchObject({ deviceId: a.id, devicename: 'Bender A', expire: CALIBRATION_TOKEN_SECONDS });
    expect(typeof r.data.token).toBe('string');
    // The key alone names its device too, as it does to the hub.
    const byKey = await post('/admin/base/open/calibration/login', { key: b.key });
    expect(byKey).toMatchObject({ code: 1000, data: { deviceId: b.id, devicename: 'Bender B' } });
    expect((await get('/admin/device/info/config', byKey.data.token)).data.id).toBe(b.id);
  });

  it('a wrong key, another device key or an unknown device is refused alike', async () => {
    const refusals = [
      await sim.calibrationLogin(a.key.slice(0, -1) + (a.key.endsWith('A') ? 'B' : 'A')),
      await sim.calibrationLogin(b.key),
      await sim.calibrationLogin(a.key, b.id),
      await sim.calibrationLogin(a.key, 999_999),
      await sim.calibrationLogin('awd_'),
      await post('/admin/base/open/calibration/login', { key: a.key + 'x' }),
      await post('/admin/base/open/calibration/login', { key: 'not a key' }),
    ];
    for (const r of refusals) {
      expect(r).toMatchObject({ status: 200, code: 1001, message: 'Device or key incorrect' });
      expect(r.data).toBeUndefined();
    }
    // Not even a body that is not a key gets that far.
    expect((await post('/admin/base/open/calibration/login', { deviceId: 'x', key: a.key })).code).toBe(1002);
    expect((await post('/admin/base/open/calibration/login', { deviceId: a.id, key: 'k'.repeat(201) })).code).toBe(1002);
  });
});

describe("the calibration token opens only its device's calibration", () => {
  it("reads the device's configuration: diameters, die, the default head, no secrets", async () => {
    const token = await tokenOf(a);
    const r = await sim.readConfig(token);
    expect(r.code).toBe(1000);
    expect(r.data).toMatchObject({ id: a.id, devicename: 'Bender A', diameterList: [0.7, 0.8], dieRadius: 1, headDefault: true, springback: [] });
    expect(r.data.head).toEqual(DEFAULT_HEAD.map((x) => ({ min: [...x.min], max: [...x.max] })));
    const text = JSON.stringify(r.data);
    for (const secret of ['keyHash', 'keyHint', a.key, b.key, 'Bender B']) expect(text).not.toContain(secret);
  });

  it("refuses another device's configuration and history, and every other call", async () => {
    const token = await tokenOf(a);
    expect(await get(`/admin/device/info/config?id=${b.id}`, token)).toMatchObject({ code: 1001 });
    expect(await get(`/admin/device/config/history?deviceId=${b.id}`, token)).toMatchObject({ code: 1001 });
    for (const path of ['/admin/device/info/page', '/admin/device/config/page', '/admin/device/info/resetKey', '/admin/device/config/restore', '/admin/design/bend']) {
      expect(await post(path, {}, token)).toMatchObject({ status: 401 });
    }
    expect(await get('/admin/base/comm/person', token)).toMatchObject({ status: 401 });
    expect(await get(`/admin/device/info/info?id=${a.id}`, token)).toMatchObject({ status: 401 });
    // A user's token is no calibration token: it cannot upload as the machine.
    expect(await post('/admin/device/config/calibrate', { diameter: 0.8, points: [{ commanded: 90, measured: 85 }] }, h.adminToken)).toMatchObject({ status: 403 });
    // Nor does a forged or tampered token pass.
    expect(await get('/admin/device/info/config', token.slice(0, -2) + 'xx')).toMatchObject({ status: 401 });
  });
});

describe('springback uploads', () => {
  it("the measured springback becomes the device's table for that diameter", async () => {
    const config = await sim.calibrate([0.8]);
    const row = config.springback.find((s) => s.diameter === 0.8)!;
    const measured = sim.measure(0.8);
    expect(row.table).toEqual(measured.map((m) => [m.measured, Math.round((m.commanded - m.measured) * 100) / 100]));
    expect(row.table[3]![0]).toBeCloseTo(simulatedKept(60, 0.8), 2);
    // The back office sees the same table; nothing was replaced yet.
    const list = await post('/admin/device/config/list', { deviceId: a.id }, h.adminToken);
    expect(list.data.map((c: any) => [c.diameter, c.springback])).toEqual([[0.8, row.table]]);
    expect((await get(`/admin/device/config/history?deviceId=${a.id}`, h.adminToken)).data).toEqual([]);
  });

  it('refuses bad tables with the back-office checks, and keeps the table it has', async () => {
    const token = await tokenOf(a);
    const before = (await sim.readConfig(token)).data.springback;
    const up = (diameter: number, points: unknown) => post('/admin/device/config/calibrate', { diameter, points }, token);
    // Two commanded angles whose kept angles cross: the compensated angle would fall.
    const crossing = await up(0.8, [{ commanded: 90, measured: 85 }, { commanded: 100, measured: 80 }]);
    expect(crossing).toMatchObject({ code: 1002, message: 'points is invalid: angles and compensated angles must rise' });
    // Two commanded angles that kept the same angle.
    expect(await up(0.8, [{ commanded: 90, measured: 85 }, { commanded: 95, measured: 85 }])).toMatchObject({ code: 1002 });
    // Springback past the table's bounds (a 100° kept from 200°: 100° of springback).
    expect(await up(0.8, [{ commanded: 200, measured: 100 }])).toMatchObject({ code: 1002 });
    // Out of range, empty, not numbers, too many.
    expect(await up(0.8, [{ commanded: 90, measured: 181 }])).toMatchObject({ code: 1002 });
    expect(await up(0.8, [{ commanded: -1, measured: 10 }])).toMatchObject({ code: 1002 });
    expect(await up(0.8, [])).toMatchObject({ code: 1002 });
    expect(await up(0.8, [{ commanded: '90', measured: 85 }])).toMatchObject({ code: 1002 });
    expect(await up(0.8, Array.from({ length: 2001 }, (_, i) => ({ commanded: (i % 170) + 1, measured: i % 170 })))).toMatchObject({ code: 1002 });
    // A diameter the device does not take.
    expect(await up(1.5, [{ commanded: 90, measured: 85 }])).toMatchObject({ code: 1001, message: 'The device does not support a wire diameter of 1.5 mm' });
    expect((await sim.readConfig(token)).data.springback).toEqual(before);
    expect((await get(`/admin/device/config/history?deviceId=${a.id}`, h.adminToken)).data).toEqual([]);
  });

  it('a new upload replaces the table; the previous is kept, listed to the machine and the back office, and restorable', async () => {
    const token = await tokenOf(a);
    const first = (await sim.readConfig(token)).data.springback.find((s) => s.diameter === 0.8)!.table;
    const points = [{ commanded: 30, measured: 27 }, { commanded: 90, measured: 84 }, { commanded: 90, measured: 86 }, { commanded: 150, measured: 141 }];
    const up = await post('/admin/device/config/calibrate', { diameter: 0.8, points, remark: 'weekly' }, token);
    expect(up).toMatchObject({ code: 1000, data: { deviceId: a.id, diameter: 0.8, springback: [[27, 3], [85, 5], [141, 9]] } });
    const mine = await get('/admin/device/config/history', token);
    expect(mine.data).toEqual([expect.objectContaining({ deviceId: a.id, diameter: 0.8, springback: first, replacedBy: 'calibration', userId: null })]);
    expect((await get(`/admin/device/config/history?deviceId=${a.id}&diameter=0.8`, h.adminToken)).data).toEqual(mine.data);
    // The back office puts the first table back; the calibrated one is kept in turn.
    const restore = await post('/admin/device/config/restore', { historyId: mine.data[0].id }, h.adminToken);
    expect(restore.code).toBe(1000);
    expect((await sim.readConfig(token)).data.springback.find((s) => s.diameter === 0.8)!.table).toEqual(first);
    const after = (await get(`/admin/device/config/history?deviceId=${a.id}`, h.adminToken)).data;
    expect(after.map((x: any) => [x.replacedBy, x.springback])).toEqual([['restore', [[27, 3], [85, 5], [141, 9]]], ['calibration', first]]);
    expect(after[0].userId).toBe(1);
    // The back-office form keeps the table it replaces as well.
    const id = (await post('/admin/device/config/list', { deviceId: a.id }, h.adminToken)).data[0].id;
    expect((await post('/admin/device/config/update', { id, springback: [[0, 1], [90, 4]] }, h.adminToken)).code).toBe(1000);
    const third = (await get(`/admin/device/config/history?deviceId=${a.id}`, h.adminToken)).data[0];
    expect([third.replacedBy, third.springback]).toEqual(['form', first]);
  });

  it("the back office cannot read or restore another's kept table without seeing the device", async () => {
    const token = await tokenOf(b);
    await post('/admin/device/config/calibrate', { diameter: 0.8, points: [{ commanded: 90, measured: 85 }] }, token);
    await post('/admin/device/config/calibrate', { diameter: 0.8, points: [{ commanded: 90, measured: 84 }] }, token);
    const kept = (await get('/admin/device/config/history', token)).data;
    expect(kept).toHaveLength(1);
    // Device A's token cannot restore B's table (the call is not a calibration call).
    expect(await post('/admin/device/config/restore', { historyId: kept[0].id }, await tokenOf(a))).toMatchObject({ status: 401 });
    expect(await post('/admin/device/config/restore', { historyId: 999_999 }, h.adminToken)).toMatchObject({ code: 1001 });
  });
});

describe('the token ends', () => {
  it('when the device key is reset', async () => {
    const token = await tokenOf(b);
    expect((await get('/admin/device/info/config', token)).code).toBe(1000);
    const reset = await post('/admin/device/info/resetKey', { id: b.id }, h.adminToken);
    expect(reset.code).toBe(1000);
    expect(await get('/admin/device/info/config', token)).toMatchObject({ status: 401 });
    b = { id: b.id, key: reset.data.key };
    expect((await get('/admin/device/info/config', await tokenOf(b))).code).toBe(1000);
  });

  it('after its lifetime', async () => {
    const token = await tokenOf(a);
    h.clock!.advance((CALIBRATION_TOKEN_SECONDS - 5) * 1000);
    expect((await get('/admin/device/info/config', token)).code).toBe(1000);
    h.clock!.advance(10_000);
    expect(await get('/admin/device/info/config', token)).toMatchObject({ status: 401 });
  });
});

describe("the device's bending head", () => {
  const fat: HeadBox[] = [
    { min: [-73, -8, -8], max: [-3, 8, 8] },
    { min: [-273, -100, -100], max: [-73, 100, 100] },
  ];

  it('is validated in the device form, answered to the machine, and checked by the server and by the simulated machine', async () => {
    const k = await loadKernels();
    const steps = bendProgram(k, WRAPAROUND_BOW, { radius: 1 }).steps;
    const token = await tokenOf(a);
    await sim.readConfig(token);
    const bend = (s: typeof steps) => post('/admin/design/bend', { deviceId: a.id, wire: { type: 'wraparoundBow', diameter: 0.7 }, steps: s }, h.adminToken);
    // The default head: the wraparound bow is queued and bent.
    const ok = await bend(steps);
    expect(ok.code).toBe(1000);
    await until(async () => (await jobOf(ok.data.jobId)) === 'done', 'the wraparound bow bent');
    // A head over the die is refused in the form; a valid one is kept and answered.
    const over = await post('/admin/device/info/update', { id: a.id, head: [{ min: [-5, -5, -5], max: [5, 5, 5] }] }, h.adminToken);
    expect(over).toMatchObject({ code: 1002 });
    expect((await post('/admin/device/info/update', { id: a.id, head: fat }, h.adminToken)).code).toBe(1000);
    expect((await get(`/admin/device/info/info?id=${a.id}`, h.adminToken)).data.head).toEqual(fat);
    expect((await sim.readConfig(token)).data).toMatchObject({ head: fat, headDefault: false });
    // The editor's device list carries it for its checks.
    const mine = await post('/admin/design/userDeviceList', {}, h.adminToken);
    expect(mine.data.find((d: any) => d.id === a.id).head).toEqual(fat);
    // The server sweeps the program through the device's head and refuses it; nothing is queued.
    const jobs = async () => (await h.server.ctx.db.selectFrom('device_job').select('jobId').where('deviceId', '=', a.id).execute()).length;
    const queued = await jobs();
    const refused = await bend(steps);
    expect(refused).toMatchObject({ code: 1001, message: expect.stringMatching(/^Step \d+: the bending path collided with the machine and was skipped$/) });
    expect(await jobs()).toBe(queued);
    // Back to the default head (null): the server queues it again, but the machine still holds the
    // fat head it read and refuses the job itself, as a collision.
    expect((await post('/admin/device/info/update', { id: a.id, head: null }, h.adminToken)).code).toBe(1000);
    const stale = await bend(steps);
    expect(stale.code).toBe(1000);
    await until(async () => (await jobOf(stale.data.jobId)) === 'failed', 'the job refused by the machine');
    expect(sim.collisions.get(stale.data.jobId)).toMatchObject({ step: expect.any(Number) });
    const row = await h.server.ctx.db.selectFrom('device_job').select(['errorCode']).where('jobId', '=', stale.data.jobId).executeTakeFirstOrThrow();
    expect(row.errorCode).toBe('collision');
    // Once it reads its configuration again it bends with the default head.
    expect((await sim.readConfig(token)).data.headDefault).toBe(true);
    const again = await bend(steps);
    await until(async () => (await jobOf(again.data.jobId)) === 'done', 'the wraparound bow bent again');
  });
});

async function jobOf(jobId: string) {
  return (await h.server.ctx.db.selectFrom('device_job').select('status').where('jobId', '=', jobId).executeTakeFirst())?.status;
}

describe('rate limits (per device, per address, under concurrency)', () => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    s = await setup({ TRUST_PROXY: '1' });
    token = (await s.login()).token;
  });
  afterAll(() => s?.close());

  const add = async (name: string) => {
    const r = await s.call('POST', '/admin/device/info/add', { token, body: { devicename: name, diameters: [0.8], memory: 10 } });
    return { id: r.body.data.id as number, key: r.body.data.key as string };
  };
  const login = (deviceId: number, key: string, ip: string) => s.call('POST', '/admin/base/open/calibration/login', { ip, lang: 'en', body: { deviceId, key } });

  it('a device takes a bounded number of uploads in the window, also when they arrive together', async () => {
    const d = await add('Looping app');
    const signed = (await login(d.id, d.key, '10.0.9.1')).body.data.token as string;
    const body = { diameter: 0.8, points: sim.measure(0.8) };
    const ups = await Promise.all(Array.from({ length: CALIBRATIONS_PER_WINDOW + 10 }, () => s.call('POST', '/admin/device/config/calibrate', { token: signed, lang: 'en', body })));
    expect(ups.filter((r) => r.body.code === 1000)).toHaveLength(CALIBRATIONS_PER_WINDOW);
    const refused = ups.filter((r) => r.status === 429);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.body.message).toBe('Too many calibration uploads for this device, try again in 15 minutes');
    // Each taken upload kept the table it replaced: the history is bounded with them.
    const kept = await s.ctx.db.selectFrom('device_config_history').select('id').where('deviceId', '=', d.id).execute();
    expect(kept).toHaveLength(CALIBRATIONS_PER_WINDOW - 1);
  });

  it('a device takes a few failures from all addresses together; then even its key waits', async () => {
    const d = await add('Limited');
    for (let i = 0; i < CALIBRATION_MAX_FAILURES; i++) expect((await login(d.id, 'awd_wrong', `10.0.0.${i}`)).body.code).toBe(1001);
    const locked = await login(d.id, d.key, '10.0.1.1');
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Too many failed device sign-ins, try again in 15 minutes');
    // Another device is not affected.
    const other = await add('Other');
    expect((await login(other.id, other.key, '10.0.1.1')).body.code).toBe(1000);
    // The window passes.
    s.clock.advance(15 * 60 * 1000 + 1);
    expect((await login(d.id, d.key, '10.0.1.1')).body.code).toBe(1000);
  });

  it('an address takes a few failures at all devices together; other addresses go on', async () => {
    const d = await add('Target');
    for (let i = 0; i < CALIBRATION_MAX_FAILURES_PER_IP; i++) expect((await login(100_000 + i, 'awd_wrong', '10.9.9.9')).body.code).toBe(1001);
    expect((await login(d.id, d.key, '10.9.9.9')).status).toBe(429);
    expect((await login(d.id, d.key, '10.9.9.10')).body.code).toBe(1000);
  });

  it('a burst of guesses at once is counted before any key is looked at', async () => {
    const d = await add('Burst');
    const replies = await Promise.all(Array.from({ length: 30 }, (_, i) => login(d.id, `awd_guess${i}`, `10.8.0.${i}`)));
    const tried = replies.filter((r) => r.status === 200);
    expect(tried.length).toBeLessThanOrEqual(CALIBRATION_MAX_FAILURES);
    expect(tried.every((r) => r.body.code === 1001)).toBe(true);
    expect(replies.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(30 - CALIBRATION_MAX_FAILURES);
  });

  it('a success forgets the failures of its device', async () => {
    const d = await add('Forgiven');
    for (let i = 0; i < CALIBRATION_MAX_FAILURES - 1; i++) await login(d.id, 'awd_wrong', '10.7.0.1');
    expect((await login(d.id, d.key, '10.7.0.2')).body.code).toBe(1000);
    for (let i = 0; i < CALIBRATION_MAX_FAILURES - 1; i++) expect((await login(d.id, 'awd_wrong', '10.7.0.3')).body.code).toBe(1001);
    expect((await login(d.id, d.key, '10.7.0.4')).body.code).toBe(1000);
  });
});
