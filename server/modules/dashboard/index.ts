// /admin/dashboard/info/*: the figures of the home dashboard over the existing tables. Each call
// takes { period: day|week|month|year|all } (default week). Non-admins count only their own
// orders (as the order list shows them) and the devices they own or are bound to; user counts
// need the user list permission. Manufacturers are departments; the design and department
// figures also keep to the departments of the caller's data scope. A table that does not exist (a module not installed) counts 0.
import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { ok } from '../../core/envelope.ts';
import type { Db } from '../../db/index.ts';
import { authOf } from '../../core/access.ts';
import { guard, ordersInScope, readPeriod, scopeOf, type Scope } from './common.ts';
import { bucketKeys, KEY_LENGTH, type Range } from './periods.ts';
import { places } from './places.ts';
import { deviceTimes, wireCounts } from './production.ts';
import { rankings } from './rankings.ts';
import { designBase, designDepartmentTypes, designerDetails, designTypes, designTypeSeries } from './designs.ts';
import { departmentOrders, departmentProcess, departmentTimes, departmentTimeSeries, departmentTypes } from './departments.ts';
import { aiStatistics } from '../ai/statistics.ts';

export const DASHBOARD_PREFIX = '/admin/dashboard/info';

const DASHBOARD = epsGroup('dashboard', DASHBOARD_PREFIX, 'DashboardInfo');

type Counted = 'order_info' | 'base_sys_user' | 'device_info' | 'base_sys_department';

/** Rows of a table created in the range, per bucket, within the caller's scope. */
async function countSeries(db: Db, table: Counted, range: Range, scope: Scope): Promise<Map<string, number>> {
  const bucket = sql<string>`substr(${sql.ref('createTime')}, 1, ${sql.lit(KEY_LENGTH[range.unit])})`;
  const rows = await guard(async () => {
    let q = db.selectFrom(table).select([bucket.as('k'), db.fn.countAll<number | string>().as('n')]).groupBy(bucket);
    if (range.start) q = q.where('createTime', '>=', range.start);
    const orders = table === 'order_info' ? ordersInScope(db, scope, 'designerId') : null;
    if (orders) q = q.where(orders);
    if (table === 'base_sys_user' && scope.departmentIds !== undefined) {
      if (!scope.departmentIds.length) return [];
      q = q.where(sql.ref('departmentId'), 'in', scope.departmentIds);
    }
    if (table === 'device_info' && scope.deviceIds !== undefined) {
      if (!scope.deviceIds.length) return [];
      q = q.where(sql.ref('id'), 'in', scope.deviceIds);
    }
    if (table === 'base_sys_department' && scope.departmentIds !== undefined) {
      if (!scope.departmentIds.length) return [];
      q = q.where(sql.ref('id'), 'in', scope.departmentIds);
    }
    return q.execute();
  }, []);
  return new Map(rows.map((r) => [r.k, Number(r.n)]));
}

async function earliest(db: Db): Promise<string | null> {
  let first: string | null = null;
  for (const table of ['order_info', 'base_sys_user', 'device_info', 'base_sys_department'] as const) {
    const row = await guard(() => db.selectFrom(table).select((eb) => eb.fn.min<string>('createTime').as('t')).executeTakeFirst(), undefined);
    if (row?.t && (!first || row.t < first)) first = row.t;
  }
  return first;
}

function ordersQuery(db: Db, range: Range, scope: Scope) {
  let q = db.selectFrom('order_info');
  if (range.start) q = q.where('order_info.createTime', '>=', range.start);
  const inScope = ordersInScope(db, scope, 'order_info.designerId');
  return inScope ? q.where(inScope) : q;
}

export function dashboardModule(ctx: AppContext) {
  const db = ctx.db;
  const doc = entryDoc(DASHBOARD);

  const routes = new Hono<AppEnv>()
    .post('/addInfo', doc('New and total orders, manufacturers (departments), users and devices of a period, with a time series'), async (c) => {
      const now = ctx.clock.now();
      const range = await readPeriod(c, now);
      const scope = await scopeOf(db, authOf(c).userId);
      const all = { ...range, start: null };
      const none = Promise.resolve(new Map<string, number>());
      const [orders, users, devices, makers, first] = await Promise.all([
        countSeries(db, 'order_info', range, scope),
        scope.users ? countSeries(db, 'base_sys_user', range, scope) : none,
        countSeries(db, 'device_info', range, scope),
        countSeries(db, 'base_sys_department', range, scope),
        range.start ? Promise.resolve(null) : earliest(db),
      ]);
      const [totalOrders, totalUsers, totalDevices, totalMakers] = await Promise.all([
        range.start ? countSeries(db, 'order_info', all, scope) : Promise.resolve(orders),
        !scope.users ? none : range.start ? countSeries(db, 'base_sys_user', all, scope) : Promise.resolve(users),
        range.start ? countSeries(db, 'device_info', all, scope) : Promise.resolve(devices),
        range.start ? countSeries(db, 'base_sys_department', all, scope) : Promise.resolve(makers),
      ]);
      const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
      const keys = bucketKeys(range, now, first);
      return ok(c, {
        period: range.period,
        start: range.start,
        unit: range.unit,
        added: { orders: sum(orders), manufacturers: sum(makers), users: scope.users ? sum(users) : null, devices: sum(devices) },
        totals: { orders: sum(totalOrders), manufacturers: sum(totalMakers), users: scope.users ? sum(totalUsers) : null, devices: sum(totalDevices) },
        series: keys.map((time) => ({
          time,
          orders: orders.get(time) ?? 0,
          manufacturers: makers.get(time) ?? 0,
          users: users.get(time) ?? 0,
          devices: devices.get(time) ?? 0,
        })),
      });
    })
    .post('/designInfo', doc('Orders of a period by status'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      const scope = await scopeOf(db, authOf(c).userId);
      const rows = await guard(
        () => ordersQuery(db, range, scope).select(['order_info.status as status', db.fn.countAll<number | string>().as('count')]).groupBy('order_info.status').orderBy('order_info.status').execute(),
        [],
      );
      return ok(c, rows.map((r) => ({ status: Number(r.status), count: Number(r.count) })));
    })
    .post('/aiInfo', doc('Automatic design of a period: share of orders with AI on, counts by aiStatus, success rate, mean time, series'), async (c) => {
      const now = ctx.clock.now();
      const range = await readPeriod(c, now);
      // The same figures as GET /admin/design/aiStatistics (orders, enabled, ratio kept as before).
      return ok(c, await aiStatistics(db, range, await scopeOf(db, authOf(c).userId), now));
    })
    .post('/designerProcessInfo', doc('Orders of a period per designer (top 10)'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      const scope = await scopeOf(db, authOf(c).userId);
      const rows = await guard(
        () =>
          ordersQuery(db, range, scope)
            .leftJoin('base_sys_user as u', 'u.id', 'order_info.designerId')
            .select([
              'order_info.designerId as designerId',
              'u.username as username',
              'u.name as name',
              'u.nickName as nickName',
              db.fn.countAll<number | string>().as('orders'),
              sql<number | string | null>`sum(case when ${sql.ref('order_info.status')} = 2 then 1 else 0 end)`.as('processed'),
            ])
            .groupBy(['order_info.designerId', 'u.username', 'u.name', 'u.nickName'])
            .orderBy(sql`count(*)`, 'desc')
            .orderBy('order_info.designerId')
            .limit(10)
            .execute(),
        [],
      );
      return ok(
        c,
        rows.map((r) => ({
          designerId: r.designerId,
          name: r.nickName || r.name || r.username || `#${r.designerId}`,
          orders: Number(r.orders),
          processed: Number(r.processed ?? 0),
        })),
      );
    })
    .post('/departmentInfo', doc('Orders of a period per department of their designer (top 10)'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      const scope = await scopeOf(db, authOf(c).userId);
      const rows = await guard(
        () =>
          ordersQuery(db, range, scope)
            .innerJoin('base_sys_user as u', 'u.id', 'order_info.designerId')
            .leftJoin('base_sys_department as d', 'd.id', 'u.departmentId')
            .select([
              'd.id as departmentId',
              'd.name as name',
              db.fn.countAll<number | string>().as('orders'),
              sql<number | string | null>`sum(case when ${sql.ref('order_info.status')} = 2 then 1 else 0 end)`.as('processed'),
            ])
            .groupBy(['d.id', 'd.name'])
            .orderBy(sql`count(*)`, 'desc')
            .orderBy('d.id')
            .limit(10)
            .execute(),
        [],
      );
      // Designers without a department count under null (the screen names it).
      return ok(c, rows.map((r) => ({ departmentId: r.departmentId ?? null, name: r.name ?? null, orders: Number(r.orders), processed: Number(r.processed ?? 0) })));
    })
    .post('/deviceWorkInfo', doc('Devices online and offline'), async (c) => {
      const scope = await scopeOf(db, authOf(c).userId);
      const rows = await guard(async () => {
        if (scope.deviceIds !== undefined && !scope.deviceIds.length) return [];
        let q = db.selectFrom('device_info').select(['status', db.fn.countAll<number | string>().as('n')]).groupBy('status');
        if (scope.deviceIds !== undefined) q = q.where('id', 'in', scope.deviceIds);
        return q.execute();
      }, []);
      const online = rows.filter((r) => Number(r.status) === 1).reduce((a, r) => a + Number(r.n), 0);
      const total = rows.reduce((a, r) => a + Number(r.n), 0);
      return ok(c, { online, offline: total - online, total });
    })
    .on(['GET', 'POST'], '/deviceAddressInfo', doc('Located manufacturers (departments) and devices for the map, with orders and wires of a period (also POST)'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      const userId = authOf(c).userId;
      return ok(c, await places(db, range, await scopeOf(db, userId), userId));
    })
    .post('/deviceProcessTime', doc('Per device: bending, online and standby time of a period'), async (c) => {
      const now = ctx.clock.now();
      const range = await readPeriod(c, now);
      return ok(c, await deviceTimes(db, range, await scopeOf(db, authOf(c).userId), now));
    })
    .post('/processTypeInfo', doc('Wires bent (done, failed) per bucket and per wire type, with average bend time'), async (c) => {
      const now = ctx.clock.now();
      const range = await readPeriod(c, now);
      return ok(c, await wireCounts(db, range, await scopeOf(db, authOf(c).userId), now));
    })
    .post('/processBaseInfo', doc('Designers and departments ranked by bases designed and wires processed (top 10)'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      return ok(c, await rankings(db, range, await scopeOf(db, authOf(c).userId)));
    })
    .post('/designBaseInfo', doc('Designs saved and bases generated in a period, with a time series'), async (c) => {
      const now = ctx.clock.now();
      const range = await readPeriod(c, now);
      return ok(c, await designBase(db, range, await scopeOf(db, authOf(c).userId), now));
    })
    .post('/designTypeInfo', doc('Wires designed in a period per wire type (named in the caller\'s language)'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      return ok(c, await designTypes(db, range, await scopeOf(db, authOf(c).userId), c.get('lang')));
    })
    .post('/designTypeNumberInfo', doc('Wires designed per time bucket and wire type'), async (c) => {
      const now = ctx.clock.now();
      const range = await readPeriod(c, now);
      return ok(c, await designTypeSeries(db, range, await scopeOf(db, authOf(c).userId), c.get('lang'), now));
    })
    .post('/designDepartmentTypeNumberInfo', doc('Wires designed per department and wire type (top 10)'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      return ok(c, await designDepartmentTypes(db, range, await scopeOf(db, authOf(c).userId), c.get('lang')));
    })
    .post('/designeDetailInfo', doc('Per designer: orders, submitted, designs, bases, wires per type and mean design time (top 20)'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      return ok(c, await designerDetails(db, range, await scopeOf(db, authOf(c).userId), c.get('lang')));
    })
    .post('/departmentDesignOrderInfo', doc('Per department of the designer: orders of a period by status and designs saved (top 10)'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      return ok(c, await departmentOrders(db, range, await scopeOf(db, authOf(c).userId)));
    })
    .post('/departmentProcessInfo', doc('Per department of the sender: wires bent, done and failed (top 10)'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      return ok(c, await departmentProcess(db, range, await scopeOf(db, authOf(c).userId)));
    })
    .post('/departmentProcessTime', doc('Per department of the sender: bending time, sum and mean (top 10)'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      return ok(c, await departmentTimes(db, range, await scopeOf(db, authOf(c).userId)));
    })
    .post('/allDepartmentProcessType', doc('Wires bent per department and wire type'), async (c) => {
      const range = await readPeriod(c, ctx.clock.now());
      return ok(c, await departmentTypes(db, range, await scopeOf(db, authOf(c).userId), c.get('lang')));
    })
    .post('/allDepartmentProcessTime', doc('Bending time per time bucket of the 5 busiest departments'), async (c) => {
      const now = ctx.clock.now();
      const range = await readPeriod(c, now);
      return ok(c, await departmentTimeSeries(db, range, await scopeOf(db, authOf(c).userId), now));
    });

  return new Hono<AppEnv>().route(DASHBOARD_PREFIX, routes);
}
