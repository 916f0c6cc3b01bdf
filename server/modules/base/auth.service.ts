import type { AppContext } from '../../context.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { clear, counted, loginAccountBucket, loginIpBucket, release } from '../../core/rate-limit.ts';
import { pruneExpiredTokens, startSession, type TokenPair } from '../../core/tokens.ts';
import type { LoginInput } from './schemas.ts';

export async function login(ctx: AppContext, input: LoginInput, ip: string): Promise<TokenPair> {
  const account = input.username.toLowerCase();

  if (ctx.config.captcha) {
    if (!input.captchaId) throw invalidField('captchaId', true);
    if (!input.verifyCode) throw invalidField('verifyCode', true);
    if (!(await ctx.captcha.check(input.captchaId, input.verifyCode))) throw fail('badCaptcha');
  }

  // Counted before the password is looked at: a failure stays in both buckets; a success
  // forgets the account's failures and gives back its place among the address's.
  const user = await counted(
    ctx,
    [loginAccountBucket(account, ip), loginIpBucket(ip)],
    'tooManyLogins',
    async () => {
      const user = await ctx.db
        .selectFrom('base_sys_user')
        .select(['id', 'username', 'password', 'passwordVersion', 'status'])
        .where('username', '=', input.username)
        .executeTakeFirst();
      let good = false;
      if (user) good = await ctx.passwords.verify(user.password, input.password);
      else await ctx.passwords.verifyDummy(input.password);
      if (!user || !good) throw fail('badCredentials');
      if (user.status !== 1) throw fail('userDisabled');
      return user;
    },
    async ([accountAttempt, ipAttempt]) => {
      await clear(ctx, accountAttempt!);
      await release(ctx, [ipAttempt!]);
    },
  );
  // Housekeeping rides on logins instead of a timer.
  await pruneExpiredTokens(ctx);
  return startSession(ctx, user);
}
