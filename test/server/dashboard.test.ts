import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatTime } from '../../server/core/clock.ts';
import { createRole, setup, START, type TestServer } from './helpers.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestServer;
let admin: string;

beforeEach(async () => {
  t = await setup();
  admin = (await t.login()).token;
});
afterEach(() => t.close());

async function insertUser(username: string, createTime: string, roleId?: number, password = 'secret-pass-1'): Promise<number> {
  const { id } = await t.ctx.db
    .insertInto('base_sys_user')
    .values({ username, password: await t.ctx.passwords.hash(password), name: null, nickName: username.toUpperCase(), headImg: null, phone: null, email: null, remark: null, departmentId: null, status: 1, createTime, updateTime: createTime })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (roleId) await t.ctx.db.insertInto('base_sys_user_role').values({ userId: id, roleId }).execute();
  return id;
}

let caseNo = 0;
async function insertOrder(designerId: number, createTime: string, extra: { status?: number; enableAI?: number } = {}) {
  caseNo++;
  await t.ctx.db
    .insertInto('order_info')
    .values({ caseNo: `C${caseNo}`, patientName: `P${caseNo}`, designerId, creatorId: designerId, createTime, updateTime: createTime, status: extra.status ?? 0, enableAI: extra.enableAI ?? 0 })
    .execute();
}

async function insertDevice(createTime: string, status = 0, personnelId: number | null = null) {
  await t.ctx.db
    .insertInto('device_info')
    .values({ devicename: `D-${createTime}`, personnelId, status, remark: null, enableAI: 0, diameters: '0.8', memory: 1000, keyHash: `h-${createTime}-${Math.random()}`, keyHint: 'x', createTime, updateTime: createTime })
    .execute();
}

const ago = (ms: number) => formatTime(START - ms);

async function info<T = any>(call: string, body: unknown, token = admin) {
  return t.call<T>('POST', `/admin/dashboard/info/${call}`, { token, body });
}

describe('dashboard addInfo', () => {
  beforeEach(async () => {
    // One order (and device) in each ring: today, this week, this month, this year, older.
    for (const age of [1 * HOUR, 3 * DAY, 20 * DAY, 200 * DAY, 800 * DAY]) {
      await insertOrder(1, ago(age));
      await insertDevice(ago(age));
    }
    await insertUser('old-user', ago(800 * DAY));
  });

  it('counts what was added in each period and the totals, with a series of the right buckets', async () => {
    const expected = { day: 1, week: 2, month: 3, year: 4, all: 5 } as const;
    const buckets = { day: 24, week: 7, month: 30, year: 12, all: 28 } as const; // all: 2023-10 .. 2026-01
    for (const period of ['day', 'week', 'month', 'year', 'all'] as const) {
      const res = await info('addInfo', { period });
      expect(res.body.code, period).toBe(1000);
      const d = res.body.data;
      expect(d.added.orders, period).toBe(expected[period]);
      expect(d.added.devices, period).toBe(expected[period]);
      expect(d.totals).toEqual({ orders: 5, devices: 5, users: 2, manufacturers: expect.any(Number) });
      expect(d.series, period).toHaveLength(buckets[period]);
      expect(d.series.reduce((a: number, s: { orders: number }) => a + s.orders, 0), period).toBe(expected[period]);
    }
    // admin (seeded now) and old-user.
    expect((await info('addInfo', { period: 'day' })).body.data.added.users).toBe(1);
    expect((await info('addInfo', { period: 'all' })).body.data.added.users).toBe(2);
  });

  it('puts each row in its bucket: hours of today, days of the week, months of the year', async () => {
    const day = (await info('addInfo', { period: 'day' })).body.data;
    expect(day.unit).toBe('hour');
    expect(day.series[0].time).toBe('2026-01-01 00');
    expect(day.series.find((s: { time: string }) => s.time === '2026-01-01 07').orders).toBe(1);

    const week = (await info('addInfo', { period: 'week' })).body.data;
    expect(week.start).toBe('2025-12-26 00:00:00');
    expect(week.series.map((s: { time: string }) => s.time)).toEqual(['2025-12-26', '2025-12-27', '2025-12-28', '2025-12-29', '2025-12-30', '2025-12-31', '2026-01-01']);
    expect(week.series.map((s: { orders: number }) => s.orders)).toEqual([0, 0, 0, 1, 0, 0, 1]);

    const year = (await info('addInfo', { period: 'year' })).body.data;
    expect(year.series[0].time).toBe('2025-02');
    expect(year.series.at(-1).time).toBe('2026-01');
  });

  it('defaults to the week and rejects unknown periods', async () => {
    expect((await info('addInfo', {})).body.data.period).toBe('week');
    const bad = await info('addInfo', { period: 'decade' });
    expect(bad.body.code).toBe(1002);
    expect(bad.body.message).toContain('period');
  });
});

describe('dashboard rankings and shares', () => {
  it('ranks designers by orders, counts processed ones, statuses and the AI share', async () => {
    const designer = await insertUser('designer', ago(DAY));
    for (let i = 0; i < 3; i++) await insertOrder(designer, ago(HOUR), { status: 2, enableAI: 1 });
    await insertOrder(1, ago(HOUR), { status: 1 });
    await insertOrder(1, ago(40 * DAY), { status: 0 }); // outside the month

    const ranking = (await info('designerProcessInfo', { period: 'month' })).body.data;
    expect(ranking).toEqual([
      { designerId: designer, name: 'DESIGNER', orders: 3, processed: 3 },
      { designerId: 1, name: expect.any(String), orders: 1, processed: 0 },
    ]);
    expect((await info('designInfo', { period: 'month' })).body.data).toEqual([
      { status: 1, count: 1 },
      { status: 2, count: 3 },
    ]);
    expect((await info('aiInfo', { period: 'month' })).body.data).toMatchObject({ orders: 4, enabled: 3, ratio: 0.75 });
    expect((await info('aiInfo', { period: 'all' })).body.data.orders).toBe(5);
  });

  it('ranks departments by the orders of their designers; designers without one count under null', async () => {
    const now = ago(DAY);
    const lab = (await t.ctx.db.insertInto('base_sys_department').values({ name: 'Lab North', parentId: null, createTime: now, updateTime: now }).returning('id').executeTakeFirstOrThrow()).id;
    const a = await insertUser('a', now);
    const b = await insertUser('b', now);
    await t.ctx.db.updateTable('base_sys_user').set({ departmentId: lab }).where('id', 'in', [a, b]).execute();
    await insertOrder(a, ago(HOUR), { status: 2 });
    await insertOrder(b, ago(HOUR));
    await insertOrder(1, ago(HOUR));
    expect((await info('departmentInfo', { period: 'day' })).body.data).toEqual([
      { departmentId: lab, name: 'Lab North', orders: 2, processed: 1 },
      { departmentId: null, name: null, orders: 1, processed: 0 },
    ]);
  });

  it('counts devices online and offline', async () => {
    await insertDevice(ago(DAY), 1);
    await insertDevice(ago(DAY), 0);
    await insertDevice(ago(2 * DAY), 0);
    expect((await info('deviceWorkInfo', {})).body.data).toEqual({ online: 1, offline: 2, total: 3 });
  });
});

describe('dashboard access', () => {
  it('a designer with the dashboard permission counts only their own orders and devices, and no users', async () => {
    const role = await createRole(t.ctx, 'board', ['dashboard:info:addInfo']);
    const me = await insertUser('me', ago(DAY), role);
    const other = await insertUser('other', ago(DAY));
    await insertOrder(me, ago(HOUR));
    await insertOrder(other, ago(HOUR));
    await insertOrder(other, ago(HOUR));
    await insertDevice(ago(HOUR), 1, me);
    await insertDevice(ago(HOUR), 1, other);
    const token = (await t.login('me', 'secret-pass-1')).token;

    const mine = (await info('addInfo', { period: 'day' }, token)).body.data;
    expect(mine.added).toEqual({ orders: 1, devices: 1, users: null, manufacturers: 0 });
    expect(mine.totals.users).toBeNull();
    expect((await info('designerProcessInfo', { period: 'day' }, token)).body.data.map((r: { designerId: number }) => r.designerId)).toEqual([me]);
    expect((await info('deviceWorkInfo', {}, token)).body.data.total).toBe(1);
    // The administrator sees all of them.
    expect((await info('addInfo', { period: 'day' })).body.data.added.orders).toBe(3);
  });

  it('without the permission the calls answer 403, without a token 401', async () => {
    const role = await createRole(t.ctx, 'nothing', ['base:sys:log:page']);
    await insertUser('plain', ago(DAY), role);
    const token = (await t.login('plain', 'secret-pass-1')).token;
    expect((await info('addInfo', { period: 'day' }, token)).status).toBe(403);
    expect((await t.call('POST', '/admin/dashboard/info/addInfo', { body: {} })).status).toBe(401);
  });

  it('is described in eps', async () => {
    const eps = (await t.call('GET', '/admin/base/open/eps')).body.data;
    expect(eps.dashboard[0].prefix).toBe('/admin/dashboard/info');
    expect(eps.dashboard[0].api.map((a: { path: string }) => a.path)).toContain('/addInfo');
  });
});

// --- Bending figures, the map and the base rankings (device hub jobs, design documents). ---

const msAgo = (ms: number) => START - ms;

async function addDevice(name: string, extra: { personnelId?: number | null; status?: number; city?: string; latitude?: number; longitude?: number } = {}): Promise<number> {
  const now = ago(10 * DAY);
  const { id } = await t.ctx.db
    .insertInto('device_info')
    .values({
      devicename: name,
      personnelId: extra.personnelId ?? null,
      status: extra.status ?? 0,
      remark: null,
      enableAI: 0,
      diameters: '0.7,0.8',
      memory: 1000,
      keyHash: `h-${name}`,
      keyHint: 'x',
      city: extra.city ?? null,
      latitude: extra.latitude ?? null,
      longitude: extra.longitude ?? null,
      createTime: now,
      updateTime: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

let jobNo = 0;
/** A finished job as the hub leaves it: the row and its log (acked, bending, then done or failed at `endMs`). */
async function addJob(deviceId: number, userId: number, endMs: number, o: { status?: 'done' | 'failed'; bendMs?: number; wire?: object; startMs?: number } = {}) {
  jobNo++;
  const jobId = `job-${jobNo}`;
  const status = o.status ?? 'done';
  const bendMs = status === 'done' ? (o.bendMs ?? 60_000) : null;
  const startMs = o.startMs ?? endMs - (bendMs ?? 30_000);
  await t.ctx.db
    .insertInto('device_job')
    .values({
      jobId,
      deviceId,
      userId,
      orderId: null,
      wire: JSON.stringify(o.wire ?? { type: 'labialBow', diameter: 0.8 }),
      steps: '[]',
      stepCount: 3,
      status,
      lastSentAt: startMs,
      errorCode: status === 'failed' ? 'collision' : null,
      errorMessage: null,
      bendMs,
      createTime: formatTime(startMs - 1000),
      updateTime: formatTime(endMs),
    })
    .execute();
  for (const [s, at] of [['queued', startMs - 1000], ['sent', startMs - 900], ['acked', startMs - 500], ['bending', startMs], [status, endMs]] as const) {
    await t.ctx.db.insertInto('device_job_log').values({ jobId, status: s, detail: null, at, createTime: formatTime(at) }).execute();
  }
}

describe('dashboard processTypeInfo (arch wires)', () => {
  it('counts done and failed wires per bucket and per wire type with the average bend time, within the period', async () => {
    const dev = await addDevice('Bender 1');
    await addJob(dev, 1, msAgo(HOUR), { bendMs: 40_000, wire: { type: 'labialBow', diameter: 0.8 } });
    await addJob(dev, 1, msAgo(2 * HOUR), { bendMs: 80_000, wire: { type: 'labialBow', diameter: 0.8 } });
    await addJob(dev, 1, msAgo(3 * HOUR), { status: 'failed', wire: { type: 'arrowClasp', diameter: 0.7 } });
    await addJob(dev, 1, msAgo(3 * DAY), { bendMs: 30_000, wire: { type: 'arrowClasp', diameter: 0.7 } });
    await addJob(dev, 1, msAgo(40 * DAY), { bendMs: 10_000 }); // outside the month

    const day = (await info('processTypeInfo', { period: 'day' })).body.data;
    expect(day).toMatchObject({ unit: 'hour', done: 2, failed: 1, avgMs: 60_000 });
    expect(day.series).toHaveLength(24);
    expect(day.series.find((s: { time: string }) => s.time === '2026-01-01 07')).toEqual({ time: '2026-01-01 07', done: 1, failed: 0, avgMs: 40_000 });
    expect(day.series.find((s: { time: string }) => s.time === '2026-01-01 05')).toEqual({ time: '2026-01-01 05', done: 0, failed: 1, avgMs: null });
    expect(day.types).toEqual([
      { type: 'labialBow', diameter: 0.8, done: 2, failed: 0, avgMs: 60_000 },
      { type: 'arrowClasp', diameter: 0.7, done: 0, failed: 1, avgMs: null },
    ]);

    const week = (await info('processTypeInfo', { period: 'week' })).body.data;
    expect(week).toMatchObject({ done: 3, failed: 1, avgMs: 50_000 });
    expect(week.series.map((s: { done: number }) => s.done)).toEqual([0, 0, 0, 1, 0, 0, 2]);
    expect(week.types[1]).toEqual({ type: 'arrowClasp', diameter: 0.7, done: 1, failed: 1, avgMs: 30_000 });

    const all = (await info('processTypeInfo', { period: 'all' })).body.data;
    expect(all.done).toBe(4);
    expect(all.series[0].time).toBe('2025-11'); // the month of the first finished job
  });

  it('jobs of unfinished or cancelled states do not count', async () => {
    const dev = await addDevice('Bender 1');
    await addJob(dev, 1, msAgo(HOUR));
    await t.ctx.db.updateTable('device_job').set({ status: 'bending' }).execute();
    expect((await info('processTypeInfo', { period: 'day' })).body.data).toMatchObject({ done: 0, failed: 0, avgMs: null, types: [] });
  });
});

describe('dashboard deviceProcessTime (bending and standby)', () => {
  it('bending is the bend time of done jobs; online is each day from first to last device event plus the current connection', async () => {
    const busy = await addDevice('Busy', { status: 1 });
    const idle = await addDevice('Idle');
    // Today: one job acked 3 h ago (bending from 3 h ago for 1 min) and one done 1 h ago (2 min):
    // the device was provably online from the first ack (3 h + 0.5 s ago) to the last done (1 h ago).
    await addJob(busy, 1, msAgo(3 * HOUR) + 60_000, { bendMs: 60_000, startMs: msAgo(3 * HOUR) });
    await addJob(busy, 1, msAgo(HOUR), { bendMs: 120_000 });
    // It is connected since 30 min ago (after its last job): that half hour is standby too.
    await t.ctx.db.insertInto('device_link').values({ deviceId: busy, online: 1, statusTime: ago(30 * 60_000), lastSeenAt: msAgo(0) }).execute();

    const day = (await info('deviceProcessTime', { period: 'day' })).body.data;
    const windowMs = 2 * HOUR + 500; // first event (ack 0.5 s before bending) to last done
    expect(day.devices).toEqual([
      { deviceId: busy, name: 'Busy', online: true, jobs: 2, bendMs: 180_000, onlineMs: windowMs + 30 * 60_000, standbyMs: windowMs + 30 * 60_000 - 180_000 },
      { deviceId: idle, name: 'Idle', online: false, jobs: 0, bendMs: 0, onlineMs: 0, standbyMs: 0 },
    ]);
  });

  it('the current connection is not counted twice where it overlaps a day of jobs, and is cut at the period start', async () => {
    const dev = await addDevice('Always on', { status: 1 });
    await addJob(dev, 1, msAgo(HOUR), { bendMs: 60_000 }); // events 1 h 1 min ago .. 1 h ago
    await t.ctx.db.insertInto('device_link').values({ deviceId: dev, online: 1, statusTime: ago(3 * DAY), lastSeenAt: msAgo(0) }).execute();
    const day = (await info('deviceProcessTime', { period: 'day' })).body.data.devices[0];
    expect(day.onlineMs).toBe(8 * HOUR); // since midnight, the job window inside it
    expect(day.standbyMs).toBe(8 * HOUR - 60_000);
  });
});

describe('dashboard deviceAddressInfo (map)', () => {
  it('answers located manufacturers and devices with their orders and wires of the period; unlocated ones are left out', async () => {
    const now = ago(DAY);
    const lab = (await t.ctx.db.insertInto('base_sys_department').values({ name: 'Lab Berlin', parentId: null, city: 'Berlin', latitude: 52.52, longitude: 13.405, createTime: now, updateTime: now }).returning('id').executeTakeFirstOrThrow()).id;
    await t.ctx.db.insertInto('base_sys_department').values({ name: 'Nowhere', parentId: null, createTime: now, updateTime: now }).execute();
    const designer = await insertUser('berliner', now);
    await t.ctx.db.updateTable('base_sys_user').set({ departmentId: lab }).where('id', '=', designer).execute();
    await insertOrder(designer, ago(HOUR));
    await insertOrder(designer, ago(20 * DAY));
    const dev = await addDevice('Shanghai 1', { city: 'Shanghai', latitude: 31.23, longitude: 121.47, status: 1 });
    await addDevice('Somewhere');
    await addJob(dev, 1, msAgo(HOUR));

    const week = await t.call('GET', '/admin/dashboard/info/deviceAddressInfo?period=week', { token: admin });
    expect(week.body.data).toEqual({
      period: 'week',
      manufacturers: [{ id: lab, name: 'Lab Berlin', city: 'Berlin', latitude: 52.52, longitude: 13.405, orders: 1 }],
      devices: [{ id: dev, name: 'Shanghai 1', city: 'Shanghai', latitude: 31.23, longitude: 121.47, online: true, jobs: 1 }],
    });
    expect((await info('deviceAddressInfo', { period: 'month' })).body.data.manufacturers[0].orders).toBe(2);
  });

  it('a designer sees only their own department and their own or bound devices', async () => {
    const now = ago(DAY);
    const mine = (await t.ctx.db.insertInto('base_sys_department').values({ name: 'Mine', parentId: null, latitude: 1, longitude: 2, createTime: now, updateTime: now }).returning('id').executeTakeFirstOrThrow()).id;
    await t.ctx.db.insertInto('base_sys_department').values({ name: 'Theirs', parentId: null, latitude: 3, longitude: 4, createTime: now, updateTime: now }).execute();
    const role = await createRole(t.ctx, 'board', ['dashboard:info:deviceAddressInfo']);
    const me = await insertUser('me', now, role);
    await t.ctx.db.updateTable('base_sys_user').set({ departmentId: mine }).where('id', '=', me).execute();
    const own = await addDevice('Own', { personnelId: me, latitude: 10, longitude: 20 });
    const bound = await addDevice('Bound', { latitude: 11, longitude: 21 });
    await t.ctx.db.insertInto('device_user').values({ deviceId: bound, userId: me }).execute();
    await addDevice('Other', { latitude: 12, longitude: 22 });
    const token = (await t.login('me', 'secret-pass-1')).token;
    const data = (await info('deviceAddressInfo', { period: 'all' }, token)).body.data;
    expect(data.manufacturers.map((m: { name: string }) => m.name)).toEqual(['Mine']);
    expect(data.devices.map((d: { name: string }) => d.name)).toEqual(['Own', 'Bound']);
  });
});

describe('dashboard processBaseInfo (base design and processing rankings)', () => {
  async function design(orderDesigner: number, doc: object, updateTime: string) {
    await insertOrder(orderDesigner, updateTime);
    const order = await t.ctx.db.selectFrom('order_info').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await t.ctx.db.insertInto('design_data').values({ orderId: order.id, version: 1, schemaVersion: 1, data: JSON.stringify(doc), userId: orderDesigner, createTime: updateTime, updateTime }).execute();
  }

  it('ranks designers and departments by generated bases and by wires done in the period', async () => {
    const now = ago(DAY);
    const lab = (await t.ctx.db.insertInto('base_sys_department').values({ name: 'Lab', parentId: null, createTime: now, updateTime: now }).returning('id').executeTakeFirstOrThrow()).id;
    const ann = await insertUser('ann', now);
    const bob = await insertUser('bob', now);
    await t.ctx.db.updateTable('base_sys_user').set({ departmentId: lab }).where('id', 'in', [ann, bob]).execute();
    // The first format's one base, and the format with a base per jaw.
    const base = (generated: boolean) => ({ schemaVersion: 1, measurements: [], base: { jaw: 'upper', outline: [], generated } });
    const bases = (upper: boolean, lower: boolean) => ({ schemaVersion: 1, measurements: [], bases: { upper: { jaw: 'upper', outline: [], generated: upper }, lower: { jaw: 'lower', outline: [], generated: lower } } });
    await design(ann, base(true), ago(HOUR));
    await design(ann, bases(false, true), ago(2 * HOUR));
    await design(bob, bases(true, true), ago(HOUR)); // both jaws: one order
    await design(bob, base(false), ago(HOUR)); // outline drawn, never generated
    await design(bob, bases(false, false), ago(HOUR));
    await design(bob, { schemaVersion: 1, measurements: [] }, ago(HOUR));
    await design(bob, base(true), ago(40 * DAY)); // outside the month
    const dev = await addDevice('Bender');
    for (let i = 0; i < 3; i++) await addJob(dev, bob, msAgo(HOUR));
    await addJob(dev, 1, msAgo(HOUR));
    await addJob(dev, ann, msAgo(HOUR), { status: 'failed' });

    const month = (await info('processBaseInfo', { period: 'month' })).body.data;
    expect(month.bases.designers).toEqual([
      { id: ann, name: 'ANN', count: 2 },
      { id: bob, name: 'BOB', count: 1 },
    ]);
    expect(month.bases.departments).toEqual([{ id: lab, name: 'Lab', count: 3 }]);
    expect(month.wires.designers).toEqual([
      { id: bob, name: 'BOB', count: 3 },
      { id: 1, name: expect.any(String), count: 1 },
    ]);
    expect(month.wires.departments).toEqual([
      { id: lab, name: 'Lab', count: 3 },
      { id: null, name: null, count: 1 },
    ]);
    expect((await info('processBaseInfo', { period: 'all' })).body.data.bases.designers[1]).toEqual({ id: bob, name: 'BOB', count: 2 });
  });

  it('a designer counts only the bases of their orders and the wires on their devices', async () => {
    const role = await createRole(t.ctx, 'board', ['dashboard:info:processBaseInfo']);
    const me = await insertUser('me', ago(DAY), role);
    const other = await insertUser('other', ago(DAY));
    const base = { schemaVersion: 1, measurements: [], base: { generated: true } };
    await design(me, base, ago(HOUR));
    await design(other, base, ago(HOUR));
    const myDevice = await addDevice('Mine', { personnelId: me });
    const otherDevice = await addDevice('Theirs', { personnelId: other });
    await addJob(myDevice, me, msAgo(HOUR));
    await addJob(otherDevice, other, msAgo(HOUR));
    const token = (await t.login('me', 'secret-pass-1')).token;
    const data = (await info('processBaseInfo', { period: 'day' }, token)).body.data;
    expect(data.bases.designers).toEqual([{ id: me, name: 'ME', count: 1 }]);
    expect(data.wires.designers).toEqual([{ id: me, name: 'ME', count: 1 }]);
    // Its other bending figures follow the same device scope.
    expect((await info('processTypeInfo', { period: 'day' }, token)).body.data.done).toBe(1);
    expect((await info('deviceProcessTime', { period: 'day' }, token)).status).toBe(403); // not granted
  });
});

describe('dashboard permissions of the new charts', () => {
  it('the map, wire and ranking charts come with the Query entry; device time is an entry of its own', async () => {
    const role = await createRole(t.ctx, 'query', ['dashboard:info:processTypeInfo']);
    await insertUser('query', ago(DAY), role);
    const token = (await t.login('query', 'secret-pass-1')).token;
    for (const call of ['deviceAddressInfo', 'processTypeInfo', 'processBaseInfo']) expect((await info(call, { period: 'day' }, token)).body.code, call).toBe(1000);
    expect((await info('deviceProcessTime', { period: 'day' }, token)).status).toBe(403);
    const role2 = await createRole(t.ctx, 'time', ['dashboard:info:deviceProcessTime']);
    await insertUser('timer', ago(DAY), role2);
    const timer = (await t.login('timer', 'secret-pass-1')).token;
    expect((await info('deviceProcessTime', { period: 'day' }, timer)).body.code).toBe(1000);
    expect((await info('processTypeInfo', { period: 'day' }, timer)).status).toBe(403);
  });

  it('a database seeded before the device time permission gets it once, next to the unchanged Query entry', async () => {
    const db = t.ctx.db;
    const page = await db.selectFrom('base_sys_menu').select('id').where('router', '=', '/dashboard').executeTakeFirstOrThrow();
    const entries = () => db.selectFrom('base_sys_menu').select(['name', 'perms']).where('parentId', '=', page.id).orderBy('id').execute();
    // As an older version left it: no device time entry, no record of it.
    await db.deleteFrom('base_sys_menu').where('parentId', '=', page.id).where('perms', '=', 'dashboard:info:deviceProcessTime').execute();
    await db.deleteFrom('base_sys_seed').where('key', 'like', '%dashboard:info:deviceProcessTime').execute();
    const { syncSeedMenus } = await import('../../server/db/seed-menu-sync.ts');
    const { seedMenus } = await import('../../server/db/seed-menus.ts');
    expect(await db.transaction().execute((trx) => syncSeedMenus(trx, seedMenus, ago(0)))).toBe(1);
    expect(await db.transaction().execute((trx) => syncSeedMenus(trx, seedMenus, ago(0)))).toBe(0);
    const list = await entries();
    expect(list.map((e) => e.name)).toEqual(['Query', 'Device time']);
    expect(list[0]!.perms).toContain('dashboard:info:deviceAddressInfo');
    expect(list[0]!.perms).toContain('dashboard:info:processTypeInfo');
    expect(list[0]!.perms).toContain('dashboard:info:processBaseInfo');
  });

  it('the new calls are described in eps', async () => {
    const eps = (await t.call('GET', '/admin/base/open/eps')).body.data;
    const paths = eps.dashboard[0].api.map((a: { path: string }) => a.path);
    expect(paths).toEqual(expect.arrayContaining(['/deviceAddressInfo', '/deviceProcessTime', '/processTypeInfo', '/processBaseInfo']));
  });
});

describe('locations of departments and devices', () => {
  it('are optional, stored through the department and device calls, and refused outside -90..90 / -180..180', async () => {
    const dep = await t.call('POST', '/admin/base/sys/department/add', { token: admin, body: { name: 'Lab Rio', city: 'Rio de Janeiro', latitude: -22.9, longitude: -43.2 } });
    expect(dep.body.code).toBe(1000);
    const depId = dep.body.data.id;
    expect((await t.call('GET', `/admin/base/sys/department/info?id=${depId}`, { token: admin })).body.data).toMatchObject({ city: 'Rio de Janeiro', latitude: -22.9, longitude: -43.2 });
    const bad = await t.call('POST', '/admin/base/sys/department/add', { token: admin, body: { name: 'Off the globe', latitude: 91 } });
    expect(bad.body.code).toBe(1002);
    expect(bad.body.message).toContain('latitude');
    // An empty form field clears the value.
    expect((await t.call('POST', '/admin/base/sys/department/update', { token: admin, body: { id: depId, city: '', latitude: '', longitude: '' } })).body.code).toBe(1000);
    expect((await t.call('GET', `/admin/base/sys/department/info?id=${depId}`, { token: admin })).body.data).toMatchObject({ city: null, latitude: null, longitude: null });

    const dev = await t.call('POST', '/admin/device/info/add', { token: admin, body: { devicename: 'Located', diameters: '0.8', memory: 100, city: 'Oslo', latitude: 59.91, longitude: 10.75 } });
    expect(dev.body.code).toBe(1000);
    const devId = dev.body.data.id;
    expect((await t.call('GET', `/admin/device/info/info?id=${devId}`, { token: admin })).body.data).toMatchObject({ city: 'Oslo', latitude: 59.91, longitude: 10.75 });
    const far = await t.call('POST', '/admin/device/info/update', { token: admin, body: { id: devId, longitude: -180.5 } });
    expect(far.body.code).toBe(1002);
    expect(far.body.message).toContain('longitude');
    expect((await t.call('POST', '/admin/device/info/update', { token: admin, body: { id: devId, longitude: 180 } })).body.code).toBe(1000);
  });
});
