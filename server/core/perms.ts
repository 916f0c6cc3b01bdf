// Permission strings are module:resource:action, derived from the path under /admin.
import type { Db } from '../db/index.ts';
import { splitPerms } from '../../common/menu-access.ts';
import { remembered } from './rights-cache.ts';

export { splitPerms };

export const SUPERADMIN_ROLE = 'superadmin';

/** `/admin/base/sys/user/page` -> `base:sys:user:page`. */
export function permFromPath(path: string): string | undefined {
  const match = /^\/admin\/(.+)$/.exec(path);
  if (!match?.[1]) return undefined;
  const parts = match[1].split('/').filter(Boolean);
  return parts.length >= 2 ? parts.join(':') : undefined;
}

export interface Access {
  isSuper: boolean;
  roleIds: number[];
  perms: Set<string>;
}

/** The user's roles and the perms of every menu those roles are granted (shared: never change it). */
export function loadAccess(db: Db, userId: number): Promise<Access> {
  return remembered(db, `access:${userId}`, () => queryAccess(db, userId));
}

async function queryAccess(db: Db, userId: number): Promise<Access> {
  const rows = await db
    .selectFrom('base_sys_user_role as ur')
    .innerJoin('base_sys_role as r', 'r.id', 'ur.roleId')
    .leftJoin('base_sys_role_menu as rm', 'rm.roleId', 'r.id')
    .leftJoin('base_sys_menu as m', 'm.id', 'rm.menuId')
    .select(['r.id as roleId', 'r.name as roleName', 'm.perms'])
    .where('ur.userId', '=', userId)
    .execute();
  const perms = new Set<string>();
  const roleIds = new Set<number>();
  let isSuper = false;
  for (const row of rows) {
    roleIds.add(row.roleId);
    if (row.roleName === SUPERADMIN_ROLE) isSuper = true;
    for (const p of splitPerms(row.perms)) perms.add(p);
  }
  return { isSuper, roleIds: [...roleIds], perms };
}

/** `roots` and every department below them, given all departments' parent links. */
export function subtreeIds(all: readonly { id: number; parentId: number | null }[], roots: Iterable<number>): number[] {
  const children = new Map<number, number[]>();
  for (const d of all) {
    if (d.parentId === null) continue;
    const list = children.get(d.parentId);
    if (list) list.push(d.id);
    else children.set(d.parentId, [d.id]);
  }
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...seen];
}
