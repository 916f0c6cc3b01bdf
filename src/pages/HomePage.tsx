/** `/`: the first page of the first menu group. */
import { useLingui } from '@lingui/react/macro';
import { useApp } from '../app/store';
import { PageView } from '../layout/PageView';
import { Icon } from '../ui/icons';

export function HomePage() {
  const { t } = useLingui();
  const { menu } = useApp();
  if (menu.home) return <PageView page={menu.home} />;
  return (
    <div className="flex h-full min-h-80 items-center justify-center p-6 text-center">
      <div className="max-w-sm">
        <div className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-slate-200 text-slate-500">
          <Icon name="list" className="size-7" />
        </div>
        <h2 className="mt-4 text-lg font-semibold text-slate-800">{t`Welcome to Archwright`}</h2>
        <p className="mt-1.5 text-sm text-slate-500">{t`No pages have been assigned to your account yet.`}</p>
      </div>
    </div>
  );
}
