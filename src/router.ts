import { createRouter } from '@tanstack/react-router';
import { RouteError } from './app/errors';
import { PageSpinner } from './ui/Spinner';
import { bendRoute } from './routes/bend';
import { homeRoute, mainRoute, menuRoute, myInfoRoute } from './routes/main';
import { errorRoutes, loginRoute, transferRoute } from './routes/public';
import { rootRoute } from './routes/root';

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
