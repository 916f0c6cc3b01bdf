// The design figures of the dashboard, read from the orders' design documents (design_data, one
// per order, counted at its last save): bases generated and wires designed per wire type, per time
// bucket, per department and per designer. Orders count as the caller sees them: their own, or for
// an orders admin (not superadmin) those whose designer belongs to a department of their data scope.
import { sql } from 'kysely';
import { ORDER_STATUS } from '../../../common/orders.ts';
import { isWireType, WIRE_TYPE_LABELS, WIRE_TYPES, type WireType } from '../../../common/wires.ts';
import type { Lang } from '../../core/i18n.ts';
import type { Db } from '../../db/index.ts';
import { guard, userName, type Scope } from './common.ts';
import { bucketKeys, KEY_LENGTH, type Range } from './periods.ts';
import { msOf } from './production.ts';

/** Orders (as `o`) with their designer (`u`) and its department (`d`) within the caller's scope. */
export function scopedOrders(db: Db, scope: Scope) {
  let q = db
    .selectFrom('order_info as o')
    .innerJoin('base_sys_user as u', 'u.id', 'o.designerId')
    .leftJoin('base_sys_department as d', 'd.id', 'u.departmentId');
  // Own orders are the caller's whatever their department; an orders admin counts those of the
  // departments of their data scope.
  if (scope.designerId !== undefined) q = q.where('o.designerId', '=', scope.designerId);
  else if (scope.departmentIds !== undefined) q = q.where('u.departmentId', 'in', scope.departmentIds.length ? scope.departmentIds : [-1]);
  return q;
}

export interface DesignFacts {
  base: boolean;
  wires: WireType[];
}

/** What a stored document holds that the board counts; nothing for unreadable text. */
export function designFacts(text: string): DesignFacts {
  try {
    type Base = { generated?: unknown } | undefined;
    const doc = JSON.parse(text) as { base?: Base; bases?: { upper?: Base; lower?: Base }; wires?: unknown };
    const wires = Array.isArray(doc.wires) ? doc.wires.map((w: { type?: unknown } | null) => w?.type).filter(isWireType) : [];
    // A generated base on either jaw (`bases`), or the first format's one `base`.
    const base = doc.bases?.upper?.generated === true || doc.bases?.lower?.generated === true || doc.base?.generated === true;
    return { base, wires };
  } catch {
    return { base: false, wires: [] };
  }
}

/** Each wire type with its name in the caller's language, in the product's order. */
export function wireTypes(lang: Lang) {
  return WIRE_TYPES.map((type) => ({ type, label: WIRE_TYPE_LABELS[type][lang] }));
}

const zeroTypes = () => Object.fromEntries(WIRE_TYPES.map((t) => [t, 0])) as Record<WireType, number>;

/** Design documents read per query (each up to DESIGN_MAX_BYTES). */
const DOCS_PER_READ = 200;

interface Design extends DesignFacts {
  orderId: number;
  bucket: string;
  designerId: number;
  designer: string;
  departmentId: number | null;
  department: string | null;
}

/** The design documents of the period in scope, bucketed by the unit of the range. */
async function designs(db: Db, range: Range, scope: Scope): Promise<Design[]> {
  const bucket = sql<string>`substr(${sql.ref('dd.updateTime')}, 1, ${sql.lit(KEY_LENGTH[range.unit])})`;
  const out: Design[] = [];
  // Documents are read a page at a time and only their facts kept: a period of many large
  // documents never sits in memory at once.
  for (let after = 0; ; ) {
    const rows = await guard(
      () =>
        scopedOrders(db, scope)
          .innerJoin('design_data as dd', 'dd.orderId', 'o.id')
          .$if(!!range.start, (q) => q.where('dd.updateTime', '>=', range.start!))
          .where('dd.id', '>', after)
          .select([
            'dd.id as id',
            'o.id as orderId',
            bucket.as('bucket'),
            'dd.data as data',
            'u.id as designerId',
            'u.username',
            'u.name',
            'u.nickName',
            'd.id as departmentId',
            'd.name as department',
          ])
          .orderBy('dd.id')
          .limit(DOCS_PER_READ)
          .execute(),
      [],
    );
    for (const r of rows) {
      out.push({
        orderId: r.orderId,
        bucket: r.bucket,
        designerId: r.designerId,
        designer: userName({ id: r.designerId, username: r.username, name: r.name, nickName: r.nickName }),
        departmentId: r.departmentId ?? null,
        department: r.department ?? null,
        ...designFacts(r.data),
      });
    }
    if (rows.length < DOCS_PER_READ) return out;
    after = rows[rows.length - 1]!.id;
  }
}

const firstKey = (range: Range, list: { bucket: string }[]) => (range.start ? null : (list.map((d) => d.bucket).sort()[0] ?? null));

/** designBaseInfo: designs saved and bases generated in the period, in total and per bucket. */
export async function designBase(db: Db, range: Range, scope: Scope, now: number) {
  const list = await designs(db, range, scope);
  const per = new Map<string, { designs: number; bases: number }>();
  for (const d of list) {
    const b = per.get(d.bucket) ?? { designs: 0, bases: 0 };
    b.designs++;
    if (d.base) b.bases++;
    per.set(d.bucket, b);
  }
  return {
    period: range.period,
    start: range.start,
    unit: range.unit,
    designs: list.length,
    bases: list.filter((d) => d.base).length,
    series: bucketKeys(range, now, firstKey(range, list)).map((time) => ({ time, ...(per.get(time) ?? { designs: 0, bases: 0 }) })),
  };
}

/** designTypeInfo: wires designed in the period per wire type (with its name), and the orders holding them. */
export async function designTypes(db: Db, range: Range, scope: Scope, lang: Lang) {
  const list = await designs(db, range, scope);
  const wires = zeroTypes();
  const orders = zeroTypes();
  for (const d of list) {
    for (const w of d.wires) wires[w]++;
    for (const w of new Set(d.wires)) orders[w]++;
  }
  return wireTypes(lang).map((t) => ({ ...t, wires: wires[t.type], orders: orders[t.type] }));
}

/** designTypeNumberInfo: wires designed per bucket and wire type. */
export async function designTypeSeries(db: Db, range: Range, scope: Scope, lang: Lang, now: number) {
  const list = await designs(db, range, scope);
  const per = new Map<string, Record<WireType, number>>();
  for (const d of list) {
    const counts = per.get(d.bucket) ?? zeroTypes();
    for (const w of d.wires) counts[w]++;
    per.set(d.bucket, counts);
  }
  return {
    period: range.period,
    start: range.start,
    unit: range.unit,
    types: wireTypes(lang),
    series: bucketKeys(range, now, firstKey(range, list)).map((time) => ({ time, counts: per.get(time) ?? zeroTypes() })),
  };
}

/** designDepartmentTypeNumberInfo: wires designed per department and wire type, most first (top 10). */
export async function designDepartmentTypes(db: Db, range: Range, scope: Scope, lang: Lang) {
  const list = await designs(db, range, scope);
  const per = new Map<number | null, { departmentId: number | null; name: string | null; counts: Record<WireType, number>; total: number }>();
  for (const d of list) {
    const row = per.get(d.departmentId) ?? { departmentId: d.departmentId, name: d.department, counts: zeroTypes(), total: 0 };
    for (const w of d.wires) row.counts[w]++;
    row.total += d.wires.length;
    per.set(d.departmentId, row);
  }
  return {
    types: wireTypes(lang),
    departments: [...per.values()].sort((a, b) => b.total - a.total || (a.departmentId ?? Infinity) - (b.departmentId ?? Infinity)).slice(0, 10),
  };
}

const DETAIL_ROWS = 20;

/**
 * designeDetailInfo: per designer of the period (top 20 by orders): orders given to them,
 * submitted (pending or processed), designs saved, bases, wires designed per type, and the mean
 * design time (designStartTime to designEndTime) of their finished designs.
 */
export async function designerDetails(db: Db, range: Range, scope: Scope, lang: Lang) {
  const orders = await guard(
    () =>
      scopedOrders(db, scope)
        .$if(!!range.start, (q) => q.where('o.createTime', '>=', range.start!))
        .select(['u.id as designerId', 'u.username', 'u.name', 'u.nickName', 'd.id as departmentId', 'd.name as department', 'o.status', 'o.designStartTime', 'o.designEndTime'])
        .execute(),
    [],
  );
  const saved = await designs(db, range, scope);
  const byDesigner = new Map<number, { designs: number; bases: number; wires: Record<WireType, number> }>();
  const who = new Map<number, Pick<Design, 'designer' | 'departmentId' | 'department'>>();
  for (const d of saved) {
    who.set(d.designerId, d);
    const row = byDesigner.get(d.designerId) ?? { designs: 0, bases: 0, wires: zeroTypes() };
    row.designs++;
    if (d.base) row.bases++;
    for (const w of d.wires) row.wires[w]++;
    byDesigner.set(d.designerId, row);
  }
  const per = new Map<number, { o: (typeof orders)[number]; orders: number; submitted: number; ms: number; timed: number }>();
  for (const o of orders) {
    const row = per.get(o.designerId) ?? { o, orders: 0, submitted: 0, ms: 0, timed: 0 };
    row.orders++;
    if (o.status === ORDER_STATUS.pending || o.status === ORDER_STATUS.processed) row.submitted++;
    if (o.designStartTime && o.designEndTime) {
      row.ms += Math.max(0, msOf(o.designEndTime) - msOf(o.designStartTime));
      row.timed++;
    }
    per.set(o.designerId, row);
  }
  const rows = [...per.values()].map(({ o, ...n }) => ({
    designerId: o.designerId,
    name: userName({ id: o.designerId, username: o.username, name: o.name, nickName: o.nickName }),
    departmentId: o.departmentId ?? null,
    department: o.department ?? null,
    orders: n.orders,
    submitted: n.submitted,
    avgDesignMs: n.timed ? Math.round(n.ms / n.timed) : null,
    ...(byDesigner.get(o.designerId) ?? { designs: 0, bases: 0, wires: zeroTypes() }),
  }));
  // Designers who saved designs in the period of orders created before it.
  for (const [designerId, w] of who) {
    if (per.has(designerId)) continue;
    rows.push({ designerId, name: w.designer, departmentId: w.departmentId, department: w.department, orders: 0, submitted: 0, avgDesignMs: null, ...byDesigner.get(designerId)! });
  }
  rows.sort((a, b) => b.orders - a.orders || b.designs - a.designs || a.designerId - b.designerId);
  return { period: range.period, types: wireTypes(lang), designers: rows.slice(0, DETAIL_ROWS) };
}
