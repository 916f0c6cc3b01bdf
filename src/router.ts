import { createRouter } from '@tanstack/react-router';
import { RouteError } from './app/errors.tsx';
import { PageSpinner } from './ui/Spinner.tsx';
import { bendRoute } from './routes/bend.tsx';
import { homeRoute, mainRoute, menuRoute, myInfoRoute } from './routes/main.tsx';
import { errorRoutes, loginRoute, transferRoute } from './routes/public.tsx';
import { rootRoute } from './routes/root.tsx';

const routeTree = rootRoute.addChildren([
  loginRoute,
  transferRoute,
  ...errorRoutes,
  bendRoute,
  mainRoute.addChildren([homeRoute, myInfoRoute, menuRoute]),
]);

export const router = createRouter({
  routeTree,
  defaultErrorComponent: RouteError,
  defaultPendingComponent: PageSpinner,
  defaultPendingMs: 400,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
