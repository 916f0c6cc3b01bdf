/** /transfer?to=/path: a neutral stop that forwards to a local path (or home). Not tracked as a tab. */
import { useEffect } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { safeRedirect } from '../app/pages.ts';
import { Spinner } from '../ui/Spinner.tsx';

export function TransferPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const search: { to?: unknown } = useSearch({ strict: false });
  const target = safeRedirect(search.to) ?? '/';

  useEffect(() => {
    void navigate({ href: target, replace: true });
  }, [navigate, target]);

  return (
    <main role="status" className="flex min-h-full items-center justify-center gap-3 bg-slate-50 text-sm text-slate-500">
      <Spinner />
      {t`Redirecting…`}
    </main>
  );
}
