import { createRootRoute, Navigate, Outlet, redirect } from '@tanstack/react-router';
import { session } from '../api/client';
import { PUBLIC_PATHS, rememberTarget } from '../app/pages';
import { VersionNotice } from '../app/VersionNotice';
import { normalizePath } from '../menu/build';
import { RequestProgress } from '../ui/RequestProgress';
import { Toaster } from '../ui/toast';

export const rootRoute = createRootRoute({
  // Rule 3: without a token only the public pages are allowed; everything else goes to /login.
  beforeLoad: ({ location }) => {
    const path = normalizePath(location.pathname);
    if (!session.hasToken() && !PUBLIC_PATHS.has(path)) {
      if (path !== '/') rememberTarget(location.href); // login returns there
      throw redirect({ to: '/login', replace: true });
    }
  },
  component: () => (
    <>
      <RequestProgress />
      <Outlet />
      <Toaster />
      <VersionNotice />
    </>
  ),
  notFoundComponent: () => <Navigate to="/404" replace />,
});
