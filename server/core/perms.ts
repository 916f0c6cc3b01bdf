// Permission strings are module:resource:action, derived from the path under /admin.
import type { Db } from '../db/index.ts';

export const SUPERADMIN_ROLE = 'superadmin';

/** `/admin/base/sys/user/page` -> `base:sys:user:page`. */
export function permFromPath(path: string): string | undefined {
  const match = /^\/admin\/(.+)$/.exec(path);
  if (!match?.[1]) return undefined;
  const parts = match[1].split('/').filter(Boolean);
  return parts.length >= 2 ? parts.join(':') : undefined;
}

export function splitPerms(perms: string | null | undefined): string[] {
  return (perms ?? '')
    .split(',')
    .map((p) => p.replace(/\s+/g, ''))
    .filter(Boolean);
}

export interface Access {
  isSuper: boolean;
  roleIds: number[];
  perms: Set<string>;
}

/** The user's roles and the perms of every menu those roles are granted. */
export async function loadAccess(db: Db, userId: number): Promise<Access> {
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

/**
 * The departments whose data the user may see (data scope), or undefined for all (superadmin).
 * Always the user's own department; plus the departments granted to each role
 * (`base_sys_role_department`). A role with `relevance` 1 widens its departments and the user's
 * own department to their whole subtrees.
 */
export async function departmentScope(db: Db, userId: number): Promise<number[] | undefined> {
  const access = await loadAccess(db, userId);
  if (access.isSuper) return undefined;
  const user = await db.selectFrom('base_sys_user').select('departmentId').where('id', '=', userId).executeTakeFirst();
  const roles = access.roleIds.length
    ? await db.selectFrom('base_sys_role').select(['id', 'relevance']).where('id', 'in', access.roleIds).execute()
    : [];
  const grants = access.roleIds.length
    ? await db.selectFrom('base_sys_role_department').select(['roleId', 'departmentId']).where('roleId', 'in', access.roleIds).execute()
    : [];
  const wide = new Set(roles.filter((r) => r.relevance === 1).map((r) => r.id));
  const exact = new Set<number>();
  const roots = new Set<number>();
  for (const g of grants) (wide.has(g.roleId) ? roots : exact).add(g.departmentId);
  if (user?.departmentId != null) (wide.size ? roots : exact).add(user.departmentId);
  if (!roots.size) return [...exact];
  const all = await db.selectFrom('base_sys_department').select(['id', 'parentId']).execute();
  return [...new Set([...exact, ...subtreeIds(all, roots)])].sort((a, b) => a - b);
}

/** Menu ids granted to the user's roles (what a non-superadmin may pass on to a role). */
export async function grantedMenuIds(db: Db, roleIds: number[]): Promise<Set<number>> {
  if (!roleIds.length) return new Set();
  const rows = await db.selectFrom('base_sys_role_menu').select('menuId').where('roleId', 'in', roleIds).execute();
  return new Set(rows.map((r) => r.menuId));
}
