/** /bend: the 3D design editor, full window (no sidebar), login required (rule 3). */
import { Suspense } from 'react';
import { createRoute } from '@tanstack/react-router';
import { session } from '../api/client.ts';
import { PageErrorBoundary } from '../app/errors.tsx';
import { lazyPage } from '../app/lazy.ts';
import { orderIdOf } from '../editor/order/orderId.ts';
import { PageSpinner } from '../ui/Spinner.tsx';
import { rootRoute } from './root.tsx';

const loadBendPage = () => import('../editor/BendPage.tsx');
const BendPage = lazyPage(loadBendPage);

/**
 * Entering /bend starts the editor's chunk, its geometry worker and, with ?orderId=N, the order's
 * requests and downloads at once, instead of once the page has rendered and its engine exists.
 * Called at boot for a page loaded on /bend, and by the route's loader for in-app navigation.
 */
export function prefetchBend(searchStr: string): void {
  if (!session.hasToken()) return;
  void loadBendPage().catch(() => {}); // a failure shows when the page renders
  const orderId = orderIdOf(searchStr);
  void import('../editor/order/prefetch.ts').then(
    (m) => m.prefetchEditor(orderId),
    () => {},
  );
}

export const bendRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/bend',
  loader: ({ location }) => prefetchBend(location.searchStr),
  component: () => (
    <PageErrorBoundary>
      <Suspense fallback={<PageSpinner />}>
        <BendPage />
      </Suspense>
    </PageErrorBoundary>
  ),
});
