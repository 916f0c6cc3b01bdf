// geo_job rows: queueing (superseding an order's older job of the same kind) and the view lists show.
import type { Kysely } from 'kysely';
import type { GeoJobState, GeoJobView } from '../../../common/order-lifecycle.ts';
import { formatTime } from '../../core/clock.ts';
import type { Database } from '../../db/schema.ts';

/** A job fails for good after this many starts (a throw, or a crashed thread, each count). */
export const MAX_ATTEMPTS = 2;
/** The error of a job replaced by a newer one of the same kind (and subject) for the same order. */
export const SUPERSEDED = 'superseded by a newer job';

export interface NewGeoJob {
  kind: string;
  orderId: number | null;
  /** What within the order it is about (a teeth job's jaw): only the same subject's jobs are superseded. */
  subject?: string | null;
  input: unknown;
}

/**
 * Stores a job `queued`. With an order, the order's older queued or running jobs of the same kind
 * and subject are failed as superseded first (a running one's thread is stopped by its runner when its lease
 * renewal finds the row no longer its own; its end is then not written). Run it inside the
 * transaction that caused it.
 */
export async function enqueueJob(db: Kysely<Database>, job: NewGeoJob, now: number): Promise<number> {
  const time = formatTime(now);
  if (job.orderId !== null) await supersedeJobs(db, { orderId: job.orderId, kind: job.kind, subject: job.subject ?? null }, now);
  const row = await db
    .insertInto('geo_job')
    .values({ kind: job.kind, orderId: job.orderId, subject: job.subject ?? null, state: 'queued', input: JSON.stringify(job.input ?? null), createTime: time, updateTime: time })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Fails the order's queued or running jobs of a kind (and subject; none: the jobs without one) as
 * superseded: a newer job replaces them, or what they were for is gone. A running one's thread is
 * stopped by its runner at its next lease renewal.
 */
export async function supersedeJobs(db: Kysely<Database>, of: { orderId: number; kind: string; subject?: string | null }, now: number): Promise<void> {
  const time = formatTime(now);
  await db
    .updateTable('geo_job')
    .set({ state: 'failed', error: SUPERSEDED, owner: null, leaseUntil: null, endTime: time, updateTime: time })
    .where('orderId', '=', of.orderId)
    .where('kind', '=', of.kind)
    .where((eb) => (of.subject ? eb('subject', '=', of.subject) : eb('subject', 'is', null)))
    .where('state', 'in', ['queued', 'running'])
    .execute();
}

const VIEW = ['id', 'kind', 'orderId', 'state', 'progress', 'attempts', 'error'] as const;

function view(r: { id: number; kind: string; state: string; progress: number; attempts: number; error: string | null }): GeoJobView {
  return { id: r.id, kind: r.kind, state: r.state as GeoJobState, progress: Number(r.progress), attempts: r.attempts, error: r.error };
}

/** The latest job of a kind for each of these orders. */
export async function latestJobs(db: Kysely<Database>, orderIds: number[], kind: string): Promise<Map<number, GeoJobView>> {
  if (!orderIds.length) return new Map();
  const latest = db.selectFrom('geo_job').select((eb) => eb.fn.max('id').as('id')).where('kind', '=', kind).where('orderId', 'in', orderIds).groupBy('orderId');
  const rows = await db.selectFrom('geo_job').select(VIEW).where('id', 'in', latest).execute();
  return new Map(rows.map((r) => [r.orderId!, view(r)]));
}

export async function jobView(db: Kysely<Database>, id: number): Promise<GeoJobView | null> {
  const r = await db.selectFrom('geo_job').select(VIEW).where('id', '=', id).executeTakeFirst();
  return r ? view(r) : null;
}
