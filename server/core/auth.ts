// Every /admin call: open/* (base and sy) needs nothing here, comm/* a valid token, everything else
// a token and the exact permission derived from the path (superadmin passes all). A machine's
// calibration token (core/calibration.ts) opens only the calibration calls; anywhere else it is refused.
import type { MiddlewareHandler } from 'hono';
import type { AppContext } from '../context.ts';
import type { AppEnv } from './env.ts';
import { forbidden, unauthorized } from './errors.ts';
import { CALIBRATION_PATHS, isCalibrationToken, verifyCalibrationToken } from './calibration.ts';
import { loadAccess, permFromPath } from './perms.ts';
import { tokenFromHeader, verifyAccessToken } from './tokens.ts';
import { CHAT_PATHS } from '../modules/chat/paths.ts';

export const OPEN_PREFIX = '/admin/base/open/';
export const COMM_PREFIX = '/admin/base/comm/';
/** The partners' open calls: signed with an API configuration entry's secret instead of a token
 * (server/modules/open checks every one). */
export const SY_OPEN_PREFIX = '/admin/sy/open/';
/** Calls outside comm/ that every logged-in user may make without a permission: dictionary data
 * for any form, reading help documents and marking release notes read, and the order
 * conversations (each call checks that the order is the caller's: server/modules/chat). */
export const LOGIN_ONLY_PATHS: ReadonlySet<string> = new Set([
  '/admin/dict/info/data',
  '/admin/base/sys/release/toReaded',
  '/admin/base/sys/article/docs',
  '/admin/base/sys/article/doc',
  ...CHAT_PATHS,
  '/admin/plugin/info/state',
]);

export function authGuard(ctx: AppContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path;
    if (path.startsWith(OPEN_PREFIX) || path.startsWith(SY_OPEN_PREFIX)) return next();
    const token = tokenFromHeader(c.req.header('authorization'));
    if (!token) throw unauthorized();
    if (CALIBRATION_PATHS.has(path) && isCalibrationToken(token)) {
      c.set('calibration', await verifyCalibrationToken(ctx, token));
      return next();
    }
    const auth = await verifyAccessToken(ctx, token);
    c.set('auth', auth);
    if (path.startsWith(COMM_PREFIX) || LOGIN_ONLY_PATHS.has(path)) return next();
    const perm = permFromPath(path);
    const access = await loadAccess(ctx.db, auth.userId);
    if (!access.isSuper && (!perm || !access.perms.has(perm))) throw forbidden();
    return next();
  };
}
