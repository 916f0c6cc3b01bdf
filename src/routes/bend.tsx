/** /bend: the 3D design editor, full window (no sidebar), login required (rule 3). */
import { Suspense } from 'react';
import { createRoute } from '@tanstack/react-router';
import { PageErrorBoundary } from '../app/errors';
import { lazyPage } from '../app/lazy';
import { PageSpinner } from '../ui/Spinner';
import { rootRoute } from './root';

const BendPage = lazyPage(() => import('../editor/BendPage'));

export const bendRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/bend',
  component: () => (
    <PageErrorBoundary>
      <Suspense fallback={<PageSpinner />}>
        <BendPage />
      </Suspense>
    </PageErrorBoundary>
  ),
});
