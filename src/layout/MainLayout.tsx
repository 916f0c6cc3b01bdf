/**
 * The main shell: sidebar, top bar, visited-pages tabs and the page area. Pages whose meta says
 * `keepAlive` stay mounted (hidden with React's <Activity>) while their tab is open; the others
 * render through the router's <Outlet> and slide in (rule 6).
 */
import { Activity, useEffect, useMemo, useState } from 'react';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { useLingui } from '@lingui/react';
import { useApp } from '../app/store.ts';
import { resolvePage } from '../app/pages.ts';
import { menuLabel } from '../menu/names.ts';
import { normalizePath, type PageRoute } from '../menu/build.ts';
import { MINI_SCREEN, useMediaQuery } from '../ui/useMediaQuery.ts';
import { PageView } from './PageView.tsx';
import { ProcessTabs } from './ProcessTabs.tsx';
import { Sidebar } from './Sidebar.tsx';
import { useVisited, visited } from './tabs.ts';
import { TopBar } from './TopBar.tsx';

export function MainLayout() {
  const { i18n } = useLingui();
  const { menu, user } = useApp();
  const location = useRouterState({ select: (s) => s.location });
  const path = normalizePath(location.pathname);
  const page = resolvePage(path, menu);
  const isHome = page !== null && page === menu.home;
  const activeKey = isHome ? '/' : path;

  const mini = useMediaQuery(MINI_SCREEN);
  const [collapsed, setCollapsed] = useState(mini);
  useEffect(() => setCollapsed(mini), [mini]); // the fold follows the mini-screen state

  // Visiting a page adds it to the visited list and makes it active.
  useEffect(() => {
    if (page && !isHome && page.meta.process !== false) {
      visited.visit({ path: page.path, label: page.meta.label, href: location.href });
    }
  }, [page, isHome, location.href]);

  const label = page ? menuLabel(i18n, page.meta.label) : '';
  useEffect(() => {
    document.title = label ? `${label} · Archwright` : 'Archwright';
  }, [label]);

  // Group names then the page, without repeats (the seeded "Data board" page sits in a group of that name).
  const crumbs = page ? [...page.trail, page.meta.label].filter((c, i, all) => c !== all[i - 1]) : [];

  return (
    <div className="flex h-full overflow-hidden">
      <Sidebar
        tree={menu.tree}
        activePath={page?.path ?? null}
        collapsed={collapsed}
        mini={mini}
        onNavigate={() => {
          if (mini) setCollapsed(true);
        }}
      />
      <div className="flex min-w-0 flex-1 flex-col">
        <TopBar collapsed={collapsed} onToggleMenu={() => setCollapsed((c) => !c)} crumbs={crumbs} user={user} />
        <ProcessTabs homeLabel={menu.home?.meta.label ?? null} activeKey={activeKey} />
        <main className="relative min-h-0 flex-1 overflow-auto">
          <Pages page={page} pathname={path} home={menu.home} />
        </main>
      </div>
    </div>
  );
}

/** The page area with the keep-alive cache. */
function Pages({ page, pathname, home }: { page: PageRoute | null; pathname: string; home: PageRoute | null }) {
  const tabs = useVisited();
  const [kept, setKept] = useState<PageRoute[]>([]);

  // A kept page lives while its tab is open (home always); a new menu (new login) starts afresh.
  const open = useMemo(() => new Set(tabs.map((t) => t.path)), [tabs]);
  // Kept by path: a menu loaded again (a module created or removed) gives the same pages new objects.
  const current = (p: PageRoute) => (page && p.path === page.path ? page : home && p.path === home.path ? home : p);
  const alive = kept.filter((p) => p.path === home?.path || open.has(p.path)).map(current);
  const keep = page?.meta.keepAlive === true;
  const shown = keep && !alive.includes(page) ? [...alive, page] : alive;

  useEffect(() => {
    if (shown.length !== kept.length || shown.some((p, i) => p !== kept[i])) setKept(shown);
  });

  return (
    <>
      {shown.map((p) => (
        <Activity key={p.path} mode={p === page ? 'visible' : 'hidden'}>
          <div className="h-full animate-page-in">
            <PageView page={p} />
          </div>
        </Activity>
      ))}
      {!keep && (
        <div key={pathname} className="h-full animate-page-in">
          <Outlet />
        </div>
      )}
    </>
  );
}
