/** Pages outside the main layout: login, transfer (also one-time sign-in links) and the error pages. */
import { createRoute, redirect } from '@tanstack/react-router';
import { session } from '../api/client.ts';
import { safeRedirect } from '../app/pages.ts';
import { ErrorPage, type ErrorCode } from '../pages/ErrorPage.tsx';
import { LoginPage } from '../pages/LoginPage.tsx';
import { TransferPage } from '../pages/TransferPage.tsx';
import { rootRoute } from './root.tsx';

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  // Rule 4: a logged-in user whose token has not expired goes to /.
  beforeLoad: () => {
    if (session.hasToken() && !session.isTokenExpired()) throw redirect({ to: '/', replace: true });
  },
  component: LoginPage,
});

export const transferRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/transfer',
  // `to`: a local path to forward to; `code`: a one-time sign-in code (comm/redirect, a partner's link).
  validateSearch: (search: Record<string, unknown>): { to?: string; code?: string } => {
    const to = safeRedirect(search.to);
    const code = typeof search.code === 'string' && search.code.length <= 128 ? search.code : undefined;
    return { ...(to ? { to } : {}), ...(code ? { code } : {}) };
  },
  component: TransferPage,
});

const errorRoute = (code: ErrorCode) =>
  createRoute({
    getParentRoute: () => rootRoute,
    path: `/${code}`,
    component: () => <ErrorPage code={code} />,
  });

export const errorRoutes = [errorRoute(401), errorRoute(403), errorRoute(404), errorRoute(500), errorRoute(502)] as const;
