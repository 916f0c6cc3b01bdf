/**
 * Module registry: maps a menu's `viewPath` to a lazily loaded page component.
 *
 * Convention: the view `modules/<module>/views/<view>` is the default export of
 * `src/modules/<module>/views/<view>.tsx` and is found automatically. A view path with no such
 * file renders the "coming soon" placeholder (modules not built yet); `http...` view paths never
 * get here (they render in the iframe page).
 *
 * Modules may also declare pages of their own that are not in the menu (`modulePages`); rule 1
 * looks paths up among the menu routes and these.
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyPage } from '../app/lazy.ts';
import type { PageRoute } from '../menu/build.ts';

type ViewModule = { default: ComponentType };

const files = import.meta.glob<ViewModule>('./*/views/**/*.tsx');

/** `modules/order/views/list`, `/modules/order/views/list.vue`, `cool/modules/...` -> `order/views/list`. */
export function viewKey(viewPath: string): string {
  return viewPath
    .trim()
    .replace(/\\/g, '/')
    .replace(/\.(vue|tsx|jsx|ts|js)$/i, '')
    .replace(/^.*?modules\//, '')
    .replace(/^\/+/, '');
}

const loaders = new Map<string, () => Promise<ViewModule>>();
for (const [file, load] of Object.entries(files)) loaders.set(file.replace(/^\.\//, '').replace(/\.tsx$/, ''), load);

const components = new Map<string, LazyExoticComponent<ComponentType>>();

/** The page component of a view path, or null when that module is not built yet. */
export function getView(viewPath: string): LazyExoticComponent<ComponentType> | null {
  const key = viewKey(viewPath);
  const cached = components.get(key);
  if (cached) return cached;
  const load = loaders.get(key);
  if (!load) return null;
  const component = lazyPage(load);
  components.set(key, component);
  return component;
}

const page = (path: string, viewPath: string, label: string, keepAlive = false): PageRoute => ({
  path,
  viewPath,
  isPage: true,
  meta: { label, keepAlive, dynamic: false, process: true },
  trail: [],
});

/** Module pages with fixed paths (specification, section 2). */
export const modulePages: readonly PageRoute[] = [
  page('/space/list', 'modules/space/views/list', 'File space'),
  page('/helper/ai-code', 'modules/helper/views/ai-code', 'AI coding', true),
];
