// /admin/base/comm/*: any logged-in user, no permission needed.
import { Hono } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv, AuthInfo } from '../../core/env.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { ok } from '../../core/envelope.ts';
import { unauthorized } from '../../core/errors.ts';
import { revokeSession } from '../../core/tokens.ts';
import { validate } from '../../core/validate.ts';
import { permMenu } from './menu.service.ts';
import { getPerson, updateHabby, updatePerson } from './person.service.ts';
import { issueRedirect, redirectRequestSchema } from './redirect.service.ts';
import { habbySchema } from '../../../common/habby.ts';
import { personUpdateSchema } from './schemas.ts';

const COMM = epsGroup('base', '/admin/base/comm', 'BaseComm');

function authOf(c: { get(key: 'auth'): AuthInfo | undefined }): AuthInfo {
  const auth = c.get('auth');
  if (!auth) throw unauthorized();
  return auth;
}

export function commRoutes(ctx: AppContext) {
  const doc = entryDoc(COMM);
  return new Hono<AppEnv>()
    .post('/logout', doc('Log out (revokes the session)'), async (c) => {
      await revokeSession(ctx, authOf(c).sessionId);
      return ok(c, null);
    })
    .get('/permmenu', doc('Menus and permissions'), async (c) => ok(c, await permMenu(ctx, authOf(c).userId)))
    .get('/person', doc('Current user'), async (c) => ok(c, await getPerson(ctx, authOf(c).userId)))
    .post('/personUpdate', doc('Update own profile or password'), validate('json', personUpdateSchema), async (c) => {
      await updatePerson(ctx, authOf(c).userId, c.req.valid('json'));
      return ok(c, null);
    })
    .post('/updateHabby', doc("Save the caller's preferences (theme, language, editor); answers them merged"), validate('json', habbySchema), async (c) => {
      return ok(c, await updateHabby(ctx, authOf(c).userId, c.req.valid('json')));
    })
    .post('/redirect', doc('A one-time code (valid 60 s) that signs the caller in elsewhere, to a local path of the app'), validate('json', redirectRequestSchema), async (c) => {
      return ok(c, await issueRedirect(ctx, authOf(c).userId, c.req.valid('json').target));
    })
    .get('/uploadMode', doc('Upload mode'), (c) => ok(c, { mode: 'local', type: 'local' }));
}
