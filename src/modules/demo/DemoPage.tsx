/**
 * The frame of a plugin demo page: a card with its title and a line on what it shows. A page of a
 * built-in plugin disabled in the plugin list says so instead of showing it.
 */
import type { ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { BuiltInPluginKey } from '../../../common/plugins.ts';
import { usePluginEnabled } from '../../app/plugins.ts';

interface DemoPageProps {
  title: string;
  intro?: string;
  actions?: ReactNode;
  /** The built-in plugin the page shows. */
  plugin?: BuiltInPluginKey;
  children: ReactNode;
}

export function DemoPage({ title, intro, actions, plugin, children }: DemoPageProps) {
  const { t } = useLingui();
  const enabled = usePluginEnabled(plugin ?? '');
  if (plugin && !enabled) {
    return (
      <div className="p-3 sm:p-4">
        <section className="aw-card p-4">
          <h1 className="text-lg font-semibold text-slate-800">{title}</h1>
          <p role="status" className="mt-2 text-sm text-slate-500">{t`This plugin is disabled. An administrator can enable it in the plugin list.`}</p>
        </section>
      </div>
    );
  }
  return (
    <div className="p-3 sm:p-4">
      <section className="aw-card p-4">
        <header className="mb-4 flex flex-wrap items-start gap-3">
          <div className="mr-auto">
            <h1 className="text-lg font-semibold text-slate-800">{title}</h1>
            {intro && <p className="mt-1 text-sm text-slate-500">{intro}</p>}
          </div>
          {actions}
        </header>
        {children}
      </section>
    </div>
  );
}
