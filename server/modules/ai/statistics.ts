// The automatic design's figures of a period (GET /admin/design/aiStatistics and the dashboard's
// aiInfo): orders created in the period within the caller's scope (non-admins: their own), AI on
// or not, AI ones by aiStatus, the success rate of finished runs and their mean time from
// submission to end, and a series per bucket of the period.
import { sql } from 'kysely';
import type { AiStatistics } from '../../../common/ai.ts';
import { AI_STATUS } from '../../../common/orders.ts';
import type { Db } from '../../db/index.ts';
import { guard, ordersInScope, type Scope } from '../dashboard/common.ts';
import { bucketKeys, KEY_LENGTH, type Range } from '../dashboard/periods.ts';

const seconds = (time: string) => Date.parse(`${time.replace(' ', 'T')}Z`) / 1000;

export async function aiStatistics(db: Db, range: Range, scope: Scope, now: number): Promise<AiStatistics> {
  const bucket = sql<string>`substr(${sql.ref('createTime')}, 1, ${sql.lit(KEY_LENGTH[range.unit])})`;
  const rows = await guard(async () => {
    let q = db
      .selectFrom('order_info')
      .select([bucket.as('k'), 'enableAI', 'aiStatus', db.fn.countAll<number | string>().as('n')])
      .groupBy([bucket, 'enableAI', 'aiStatus']);
    if (range.start) q = q.where('createTime', '>=', range.start);
    const inScope = ordersInScope(db, scope, 'designerId');
    if (inScope) q = q.where(inScope);
    return q.execute();
  }, []);
  const finished = await guard(async () => {
    let q = db
      .selectFrom('order_info')
      .select(['aiSubmitTime', 'aiEndTime'])
      .where('enableAI', '=', 1)
      .where('aiStatus', 'in', [AI_STATUS.ready, AI_STATUS.fail])
      .where('aiSubmitTime', 'is not', null)
      .where('aiEndTime', 'is not', null);
    if (range.start) q = q.where('createTime', '>=', range.start);
    const inScope = ordersInScope(db, scope, 'designerId');
    if (inScope) q = q.where(inScope);
    return q.execute();
  }, []);
  const byStatus = { submitted: 0, processing: 0, ready: 0, fail: 0 };
  const perBucket = new Map<string, { enabled: number; ready: number; fail: number }>();
  let orders = 0;
  let enabled = 0;
  for (const r of rows) {
    const n = Number(r.n);
    orders += n;
    if (!r.enableAI) continue;
    enabled += n;
    const b = perBucket.get(r.k) ?? { enabled: 0, ready: 0, fail: 0 };
    b.enabled += n;
    if (r.aiStatus === AI_STATUS.submitted) byStatus.submitted += n;
    else if (r.aiStatus === AI_STATUS.processing) byStatus.processing += n;
    else if (r.aiStatus === AI_STATUS.ready) (byStatus.ready += n), (b.ready += n);
    else if (r.aiStatus === AI_STATUS.fail) (byStatus.fail += n), (b.fail += n);
    perBucket.set(r.k, b);
  }
  const durations = finished.map((r) => seconds(r.aiEndTime!) - seconds(r.aiSubmitTime!)).filter((d) => Number.isFinite(d) && d >= 0);
  const done = byStatus.ready + byStatus.fail;
  let earliest: string | null = null;
  if (!range.start) for (const r of rows) if (!earliest || `${r.k}` < earliest) earliest = r.k;
  return {
    period: range.period,
    start: range.start,
    unit: range.unit,
    orders,
    enabled,
    ratio: orders ? enabled / orders : 0,
    byStatus,
    successRate: done ? byStatus.ready / done : 0,
    meanSeconds: durations.length ? durations.reduce((a, b) => a + b, 0) / durations.length : null,
    series: bucketKeys(range, now, earliest).map((time) => ({ time, ...(perBucket.get(time) ?? { enabled: 0, ready: 0, fail: 0 }) })),
  };
}
