/**
 * The visited-pages list under the top bar. The home page is always first; other pages join when
 * visited (unless their meta says `process: false`) and can be closed.
 */
import { useNavigate } from '@tanstack/react-router';
import { DropdownMenu } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { menuLabel } from '../menu/names.ts';
import { Icon } from '../ui/icons.tsx';
import { useVisited, visited } from './tabs.ts';

interface ProcessTabsProps {
  /** Label of the home page (untranslated menu name), or null without a home page. */
  homeLabel: string | null;
  /** Key of the shown page: '/' for home, else its path. */
  activeKey: string;
}

export function ProcessTabs({ homeLabel, activeKey }: ProcessTabsProps) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const tabs = useVisited();
  const go = (href: string) => void navigate({ href });

  const close = (path: string) => {
    const i = tabs.findIndex((tab) => tab.path === path);
    visited.close(path);
    if (path !== activeKey) return;
    const neighbour = tabs[i - 1] ?? tabs[i + 1];
    go(neighbour ? neighbour.href : '/');
  };

  const tabClass = (active: boolean) =>
    [
      'flex h-7 items-center gap-1.5 rounded-md border text-[13px] whitespace-nowrap transition-colors outline-none focus-visible:ring-2 focus-visible:ring-primary-light-5',
      active
        ? 'border-primary-light-7 bg-primary-light-9 font-medium text-primary'
        : 'border-transparent text-slate-600 hover:bg-slate-100 hover:text-slate-900',
    ].join(' ');

  return (
    <div className="flex h-10 shrink-0 items-center gap-1 border-b border-slate-200 bg-white pr-2 pl-3">
      <div role="tablist" aria-label={t`Visited pages`} className="flex min-w-0 flex-1 items-center gap-1 overflow-x-auto [scrollbar-width:none]">
        {homeLabel !== null && (
          <div role="presentation" className="shrink-0">
            <button type="button" role="tab" aria-selected={activeKey === '/'} className={`${tabClass(activeKey === '/')} px-2.5`} onClick={() => go('/')}>
              <Icon name="home" className="size-3.5" />
              {menuLabel(i18n, homeLabel)}
            </button>
          </div>
        )}
        {tabs.map((tab) => {
          const active = tab.path === activeKey;
          const label = menuLabel(i18n, tab.label);
          return (
            <div role="presentation" key={tab.path} className={`${tabClass(active)} shrink-0 pr-1 pl-2.5`}>
              <button
                type="button"
                role="tab"
                aria-selected={active}
                className="outline-none"
                onClick={() => go(tab.href)}
                onAuxClick={(e) => {
                  if (e.button === 1) close(tab.path);
                }}
              >
                {label}
              </button>
              <button
                type="button"
                aria-label={t`Close ${label}`}
                className="rounded p-0.5 text-current opacity-50 hover:bg-black/5 hover:opacity-100"
                onClick={() => close(tab.path)}
              >
                <Icon name="x" className="size-3" />
              </button>
            </div>
          );
        })}
      </div>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className="aw-btn-icon size-7" aria-label={t`Tab actions`}>
          <Icon name="chevronDown" className="size-3.5" />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="end" sideOffset={6} className="aw-menu">
            <DropdownMenu.Item className="aw-menu-item" disabled={activeKey === '/'} onSelect={() => close(activeKey)}>
              {t`Close current tab`}
            </DropdownMenu.Item>
            <DropdownMenu.Item className="aw-menu-item" onSelect={() => visited.closeOthers(activeKey)}>
              {t`Close other tabs`}
            </DropdownMenu.Item>
            <DropdownMenu.Item
              className="aw-menu-item"
              onSelect={() => {
                visited.clear();
                go('/');
              }}
            >
              {t`Close all tabs`}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </div>
  );
}
