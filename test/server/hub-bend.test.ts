// POST /admin/design/bend and the queue views: every refusal of the specification, in the
// caller's language, and each non-admin seeing only their own jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDesigner, addDevice, RawClient, startHubServer, steps, WIRE, type HubServer } from './hub-helpers.ts';

let h: HubServer;
beforeAll(async () => {
  h = await startHubServer();
});
afterAll(async () => {
  await h?.close();
});

describe('POST /admin/design/bend', () => {
  it('refuses with the specification messages and stores nothing', async () => {
    const d = await addDevice(h, { diameters: [0.7, 0.8], memory: 5 });
    const alice = await addDesigner(h, 'alice');
    const cases: Array<[unknown, string]> = [
      [{ wire: WIRE, steps: steps(2) }, 'Add failed, no device selected'],
      [{ deviceId: 999_999, wire: WIRE, steps: steps(2) }, 'Add failed, no device selected'],
      [{ deviceId: d.id, steps: steps(2) }, 'Bending failed, no bow wire was selected'],
      [{ deviceId: d.id, wire: WIRE, steps: [] }, 'Bending failed, no bow wire was selected'],
      [{ deviceId: d.id, wire: { ...WIRE, diameter: 0.9 }, steps: steps(2) }, 'Wire diameter mismatch: the device takes 0.7, 0.8 mm, not 0.9 mm'],
      [{ deviceId: d.id, wire: WIRE, steps: steps(6) }, 'Wire data over machine memory (6 steps, the device holds 5)'],
    ];
    for (const [body, message] of cases) {
      const r = await h.post('/admin/design/bend', body, h.adminToken);
      expect([r.code, r.message]).toEqual([1001, message]);
    }
    const notBound = await h.post('/admin/design/bend', { deviceId: d.id, wire: WIRE, steps: steps(2) }, alice.token);
    expect(notBound.message).toBe('The device is not bound. Please contact your administrator');
    const bad = await h.post('/admin/design/bend', { deviceId: d.id, wire: WIRE, steps: [{ feed: 'x', rotate: 0, bend: 0 }] }, h.adminToken);
    expect(bad.code).toBe(1002);
    expect(await h.server.ctx.db.selectFrom('device_job').select('id').where('deviceId', '=', d.id).execute()).toEqual([]);
  });

  it('refuses a wire type outside the product list (common/wires.ts) with 1002 naming the type and the list', async () => {
    const d = await addDevice(h, { diameters: [0.8], memory: 10 });
    const list = 'labialBow, singleArmClasp, arrowClasp, wraparoundBow';
    const r = await h.post('/admin/design/bend', { deviceId: d.id, wire: { ...WIRE, type: 'hyraxScrew' }, steps: steps(2) }, h.adminToken);
    expect([r.code, r.message]).toEqual([1002, `wire.type is invalid: "hyraxScrew" is not a wire type (one of ${list})`]);
    // The display name is not the key.
    const label = await h.post('/admin/design/bend', { deviceId: d.id, wire: { ...WIRE, type: 'Labial bow' }, steps: steps(2) }, h.adminToken);
    expect([label.code, label.message]).toEqual([1002, `wire.type is invalid: "Labial bow" is not a wire type (one of ${list})`]);
    const zh = await fetch(h.server.url + '/admin/design/bend', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': 'zh', Authorization: h.adminToken },
      body: JSON.stringify({ deviceId: d.id, wire: { ...WIRE, type: 'hyraxScrew' }, steps: steps(2) }),
    }).then((res) => res.json());
    expect(zh).toEqual({ code: 1002, message: `wire.type 不合法："hyraxScrew" 不是弓丝类型（可选：${list}）` });
    // A type that is not a string is still "wire is invalid".
    const numeric = await h.post('/admin/design/bend', { deviceId: d.id, wire: { ...WIRE, type: 7 }, steps: steps(2) }, h.adminToken);
    expect([numeric.code, numeric.message]).toEqual([1002, 'wire is invalid']);
    expect(await h.server.ctx.db.selectFrom('device_job').select('id').where('deviceId', '=', d.id).execute()).toEqual([]);
    // Every type of the list is accepted.
    for (const type of list.split(', ')) {
      const ok = await h.post('/admin/design/bend', { deviceId: d.id, wire: { ...WIRE, type }, steps: steps(2) }, h.adminToken);
      expect(ok.code, ok.message).toBe(1000);
    }
  });

  it('answers in the caller language', async () => {
    const zh = await startHubLang('zh');
    expect(zh.message).toBe('添加失败，未选择设备');
  });

  it('accepts for a bound user and each non-admin sees only their own jobs; admin sees all or "mine"', async () => {
    const d = await addDevice(h, { diameters: [0.8], memory: 50 });
    const bob = await addDesigner(h, 'bob');
    const carol = await addDesigner(h, 'carol');
    expect((await h.post('/admin/device/info/bind', { id: d.id, userIds: [bob.id, carol.id] }, h.adminToken)).code).toBe(1000);
    const order = await h.server.ctx.db
      .insertInto('order_info')
      .values({ caseNo: 'BOB-1', patientName: 'P', designerId: bob.id, creatorId: 1, createTime: '2026-01-01 08:00:00', updateTime: '2026-01-01 08:00:00' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Carol is not the designer of Bob's order.
    expect((await h.post('/admin/design/bend', { deviceId: d.id, orderId: order.id, wire: WIRE, steps: steps(3) }, carol.token)).message).toBe(
      'The order does not exist or you may not design it',
    );
    const jb = (await h.post('/admin/design/bend', { deviceId: d.id, orderId: order.id, wire: WIRE, steps: steps(3) }, bob.token)).data.jobId;
    const jc = (await h.post('/admin/design/bend', { deviceId: d.id, wire: WIRE, steps: steps(3) }, carol.token)).data.jobId;
    const ja = (await h.post('/admin/design/bend', { deviceId: d.id, wire: WIRE, steps: steps(3) }, h.adminToken)).data.jobId;
    expect([jb, jc, ja].every((j) => typeof j === 'string')).toBe(true);
    const ofBob = await h.post('/admin/design/getQueueList', {}, bob.token);
    expect(ofBob.data.map((j: any) => j.jobId)).toEqual([jb]);
    expect(ofBob.data[0]).toMatchObject({ deviceId: d.id, orderId: order.id, caseNo: 'BOB-1', status: 'queued', steps: 3 });
    expect(ofBob.data[0].createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await h.post('/admin/design/getQueueList', { mine: false }, carol.token)).data.map((j: any) => [j.jobId, j.caseNo])).toEqual([[jc, null]]);
    const all = await h.post('/admin/design/getQueueList', { deviceId: d.id }, h.adminToken);
    expect(all.data.map((j: any) => j.jobId)).toEqual([ja, jc, jb]);
    expect((await h.post('/admin/design/getQueueList', { mine: true, deviceId: d.id }, h.adminToken)).data.map((j: any) => j.jobId)).toEqual([ja]);
    // Bob may not cancel Carol's job; Carol may cancel hers.
    expect((await h.post('/admin/design/cancel', { jobId: jc }, bob.token)).message).toBe('The bending job does not exist');
    expect((await h.post('/admin/design/cancel', { jobId: jc }, carol.token)).data).toEqual({ jobId: jc, status: 'cancelled' });
    // The devices each may use, with their state.
    const devs = await h.post('/admin/design/userDeviceList', {}, bob.token);
    expect(devs.data).toEqual([expect.objectContaining({ id: d.id, online: false, state: 'offline', diameterList: [0.8], memory: 50, pending: 2 })]);
    const dave = await addDesigner(h, 'dave');
    expect((await h.post('/admin/design/userDeviceList', {}, dave.token)).data).toEqual([]);
  });
});

async function startHubLang(lang: string) {
  const res = await fetch(h.server.url + '/admin/design/bend', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept-Language': lang, Authorization: h.adminToken },
    body: JSON.stringify({ wire: WIRE, steps: steps(1) }),
  });
  return res.json();
}

describe('POST /admin/design/bend: the program against the machine (common/bend-program.ts)', () => {
  const post = (deviceId: number, program: unknown) => h.post('/admin/design/bend', { deviceId, wire: WIRE, steps: program }, h.adminToken);
  const jobsOf = async (id: number) => h.server.ctx.db.selectFrom('device_job').select(['jobId', 'steps']).where('deviceId', '=', id).execute();

  it('refuses values outside the machine limits with 1002 naming the field; nothing is stored or reaches the device', async () => {
    // Its bending head is only a table far below the wire: these are the limits' cases, and a
    // 120 mm wire bent back by 180° would hit the default head (the server's collision check).
    const head = [{ min: [-500, -500, -500], max: [500, 500, -400] }];
    const d = await addDevice(h, { diameters: [0.8], memory: 2000, head });
    const device = new RawClient(h.wsUrl);
    await device.hello(d.key);
    await device.next((m) => m.type === 'welcome');
    const good = { feed: 10, rotate: 0, bend: 30 };
    const cases: Array<[unknown, string]> = [
      [[good, { feed: 1e300, rotate: 1e9, bend: 0 }], 'steps.1.feed is invalid: 1e+300 is outside the machine limits (0, 120]'],
      [[{ feed: 10, rotate: 1e9, bend: 0 }], 'steps.0.rotate is invalid: 1000000000 is outside the machine limits (-180, 180]'],
      [[{ feed: 10, rotate: -180, bend: 0 }], 'steps.0.rotate is invalid: -180 is outside the machine limits (-180, 180]'],
      [[{ feed: 10, rotate: 0, bend: 181 }], 'steps.0.bend is invalid: 181 is outside the machine limits [-180, 180]'],
      [[{ feed: 0, rotate: 0, bend: 0 }], 'steps.0.feed is invalid: 0 is outside the machine limits (0, 120]'],
      [[{ feed: -5, rotate: 0, bend: 0 }], 'steps.0.feed is invalid: -5 is outside the machine limits (0, 120]'],
      [[good, { feed: 10, rotate: '0', bend: 0 }], 'steps.1.rotate is invalid'],
      [[{ feed: 10, rotate: 0 }], 'steps.0.bend cannot be empty'],
    ];
    for (const [program, message] of cases) {
      const r = await post(d.id, program);
      expect([r.code, r.message]).toEqual([1002, message]);
    }
    // JSON has no Infinity, but 1e999 parses to it.
    const inf = await fetch(h.server.url + '/admin/design/bend', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en', Authorization: h.adminToken },
      body: `{"deviceId": ${d.id}, "wire": ${JSON.stringify(WIRE)}, "steps": [{"feed": 1e999, "rotate": 0, "bend": 0}]}`,
    }).then((r) => r.json());
    expect([inf.code, inf.message]).toEqual([1002, 'steps.0.feed is invalid']);
    // More steps than any program may have, on a device that says it holds more.
    const long = await post(d.id, Array.from({ length: 1001 }, () => good));
    expect([long.code, long.message]).toEqual([1001, 'A bending program holds at most 1000 steps (this one has 1001)']);
    expect(await jobsOf(d.id)).toEqual([]);
    // The user's program at the edges of the limits is queued and sent as it was.
    const edge = [{ feed: 120, rotate: 180, bend: -180 }, { feed: 0.5, rotate: -179.5, bend: 180 }, { feed: 10, rotate: 0, bend: 0 }];
    const ok = await post(d.id, edge);
    expect(ok.code, ok.message).toBe(1000);
    expect((await device.next((m) => m.type === 'job')).steps).toEqual(edge);
    expect(device.messages.filter((m) => m.type === 'job').map((m) => m.jobId)).toEqual([ok.data.jobId]);
    expect((await post(d.id, Array.from({ length: 1000 }, () => good))).code).toBe(1000);
    device.close();
  });

  it('names the field in the caller language', async () => {
    const d = await addDevice(h, { diameters: [0.8], memory: 10 });
    const res = await fetch(h.server.url + '/admin/design/bend', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': 'de', Authorization: h.adminToken },
      body: JSON.stringify({ deviceId: d.id, wire: WIRE, steps: [{ feed: 1e300, rotate: 0, bend: 0 }] }),
    }).then((r) => r.json());
    expect(res).toEqual({ code: 1002, message: 'steps.0.feed ist ungültig: 1e+300 liegt außerhalb der Maschinengrenzen (0, 120]' });
  });
});
