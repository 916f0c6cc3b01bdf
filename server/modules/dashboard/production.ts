// The bending figures of the dashboard, from the device hub's jobs (device_job, device_job_log,
// device_link): wires bent per time bucket and wire type, and per device the time spent bending
// and standing by. Jobs count on the devices the caller may see (all for a devices admin).
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { guard, type Scope } from './common.ts';
import { bucketKeys, KEY_LENGTH, type Range } from './periods.ts';

export const msOf = (time: string) => Date.parse(`${time.replace(' ', 'T')}Z`);

/** Finished jobs (done or failed) of the period on the caller's devices; a job finishes at its last update. */
export function finishedJobs(db: Db, range: Range, scope: Scope) {
  let q = db.selectFrom('device_job').where('device_job.status', 'in', ['done', 'failed']);
  if (range.start) q = q.where('device_job.updateTime', '>=', range.start);
  if (scope.deviceIds !== undefined) q = q.where('device_job.deviceId', 'in', scope.deviceIds.length ? scope.deviceIds : [-1]);
  return q;
}

interface Tally {
  done: number;
  failed: number;
  /** Sum and count of the bendMs of done jobs that reported it. */
  ms: number;
  timed: number;
}
const tally = (): Tally => ({ done: 0, failed: 0, ms: 0, timed: 0 });
const avg = (t: Tally) => (t.timed ? Math.round(t.ms / t.timed) : null);

export function readWire(text: string): { type: string | null; diameter: number | null } {
  try {
    const w = JSON.parse(text) as { type?: unknown; diameter?: unknown };
    return { type: typeof w.type === 'string' && w.type ? w.type : null, diameter: typeof w.diameter === 'number' ? w.diameter : null };
  } catch {
    return { type: null, diameter: null };
  }
}

/**
 * Arch wires bent: done and failed jobs per bucket with the average bend time of the done ones,
 * and the same per wire type and diameter (as the bend call stored them), most bent first.
 */
export async function wireCounts(db: Db, range: Range, scope: Scope, now: number) {
  const bucket = sql<string>`substr(${sql.ref('device_job.updateTime')}, 1, ${sql.lit(KEY_LENGTH[range.unit])})`;
  const rows = await guard(
    () =>
      finishedJobs(db, range, scope)
        .select([
          bucket.as('k'),
          'device_job.status as status',
          'device_job.wire as wire',
          db.fn.countAll<number | string>().as('n'),
          db.fn.sum<number | string | null>('device_job.bendMs').as('ms'),
          db.fn.count<number | string>('device_job.bendMs').as('timed'),
        ])
        .groupBy([bucket, 'device_job.status', 'device_job.wire'])
        .execute(),
    [],
  );
  const total = tally();
  const byTime = new Map<string, Tally>();
  const byType = new Map<string, Tally & { type: string | null; diameter: number | null }>();
  for (const r of rows) {
    const wire = readWire(r.wire);
    const typeKey = `${wire.type ?? ''}|${wire.diameter ?? ''}`;
    if (!byType.has(typeKey)) byType.set(typeKey, { ...tally(), ...wire });
    if (!byTime.has(r.k)) byTime.set(r.k, tally());
    for (const t of [total, byTime.get(r.k)!, byType.get(typeKey)!]) {
      if (r.status === 'done') {
        t.done += Number(r.n);
        t.ms += Number(r.ms ?? 0);
        t.timed += Number(r.timed);
      } else t.failed += Number(r.n);
    }
  }
  // "All" starts at the month of the first finished job (bucketKeys reads its "YYYY-MM").
  const first = range.start ? null : ([...byTime.keys()].sort()[0] ?? null);
  return {
    period: range.period,
    start: range.start,
    unit: range.unit,
    done: total.done,
    failed: total.failed,
    avgMs: avg(total),
    series: bucketKeys(range, now, first).map((time) => {
      const t = byTime.get(time) ?? tally();
      return { time, done: t.done, failed: t.failed, avgMs: avg(t) };
    }),
    types: [...byType.values()]
      .map((t) => ({ type: t.type, diameter: t.diameter, done: t.done, failed: t.failed, avgMs: avg(t) }))
      .sort((a, b) => b.done - a.done || b.failed - a.failed || String(a.type).localeCompare(String(b.type)) || (a.diameter ?? 0) - (b.diameter ?? 0)),
  };
}

/** Events only a connected device causes: it was online at each of them. */
const DEVICE_EVENTS = ['acked', 'bending', 'done', 'failed'];

/** Length of the overlap of [a0, a1) and [b0, b1). */
const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/**
 * Per device of the caller: bending time (the bendMs of its done jobs of the period), online time
 * and standby time (online minus bending). The hub keeps no history of connections, so online time
 * is what the stored data proves: on each UTC day, from the device's first to its last job event
 * (ack, progress, done, failed: only a connected device sends them), joined with its current
 * connection (device_link online since statusTime), within the period. Never less than bending.
 */
export async function deviceTimes(db: Db, range: Range, scope: Scope, now: number) {
  if (scope.deviceIds !== undefined && !scope.deviceIds.length) return { period: range.period, start: range.start, devices: [] };
  const startMs = range.start ? msOf(range.start) : 0;
  const ids = scope.deviceIds;
  const devices = await guard(
    () =>
      db
        .selectFrom('device_info')
        .leftJoin('device_link as l', 'l.deviceId', 'device_info.id')
        .$if(ids !== undefined, (q) => q.where('device_info.id', 'in', ids!))
        .select(['device_info.id as id', 'device_info.devicename as name', 'device_info.status as status', 'l.online as online', 'l.statusTime as since'])
        .execute(),
    [],
  );
  const bent = await guard(
    () =>
      finishedJobs(db, range, scope)
        .where('device_job.status', '=', 'done')
        .select(['device_job.deviceId as deviceId', db.fn.countAll<number | string>().as('jobs'), db.fn.sum<number | string | null>('device_job.bendMs').as('ms')])
        .groupBy('device_job.deviceId')
        .execute(),
    [],
  );
  const day = sql<string>`substr(${sql.ref('g.createTime')}, 1, 10)`;
  const windows = await guard(
    () =>
      db
        .selectFrom('device_job_log as g')
        .innerJoin('device_job as j', 'j.jobId', 'g.jobId')
        .$if(ids !== undefined, (q) => q.where('j.deviceId', 'in', ids!))
        .where('g.status', 'in', DEVICE_EVENTS)
        .where('g.at', '>=', startMs)
        .select(['j.deviceId as deviceId', day.as('day'), (eb) => eb.fn.min<number>('g.at').as('from'), (eb) => eb.fn.max<number>('g.at').as('to')])
        .groupBy(['j.deviceId', day])
        .execute(),
    [],
  );

  const bentOf = new Map(bent.map((b) => [b.deviceId, { jobs: Number(b.jobs), ms: Number(b.ms ?? 0) }]));
  const windowsOf = new Map<number, [number, number][]>();
  for (const w of windows) {
    const list = windowsOf.get(w.deviceId) ?? [];
    list.push([Number(w.from), Number(w.to)]);
    windowsOf.set(w.deviceId, list);
  }
  const rows = devices.map((d) => {
    const spans = windowsOf.get(d.id) ?? [];
    let online = spans.reduce((a, [f, t]) => a + (t - f), 0);
    if (Number(d.online) === 1 && d.since) {
      // The current connection, minus the part already counted in a day's job window.
      const s0 = Math.max(msOf(d.since), startMs);
      if (s0 < now) online += now - s0 - spans.reduce((a, [f, t]) => a + overlap(f, t, s0, now), 0);
    }
    const b = bentOf.get(d.id) ?? { jobs: 0, ms: 0 };
    online = Math.max(online, b.ms);
    return { deviceId: d.id, name: d.name, online: Number(d.status) === 1, jobs: b.jobs, bendMs: b.ms, onlineMs: online, standbyMs: online - b.ms };
  });
  rows.sort((a, b) => b.bendMs - a.bendMs || b.onlineMs - a.onlineMs || a.deviceId - b.deviceId);
  return { period: range.period, start: range.start, devices: rows.slice(0, 20) };
}
