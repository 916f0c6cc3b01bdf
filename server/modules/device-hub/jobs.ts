// Bend jobs in the database. Every state change is a conditional update (only from the states
// it may follow) plus a log row, so a repeated ack/done from a device changes nothing twice.
import { type BendStep, MAX_PROGRAM_STEPS, stepProblems } from '../../../common/bend-program.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import type { Db } from '../../db/index.ts';

export const JOB_STATES = ['queued', 'sent', 'acked', 'bending', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** The states each state may be entered from. */
const FROM: Record<JobState, JobState[]> = {
  queued: [],
  sent: ['queued'],
  acked: ['queued', 'sent'],
  bending: ['sent', 'acked'],
  done: ['sent', 'acked', 'bending'],
  failed: ['sent', 'acked', 'bending'],
  cancelled: ['queued', 'sent', 'acked'],
};

/** Jobs the device has not confirmed yet: sent (again) on connect and after 10 s without ack. */
export const UNACKED: JobState[] = ['queued', 'sent'];

export interface Wire {
  type: string;
  diameter: number;
  material?: string;
}
export type Step = BendStep;

export interface NewJob {
  deviceId: number;
  userId: number;
  orderId: number | null;
  wire: Wire;
  steps: Step[];
}

/** Stores a job `queued`. The caller has checked it against the device (POST /admin/design/bend). */
export async function insertJob(ctx: AppContext, job: NewJob): Promise<string> {
  // The last guard: whatever queues a job, nothing outside the machine's limits is stored or sent.
  if (job.steps.length === 0 || job.steps.length > MAX_PROGRAM_STEPS || stepProblems(job.steps).length > 0) {
    throw new Error('insertJob: the program is outside the machine limits');
  }
  const jobId = crypto.randomUUID();
  const now = ctx.clock.now();
  const time = formatTime(now);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('device_job')
      .values({
        jobId,
        deviceId: job.deviceId,
        userId: job.userId,
        orderId: job.orderId,
        wire: JSON.stringify(job.wire),
        steps: JSON.stringify(job.steps),
        stepCount: job.steps.length,
        status: 'queued',
        lastSentAt: null,
        errorCode: null,
        errorMessage: null,
        bendMs: null,
        createTime: time,
        updateTime: time,
      })
      .execute();
    await trx.insertInto('device_job_log').values({ jobId, status: 'queued', detail: null, at: now, createTime: time }).execute();
  });
  return jobId;
}

export interface Transition {
  /** Only a job of this device may change (a device cannot touch another's jobs). */
  deviceId?: number;
  step?: number;
  errorCode?: string;
  errorMessage?: string;
  bendMs?: number;
  detail?: string;
}

/** Moves a job to `to` if its current state allows; true when it changed (and was logged). */
export async function transition(ctx: AppContext, jobId: string, to: JobState, extra: Transition = {}): Promise<boolean> {
  const now = ctx.clock.now();
  const time = formatTime(now);
  return ctx.db.transaction().execute(async (trx) => {
    let q = trx
      .updateTable('device_job')
      .set({
        status: to,
        updateTime: time,
        ...(extra.step !== undefined ? { step: extra.step } : {}),
        ...(extra.errorCode !== undefined ? { errorCode: extra.errorCode.slice(0, 64), errorMessage: (extra.errorMessage ?? '').slice(0, 1024) } : {}),
        ...(extra.bendMs !== undefined ? { bendMs: extra.bendMs } : {}),
        ...(to === 'sent' ? { lastSentAt: now, sendCount: (eb) => eb('sendCount', '+', 1) } : {}),
      })
      .where('jobId', '=', jobId)
      .where('status', 'in', FROM[to]);
    if (extra.deviceId !== undefined) q = q.where('deviceId', '=', extra.deviceId);
    const res = await q.executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    await trx.insertInto('device_job_log').values({ jobId, status: to, detail: extra.detail ?? null, at: now, createTime: time }).execute();
    return true;
  });
}

/** A resend of a job already sent: not a state change, only the send time and count. */
export async function markResent(ctx: AppContext, jobId: string): Promise<void> {
  await ctx.db
    .updateTable('device_job')
    .set((eb) => ({ lastSentAt: ctx.clock.now(), sendCount: eb('sendCount', '+', 1) }))
    .where('jobId', '=', jobId)
    .where('status', '=', 'sent')
    .execute();
}

/** The step of a job that is bending; false when it is not (yet) bending. */
export async function updateProgress(db: Db, jobId: string, deviceId: number, step: number, time: string): Promise<boolean> {
  const res = await db
    .updateTable('device_job')
    .set({ step, updateTime: time })
    .where('jobId', '=', jobId)
    .where('deviceId', '=', deviceId)
    .where('status', '=', 'bending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export type JobRow = Awaited<ReturnType<typeof unackedJobs>>[number];

/** A device's jobs still to be sent or confirmed, oldest first. */
export function unackedJobs(db: Db, deviceId: number) {
  return db
    .selectFrom('device_job')
    .select(['jobId', 'orderId', 'wire', 'steps', 'status', 'lastSentAt', 'createTime'])
    .where('deviceId', '=', deviceId)
    .where('status', 'in', UNACKED)
    .orderBy('id')
    .execute();
}

/** The `job` message for a stored job. */
export function jobMessage(row: JobRow) {
  const wire = JSON.parse(row.wire) as Wire;
  return {
    type: 'job',
    jobId: row.jobId,
    orderId: row.orderId,
    wire: { type: wire.type, diameter: wire.diameter, material: wire.material ?? null },
    steps: JSON.parse(row.steps) as Step[],
    createdAt: row.createTime,
  };
}
