/** `/`: the first page of the first menu group. */
import { useLingui } from '@lingui/react/macro';
import { useApp } from '../app/store.ts';
import { PageView } from '../layout/PageView.tsx';
import { EmptyState } from '../ui/EmptyState.tsx';

export function HomePage() {
  const { t } = useLingui();
  const { menu } = useApp();
  if (menu.home) return <PageView page={menu.home} />;
  return (
    <EmptyState icon="list" title={t`Welcome to Archwright`} tone="muted">
      {t`No pages have been assigned to your account yet.`}
    </EmptyState>
  );
}
