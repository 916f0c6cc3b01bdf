/** Pages outside the main layout: login, transfer, a partner's editor link and the error pages. */
import { createRoute, redirect } from '@tanstack/react-router';
import { session } from '../api/client.ts';
import { safeRedirect } from '../app/pages.ts';
import { ErrorPage, type ErrorCode } from '../pages/ErrorPage.tsx';
import { LoginPage } from '../pages/LoginPage.tsx';
import { TransferPage } from '../pages/TransferPage.tsx';
import { PartnerSignInPage } from '../pages/PartnerSignInPage.tsx';
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
  validateSearch: (search: Record<string, unknown>): { to?: string } => {
    const to = safeRedirect(search.to);
    return to ? { to } : {};
  },
  component: TransferPage,
});

/** A partner's one-time link into the editor (server: /admin/sy/open/redirect). */
export const partnerSignInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/open/redirect',
  validateSearch: (search: Record<string, unknown>): { token?: string } => (typeof search.token === 'string' ? { token: search.token } : {}),
  component: PartnerSignInPage,
});

const errorRoute = (code: ErrorCode) =>
  createRoute({
    getParentRoute: () => rootRoute,
    path: `/${code}`,
    component: () => <ErrorPage code={code} />,
  });

export const errorRoutes = [errorRoute(401), errorRoute(403), errorRoute(404), errorRoute(500), errorRoute(502)] as const;
