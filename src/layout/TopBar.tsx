/** The top bar: menu toggle, breadcrumb, language switch and the user menu. */
import { useNavigate } from '@tanstack/react-router';
import { DropdownMenu } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import type { User } from '../api/base.ts';
import { logout } from '../app/auth.ts';
import { menuLabel } from '../menu/names.ts';
import { Icon } from '../ui/icons.tsx';
import { useFileUrl } from '../kit/upload.ts';
import { LanguageMenu } from './LanguageMenu.tsx';
import { ThemeMenu } from './ThemeMenu.tsx';
import { userName } from '../app/users.ts';
import { ChatTotal } from '../modules/chat/ChatTotal.tsx';

interface TopBarProps {
  collapsed: boolean;
  onToggleMenu: () => void;
  /** Breadcrumb: group names then the page label (untranslated menu names). */
  crumbs: string[];
  user: User | null;
}

export function displayName(user: User | null): string {
  return userName(user);
}

export function TopBar({ collapsed, onToggleMenu, crumbs, user }: TopBarProps) {
  const { t, i18n } = useLingui();
  return (
    <header className="flex h-14 shrink-0 items-center gap-2 border-b border-slate-200 bg-white px-3">
      <button type="button" className="aw-btn-icon" onClick={onToggleMenu} aria-expanded={!collapsed}>
        <Icon name="panelLeft" className="size-[18px]" />
        <span className="sr-only">{collapsed ? t`Expand menu` : t`Collapse menu`}</span>
      </button>
      <nav aria-label={t`Breadcrumb`} className="min-w-0 flex-1">
        <ol className="flex min-w-0 items-center gap-1.5 text-sm">
          {crumbs.map((crumb, i) => {
            const last = i === crumbs.length - 1;
            return (
              <li key={`${i}-${crumb}`} className={`flex min-w-0 items-center gap-1.5 ${last ? '' : 'hidden sm:flex'}`}>
                <span
                  className={last ? 'truncate font-medium text-slate-800' : 'truncate text-slate-500'}
                  aria-current={last ? 'page' : undefined}
                >
                  {menuLabel(i18n, crumb)}
                </span>
                {!last && <Icon name="chevronRight" className="size-3.5 shrink-0 text-slate-400" />}
              </li>
            );
          })}
        </ol>
      </nav>
      <ChatTotal />
      <ThemeMenu />
      <LanguageMenu />
      <UserMenu user={user} />
    </header>
  );
}

function UserMenu({ user }: { user: User | null }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const name = displayName(user);
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className="flex h-9 items-center gap-2 rounded-md pr-2 pl-1 text-sm text-slate-700 outline-none hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-primary-light-5"
        aria-label={t`User menu`}
      >
        <Avatar user={user} />
        <span className="hidden max-w-32 truncate md:inline">{name}</span>
        <Icon name="chevronDown" className="size-3 opacity-60" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className="aw-menu min-w-48">
          {user && (
            <div className="border-b border-slate-100 px-2.5 pt-1.5 pb-2">
              <div className="truncate font-medium text-slate-800">{name}</div>
              <div className="truncate text-xs text-slate-500">{user.username}</div>
            </div>
          )}
          <DropdownMenu.Item className="aw-menu-item mt-1" onSelect={() => void navigate({ to: '/my/info' })}>
            <Icon name="user" />
            {t`Personal center`}
          </DropdownMenu.Item>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
          <DropdownMenu.Item className="aw-menu-item text-red-600 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-600" onSelect={() => void logout()}>
            <Icon name="logout" />
            {t`Log out`}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function Avatar({ user, large = false }: { user: User | null; large?: boolean }) {
  const size = large ? 'size-14 text-xl' : 'size-7 text-xs';
  const initial = (displayName(user) || '?').slice(0, 1).toUpperCase();
  const src = useFileUrl(user?.headImg ?? '');
  if (src) {
    return <img src={src} alt="" className={`${size} shrink-0 rounded-full object-cover`} />;
  }
  return (
    <span
      aria-hidden="true"
      className={`${size} flex shrink-0 items-center justify-center rounded-full bg-primary-light-8 font-semibold text-primary`}
    >
      {initial}
    </span>
  );
}
