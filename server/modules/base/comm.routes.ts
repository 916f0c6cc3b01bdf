// /admin/base/comm/*: any logged-in user, no permission needed.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv, AuthInfo } from '../../core/env.ts';
import { ok } from '../../core/envelope.ts';
import { unauthorized } from '../../core/errors.ts';
import { revokeSession } from '../../core/tokens.ts';
import { validate } from '../../core/validate.ts';
import { permMenu } from './menu.service.ts';
import { getPerson, updatePerson } from './person.service.ts';
import { personUpdateSchema } from './schemas.ts';

export const commApi = [
  { method: 'post', path: '/logout', summary: 'Log out (revokes the session)' },
  { method: 'get', path: '/permmenu', summary: 'Menus and permissions' },
  { method: 'get', path: '/person', summary: 'Current user' },
  { method: 'post', path: '/personUpdate', summary: 'Update own profile or password' },
  { method: 'get', path: '/uploadMode', summary: 'Upload mode' },
] as const;

function authOf(c: { get(key: 'auth'): AuthInfo | undefined }): AuthInfo {
  const auth = c.get('auth');
  if (!auth) throw unauthorized();
  return auth;
}

export function commRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .post('/logout', async (c) => {
      await revokeSession(ctx, authOf(c).sessionId);
      return ok(c, null);
    })
    .get('/permmenu', async (c) => ok(c, await permMenu(ctx, authOf(c).userId)))
    .get('/person', async (c) => ok(c, await getPerson(ctx, authOf(c).userId)))
    .post('/personUpdate', validate('json', personUpdateSchema), async (c) => {
      await updatePerson(ctx, authOf(c).userId, c.req.valid('json'));
      return ok(c, null);
    })
    .get('/uploadMode', (c) => ok(c, { mode: 'local', type: 'local' }));
}
