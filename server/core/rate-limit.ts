// Throttling of password checks, kept in the database so it survives restarts and is shared by
// every process. An attempt is counted (reserved) BEFORE the password is verified, by one
// conditional insert that admits it only while its bucket holds fewer attempts in the window;
// so a burst of concurrent requests cannot all be evaluated, however they interleave. A failed
// attempt stays in its buckets (they count failures); a success gives its reservation back.
//
// A bucket that is full only because some of its attempts are still being checked is not a
// refusal: the next attempt waits its turn (in order, up to WAIT_MAX_MS), since a check that
// succeeds frees its place. So a crowd signing in correctly from one address (an office behind
// one NAT) gets in, while a crowd of guesses is refused once the failures alone fill the bucket.
//
// Limits (15-minute sliding window):
// - login, per account and IP: 5 failures; then 429 until the oldest leaves the window;
// - login, per IP across accounts: 20 failures (logging into one's own account does not reset
//   the count of guesses at others);
// - personUpdate's old-password check, per user: 5 failures.
import type { AppContext } from '../context.ts';
import { withKeyLock } from '../db/dialect.ts';
import type { MessageKey } from './i18n.ts';
import { tooManyRequests } from './errors.ts';

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_MAX_FAILURES_PER_IP = 20;
export const PASSWORD_MAX_FAILURES = 5;
/** The longest an attempt waits for a place before it is refused. */
export const WAIT_MAX_MS = 30_000;
/** Attempts queued for one bucket in this process beyond which more are refused at once. */
export const WAIT_MAX_QUEUE = 1_000;
/** A pending attempt older than this is taken for a failure (its process died mid-check). */
const PENDING_STALE_MS = 2 * 60 * 1000;
/** The longest window of any bucket: older attempts are of no use to anyone. */
const LONGEST_WINDOW_MS = LOGIN_WINDOW_MS;
/** How often a waiting attempt looks again on its own (places freed by another process). */
const WAIT_POLL_MS = 1_000;

export interface Bucket {
  key: string;
  max: number;
  windowMs: number;
}

/** A reserved attempt, pending until it is settled (a failure) or given back. */
export interface Reservation {
  bucket: Bucket;
  id: number;
}

type Ctx = Pick<AppContext, 'db' | 'clock'>;

/** Waiting attempts of this process, per bucket, first come first served. */
const queues = new Map<string, Array<() => void>>();

function wakeNext(key: string): void {
  const queue = queues.get(key);
  const next = queue?.shift();
  if (queue && queue.length === 0) queues.delete(key);
  next?.();
}

/** Resolves when this attempt's turn may have come: woken by a settled attempt, or by the poll. */
function waitTurn(key: string, front: boolean, ms: number): Promise<void> {
  return new Promise((resolve) => {
    let queue = queues.get(key);
    if (!queue) queues.set(key, (queue = []));
    const wake = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      const q = queues.get(key);
      const at = q?.indexOf(wake) ?? -1;
      if (q && at >= 0) q.splice(at, 1);
      if (q && q.length === 0) queues.delete(key);
      resolve();
    }, ms);
    if (front) queue.unshift(wake);
    else queue.push(wake);
  });
}

/**
 * Admits one attempt into the bucket, or answers null when it is full. One statement, so the
 * count and the insert cannot be split by a concurrent request (SQLite runs one writer at a time,
 * and a writer whose snapshot went stale is refused, never let through); on PostgreSQL, whose READ
 * COMMITTED would let two such inserts both count the old rows, under the bucket's lock.
 */
async function tryReserve(ctx: Ctx, bucket: Bucket): Promise<Reservation | null> {
  const now = ctx.clock.now();
  const since = now - bucket.windowMs;
  // Attempts that left every window are of no use to anyone (buckets have shorter windows too:
  // the chat's minute, so only what is older than the longest goes).
  await ctx.db.deleteFrom('base_rate_attempt').where('at', '<=', now - Math.max(bucket.windowMs, LONGEST_WINDOW_MS)).execute();
  const row = await withKeyLock(ctx.db, `rate:${bucket.key}`, (db) =>
    db
      .insertInto('base_rate_attempt')
      .columns(['bucket', 'at', 'pending'])
      .expression(
        db
          .selectNoFrom((eb) => [eb.val(bucket.key).as('bucket'), eb.val(now).as('at'), eb.val(1).as('pending')])
          .where(
            (eb) =>
              eb
                .selectFrom('base_rate_attempt')
                .select((eb) => eb.fn.countAll().as('n'))
                .where('bucket', '=', bucket.key)
                .where('at', '>', since),
            '<',
            bucket.max,
          ),
      )
      .returning('id')
      .executeTakeFirst(),
  );
  return row ? { bucket, id: row.id } : null;
}

/** Whether some of the bucket's attempts are still being checked (so a place may free up). */
async function hasPending(ctx: Ctx, bucket: Bucket): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('base_rate_attempt')
    .select('id')
    .where('bucket', '=', bucket.key)
    .where('pending', '=', 1)
    .where('at', '>', ctx.clock.now() - PENDING_STALE_MS)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Admits one attempt, waiting its turn while the bucket is full of attempts still being checked;
 * null when the bucket is full of failures, its queue is too long, or the wait ran out.
 */
export async function reserve(ctx: Ctx, bucket: Bucket): Promise<Reservation | null> {
  const deadline = performance.now() + WAIT_MAX_MS;
  let queued = false;
  // Nothing was pending after the last refused try: the places those checks held may have been
  // given back between that try and the look (a success frees its place), so one more try first.
  let nonePending = false;
  for (;;) {
    const r = await tryReserve(ctx, bucket);
    if (r) return r;
    const left = deadline - performance.now();
    const queue = queues.get(bucket.key);
    let refuse = left <= 0 || (!queued && (queue?.length ?? 0) >= WAIT_MAX_QUEUE);
    if (!refuse && !(await hasPending(ctx, bucket))) {
      if (!nonePending) {
        nonePending = true;
        continue;
      }
      refuse = true;
    } else nonePending = false;
    if (refuse) {
      // Those queued behind learn the same in turn.
      if (queued) wakeNext(bucket.key);
      return null;
    }
    // A woken attempt that found no place keeps its place at the head of the queue.
    await waitTurn(bucket.key, queued, Math.min(left, WAIT_POLL_MS));
    queued = true;
  }
}

/** Reserves in every bucket or in none: 429 with `key` when one of them refuses. */
export async function reserveAll(ctx: Ctx, buckets: Bucket[], key: MessageKey): Promise<Reservation[]> {
  const held: Reservation[] = [];
  for (const bucket of buckets) {
    const r = await reserve(ctx, bucket);
    if (!r) {
      await release(ctx, held);
      throw tooManyRequests(key);
    }
    held.push(r);
  }
  return held;
}

/** Records reserved attempts as failures: they keep their places for the window. */
export async function settle(ctx: Ctx, reservations: Reservation[]): Promise<void> {
  if (reservations.length === 0) return;
  await ctx.db
    .updateTable('base_rate_attempt')
    .set({ pending: 0 })
    .where('id', 'in', reservations.map((r) => r.id))
    .execute();
  for (const r of reservations) wakeNext(r.bucket.key);
}

/** Gives reserved attempts back (they were not failures). */
export async function release(ctx: Ctx, reservations: Reservation[]): Promise<void> {
  if (reservations.length === 0) return;
  await ctx.db.deleteFrom('base_rate_attempt').where('id', 'in', reservations.map((r) => r.id)).execute();
  for (const r of reservations) wakeNext(r.bucket.key);
}

/**
 * A success: gives the reservation back and forgets the bucket's failures. Attempts of others
 * still being checked keep their places, so a right password cannot make room for guesses that
 * are already under way.
 */
export async function clear(ctx: Ctx, reservation: Reservation): Promise<void> {
  await ctx.db
    .deleteFrom('base_rate_attempt')
    .where('bucket', '=', reservation.bucket.key)
    .where((eb) => eb.or([eb('pending', '=', 0), eb('id', '=', reservation.id)]))
    .execute();
  // Every failure forgotten is a place: wake as many as could now get in.
  for (let i = 0; i < reservation.bucket.max; i++) wakeNext(reservation.bucket.key);
}

/**
 * Runs `check` as one counted attempt in `buckets`. If it throws, the attempt stays as a failure
 * in each; if it returns, `onSuccess` decides what is given back (`clear` or `release`).
 */
export async function counted<T>(
  ctx: Ctx,
  buckets: Bucket[],
  key: MessageKey,
  check: () => Promise<T>,
  onSuccess: (held: Reservation[]) => Promise<void>,
): Promise<T> {
  const held = await reserveAll(ctx, buckets, key);
  let result: T;
  try {
    result = await check();
  } catch (e) {
    await settle(ctx, held);
    throw e;
  }
  await onSuccess(held);
  return result;
}

export const loginAccountBucket = (account: string, ip: string): Bucket => ({
  key: `login:${account}|${ip}`,
  max: LOGIN_MAX_FAILURES,
  windowMs: LOGIN_WINDOW_MS,
});

export const loginIpBucket = (ip: string): Bucket => ({
  key: `login-ip:${ip}`,
  max: LOGIN_MAX_FAILURES_PER_IP,
  windowMs: LOGIN_WINDOW_MS,
});

export const passwordBucket = (userId: number): Bucket => ({
  key: `password:${userId}`,
  max: PASSWORD_MAX_FAILURES,
  windowMs: LOGIN_WINDOW_MS,
});
