// "Base design and processing rankings" (spec "Home dashboard"): designers and their departments
// ranked by bases designed (orders whose design document, last saved in the period, has a
// generated base) and by wires processed (jobs done in the period). Bases count the designer of
// the order, within the caller's orders; wires count who sent the job, on the caller's devices.
import type { Db } from '../../db/index.ts';
import { guard, ordersInScope, userName, type Scope } from './common.ts';
import { designFacts } from './designs.ts';
import { finishedJobs } from './production.ts';
import type { Range } from './periods.ts';

export interface Rank {
  id: number | null;
  name: string | null;
  count: number;
}

const TOP = 10;

function top(counts: Map<number | null, number>, names: Map<number | null, string | null>): Rank[] {
  return [...counts]
    .map(([id, count]) => ({ id, name: names.get(id) ?? null, count }))
    .sort((a, b) => b.count - a.count || (a.id ?? Infinity) - (b.id ?? Infinity))
    .slice(0, TOP);
}

export async function rankings(db: Db, range: Range, scope: Scope) {
  const inScope = ordersInScope(db, scope, 'o.designerId');
  // The document is JSON text; the LIKE only narrows the rows parsed (JSON.stringify writes no spaces).
  const designs = await guard(
    () =>
      db
        .selectFrom('design_data as dd')
        .innerJoin('order_info as o', 'o.id', 'dd.orderId')
        .select(['o.designerId as userId', 'dd.data as data'])
        .where('dd.data', 'like', '%"generated":true%')
        .$if(!!range.start, (q) => q.where('dd.updateTime', '>=', range.start!))
        .$if(inScope !== null, (q) => q.where(inScope!))
        .execute(),
    [],
  );
  const bases = new Map<number, number>();
  for (const d of designs) if (designFacts(d.data).base) bases.set(d.userId, (bases.get(d.userId) ?? 0) + 1);

  const sent = await guard(
    () =>
      finishedJobs(db, range, scope)
        .where('device_job.status', '=', 'done')
        .select(['device_job.userId as userId', (eb) => eb.fn.countAll<number | string>().as('n')])
        .groupBy('device_job.userId')
        .execute(),
    [],
  );
  const wires = new Map(sent.map((s) => [s.userId, Number(s.n)]));

  const userIds = [...new Set([...bases.keys(), ...wires.keys()])];
  const users = userIds.length
    ? await db
        .selectFrom('base_sys_user as u')
        .leftJoin('base_sys_department as d', 'd.id', 'u.departmentId')
        .select(['u.id as id', 'u.username', 'u.name', 'u.nickName', 'u.departmentId', 'd.name as departmentName'])
        .where('u.id', 'in', userIds)
        .execute()
    : [];
  const userOf = new Map(users.map((u) => [u.id, u]));
  const userNames = new Map<number | null, string | null>(userIds.map((id) => [id, userOf.has(id) ? userName(userOf.get(id)!) : `#${id}`]));
  const departmentNames = new Map<number | null, string | null>(users.map((u) => [u.departmentId, u.departmentName ?? null]));
  const perDepartment = (counts: Map<number, number>) => {
    const out = new Map<number | null, number>();
    // A user deleted since counts under "no department", like a user without one.
    for (const [id, n] of counts) {
      const dep = userOf.get(id)?.departmentId ?? null;
      out.set(dep, (out.get(dep) ?? 0) + n);
    }
    return out;
  };
  return {
    period: range.period,
    bases: { designers: top(bases, userNames), departments: top(perDepartment(bases), departmentNames) },
    wires: { designers: top(wires, userNames), departments: top(perDepartment(wires), departmentNames) },
  };
}
