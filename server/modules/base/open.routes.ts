// /admin/base/open/*: no token needed.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { entryDoc, epsGroup, type Eps } from '../../core/eps.ts';
import { ok } from '../../core/envelope.ts';
import { clientIp } from '../../core/client-ip.ts';
import { counted, loginIpBucket, release } from '../../core/rate-limit.ts';
import { rotateRefreshToken } from '../../core/tokens.ts';
import { validate } from '../../core/validate.ts';
import { login } from './auth.service.ts';
import { redirectCodeSchema, takeRedirect } from './redirect.service.ts';
import { captchaQuery, loginSchema, refreshSchema } from './schemas.ts';

const OPEN = epsGroup('base', '/admin/base/open', 'BaseOpen');

export function openRoutes(ctx: AppContext, eps: Eps) {
  const doc = entryDoc(OPEN);
  return new Hono<AppEnv>()
    .get('/captcha', doc('Captcha image'), validate('query', captchaQuery), async (c) => {
      return ok(c, await ctx.captcha.create(c.req.valid('query')));
    })
    .post('/login', doc('Log in'), validate('json', loginSchema), async (c) => {
      return ok(c, await login(ctx, c.req.valid('json'), clientIp(c, ctx.config.trustProxy)));
    })
    .post('/refreshToken', doc('Refresh the token'), validate('json', refreshSchema), async (c) => {
      return ok(c, await rotateRefreshToken(ctx, c.req.valid('json').refreshToken));
    })
    .get('/refreshToken', doc('Refresh the token (older clients)'), validate('query', refreshSchema), async (c) => {
      return ok(c, await rotateRefreshToken(ctx, c.req.valid('query').refreshToken));
    })
    .get('/eps', doc('Service description'), (c) => ok(c, eps))
    .post('/redirect', doc('Sign in with a one-time code (comm/redirect, the partner API); answers the tokens and the path to open'), validate('json', redirectCodeSchema), async (c) => {
      // Wrong codes count against the address as failed sign-ins do (a code is 32 random bytes:
      // this only keeps a flood of guesses from costing the database).
      const ip = clientIp(c, ctx.config.trustProxy);
      return ok(c, await counted(ctx, [loginIpBucket(ip)], 'tooManyLogins', () => takeRedirect(ctx, c.req.valid('json').code), (held) => release(ctx, held)));
    });
}
