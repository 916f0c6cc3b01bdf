/** The catch-all route's page: whatever menu or module page the path resolves to. */
import { useRouterState } from '@tanstack/react-router';
import { resolvePage } from '../app/pages.ts';
import { useApp } from '../app/store.ts';
import { PageView } from '../layout/PageView.tsx';

export function MenuRoutePage() {
  const { menu } = useApp();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const page = resolvePage(pathname, menu);
  // The route's beforeLoad sends unknown paths to /404, so a page is always found here.
  return page ? <PageView page={page} /> : null;
}
