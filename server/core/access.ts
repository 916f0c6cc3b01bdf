// Who sees whose rows, for every module. Non-admins see their own files, orders and devices; an
// "admin" for an area is a superadmin or a user granted that area's "...:all" permission (seeded
// menu entries "All files", "All orders", "All devices", "All addresses").
import type { Context } from 'hono';
import type { AppEnv, AuthInfo } from './env.ts';
import { unauthorized } from './errors.ts';
import { loadAccess } from './perms.ts';
import type { Db } from '../db/index.ts';

export const SEE_ALL = {
  files: 'space:info:all',
  orders: 'order:info:all',
  devices: 'device:info:all',
  addresses: 'user:address:all',
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
