// The server's geometry job runner (docs/jobs.md): durable jobs in geo_job, run in worker
// threads, never on the HTTP loop.
// - Claim: a conditional update (state 'queued' -> 'running', WHERE state = 'queued'), so two
//   runners over one table never take the same job; the claimer writes its owner id and a lease
//   (leaseUntil, renewed while the thread runs).
// - Bounded: at most `concurrency` jobs of this runner at a time, one thread each.
// - Each start counts an attempt; a throw or a thread that exits without an answer fails the
//   attempt; after MAX_ATTEMPTS the job stays failed with its reason, else it is queued again.
// - At start, running jobs whose lease ran out (or that this owner id held in a previous life)
//   are queued again (or failed, when that was their last attempt).
// - The end is written only while the row is still this runner's (a superseded job's is not), in
//   one transaction with the kind's onDone/onFailed.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import type { Database } from '../../db/schema.ts';
import type { Kysely } from 'kysely';
import { MAX_ATTEMPTS } from './store.ts';
import { PreparedResult, type GeoKind, type GeoKinds, type JobInfo, type ThreadMessage, type ThreadStart } from './types.ts';

const THREAD_URL = new URL('./thread.mjs', import.meta.url);

export interface RunnerOptions {
  kinds: GeoKinds;
  /** Jobs at a time (default: ARCHWRIGHT_JOB_CONCURRENCY, else os.availableParallelism()). */
  concurrency?: number;
  /** This runner's id in the owner column; a stable id lets a restarted process take its jobs back at once. */
  owner?: string;
  /** How long a claim holds without renewal (ms of ctx.clock). */
  leaseMs?: number;
  /** Polling interval for jobs queued by other processes (ms, real time). */
  pollMs?: number;
  /** Least time between two progress writes of one job (ms, real time). */
  progressMs?: number;
  /** Longest an attempt may run (ms, real time) unless its kind says otherwise; default 15 minutes. */
  timeoutMs?: number;
}

export function defaultConcurrency(env: Record<string, string | undefined> = process.env): number {
  const raw = env.ARCHWRIGHT_JOB_CONCURRENCY;
  const n = raw ? Number(raw) : NaN;
  return Number.isInteger(n) && n > 0 ? n : os.availableParallelism();
}

interface Running {
  job: JobInfo;
  /** null while the kind's prepare runs. */
  worker: Worker | null;
  settled: boolean;
  renew: ReturnType<typeof setInterval>;
  timeout?: ReturnType<typeof setTimeout>;
}

export class GeoJobRunner {
  readonly owner: string;
  readonly concurrency: number;
  private readonly kinds: GeoKinds;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly progressMs: number;
  private readonly timeoutMs: number;
  private readonly running = new Map<number, Running>();
  private poll?: ReturnType<typeof setInterval>;
  private filling: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  /** Settles when a job of this runner ended (tests wait on it). */
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly ctx: AppContext,
    options: RunnerOptions,
  ) {
    this.kinds = options.kinds;
    this.concurrency = Math.max(1, options.concurrency ?? defaultConcurrency());
    this.owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1000;
    this.progressMs = options.progressMs ?? 250;
    this.timeoutMs = options.timeoutMs ?? 15 * 60_000;
  }

  private get db(): Kysely<Database> {
    return this.ctx.db;
  }

  /** Recovers jobs a dead runner left running, then takes queued jobs as room allows. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.recover(true);
    this.poll = setInterval(() => this.wake(), this.pollMs);
    this.poll.unref();
    this.wake();
  }

  /** Stops taking jobs and ends this runner's threads; their rows stay `running` until their lease runs out (as if the process died). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    await this.filling;
    const ends = [...this.running.values()].map((r) => {
      r.settled = true;
      clearInterval(r.renew);
      clearTimeout(r.timeout);
      return r.worker?.terminate();
    });
    this.running.clear();
    await Promise.all(ends);
  }

  /** Jobs this runner runs now. */
  get active(): number {
    return this.running.size;
  }

  /** Looks for queued jobs now (after one was queued in this process). */
  wake(): void {
    if (this.stopped) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = this.fill()
      .catch((err) => this.ctx.logger.error('geo jobs: claiming failed', err))
      .finally(() => {
        this.filling = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves once nothing is running or queued for this runner to take (tests). */
  async idle(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const queued = await this.db.selectFrom('geo_job').select('id').where('state', '=', 'queued').where('kind', 'in', Object.keys(this.kinds)).executeTakeFirst();
      if (!queued && this.running.size === 0 && !this.filling) return;
      if (Date.now() > deadline) throw new Error('geo jobs: not idle in time');
      this.wake();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.idleWaiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  /** `own`: also this owner id's running jobs (at start: they are a previous life's). */
  private async recover(own: boolean): Promise<void> {
    const now = this.ctx.clock.now();
    const time = formatTime(now);
    const stale = await this.db
      .selectFrom('geo_job')
      .select(['id', 'attempts', 'owner'])
      .where('state', '=', 'running')
      .where('kind', 'in', Object.keys(this.kinds))
      .where((eb) => eb.or([eb('leaseUntil', '<', now), eb('leaseUntil', 'is', null), ...(own ? [eb('owner', '=', this.owner)] : [])]))
      .execute();
    for (const job of stale) {
      if (this.running.has(job.id)) continue;
      const reason = `interrupted: its runner (${job.owner ?? 'unknown'}) stopped while it ran`;
      const last = job.attempts >= MAX_ATTEMPTS;
      await this.db.transaction().execute(async (trx) => {
        const res = await trx
          .updateTable('geo_job')
          .set({ state: last ? 'failed' : 'queued', error: reason, owner: null, leaseUntil: null, updateTime: time, ...(last ? { endTime: time } : {}) })
          .where('id', '=', job.id)
          .where('state', '=', 'running')
          .where('attempts', '=', job.attempts)
          .executeTakeFirst();
        if (last && Number(res.numUpdatedRows) === 1) await this.failedHook(trx, job.id, reason);
      });
      this.ctx.logger.warn(`geo job ${job.id}: ${reason}; ${last ? 'failed' : 'queued again'}`);
    }
  }

  private async fill(): Promise<void> {
    // Every look for work also looks for jobs a dead runner left behind (expired leases), and
    // lets the kinds end what they wait for outside.
    await this.recover(false);
    for (const kind of Object.values(this.kinds)) {
      await kind.sweep?.(this.ctx).catch((err) => this.ctx.logger.error('geo jobs: a sweep failed', err));
    }
    while (!this.stopped && this.running.size < this.concurrency) {
      const job = await this.claim();
      if (!job) return;
      this.launch(job);
    }
  }

  /** Takes the oldest queued job of a known kind, background kinds last: a conditional update, so one runner wins it. */
  private async claim(): Promise<JobInfo | null> {
    const background = Object.keys(this.kinds).filter((k) => this.kinds[k]!.background);
    for (let tries = 0; tries < 5; tries++) {
      let q = this.db
        .selectFrom('geo_job')
        .select(['id', 'kind', 'orderId', 'attempts', 'input'])
        .where('state', '=', 'queued')
        .where('kind', 'in', Object.keys(this.kinds));
      // A kind that waits for others (`after`) is not taken while one of theirs for its order is pending.
      for (const [name, kind] of Object.entries(this.kinds)) {
        if (!kind.after?.length) continue;
        const after = [...kind.after];
        q = q.where((eb) =>
          eb.or([
            eb('geo_job.kind', '!=', name),
            eb.not(
              eb.exists(
                eb
                  .selectFrom('geo_job as before')
                  .select('before.id')
                  .whereRef('before.orderId', '=', 'geo_job.orderId')
                  .where('before.kind', 'in', after)
                  .where('before.state', 'in', ['queued', 'running']),
              ),
            ),
          ]),
        );
      }
      if (background.length) q = q.orderBy((eb) => eb.case().when('kind', 'in', background).then(1).else(0).end());
      const next = await q.orderBy('id').limit(1).executeTakeFirst();
      if (!next) return null;
      const now = this.ctx.clock.now();
      const res = await this.db
        .updateTable('geo_job')
        .set({
          state: 'running',
          owner: this.owner,
          leaseUntil: now + this.leaseMs,
          attempts: next.attempts + 1,
          progress: 0,
          startTime: formatTime(now),
          updateTime: formatTime(now),
        })
        .where('id', '=', next.id)
        .where('state', '=', 'queued')
        .where('attempts', '=', next.attempts)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) {
        return { id: next.id, kind: next.kind, orderId: next.orderId, attempts: next.attempts + 1, input: JSON.parse(next.input) as unknown };
      }
    }
    return null;
  }

  private launch(job: JobInfo): void {
    const kind = this.kinds[job.kind]!;
    if (!kind.prepare) return this.startThread(job, kind, job.input);
    // The kind's main-side preparation (its input as the database is now) holds the slot meanwhile.
    const slot: Running = { job, worker: null, settled: false, renew: setInterval(() => {}, 1 << 30) };
    slot.renew.unref();
    this.running.set(job.id, slot);
    void (async () => {
      let input: unknown;
      try {
        input = await kind.prepare!({ ctx: this.ctx, job });
      } catch (err) {
        clearInterval(slot.renew);
        await this.finish(job, { ok: false, error: (err instanceof Error ? err.message : String(err)).slice(0, 2000) });
        this.running.delete(job.id);
        this.idleWaiters.splice(0).forEach((w) => w());
        this.wake();
        return;
      }
      clearInterval(slot.renew);
      if (input instanceof PreparedResult) {
        await this.finish(job, { ok: true, result: input.result });
        this.running.delete(job.id);
        this.idleWaiters.splice(0).forEach((w) => w());
        this.wake();
        return;
      }
      this.running.delete(job.id);
      if (this.stopped) return;
      this.startThread(job, kind, input);
    })();
  }

  private startThread(job: JobInfo, kind: GeoKind, input: unknown): void {
    const start: ThreadStart = { module: kind.module, fn: kind.fn ?? 'run', input };
    let worker: Worker;
    try {
      worker = new Worker(THREAD_URL, { workerData: start });
    } catch (err) {
      void this.finish(job, { ok: false, error: `the job's thread could not start: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    const run: Running = {
      job,
      worker,
      settled: false,
      renew: setInterval(() => void this.renew(run), Math.max(50, this.leaseMs / 3)),
    };
    run.renew.unref();
    const limit = kind.timeoutMs ?? this.timeoutMs;
    // A thread that hangs (a kernel in an endless loop) fails its attempt instead of holding a slot forever.
    run.timeout = setTimeout(() => settle({ ok: false, error: `the job ran longer than ${Math.round(limit / 1000)} s and was stopped` }), limit);
    run.timeout.unref();
    this.running.set(job.id, run);
    let progress = 0;
    let written = 0;
    let writing = false;
    const writeProgress = async () => {
      if (writing || run.settled) return;
      writing = true;
      written = performance.now();
      const f = progress;
      await this.db
        .updateTable('geo_job')
        .set({ progress: f, updateTime: formatTime(this.ctx.clock.now()) })
        .where('id', '=', job.id)
        .where('owner', '=', this.owner)
        .where('state', '=', 'running')
        .execute()
        .catch((err) => this.ctx.logger.error(`geo job ${job.id}: progress not written`, err));
      writing = false;
    };
    const settle = (outcome: { ok: true; result: unknown } | { ok: false; error: string }) => {
      if (run.settled) return;
      run.settled = true;
      clearInterval(run.renew);
      clearTimeout(run.timeout);
      void this.finish(job, outcome).finally(() => {
        this.running.delete(job.id);
        void worker.terminate();
        this.idleWaiters.splice(0).forEach((w) => w());
        this.wake();
      });
    };
    worker.on('message', (m: ThreadMessage) => {
      if (m.type === 'progress') {
        progress = m.f;
        if (performance.now() - written >= this.progressMs) void writeProgress();
      } else if (m.type === 'done') settle({ ok: true, result: m.result });
      else settle({ ok: false, error: String(m.message).slice(0, 2000) });
    });
    worker.on('error', (err) => settle({ ok: false, error: `the job's thread failed: ${err.message}`.slice(0, 2000) }));
    worker.on('exit', (code) => settle({ ok: false, error: `the job's thread exited (code ${code}) before it answered` }));
  }

  /** Extends the lease; a job no longer this runner's (superseded) has its thread stopped. */
  private async renew(run: Running): Promise<void> {
    if (run.settled) return;
    const res = await this.db
      .updateTable('geo_job')
      .set({ leaseUntil: this.ctx.clock.now() + this.leaseMs })
      .where('id', '=', run.job.id)
      .where('owner', '=', this.owner)
      .where('state', '=', 'running')
      .executeTakeFirst()
      .catch(() => null);
    if (res && Number(res.numUpdatedRows) === 0 && !run.settled) {
      run.settled = true;
      clearInterval(run.renew);
      clearTimeout(run.timeout);
      this.running.delete(run.job.id);
      await run.worker?.terminate();
      this.idleWaiters.splice(0).forEach((w) => w());
      this.wake();
    }
  }

  private async finish(job: JobInfo, outcome: { ok: true; result: unknown } | { ok: false; error: string }): Promise<void> {
    const time = formatTime(this.ctx.clock.now());
    try {
      await this.db.transaction().execute(async (trx) => {
        const mine = (q: any) => q.where('id', '=', job.id).where('owner', '=', this.owner).where('state', '=', 'running');
        if (outcome.ok) {
          const res = await mine(
            trx.updateTable('geo_job').set({ state: 'done', progress: 1, result: JSON.stringify(outcome.result), error: null, owner: null, leaseUntil: null, endTime: time, updateTime: time }),
          ).executeTakeFirst();
          if (Number(res.numUpdatedRows) !== 1) return;
          await this.kinds[job.kind]?.onDone?.(outcome.result, { ctx: this.ctx, trx, job });
          return;
        }
        const last = job.attempts >= MAX_ATTEMPTS;
        const res = await mine(
          trx
            .updateTable('geo_job')
            .set({ state: last ? 'failed' : 'queued', error: outcome.error, owner: null, leaseUntil: null, updateTime: time, ...(last ? { endTime: time } : {}) }),
        ).executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) return;
        if (last) await this.failedHook(trx, job.id, outcome.error);
      });
    } catch (err) {
      this.ctx.logger.error(`geo job ${job.id}: its end was not written`, err);
    }
  }

  private async failedHook(trx: Kysely<Database>, id: number, error: string): Promise<void> {
    const row = await trx.selectFrom('geo_job').select(['id', 'kind', 'orderId', 'attempts', 'input']).where('id', '=', id).executeTakeFirstOrThrow();
    const job: JobInfo = { ...row, input: JSON.parse(row.input) as unknown };
    await this.kinds[job.kind]?.onFailed?.(error, { ctx: this.ctx, trx, job });
  }
}
