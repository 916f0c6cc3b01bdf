/**
 * The main shell and its children: `/` (home), `/my/info`, and ONE catch-all route that resolves
 * every other path among the menu routes and module pages (rule 1), or sends it to /404 (rule 2).
 */
import { createRoute, redirect } from '@tanstack/react-router';
import { session } from '../api/client.ts';
import { resolvePage } from '../app/pages.ts';
import { ensureBootstrap, getApp } from '../app/store.ts';
import { MainLayout } from '../layout/MainLayout.tsx';
import { HomePage } from '../pages/HomePage.tsx';
import { MenuRoutePage } from '../pages/MenuRoutePage.tsx';
import { MyInfoPage } from '../pages/MyInfoPage.tsx';
import { PageSpinner } from '../ui/Spinner.tsx';
import { rootRoute } from './root.tsx';

export const mainRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'main',
  beforeLoad: async () => {
    await ensureBootstrap(); // the user and the menu routes
    if (!session.hasToken()) throw redirect({ to: '/login', replace: true });
  },
  pendingComponent: () => (
    <div className="h-full bg-white">
      <PageSpinner />
    </div>
  ),
  component: MainLayout,
});

export const homeRoute = createRoute({ getParentRoute: () => mainRoute, path: '/', component: HomePage });

export const myInfoRoute = createRoute({ getParentRoute: () => mainRoute, path: '/my/info', component: MyInfoPage });

export const menuRoute = createRoute({
  getParentRoute: () => mainRoute,
  path: '$',
  beforeLoad: ({ location }) => {
    if (!resolvePage(location.pathname, getApp().menu)) throw redirect({ to: '/404', replace: true });
  },
  component: MenuRoutePage,
});
