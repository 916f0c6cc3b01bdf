import { useLingui } from '@lingui/react/macro';
import { Icon } from '../../ui/icons';

/** Stands in for the pages of modules that are not built yet, so that every menu entry works. */
export default function ComingSoon({ title }: { title: string }) {
  const { t } = useLingui();
  return (
    <div className="flex h-full min-h-80 items-center justify-center p-6">
      <div className="max-w-sm text-center">
        <div className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-primary-light-9 text-primary">
          <Icon name="hammer" className="size-7" />
        </div>
        <h2 className="mt-4 text-lg font-semibold text-slate-800">{title}</h2>
        <p className="mt-1.5 text-sm text-slate-500">{t`This page is coming soon`}</p>
      </div>
    </div>
  );
}
