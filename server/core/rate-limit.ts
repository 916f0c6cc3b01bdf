// Login throttling per account + IP, kept in the database so it survives restarts and is
// shared by every process: 5 failures within 15 minutes lock the pair for 15 minutes.
import type { AppContext } from '../context.ts';
import { tooManyRequests } from './errors.ts';

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_MAX_FAILURES = 5;

export async function assertLoginAllowed(ctx: AppContext, account: string, ip: string): Promise<void> {
  const lock = await ctx.db
    .selectFrom('base_login_lock')
    .select('until')
    .where('account', '=', account)
    .where('ip', '=', ip)
    .executeTakeFirst();
  if (!lock) return;
  if (Number(lock.until) > ctx.clock.now()) throw tooManyRequests('tooManyLogins');
  await ctx.db.deleteFrom('base_login_lock').where('account', '=', account).where('ip', '=', ip).execute();
}

export async function recordLoginFailure(ctx: AppContext, account: string, ip: string): Promise<void> {
  const now = ctx.clock.now();
  const since = now - LOGIN_WINDOW_MS;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('base_login_failure')
      .where('account', '=', account)
      .where('ip', '=', ip)
      .where('at', '<=', since)
      .execute();
    await trx.insertInto('base_login_failure').values({ account, ip, at: now }).execute();
    const { n } = await trx
      .selectFrom('base_login_failure')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('account', '=', account)
      .where('ip', '=', ip)
      .executeTakeFirstOrThrow();
    if (Number(n) < LOGIN_MAX_FAILURES) return;
    const until = now + LOGIN_WINDOW_MS;
    await trx
      .insertInto('base_login_lock')
      .values({ account, ip, until })
      .onConflict((oc) => oc.columns(['account', 'ip']).doUpdateSet({ until }))
      .execute();
    // The lock now speaks for these failures; after it ends the count starts over.
    await trx.deleteFrom('base_login_failure').where('account', '=', account).where('ip', '=', ip).execute();
  });
}

export async function clearLoginFailures(ctx: AppContext, account: string, ip: string): Promise<void> {
  await ctx.db.deleteFrom('base_login_failure').where('account', '=', account).where('ip', '=', ip).execute();
}
