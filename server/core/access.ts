// Who sees whose rows. Non-admins see their own files, orders and devices; an "admin" for an
// area is a superadmin or a user granted that area's "...:all" permission (seeded menu entries
// "All files", "All orders", "All devices").
import type { Context } from 'hono';
import type { AppContext } from '../../context.ts';
import type { AppEnv, AuthInfo } from '../../core/env.ts';
import { unauthorized } from '../../core/errors.ts';
import { loadAccess } from '../../core/perms.ts';
import type { Db } from '../../db/index.ts';

export const SEE_ALL = {
  files: 'space:info:all',
  orders: 'order:info:all',
  devices: 'device:info:all',
} as const;

export function authOf(c: Context<AppEnv>): AuthInfo {
  const auth = c.get('auth');
  if (!auth) throw unauthorized();
  return auth;
}

export async function seesAll(db: Db, userId: number, perm: string): Promise<boolean> {
  const access = await loadAccess(db, userId);
  return access.isSuper || access.perms.has(perm);
}

/** Can this user read the file: the uploader, a files admin, or someone who sees an order that uses it. */
export async function canReadFile(ctx: AppContext, userId: number, fileId: number): Promise<boolean> {
  const file = await ctx.db.selectFrom('space_info').select(['id', 'userId']).where('id', '=', fileId).executeTakeFirst();
  if (!file) return false;
  if (file.userId === userId) return true;
  const access = await loadAccess(ctx.db, userId);
  if (access.isSuper || access.perms.has(SEE_ALL.files)) return true;
  let orders = ctx.db
    .selectFrom('order_info')
    .select('id')
    .where((eb) => eb.or([eb('upperFileId', '=', fileId), eb('lowerFileId', '=', fileId), eb('occlusionFileId', '=', fileId)]));
  if (!access.perms.has(SEE_ALL.orders)) orders = orders.where('designerId', '=', userId);
  return !!(await orders.executeTakeFirst());
}
