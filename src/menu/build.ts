/**
 * Turns the server's flat menu list (`GET /admin/base/comm/permmenu`) into the sidebar tree and
 * the client routes of the menu pages. Pure: no React, no router.
 */
import { unusablePages } from '../../common/menu-access.ts';

/** A menu entry as the server sends it. */
export interface Menu {
  id: number;
  parentId?: number | null;
  name: string;
  router?: string | null;
  viewPath?: string | null;
  /** 0 group, 1 page, 2 permission. */
  type: number;
  icon?: string | null;
  orderNum?: number | null;
  keepAlive?: boolean | number | null;
  isShow?: boolean | number | null;
  perms?: string | null;
}

export const MENU_GROUP = 0;
export const MENU_PAGE = 1;
export const MENU_PERMISSION = 2;

/** Page meta of the specification: label, keepAlive, iframeUrl, dynamic, process. */
export interface RouteMeta {
  /** The menu name (untranslated; the UI translates known names). */
  label: string;
  keepAlive: boolean;
  iframeUrl?: string;
  /** Added from the menu (true) or a fixed/module page (false). */
  dynamic: boolean;
  /** Tracked in the visited-pages list unless false. */
  process: boolean;
  icon?: string;
}

/** Client route of a page (the specification's "client route form": path, viewPath, isPage, meta). */
export interface PageRoute {
  path: string;
  viewPath: string;
  isPage: true;
  meta: RouteMeta;
  menuId?: number;
  /** Names of the groups above the page, outermost first (for the breadcrumb). */
  trail: string[];
}

/** A node of the sidebar: a group with children or a page. */
export interface MenuNode {
  id: number;
  name: string;
  icon: string;
  kind: 'group' | 'page';
  children: MenuNode[];
  /** Set for pages. */
  route?: PageRoute;
}

export interface MenuModel {
  /** Visible groups and pages; empty groups are dropped. */
  tree: MenuNode[];
  /** Every page of the menu, shown or hidden, in menu order. */
  routes: PageRoute[];
  byPath: ReadonlyMap<string, PageRoute>;
  /** The first page of the first group: rendered at `/`. */
  home: PageRoute | null;
}

/** Normalises a location path: a leading slash, no trailing slash (except `/`), no query. */
export function normalizePath(path: string): string {
  let p = path.split(/[?#]/)[0] ?? '';
  p = p.trim();
  if (!p.startsWith('/')) p = `/${p}`;
  p = p.replace(/\/{2,}/g, '/');
  if (p.length > 1) p = p.replace(/\/+$/, '');
  return p;
}

/** A page path is its router value, or its id, with a leading slash. */
function menuPath(menu: Pick<Menu, 'id' | 'router'>): string {
  const router = menu.router?.trim();
  return normalizePath(router ? router : String(menu.id));
}

function isIframeView(viewPath: string | null | undefined): boolean {
  return !!viewPath && /^http/i.test(viewPath.trim());
}

const truthy = (v: boolean | number | null | undefined, fallback: boolean) =>
  v === null || v === undefined ? fallback : Boolean(v);

/**
 * `perms`: the user's permissions. Given, a page whose list they may not load is left out with
 * what is under it (common/menu-access.ts; the server's permmenu already leaves it out).
 */
export function buildMenu(all: readonly Menu[], perms?: readonly string[]): MenuModel {
  let menus = all;
  if (perms) {
    const held = new Set(perms);
    const unusable = unusablePages(all, (p) => held.has(p));
    if (unusable.size) {
      const parentOf = new Map(all.map((m) => [m.id, m.parentId ?? null]));
      const under = (id: number): boolean => {
        for (let at: number | null = id, n = 0; at !== null && n <= all.length; at = parentOf.get(at) ?? null, n++) if (unusable.has(at)) return true;
        return false;
      };
      menus = all.filter((m) => !under(m.id));
    }
  }
  const ordered = menus
    .map((m, index) => ({ m, index }))
    .sort((a, b) => (a.m.orderNum ?? 0) - (b.m.orderNum ?? 0) || a.index - b.index)
    .map((e) => e.m)
    .filter((m) => m.type === MENU_GROUP || m.type === MENU_PAGE);

  const ids = new Set(ordered.map((m) => m.id));
  const children = new Map<number | null, Menu[]>();
  for (const m of ordered) {
    const parent = m.parentId != null && ids.has(m.parentId) && m.parentId !== m.id ? m.parentId : null;
    const list = children.get(parent);
    if (list) list.push(m);
    else children.set(parent, [m]);
  }

  const routes: PageRoute[] = [];
  const byPath = new Map<string, PageRoute>();
  const seen = new Set<number>();

  function toRoute(m: Menu, trail: string[]): PageRoute {
    const viewPath = (m.viewPath ?? '').trim();
    const meta: RouteMeta = {
      label: m.name,
      keepAlive: truthy(m.keepAlive, false),
      dynamic: true,
      process: true,
    };
    if (m.icon) meta.icon = m.icon;
    if (isIframeView(viewPath)) meta.iframeUrl = viewPath;
    return { path: menuPath(m), viewPath, isPage: true, meta, menuId: m.id, trail };
  }

  function walk(parent: number | null, trail: string[], visible: boolean): MenuNode[] {
    const nodes: MenuNode[] = [];
    for (const m of children.get(parent) ?? []) {
      if (seen.has(m.id)) continue; // defends against cycles
      seen.add(m.id);
      const shown = visible && truthy(m.isShow, true);
      const icon = m.icon ?? '';
      if (m.type === MENU_PAGE) {
        const route = toRoute(m, trail);
        if (!byPath.has(route.path)) {
          byPath.set(route.path, route);
          routes.push(route);
        }
        const kids = walk(m.id, [...trail, m.name], shown);
        if (shown) nodes.push({ id: m.id, name: m.name, icon, kind: 'page', children: kids, route: byPath.get(route.path) ?? route });
      } else {
        const kids = walk(m.id, [...trail, m.name], shown);
        if (shown && kids.length > 0) nodes.push({ id: m.id, name: m.name, icon, kind: 'group', children: kids });
      }
    }
    return nodes;
  }

  const tree = walk(null, [], true);
  return { tree, routes, byPath, home: firstPage(tree) ?? routes[0] ?? null };
}

function firstPage(nodes: readonly MenuNode[]): PageRoute | undefined {
  for (const node of nodes) {
    if (node.route) return node.route;
    const inner = firstPage(node.children);
    if (inner) return inner;
  }
  return undefined;
}

/** The trail of sidebar nodes leading to a path (for opening groups and the breadcrumb). */
export function findTrail(tree: readonly MenuNode[], path: string): MenuNode[] {
  for (const node of tree) {
    if (node.route?.path === path) return [node];
    const inner = findTrail(node.children, path);
    if (inner.length) return [node, ...inner];
  }
  return [];
}
