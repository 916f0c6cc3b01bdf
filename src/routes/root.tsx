import { createRootRoute, Navigate, Outlet, redirect } from '@tanstack/react-router';
import { session } from '../api/client.ts';
import { PUBLIC_PATHS, rememberTarget } from '../app/pages.ts';
import { VersionNotice } from '../app/VersionNotice.tsx';
import { normalizePath } from '../menu/build.ts';
import { RequestProgress } from '../ui/RequestProgress.tsx';
import { Toaster } from '../ui/toast.tsx';

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
