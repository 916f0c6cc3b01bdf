import { Suspense } from 'react';
import { useLingui } from '@lingui/react';
import { PageErrorBoundary } from '../app/errors.tsx';
import type { PageRoute } from '../menu/build.ts';
import { menuLabel } from '../menu/names.ts';
import ComingSoon from '../modules/placeholder/ComingSoon.tsx';
import IframePage from '../modules/iframe/IframePage.tsx';
import { getView } from '../modules/registry.ts';
import { PageSpinner } from '../ui/Spinner.tsx';

/** Renders a menu or module page: an iframe for http view paths, the module's view, or "coming soon". */
export function PageView({ page }: { page: PageRoute }) {
  const { i18n } = useLingui();
  const title = menuLabel(i18n, page.meta.label);
  if (page.meta.iframeUrl) return <IframePage url={page.meta.iframeUrl} title={title} />;
  const View = getView(page.viewPath);
  if (!View) return <ComingSoon title={title} />;
  return (
    <PageErrorBoundary>
      <Suspense fallback={<PageSpinner />}>
        <View />
      </Suspense>
    </PageErrorBoundary>
  );
}
