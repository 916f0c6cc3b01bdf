// permmenu: the menus a user may see (flat, by orderNum) and the permission strings they hold.
import type { AppContext } from '../../context.ts';
import { loadAccess, splitPerms } from '../../core/perms.ts';
import type { Menu } from '../../db/schema.ts';
import { unusablePages } from '../../../common/menu-access.ts';

export interface MenuView {
  id: number;
  parentId: number | null;
  name: string;
  router: string | null;
  viewPath: string | null;
  type: number;
  icon: string | null;
  orderNum: number;
  keepAlive: boolean;
  isShow: boolean;
  perms: string | null;
}

export function toMenuView(m: Menu): MenuView {
  return {
    id: m.id,
    parentId: m.parentId,
    name: m.name,
    router: m.router,
    viewPath: m.viewPath,
    type: m.type,
    icon: m.icon,
    orderNum: m.orderNum,
    keepAlive: m.keepAlive === 1,
    isShow: m.isShow === 1,
    perms: m.perms,
  };
}

export async function permMenu(ctx: AppContext, userId: number): Promise<{ menus: MenuView[]; perms: string[] }> {
  const all = await ctx.db.selectFrom('base_sys_menu').selectAll().orderBy('orderNum', 'asc').orderBy('id', 'asc').execute();
  const access = await loadAccess(ctx.db, userId);
  let visible = all;
  if (!access.isSuper) {
    const granted = access.roleIds.length
      ? await ctx.db.selectFrom('base_sys_role_menu').select('menuId').where('roleId', 'in', access.roleIds).execute()
      : [];
    const byId = new Map(all.map((m) => [m.id, m]));
    // A page whose list the user may not load is left out with everything under it, even when
    // one of its other rights is granted (that right still counts in `perms`).
    const unusable = unusablePages(all, (p) => access.perms.has(p));
    const underUnusable = (id: number): boolean => {
      for (let m = byId.get(id); m; m = m.parentId === null ? undefined : byId.get(m.parentId)) if (unusable.has(m.id)) return true;
      return false;
    };
    const keep = new Set<number>();
    // A granted entry brings its ancestors along, so the client can build the tree.
    for (const { menuId } of granted) {
      if (underUnusable(menuId)) continue;
      for (let m = byId.get(menuId); m && !keep.has(m.id); m = m.parentId === null ? undefined : byId.get(m.parentId)) {
        keep.add(m.id);
      }
    }
    visible = all.filter((m) => keep.has(m.id));
  }
  const perms = access.isSuper
    ? [...new Set(all.flatMap((m) => splitPerms(m.perms)))]
    : [...access.perms];
  return { menus: visible.map(toMenuView), perms: perms.sort() };
}
