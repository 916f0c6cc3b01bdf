/** `/`: the first page of the first menu group. */
import { useLingui } from '@lingui/react/macro';
import { useApp } from '../app/store';
import { PageView } from '../layout/PageView';
import { EmptyState } from '../ui/EmptyState';

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
