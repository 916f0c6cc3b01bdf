// The dashboard's design and department calls over a real database: two labs (departments), their
// designers, orders with design documents and bent wires; each figure in zh, en and de where it
// names something, and a lab manager who counts only their own lab.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatTime } from '../../server/core/clock.ts';
import { createRole, setup, START, type TestServer } from './helpers.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => formatTime(START - ms);

let t: TestServer;
let admin: string;
let north: number;
let south: number;
let ann: number; // designer of North
let bob: number; // designer of South

async function department(name: string): Promise<number> {
  const now = ago(2 * DAY);
  return (await t.ctx.db.insertInto('base_sys_department').values({ name, parentId: null, createTime: now, updateTime: now }).returning('id').executeTakeFirstOrThrow()).id;
}

async function user(username: string, departmentId: number | null, roleId?: number): Promise<number> {
  const now = ago(2 * DAY);
  const { id } = await t.ctx.db
    .insertInto('base_sys_user')
    .values({ username, password: await t.ctx.passwords.hash('secret-pass-1'), name: null, nickName: username.toUpperCase(), headImg: null, phone: null, email: null, remark: null, departmentId, status: 1, createTime: now, updateTime: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (roleId) await t.ctx.db.insertInto('base_sys_user_role').values({ userId: id, roleId }).execute();
  return id;
}

let caseNo = 0;
/** An order of the designer created `age` ago, with a design document (wire types, base) saved then unless `doc` is null. */
async function order(designerId: number, age: number, o: { status?: number; wires?: string[]; base?: boolean; doc?: null; designMs?: number } = {}): Promise<number> {
  caseNo++;
  const time = ago(age);
  const { id } = await t.ctx.db
    .insertInto('order_info')
    .values({
      caseNo: `C${caseNo}`,
      patientName: `P${caseNo}`,
      designerId,
      creatorId: designerId,
      status: o.status ?? 0,
      designStartTime: o.designMs ? time : null,
      designEndTime: o.designMs ? formatTime(START - age + o.designMs) : null,
      createTime: time,
      updateTime: time,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (o.doc !== null) {
    const data = JSON.stringify({ wires: (o.wires ?? []).map((type) => ({ type })), ...(o.base ? { base: { generated: true } } : {}) });
    await t.ctx.db.insertInto('design_data').values({ orderId: id, version: 1, schemaVersion: 1, data, userId: designerId, createTime: time, updateTime: time }).execute();
  }
  return id;
}

let deviceNo = 0;
async function device(): Promise<number> {
  deviceNo++;
  const now = ago(10 * DAY);
  return (
    await t.ctx.db
      .insertInto('device_info')
      .values({ devicename: `Bender ${deviceNo}`, personnelId: null, status: 0, remark: null, enableAI: 0, diameters: '0.8', memory: 1000, keyHash: `h-${deviceNo}`, keyHint: 'x', createTime: now, updateTime: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

let jobNo = 0;
async function job(deviceId: number, userId: number, age: number, type: string, o: { status?: 'done' | 'failed'; bendMs?: number } = {}) {
  jobNo++;
  const status = o.status ?? 'done';
  await t.ctx.db
    .insertInto('device_job')
    .values({
      jobId: `job-${jobNo}`,
      deviceId,
      userId,
      orderId: null,
      wire: JSON.stringify({ type, diameter: 0.8 }),
      steps: '[]',
      stepCount: 3,
      status,
      lastSentAt: START - age,
      errorCode: null,
      errorMessage: null,
      bendMs: status === 'done' ? (o.bendMs ?? 60_000) : null,
      createTime: ago(age + 60_000),
      updateTime: ago(age),
    })
    .execute();
}

async function info<T = any>(call: string, body: unknown, token = admin, lang?: string) {
  const res = await t.call<T>('POST', `/admin/dashboard/info/${call}`, { token, body, lang });
  expect(res.body.code, `${call}: ${res.body.message}`).toBe(1000);
  return res.body.data as T;
}

beforeEach(async () => {
  t = await setup();
  admin = (await t.login()).token;
  north = await department('Lab North');
  south = await department('Lab South');
  ann = await user('ann', north);
  bob = await user('bob', south);
  // North: three orders today (two designed with a base), one 40 days ago; South: two today.
  await order(ann, HOUR, { wires: ['labialBow', 'arrowClasp', 'arrowClasp'], base: true, status: 1, designMs: 30 * 60_000 });
  await order(ann, 2 * HOUR, { wires: ['labialBow'], base: true, status: 2, designMs: 90 * 60_000 });
  await order(ann, 3 * HOUR, { doc: null });
  await order(ann, 40 * DAY, { wires: ['singleArmClasp'] });
  await order(bob, HOUR, { wires: ['wraparoundBow', 'wraparoundBow'], status: 1 });
  await order(bob, 2 * HOUR, { wires: ['labialBow'] });
  // Wires bent today: North sent 2 done (1 and 2 min) and 1 failed, South 1 done (5 min).
  const dev = await device();
  await job(dev, ann, HOUR, 'labialBow', { bendMs: 60_000 });
  await job(dev, ann, 2 * HOUR, 'arrowClasp', { bendMs: 120_000 });
  await job(dev, ann, 3 * HOUR, 'arrowClasp', { status: 'failed' });
  await job(dev, bob, HOUR, 'wraparoundBow', { bendMs: 300_000 });
});
afterEach(() => t.close());

describe('dashboard design calls', () => {
  it('designBaseInfo counts designs saved and bases generated per bucket', async () => {
    const day = await info('designBaseInfo', { period: 'day' });
    expect(day).toMatchObject({ unit: 'hour', designs: 4, bases: 2 });
    expect(day.series).toHaveLength(24);
    expect(day.series.find((s: { time: string }) => s.time === '2026-01-01 07')).toEqual({ time: '2026-01-01 07', designs: 2, bases: 1 });
    expect((await info('designBaseInfo', { period: 'all' })).designs).toBe(5);
  });

  it('counts every document when there are more than one read holds', async () => {
    const time = ago(HOUR);
    const orders = await t.ctx.db
      .insertInto('order_info')
      .values(Array.from({ length: 450 }, (_, i) => ({ caseNo: `M${i}`, patientName: `M${i}`, designerId: bob, creatorId: bob, createTime: time, updateTime: time })))
      .returning('id')
      .execute();
    const data = JSON.stringify({ wires: [{ type: 'singleArmClasp' }] });
    await t.ctx.db
      .insertInto('design_data')
      .values(orders.map((o) => ({ orderId: o.id, version: 1, schemaVersion: 1, data, userId: bob, createTime: time, updateTime: time })))
      .execute();
    expect((await info('designBaseInfo', { period: 'day' })).designs).toBe(4 + 450);
    expect((await info('designTypeInfo', { period: 'day' }, admin, 'en'))[1]).toMatchObject({ type: 'singleArmClasp', wires: 450, orders: 450 });
  });

  it('designTypeInfo names every wire type in the caller language, with wires and orders holding them', async () => {
    const en = await info('designTypeInfo', { period: 'day' }, admin, 'en');
    expect(en).toEqual([
      { type: 'labialBow', label: 'Labial bow', wires: 3, orders: 3 },
      { type: 'singleArmClasp', label: 'Single-arm clasp', wires: 0, orders: 0 },
      { type: 'arrowClasp', label: 'Arrow clasp', wires: 2, orders: 1 },
      { type: 'wraparoundBow', label: 'Wraparound bow', wires: 2, orders: 1 },
    ]);
    expect((await info('designTypeInfo', { period: 'day' }, admin, 'zh')).map((r: { label: string }) => r.label)).toEqual(['唇弓', '单臂卡环', '箭头卡', '环绕弓']);
    expect((await info('designTypeInfo', { period: 'day' }, admin, 'de')).map((r: { label: string }) => r.label)).toEqual(['Labialbogen', 'Einarmige Klammer', 'Pfeilklammer', 'Umlaufbogen']);
    expect((await info('designTypeInfo', { period: 'all' }, admin, 'en'))[1].wires).toBe(1);
  });

  it('designTypeNumberInfo answers the counts per bucket with the named types', async () => {
    const week = await info('designTypeNumberInfo', { period: 'week' }, admin, 'de');
    expect(week.types[0]).toEqual({ type: 'labialBow', label: 'Labialbogen' });
    expect(week.series).toHaveLength(7);
    expect(week.series.at(-1)).toEqual({ time: '2026-01-01', counts: { labialBow: 3, singleArmClasp: 0, arrowClasp: 2, wraparoundBow: 2 } });
    expect(week.series[0].counts.labialBow).toBe(0);
  });

  it('designDepartmentTypeNumberInfo splits the designed wires by the designer department', async () => {
    const res = await info('designDepartmentTypeNumberInfo', { period: 'day' }, admin, 'zh');
    expect(res.types.map((x: { label: string }) => x.label)).toContain('箭头卡');
    expect(res.departments).toEqual([
      { departmentId: north, name: 'Lab North', counts: { labialBow: 2, singleArmClasp: 0, arrowClasp: 2, wraparoundBow: 0 }, total: 4 },
      { departmentId: south, name: 'Lab South', counts: { labialBow: 1, singleArmClasp: 0, arrowClasp: 0, wraparoundBow: 2 }, total: 3 },
    ]);
  });

  it('designeDetailInfo details each designer: orders, submitted, designs, bases, wires and mean design time', async () => {
    const res = await info('designeDetailInfo', { period: 'day' }, admin, 'en');
    expect(res.types).toHaveLength(4);
    expect(res.designers).toEqual([
      {
        designerId: ann, name: 'ANN', departmentId: north, department: 'Lab North', orders: 3, submitted: 2, avgDesignMs: 60 * 60_000,
        designs: 2, bases: 2, wires: { labialBow: 2, singleArmClasp: 0, arrowClasp: 2, wraparoundBow: 0 },
      },
      {
        designerId: bob, name: 'BOB', departmentId: south, department: 'Lab South', orders: 2, submitted: 1, avgDesignMs: null,
        designs: 2, bases: 0, wires: { labialBow: 1, singleArmClasp: 0, arrowClasp: 0, wraparoundBow: 2 },
      },
    ]);
  });
});

describe('dashboard department calls', () => {
  it('departmentDesignOrderInfo counts each department orders by status and those designed', async () => {
    expect(await info('departmentDesignOrderInfo', { period: 'day' })).toEqual([
      { departmentId: north, name: 'Lab North', orders: 3, designing: 1, pending: 1, processed: 1, designed: 2 },
      { departmentId: south, name: 'Lab South', orders: 2, designing: 1, pending: 1, processed: 0, designed: 2 },
    ]);
  });

  it('departmentProcessInfo and departmentProcessTime count wires and bend time by the sender department', async () => {
    expect(await info('departmentProcessInfo', { period: 'day' })).toEqual([
      { departmentId: north, name: 'Lab North', done: 2, failed: 1 },
      { departmentId: south, name: 'Lab South', done: 1, failed: 0 },
    ]);
    expect(await info('departmentProcessTime', { period: 'day' })).toEqual([
      { departmentId: south, name: 'Lab South', jobs: 1, bendMs: 300_000, avgMs: 300_000 },
      { departmentId: north, name: 'Lab North', jobs: 2, bendMs: 180_000, avgMs: 90_000 },
    ]);
  });

  it('allDepartmentProcessType counts bent wires per department and named type', async () => {
    const res = await info('allDepartmentProcessType', { period: 'day' }, admin, 'de');
    expect(res.types.map((x: { label: string }) => x.label)).toEqual(['Labialbogen', 'Einarmige Klammer', 'Pfeilklammer', 'Umlaufbogen']);
    expect(res.departments).toEqual([
      { departmentId: north, name: 'Lab North', counts: { labialBow: 1, singleArmClasp: 0, arrowClasp: 1, wraparoundBow: 0 }, total: 2 },
      { departmentId: south, name: 'Lab South', counts: { labialBow: 0, singleArmClasp: 0, arrowClasp: 0, wraparoundBow: 1 }, total: 1 },
    ]);
  });

  it('allDepartmentProcessTime answers bend time per bucket aligned with the departments', async () => {
    const res = await info('allDepartmentProcessTime', { period: 'day' });
    expect(res.departments).toEqual([
      { departmentId: south, name: 'Lab South', bendMs: 300_000 },
      { departmentId: north, name: 'Lab North', bendMs: 180_000 },
    ]);
    expect(res.series).toHaveLength(24);
    expect(res.series.find((s: { time: string }) => s.time === '2026-01-01 07').ms).toEqual([300_000, 60_000]);
    expect(res.series.find((s: { time: string }) => s.time === '2026-01-01 06').ms).toEqual([0, 120_000]);
  });

  it('addInfo counts new manufacturers (departments), not users', async () => {
    await user('extra-user', null);
    const res = await info('addInfo', { period: 'week' });
    expect(res.added.manufacturers).toBe(2);
    expect(res.totals.manufacturers).toBe(2);
    expect(res.series.reduce((a: number, s: { manufacturers: number }) => a + s.manufacturers, 0)).toBe(2);
    expect(res.added.users).toBeGreaterThan(res.added.manufacturers);
  });
});

describe('dashboard data scope', () => {
  it('a lab manager who sees all orders and devices still counts only their own department', async () => {
    const role = await createRole(t.ctx, 'north-manager', ['dashboard:info:addInfo', 'order:info:all', 'device:info:all']);
    await user('manager', north, role);
    const token = (await t.login('manager', 'secret-pass-1')).token;
    expect((await info('designBaseInfo', { period: 'day' }, token)).designs).toBe(2);
    expect((await info('designDepartmentTypeNumberInfo', { period: 'day' }, token)).departments.map((d: { departmentId: number }) => d.departmentId)).toEqual([north]);
    expect((await info('designeDetailInfo', { period: 'day' }, token)).designers.map((d: { designerId: number }) => d.designerId)).toEqual([ann]);
    expect((await info('departmentDesignOrderInfo', { period: 'day' }, token)).map((d: { departmentId: number }) => d.departmentId)).toEqual([north]);
    expect(await info('departmentProcessInfo', { period: 'day' }, token)).toEqual([{ departmentId: north, name: 'Lab North', done: 2, failed: 1 }]);
    expect((await info('allDepartmentProcessTime', { period: 'day' }, token)).departments).toEqual([{ departmentId: north, name: 'Lab North', bendMs: 180_000 }]);
    expect((await info('allDepartmentProcessType', { period: 'day' }, token)).departments).toHaveLength(1);
    expect((await info('departmentProcessTime', { period: 'day' }, token)).map((d: { departmentId: number }) => d.departmentId)).toEqual([north]);
    expect((await info('addInfo', { period: 'week' }, token)).added.manufacturers).toBe(1);
  });

  it("the board's order, user and AI counts and the map keep to the manager's department too", async () => {
    const role = await createRole(t.ctx, 'north-manager', ['dashboard:info:addInfo', 'order:info:all', 'base:sys:user:page']);
    await user('manager', north, role);
    const token = (await t.login('manager', 'secret-pass-1')).token;
    const add = await info('addInfo', { period: 'week' }, token);
    // North: ann's three orders of the week; users: ann and the manager.
    expect(add.added).toMatchObject({ orders: 3, users: 2, manufacturers: 1 });
    expect(add.totals).toMatchObject({ orders: 4, users: 2 });
    const statuses = await info<{ status: number; count: number }[]>('designInfo', { period: 'day' }, token);
    expect(statuses.reduce((n, s) => n + s.count, 0)).toBe(3);
    expect((await info('designerProcessInfo', { period: 'day' }, token)).map((d: { designerId: number }) => d.designerId)).toEqual([ann]);
    expect((await info('aiInfo', { period: 'day' }, token)).orders).toBe(3);
    // The superadmin still counts both labs.
    expect((await info('addInfo', { period: 'week' })).added.orders).toBe(5);
    expect((await info('aiInfo', { period: 'day' })).orders).toBe(5);
  });

  it('a designer without a department still counts their own designs', async () => {
    const role = await createRole(t.ctx, 'board-only', ['dashboard:info:addInfo']);
    const eve = await user('eve', null, role);
    await order(eve, HOUR, { wires: ['labialBow', 'labialBow'], base: true });
    const token = (await t.login('eve', 'secret-pass-1')).token;
    expect(await info('designBaseInfo', { period: 'day' }, token)).toMatchObject({ designs: 1, bases: 1 });
    expect((await info('designTypeInfo', { period: 'day' }, token, 'en'))[0]).toMatchObject({ type: 'labialBow', wires: 2 });
    expect(await info('departmentDesignOrderInfo', { period: 'day' }, token)).toEqual([{ departmentId: null, name: null, orders: 1, designing: 1, pending: 0, processed: 0, designed: 1 }]);
    // No devices of hers: no wires.
    expect(await info('departmentProcessInfo', { period: 'day' }, token)).toEqual([]);
  });

  it('a designer counts only their own orders; without the permission the calls answer 403', async () => {
    const role = await createRole(t.ctx, 'board', ['dashboard:info:addInfo']);
    await user('carl', north, role);
    const carl = (await t.login('carl', 'secret-pass-1')).token;
    await order(await t.ctx.db.selectFrom('base_sys_user').select('id').where('username', '=', 'carl').executeTakeFirstOrThrow().then((u) => u.id), HOUR, { wires: ['labialBow'] });
    expect((await info('designBaseInfo', { period: 'day' }, carl)).designs).toBe(1);
    expect((await info('designeDetailInfo', { period: 'day' }, carl)).designers.map((d: { name: string }) => d.name)).toEqual(['CARL']);

    const plain = await createRole(t.ctx, 'plain', ['base:sys:log:page']);
    await user('dora', north, plain);
    const dora = (await t.login('dora', 'secret-pass-1')).token;
    for (const call of ['designBaseInfo', 'designTypeInfo', 'designTypeNumberInfo', 'designDepartmentTypeNumberInfo', 'departmentDesignOrderInfo', 'departmentProcessInfo', 'departmentProcessTime', 'allDepartmentProcessType', 'allDepartmentProcessTime', 'designeDetailInfo']) {
      expect((await t.call('POST', `/admin/dashboard/info/${call}`, { token: dora, body: {} })).status, call).toBe(403);
      expect((await t.call('POST', `/admin/dashboard/info/${call}`, { body: {} })).status, call).toBe(401);
      expect((await t.call('POST', `/admin/dashboard/info/${call}`, { token: admin, body: { period: 'decade' } })).body.code, call).toBe(1002);
    }
  });
});
