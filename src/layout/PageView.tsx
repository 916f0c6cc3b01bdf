import { Suspense } from 'react';
import { useLingui } from '@lingui/react';
import { PageErrorBoundary } from '../app/errors';
import type { PageRoute } from '../menu/build';
import { menuLabel } from '../menu/names';
import ComingSoon from '../modules/placeholder/ComingSoon';
import IframePage from '../modules/iframe/IframePage';
import { getView } from '../modules/registry';
import { PageSpinner } from '../ui/Spinner';

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
