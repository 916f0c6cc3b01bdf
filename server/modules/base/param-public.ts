// GET /app/base/comm/param?key= (no token: the AI helper's rule scripts call it from another
// host), GET /admin/base/open/param?key= (no token: the app before sign-in) and
// GET /admin/base/comm/param?key= (any signed-in user): the value of a parameter whose
// key is on the public allow-list, JSON-parsed when it is JSON, null when it is not set. Every
// other key is refused the same way whether it exists or not: parameters hold settings and secrets.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { ok } from '../../core/envelope.ts';
import { fail } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import { getParam } from './sys-param.ts';
import { HARDENING_PARAM_KEY } from '../../../common/hardening.ts';

/** Keys any client may read: the field types of the eps description (the rule scripts' forms),
 * and whether the client hardening is on (src/app/hardening.ts; read before sign-in). */
export const PUBLIC_PARAM_KEYS: ReadonlySet<string> = new Set(['epsFieldType', HARDENING_PARAM_KEY]);

export const APP_COMM_PREFIX = '/app/base/comm';

const query = z.object({ key: z.string().trim().min(1).max(255) });

export async function publicParam(ctx: AppContext, key: string): Promise<unknown> {
  if (!PUBLIC_PARAM_KEYS.has(key)) throw fail('paramNotPublic');
  const data = await getParam(ctx.db, key);
  if (data === undefined || data === null) return null;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

export function publicParamRoutes(ctx: AppContext, group: 'BaseApp' | 'BaseCommParam' | 'BaseOpenParam', prefix: string) {
  const doc = entryDoc(epsGroup('base', prefix, group));
  return new Hono<AppEnv>().get('/param', doc('A public parameter by key (?key=, allow-listed keys only, e.g. epsFieldType)'), validate('query', query), async (c) =>
    ok(c, await publicParam(ctx, c.req.valid('query').key)),
  );
}
