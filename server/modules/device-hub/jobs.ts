// Bend jobs in the database. Every state change is a conditional update (only from the states
// it may follow) plus a log row, so a repeated ack/done from a device changes nothing twice.
import { type BendStep, MAX_PROGRAM_STEPS, stepProblems } from '../../../common/bend-program.ts';
import { INTERRUPTED, JOB_STATES, type JobState, NOT_STARTED, OFFLINE, UNFINISHED } from '../../../common/device-jobs.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import type { Db } from '../../db/index.ts';
import { headOf } from '../device/configuration.ts';

export { INTERRUPTED, JOB_STATES, type JobState };

/** The states each state may be entered from. */
const FROM: Record<JobState, JobState[]> = {
  queued: [],
  sent: ['queued'],
  acked: ['queued', 'sent'],
  bending: ['sent', 'acked'],
  done: ['sent', 'acked', 'bending'],
  failed: ['sent', 'acked', 'bending'],
  cancelled: [...NOT_STARTED],
};

/**
 * More ways out when the job may be stuck (docs/device-bridge.md, "Reconciling"):
 * - `deviceGone`: its device has been offline for the set time (DEVICE_GONE_CANCEL_SECONDS), so
 *   its owner or an admin may cancel it even though the device was bending it (an acked job may
 *   be cancelled at any time: the device is told to drop it if not started);
 * - `interrupted`: the hub marked it failed with code `interrupted` (the device, back, said it was
 *   not bending it); the device's own late report on it (progress, done, failed) still counts.
 */
const FROM_DEVICE_GONE: Partial<Record<JobState, JobState[]>> = { cancelled: ['bending'] };
const FROM_INTERRUPTED: Partial<Record<JobState, true>> = { bending: true, done: true, failed: true };

/** Whether a job in `status` may be cancelled now; `link` is its device's connection record. */
export function mayCancel(status: string, link: { online: number | null; lastSeenAt: number | null }, now: number, goneMs: number): boolean {
  const s = status as JobState;
  if (FROM.cancelled.includes(s)) return true;
  return !!FROM_DEVICE_GONE.cancelled?.includes(s) && link.online === 0 && link.lastSeenAt !== null && link.lastSeenAt <= now - goneMs;
}

/** Jobs the device has not confirmed yet: sent (again) on connect and after 10 s without ack. */
export const UNACKED: JobState[] = ['queued', 'sent'];
/** Sent again on every (re)connect: the device dedups by jobId, and one that lost an acked job gets it back. */
export const ON_CONNECT: JobState[] = ['queued', 'sent', 'acked'];

export interface Wire {
  type: string;
  diameter: number;
  material?: string;
  /** The design's wire id (the order's lifecycle matches done jobs to the design's wires). */
  id?: string;
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
  /** Also allow FROM_DEVICE_GONE when the job's device has been offline since this time (ms) or before. */
  deviceOfflineSince?: number;
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
        // A device's late report on an interrupted job replaces the hub's verdict.
        ...(to === 'bending' || to === 'done' ? { errorCode: null, errorMessage: null } : {}),
        ...(to === 'sent' ? { lastSentAt: now, sendCount: (eb) => eb('sendCount', '+', 1) } : {}),
      })
      .where('jobId', '=', jobId)
      .where((eb) => {
        const from = [eb('status', 'in', FROM[to])];
        const gone = FROM_DEVICE_GONE[to];
        if (gone && extra.deviceOfflineSince !== undefined) {
          // Part of the update itself: a device that came back meanwhile keeps its job.
          const offline = eb
            .selectFrom('device_link')
            .select('deviceId')
            .where('online', '=', 0)
            .where('lastSeenAt', '<=', extra.deviceOfflineSince);
          from.push(eb.and([eb('status', 'in', gone), eb('deviceId', 'in', offline)]));
        }
        if (FROM_INTERRUPTED[to]) from.push(eb.and([eb('status', '=', 'failed'), eb('errorCode', '=', INTERRUPTED)]));
        return eb.or(from);
      });
    if (extra.deviceId !== undefined) q = q.where('deviceId', '=', extra.deviceId);
    const res = await q.executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    await trx.insertInto('device_job_log').values({ jobId, status: to, detail: extra.detail ?? null, at: now, createTime: time }).execute();
    return true;
  });
}

/** A resend of a job already sent (or acked): not a state change, only the send time and count. */
export async function markResent(ctx: AppContext, jobId: string): Promise<boolean> {
  const res = await ctx.db
    .updateTable('device_job')
    .set((eb) => ({ lastSentAt: ctx.clock.now(), sendCount: eb('sendCount', '+', 1) }))
    .where('jobId', '=', jobId)
    .where('status', 'in', ['sent', 'acked'])
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The device's jobs cancelled at or after `since` (ms) that it had been sent. */
export async function cancelledSince(db: Db, deviceId: number, since: number): Promise<string[]> {
  const rows = await db
    .selectFrom('device_job as j')
    .select('j.jobId')
    .where('j.deviceId', '=', deviceId)
    .where('j.status', '=', 'cancelled')
    .where('j.sendCount', '>', 0)
    .where((eb) =>
      eb.exists(eb.selectFrom('device_job_log as l').select('l.id').whereRef('l.jobId', '=', 'j.jobId').where('l.status', '=', 'cancelled').where('l.at', '>=', since)),
    )
    .orderBy('j.id')
    .execute();
  return rows.map((r) => r.jobId);
}

/** The device's jobs recorded `bending`, oldest first. */
export function bendingJobs(db: Db, deviceId: number) {
  return db.selectFrom('device_job').select('jobId').where('deviceId', '=', deviceId).where('status', '=', 'bending').orderBy('id').execute();
}

/**
 * The jobs whose outcome the device may still owe: recorded `bending`, or `failed` as interrupted
 * (its own later report still counts). Newest first, at most `limit`.
 */
export async function awaitedJobs(db: Db, deviceId: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('device_job')
    .select('jobId')
    .where('deviceId', '=', deviceId)
    .where((eb) => eb.or([eb('status', '=', 'bending'), eb.and([eb('status', '=', 'failed'), eb('errorCode', '=', INTERRUPTED)])]))
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.jobId);
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

/** A device's jobs still to be sent or confirmed (or, on connect, `ON_CONNECT`), oldest first. */
export function unackedJobs(db: Db, deviceId: number, states: JobState[] = UNACKED) {
  return db
    .selectFrom('device_job')
    .select(['jobId', 'orderId', 'wire', 'steps', 'status', 'lastSentAt', 'createTime'])
    .where('deviceId', '=', deviceId)
    .where('status', 'in', states)
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

// ---------------------------------------------------------------- queries of the HTTP calls
// (POST /admin/design/bend, getQueueList, userDeviceList, cancel: server/modules/design/bend.routes.ts)

/** The devices a user may bend on (bound to them or theirs); undefined: all (a devices admin). */
export async function usableDeviceIds(db: Db, userId: number, seesAllDevices: boolean): Promise<number[] | undefined> {
  if (seesAllDevices) return undefined;
  const bound = await db.selectFrom('device_user').select('deviceId').where('userId', '=', userId).execute();
  const owned = await db.selectFrom('device_info').select('id').where('personnelId', '=', userId).execute();
  return [...new Set([...bound.map((r) => r.deviceId), ...owned.map((r) => r.id)])];
}

/** What a bend job is checked against: the device's wire diameters and program memory. */
export function bendTarget(db: Db, deviceId: number) {
  return db.selectFrom('device_info').select(['id', 'devicename', 'diameters', 'memory', 'enableAI']).where('id', '=', deviceId).executeTakeFirst();
}

/** Who queued a job, for which device, and where it stands. */
export function jobOwner(db: Db, jobId: string) {
  return db.selectFrom('device_job').select(['jobId', 'deviceId', 'userId', 'status']).where('jobId', '=', jobId).executeTakeFirst();
}

/** A job's state now (after a refused transition: why it was refused). */
export async function jobStatus(db: Db, jobId: string): Promise<string> {
  return (await db.selectFrom('device_job').select('status').where('jobId', '=', jobId).executeTakeFirstOrThrow()).status;
}

export interface QueueFilter {
  /** Only this user's jobs. */
  userId?: number;
  deviceId?: number;
  status?: JobState;
  limit: number;
}

/** Bend jobs, newest first, each with `cancellable`: what a cancel would accept now (the queue views show the button by it). */
export async function queueList(ctx: AppContext, filter: QueueFilter) {
  let q = ctx.db
    .selectFrom('device_job as j')
    .leftJoin('device_info as d', 'd.id', 'j.deviceId')
    .leftJoin('base_sys_user as u', 'u.id', 'j.userId')
    .leftJoin('device_link as l', 'l.deviceId', 'j.deviceId')
    .leftJoin('order_info as o', 'o.id', 'j.orderId')
    .select([
      'j.jobId', 'j.deviceId', 'd.devicename as deviceName', 'j.orderId', 'o.caseNo', 'j.userId', 'u.name as userName', 'j.status',
      'j.step', 'j.stepCount as steps', 'j.errorCode', 'j.errorMessage', 'j.bendMs', 'j.createTime', 'j.updateTime',
      'l.online', 'l.lastSeenAt',
    ])
    .orderBy('j.id', 'desc')
    .limit(filter.limit);
  if (filter.userId !== undefined) q = q.where('j.userId', '=', filter.userId);
  if (filter.deviceId) q = q.where('j.deviceId', '=', filter.deviceId);
  if (filter.status) q = q.where('j.status', '=', filter.status);
  const now = ctx.clock.now();
  return (await q.execute()).map(({ online, lastSeenAt, ...job }) => ({
    ...job,
    // The column holds only job states (transition() writes them).
    status: job.status as JobState,
    cancellable: mayCancel(job.status, { online, lastSeenAt }, now, ctx.config.deviceGoneCancelMs),
  }));
}

/** Devices (all, or `usable`), with online state, pending jobs and the springback tables the editor compensates bends with. */
export async function deviceList(db: Db, usable: number[] | undefined) {
  let q = db
    .selectFrom('device_info as d')
    .leftJoin('device_link as l', 'l.deviceId', 'd.id')
    .select(['d.id', 'd.devicename', 'd.status', 'd.diameters', 'd.memory', 'd.dieRadius', 'd.head', 'l.state', 'l.detail', 'l.statusTime', 'l.serial', 'l.firmware'])
    .orderBy('d.id');
  if (usable) q = usable.length ? q.where('d.id', 'in', usable) : q.where('d.id', '=', -1);
  const rows = await q.execute();
  const pending = rows.length
    ? await db
        .selectFrom('device_job')
        .select(['deviceId', (eb) => eb.fn.countAll<number>().as('n')])
        .where('status', 'in', [...UNFINISHED])
        .where('deviceId', 'in', rows.map((r) => r.id))
        .groupBy('deviceId')
        .execute()
    : [];
  const count = new Map(pending.map((p) => [p.deviceId, Number(p.n)]));
  // The calibration the editor compensates bends with (device config, per wire diameter).
  const configs = rows.length
    ? await db.selectFrom('device_config').select(['deviceId', 'diameter', 'springback']).where('deviceId', 'in', rows.map((r) => r.id)).orderBy('diameter').execute()
    : [];
  const springback = (id: number) =>
    configs.filter((k) => k.deviceId === id).map((k) => ({ diameter: k.diameter, table: JSON.parse(String(k.springback)) as [number, number][] }));
  return rows.map(({ head, ...r }) => ({
    ...r,
    // The head the device's programs are checked against (its own, else the default).
    head: headOf(head).head,
    online: r.status === 1,
    state: r.status === 1 ? (r.state ?? 'idle') : OFFLINE,
    diameterList: r.diameters.split(',').map(Number),
    pending: count.get(r.id) ?? 0,
    springback: springback(r.id),
  }));
}
