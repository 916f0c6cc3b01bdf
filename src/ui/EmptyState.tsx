import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons.tsx';

/** A centred icon, title and line of text, for pages with nothing to show yet. */
export function EmptyState({ icon, title, children, tone = 'primary' }: { icon: IconName; title: string; children: ReactNode; tone?: 'primary' | 'muted' }) {
  const badge = tone === 'primary' ? 'bg-primary-light-9 text-primary' : 'bg-slate-200 text-slate-500';
  return (
    <div className="flex h-full min-h-80 items-center justify-center p-6 text-center">
      <div className="max-w-sm">
        <div className={`mx-auto flex size-14 items-center justify-center rounded-2xl ${badge}`}>
          <Icon name={icon} className="size-7" />
        </div>
        <h2 className="mt-4 text-lg font-semibold text-slate-800">{title}</h2>
        <p className="mt-1.5 text-sm text-slate-500">{children}</p>
      </div>
    </div>
  );
}
