// The department figures of the dashboard. An order counts for the department of its designer,
// a bent wire for the department of whoever sent it to the machine. Orders as the caller sees them
// (server/modules/dashboard/designs.ts); jobs on the caller's own devices, or for a devices admin
// (not superadmin) those sent by users of the departments of their data scope. Users without a
// department count under null (the screen names it).
import { sql } from 'kysely';
import { ORDER_STATUS } from '../../../common/orders.ts';
import { isWireType, WIRE_TYPES, type WireType } from '../../../common/wires.ts';
import type { Lang } from '../../core/i18n.ts';
import type { Db } from '../../db/index.ts';
import { guard, type Scope } from './common.ts';
import { scopedOrders, wireTypes } from './designs.ts';
import { bucketKeys, KEY_LENGTH, type Range } from './periods.ts';
import { finishedJobs, readWire } from './production.ts';

const TOP = 10;

interface Named {
  departmentId: number | null;
  name: string | null;
}

const byId = (a: Named, b: Named) => (a.departmentId ?? Infinity) - (b.departmentId ?? Infinity);

/** departmentDesignOrderInfo: per department, the orders of the period by status and how many have a saved design. */
export async function departmentOrders(db: Db, range: Range, scope: Scope) {
  const rows = await guard(
    () =>
      scopedOrders(db, scope)
        .leftJoin('design_data as dd', 'dd.orderId', 'o.id')
        .$if(!!range.start, (q) => q.where('o.createTime', '>=', range.start!))
        .select(['d.id as departmentId', 'd.name as name', 'o.status as status', (eb) => eb.fn.countAll<number | string>().as('n'), (eb) => eb.fn.count<number | string>('dd.id').as('designed')])
        .groupBy(['d.id', 'd.name', 'o.status'])
        .execute(),
    [],
  );
  const per = new Map<number | null, Named & { orders: number; designing: number; pending: number; processed: number; designed: number }>();
  for (const r of rows) {
    const id = r.departmentId ?? null;
    const row = per.get(id) ?? { departmentId: id, name: r.name ?? null, orders: 0, designing: 0, pending: 0, processed: 0, designed: 0 };
    const n = Number(r.n);
    row.orders += n;
    row.designed += Number(r.designed);
    if (r.status === ORDER_STATUS.pending) row.pending += n;
    else if (r.status === ORDER_STATUS.processed) row.processed += n;
    else row.designing += n;
    per.set(id, row);
  }
  return [...per.values()].sort((a, b) => b.orders - a.orders || byId(a, b)).slice(0, TOP);
}

interface JobRow {
  bucket: string;
  departmentId: number | null;
  name: string | null;
  done: boolean;
  type: WireType | null;
  jobs: number;
  ms: number;
  timed: number;
}

/** Finished jobs of the period on the caller's devices, sent by users of the caller's departments, grouped. */
async function departmentJobs(db: Db, range: Range, scope: Scope): Promise<JobRow[]> {
  const bucket = sql<string>`substr(${sql.ref('device_job.updateTime')}, 1, ${sql.lit(KEY_LENGTH[range.unit])})`;
  const rows = await guard(
    () =>
      finishedJobs(db, range, scope)
        .leftJoin('base_sys_user as u', 'u.id', 'device_job.userId')
        .leftJoin('base_sys_department as d', 'd.id', 'u.departmentId')
        // A devices admin (not superadmin) counts the senders of their departments; others the jobs on their own devices.
        .$if(scope.deviceIds === undefined && scope.departmentIds !== undefined, (q) => q.where('u.departmentId', 'in', scope.departmentIds!.length ? scope.departmentIds! : [-1]))
        .select([
          bucket.as('bucket'),
          'd.id as departmentId',
          'd.name as name',
          'device_job.status as status',
          'device_job.wire as wire',
          (eb) => eb.fn.countAll<number | string>().as('n'),
          (eb) => eb.fn.sum<number | string | null>('device_job.bendMs').as('ms'),
          (eb) => eb.fn.count<number | string>('device_job.bendMs').as('timed'),
        ])
        .groupBy([bucket, 'd.id', 'd.name', 'device_job.status', 'device_job.wire'])
        .execute(),
    [],
  );
  return rows.map((r) => {
    const type = readWire(r.wire).type;
    const done = r.status === 'done';
    return {
      bucket: r.bucket,
      departmentId: r.departmentId ?? null,
      name: r.name ?? null,
      done,
      type: isWireType(type) ? type : null,
      jobs: Number(r.n),
      ms: done ? Number(r.ms ?? 0) : 0,
      timed: done ? Number(r.timed) : 0,
    };
  });
}

interface Work extends Named {
  done: number;
  failed: number;
  bendMs: number;
  timed: number;
}

function perDepartment(rows: JobRow[]): Work[] {
  const per = new Map<number | null, Work>();
  for (const r of rows) {
    const w = per.get(r.departmentId) ?? { departmentId: r.departmentId, name: r.name, done: 0, failed: 0, bendMs: 0, timed: 0 };
    if (r.done) w.done += r.jobs;
    else w.failed += r.jobs;
    w.bendMs += r.ms;
    w.timed += r.timed;
    per.set(r.departmentId, w);
  }
  return [...per.values()];
}

/** departmentProcessInfo: wires bent (done, failed) per department of the sender, most first. */
export async function departmentProcess(db: Db, range: Range, scope: Scope) {
  return perDepartment(await departmentJobs(db, range, scope))
    .sort((a, b) => b.done - a.done || b.failed - a.failed || byId(a, b))
    .slice(0, TOP)
    .map(({ departmentId, name, done, failed }) => ({ departmentId, name, done, failed }));
}

/** departmentProcessTime: bending time per department (sum and mean of the done jobs that reported it), longest first. */
export async function departmentTimes(db: Db, range: Range, scope: Scope) {
  return perDepartment(await departmentJobs(db, range, scope))
    .sort((a, b) => b.bendMs - a.bendMs || byId(a, b))
    .slice(0, TOP)
    .map(({ departmentId, name, done, bendMs, timed }) => ({ departmentId, name, jobs: done, bendMs, avgMs: timed ? Math.round(bendMs / timed) : null }));
}

/** allDepartmentProcessType: wires bent (done) per department and wire type, with the type names. */
export async function departmentTypes(db: Db, range: Range, scope: Scope, lang: Lang) {
  const per = new Map<number | null, Named & { counts: Record<WireType, number>; total: number }>();
  for (const r of await departmentJobs(db, range, scope)) {
    if (!r.done) continue;
    const row = per.get(r.departmentId) ?? { departmentId: r.departmentId, name: r.name, counts: Object.fromEntries(WIRE_TYPES.map((t) => [t, 0])) as Record<WireType, number>, total: 0 };
    if (r.type) row.counts[r.type] += r.jobs;
    row.total += r.jobs;
    per.set(r.departmentId, row);
  }
  return { types: wireTypes(lang), departments: [...per.values()].sort((a, b) => b.total - a.total || byId(a, b)) };
}

/** allDepartmentProcessTime: bending time per bucket for each department (the 5 longest), aligned with `departments`. */
export async function departmentTimeSeries(db: Db, range: Range, scope: Scope, now: number) {
  const rows = await departmentJobs(db, range, scope);
  const departments = perDepartment(rows)
    .sort((a, b) => b.bendMs - a.bendMs || byId(a, b))
    .slice(0, 5)
    .map(({ departmentId, name, bendMs }) => ({ departmentId, name, bendMs }));
  const index = new Map(departments.map((d, i) => [d.departmentId, i]));
  const per = new Map<string, number[]>();
  for (const r of rows) {
    const i = index.get(r.departmentId);
    if (i === undefined || !r.ms) continue;
    const ms = per.get(r.bucket) ?? departments.map(() => 0);
    ms[i]! += r.ms;
    per.set(r.bucket, ms);
  }
  const first = range.start ? null : ([...per.keys()].sort()[0] ?? null);
  return {
    period: range.period,
    start: range.start,
    unit: range.unit,
    departments,
    series: bucketKeys(range, now, first).map((time) => ({ time, ms: per.get(time) ?? departments.map(() => 0) })),
  };
}
