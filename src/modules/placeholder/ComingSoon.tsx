import { useLingui } from '@lingui/react/macro';
import { EmptyState } from '../../ui/EmptyState.tsx';

/** Stands in for the pages of modules that are not built yet, so that every menu entry works. */
export default function ComingSoon({ title }: { title: string }) {
  const { t } = useLingui();
  return (
    <EmptyState icon="hammer" title={title}>
      {t`This page is coming soon`}
    </EmptyState>
  );
}
