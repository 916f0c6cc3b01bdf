// Throttling of password checks, kept in the database so it survives restarts and is shared by
// every process. An attempt is counted (reserved) BEFORE the password is verified, by one
// conditional insert that admits it only while its bucket holds fewer attempts in the window;
// so a burst of concurrent requests cannot all be evaluated, however they interleave. A failed
// attempt keeps its reservation (it is the failure count); a success clears its account bucket.
//
// Limits (15-minute sliding window):
// - login, per account and IP: 5 attempts; the 6th answers 429 until the oldest leaves the window;
// - login, per IP across accounts: 20 failed attempts (a success gives back its own reservation,
//   so an address's own good logins never lock it, and logging into one's own account does not
//   reset the count of guesses at others);
// - personUpdate's old-password check, per user: 5 attempts.
import type { AppContext } from '../context.ts';
import type { MessageKey } from './i18n.ts';
import { tooManyRequests } from './errors.ts';

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_MAX_FAILURES_PER_IP = 20;
export const PASSWORD_MAX_FAILURES = 5;

export interface Bucket {
  key: string;
  max: number;
  windowMs: number;
}

/** A reserved attempt: give it back (`release`) or clear its whole bucket (`clear`). */
export interface Reservation {
  bucket: Bucket;
  id: number;
}

type Ctx = Pick<AppContext, 'db' | 'clock'>;

/**
 * Admits one attempt into the bucket, or answers null when it is full. One statement, so the
 * count and the insert cannot be split by a concurrent request (SQLite runs one writer at a time,
 * and a writer whose snapshot went stale is refused, never let through). On PostgreSQL (not served
 * yet) READ COMMITTED would let two such inserts both count the old rows: there it needs a
 * per-bucket advisory lock or SERIALIZABLE.
 */
export async function reserve(ctx: Ctx, bucket: Bucket): Promise<Reservation | null> {
  const now = ctx.clock.now();
  const since = now - bucket.windowMs;
  // Attempts that left every window are of no use to anyone (all windows are the same length).
  await ctx.db.deleteFrom('base_rate_attempt').where('at', '<=', since).execute();
  const row = await ctx.db
    .insertInto('base_rate_attempt')
    .columns(['bucket', 'at'])
    .expression(
      ctx.db
        .selectNoFrom((eb) => [eb.val(bucket.key).as('bucket'), eb.val(now).as('at')])
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
    .executeTakeFirst();
  return row ? { bucket, id: row.id } : null;
}

/** Reserves in every bucket or in none: 429 with `key` when one of them is full. */
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

/** Gives reserved attempts back (they were not failures). */
export async function release(ctx: Ctx, reservations: Reservation[]): Promise<void> {
  if (reservations.length === 0) return;
  await ctx.db.deleteFrom('base_rate_attempt').where('id', 'in', reservations.map((r) => r.id)).execute();
}

/** Forgets every attempt in the bucket (a success). */
export async function clear(ctx: Ctx, bucket: Bucket): Promise<void> {
  await ctx.db.deleteFrom('base_rate_attempt').where('bucket', '=', bucket.key).execute();
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
