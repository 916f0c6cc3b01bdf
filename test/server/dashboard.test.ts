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
      expect(d.totals).toEqual({ orders: 5, devices: 5, users: 2 });
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
    expect((await info('aiInfo', { period: 'month' })).body.data).toEqual({ orders: 4, enabled: 3, ratio: 0.75 });
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
    expect(mine.added).toEqual({ orders: 1, devices: 1, users: null });
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
