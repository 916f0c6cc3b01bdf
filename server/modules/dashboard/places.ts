// The map of manufacturer and device locations (spec "Home dashboard"). Manufacturers are
// departments. Only rows with both coordinates are answered. An orders admin sees every located
// department, others only their own; devices as the device list scopes them. Each marker carries
// its figure of the period: a manufacturer the orders of its designers, a device its wires bent.
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { guard, ordersInScope, type Scope } from './common.ts';
import { finishedJobs } from './production.ts';
import type { Range } from './periods.ts';

export async function places(db: Db, range: Range, scope: Scope, userId: number) {
  const located = <T extends { latitude: number | null; longitude: number | null }>(rows: T[]) =>
    rows.filter((r) => r.latitude !== null && r.longitude !== null && Number.isFinite(Number(r.latitude)) && Number.isFinite(Number(r.longitude)));

  let ownDepartment: number | null | undefined;
  if (scope.designerId !== undefined) {
    ownDepartment = (await db.selectFrom('base_sys_user').select('departmentId').where('id', '=', userId).executeTakeFirst())?.departmentId ?? null;
  }
  const departments =
    ownDepartment === null
      ? []
      : await db
          .selectFrom('base_sys_department')
          .select(['id', 'name', 'city', 'latitude', 'longitude'])
          .where('latitude', 'is not', null)
          .where('longitude', 'is not', null)
          .$if(ownDepartment !== undefined, (q) => q.where('id', '=', ownDepartment!))
          // An orders admin (not superadmin) sees the departments of their data scope.
          .$if(ownDepartment === undefined && scope.departmentIds !== undefined, (q) => q.where('id', 'in', scope.departmentIds!.length ? scope.departmentIds! : [-1]))
          .orderBy('id')
          .execute();
  const orders = await guard(async () => {
    if (!departments.length) return [];
    let q = db
      .selectFrom('order_info')
      .innerJoin('base_sys_user as u', 'u.id', 'order_info.designerId')
      .where('u.departmentId', 'in', departments.map((d) => d.id))
      .select(['u.departmentId as departmentId', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('u.departmentId');
    if (range.start) q = q.where('order_info.createTime', '>=', range.start);
    const inScope = ordersInScope(db, scope, 'order_info.designerId');
    if (inScope) q = q.where(inScope);
    return q.execute();
  }, []);

  const ids = scope.deviceIds;
  const devices = await guard(
    async () =>
      ids !== undefined && !ids.length
        ? []
        : db
            .selectFrom('device_info')
            .select(['id', 'devicename as name', 'status', 'city', 'latitude', 'longitude'])
            .where('latitude', 'is not', null)
            .where('longitude', 'is not', null)
            .$if(ids !== undefined, (q) => q.where('id', 'in', ids!))
            .orderBy('id')
            .execute(),
    [],
  );
  const jobs = await guard(
    () =>
      finishedJobs(db, range, scope)
        .where('device_job.status', '=', 'done')
        .select(['device_job.deviceId as deviceId', sql<number | string>`count(*)`.as('n')])
        .groupBy('device_job.deviceId')
        .execute(),
    [],
  );
  const ordersOf = new Map(orders.map((o) => [o.departmentId, Number(o.n)]));
  const jobsOf = new Map(jobs.map((j) => [j.deviceId, Number(j.n)]));
  return {
    period: range.period,
    manufacturers: located(departments).map((d) => ({ id: d.id, name: d.name, city: d.city, latitude: Number(d.latitude), longitude: Number(d.longitude), orders: ordersOf.get(d.id) ?? 0 })),
    devices: located(devices).map((d) => ({ id: d.id, name: d.name, city: d.city, latitude: Number(d.latitude), longitude: Number(d.longitude), online: Number(d.status) === 1, jobs: jobsOf.get(d.id) ?? 0 })),
  };
}
