/**
 * Rule 1: which page a path shows. A path is looked up among the menu routes, the module pages
 * and the fixed pages of the main layout; `/` is the home page (first page of the first group).
 */
import { normalizePath, type MenuModel, type PageRoute } from '../menu/build.ts';
import { modulePages } from '../modules/registry.ts';

/** Fixed pages inside the main layout. */
export const MY_INFO: PageRoute = {
  path: '/my/info',
  viewPath: '',
  isPage: true,
  meta: { label: 'Personal center', keepAlive: false, dynamic: false, process: true },
  trail: [],
};

const byPath = new Map<string, PageRoute>([...modulePages, MY_INFO].map((p) => [p.path, p]));

export function resolvePage(path: string, menu: MenuModel): PageRoute | null {
  const p = normalizePath(path);
  if (p === '/') return menu.home;
  return menu.byPath.get(p) ?? byPath.get(p) ?? null;
}

/** Paths allowed without a token (rule 3). */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/transfer', '/login', '/401', '/403', '/404', '/500', '/502']);

/** A local path that is safe to navigate to after login (no scheme, no protocol-relative URL). */
export function safeRedirect(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return undefined;
  }
  const path = normalizePath(value);
  return path === '/login' ? undefined : value;
}

let target: string | undefined;

/** Remembers where a user without a session wanted to go (kept in memory, not in the URL). */
export function rememberTarget(href: string): void {
  target = safeRedirect(href);
}

/** The remembered destination, once. */
export function takeTarget(): string | undefined {
  const t = target;
  target = undefined;
  return t;
}
