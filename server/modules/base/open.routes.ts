// /admin/base/open/*: no token needed.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import type { Eps } from '../../core/eps.ts';
import { ok } from '../../core/envelope.ts';
import { clientIp } from '../../core/client-ip.ts';
import { rotateRefreshToken } from '../../core/tokens.ts';
import { validate } from '../../core/validate.ts';
import { login } from './auth.service.ts';
import { captchaQuery, loginSchema, refreshSchema } from './schemas.ts';

export const openApi = [
  { method: 'get', path: '/captcha', summary: 'Captcha image' },
  { method: 'post', path: '/login', summary: 'Log in' },
  { method: 'post', path: '/refreshToken', summary: 'Refresh the token' },
  { method: 'get', path: '/refreshToken', summary: 'Refresh the token (older clients)' },
  { method: 'get', path: '/eps', summary: 'Service description' },
] as const;

export function openRoutes(ctx: AppContext, eps: Eps) {
  return new Hono<AppEnv>()
    .get('/captcha', validate('query', captchaQuery), async (c) => {
      return ok(c, await ctx.captcha.create(c.req.valid('query')));
    })
    .post('/login', validate('json', loginSchema), async (c) => {
      return ok(c, await login(ctx, c.req.valid('json'), clientIp(c, ctx.config.trustProxy)));
    })
    .post('/refreshToken', validate('json', refreshSchema), async (c) => {
      return ok(c, await rotateRefreshToken(ctx, c.req.valid('json').refreshToken));
    })
    .get('/refreshToken', validate('query', refreshSchema), async (c) => {
      return ok(c, await rotateRefreshToken(ctx, c.req.valid('query').refreshToken));
    })
    .get('/eps', (c) => ok(c, eps));
}
