/**
 * The sidebar, built from the server's menu: groups (collapsible, nestable) and pages, with icons
 * and the active item. Collapsed, it shows the top level as icons; groups then open as menus.
 */
import { useEffect, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { DropdownMenu, Tooltip } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import { findTrail, type MenuNode } from '../menu/build.ts';
import { menuLabel } from '../menu/names.ts';
import { Icon, menuIcon } from '../ui/icons.tsx';

interface SidebarProps {
  tree: MenuNode[];
  /** Path of the page being shown (the home page's own path on `/`). */
  activePath: string | null;
  collapsed: boolean;
  /** Mini screen: the sidebar overlays the content and hides when collapsed. */
  mini: boolean;
  onNavigate: () => void;
}

export function Sidebar({ tree, activePath, collapsed, mini, onNavigate }: SidebarProps) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set(trailIds(tree, activePath)));

  // Opening a page opens the groups above it.
  useEffect(() => {
    const ids = trailIds(tree, activePath);
    setOpen((prev) => (ids.every((id) => prev.has(id)) ? prev : new Set([...prev, ...ids])));
  }, [tree, activePath]);

  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const rail = collapsed && !mini;
  const hidden = collapsed && mini;

  return (
    <>
      {mini && !collapsed && (
        <div className="fixed inset-0 z-30 bg-slate-900/40" style={{ animation: 'aw-fade-in .15s' }} onClick={onNavigate} aria-hidden="true" />
      )}
      <aside
        className={[
          'flex shrink-0 flex-col bg-sidebar text-slate-300 transition-[width] duration-200',
          mini ? 'fixed inset-y-0 left-0 z-40 shadow-xl' : 'relative',
          hidden ? 'w-0 overflow-hidden' : rail ? 'w-16' : 'w-72',
        ].join(' ')}
        aria-hidden={hidden || undefined}
        inert={hidden || undefined}
      >
        <Link to="/" className="flex h-14 shrink-0 items-center gap-2.5 px-4 text-white outline-none" onClick={onNavigate}>
          <Logo />
          {!rail && <span className="truncate text-base font-semibold tracking-tight">Archwright</span>}
          {rail && <span className="sr-only">Archwright</span>}
        </Link>
        <nav aria-label={t`Main menu`} className="min-h-0 flex-1 overflow-x-hidden overflow-y-auto px-2 pb-4">
          {tree.length === 0 ? (
            !rail && <p className="px-3 py-2 text-xs text-slate-500">{t`No menu entries`}</p>
          ) : rail ? (
            <Tooltip.Provider delayDuration={200}>
              <ul className="flex flex-col items-center gap-1 pt-1">
                {tree.map((node) => (
                  <RailItem key={node.id} node={node} activePath={activePath} i18n={i18n} />
                ))}
              </ul>
            </Tooltip.Provider>
          ) : (
            <ul className="flex flex-col gap-0.5 pt-1">
              {tree.map((node) => (
                <TreeItem key={node.id} node={node} depth={0} activePath={activePath} open={open} onToggle={toggle} onNavigate={onNavigate} i18n={i18n} />
              ))}
            </ul>
          )}
        </nav>
      </aside>
    </>
  );
}

/**
 * A group holding just one page of the same name (the seeded "Data board") shows as that page,
 * with the group's icon.
 */
function display(node: MenuNode): MenuNode {
  const only = node.kind === 'group' && node.children.length === 1 ? node.children[0] : undefined;
  return only && only.kind === 'page' && only.name === node.name ? { ...only, icon: node.icon || only.icon } : node;
}

function trailIds(tree: MenuNode[], path: string | null): number[] {
  return path ? findTrail(tree, path).filter((n) => n.kind === 'group').map((n) => n.id) : [];
}

function containsPath(node: MenuNode, path: string | null): boolean {
  return !!path && (node.route?.path === path || node.children.some((c) => containsPath(c, path)));
}

function Logo() {
  return (
    <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true">
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path d="M7 21c3-9 15-9 18 0" fill="none" stroke="white" strokeWidth="3" strokeLinecap="round" />
      <circle cx="16" cy="13.5" r="2" fill="white" />
    </svg>
  );
}

interface TreeItemProps {
  node: MenuNode;
  depth: number;
  activePath: string | null;
  open: ReadonlySet<number>;
  onToggle: (id: number) => void;
  onNavigate: () => void;
  i18n: I18n;
}

/**
 * Menu names wrap onto a second line (hyphenated where the browser knows the language), longer
 * ones are clamped at two lines and the title shows the full name. The sidebar is 18rem wide so
 * that German compounds such as "Schnittstellenkonfiguration" fit on one line.
 */
const LABEL = 'min-w-0 line-clamp-2 hyphens-auto leading-tight [overflow-wrap:anywhere]';

function TreeItem({ node: raw, depth, activePath, open, onToggle, onNavigate, i18n }: TreeItemProps) {
  const node = display(raw);
  const label = menuLabel(i18n, node.name);
  const indent = { paddingLeft: `${12 + depth * 14}px` };
  const icon = depth === 0 ? <Icon name={menuIcon(node.icon, node.name)} className="size-[18px] shrink-0" /> : null;

  if (node.kind === 'page' && node.route) {
    const active = node.route.path === activePath;
    return (
      <li>
        <Link
          to={node.route.path}
          onClick={onNavigate}
          aria-current={active ? 'page' : undefined}
          style={indent}
          className={[
            'flex min-h-10 items-center gap-3 rounded-md py-1.5 pr-3 text-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-primary-light-5',
            active ? 'bg-primary font-medium text-white shadow-sm' : 'hover:bg-sidebar-hover hover:text-white',
          ].join(' ')}
        >
          {icon ?? <span className="size-1.5 shrink-0 rounded-full bg-current opacity-50" aria-hidden="true" />}
          <span className={LABEL} title={label}>
            {label}
          </span>
        </Link>
      </li>
    );
  }

  const expanded = open.has(node.id);
  const holdsActive = containsPath(node, activePath);
  const listId = `menu-group-${node.id}`;
  return (
    <li>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => onToggle(node.id)}
        style={indent}
        className={[
          'flex min-h-10 w-full items-center gap-3 rounded-md py-1.5 pr-3 text-left text-sm transition-colors outline-none hover:bg-sidebar-hover hover:text-white focus-visible:ring-2 focus-visible:ring-primary-light-5',
          holdsActive ? 'text-white' : '',
        ].join(' ')}
      >
        {icon}
        <span className={`flex-1 ${LABEL}`} title={label}>
          {label}
        </span>
        <Icon name="chevronDown" className={`size-3.5 shrink-0 opacity-60 transition-transform ${expanded ? '' : '-rotate-90'}`} />
      </button>
      {expanded && (
        <ul id={listId} className="mt-0.5 flex flex-col gap-0.5">
          {node.children.map((child) => (
            <TreeItem key={child.id} node={child} depth={depth + 1} activePath={activePath} open={open} onToggle={onToggle} onNavigate={onNavigate} i18n={i18n} />
          ))}
        </ul>
      )}
    </li>
  );
}

function RailItem({ node: raw, activePath, i18n }: { node: MenuNode; activePath: string | null; i18n: I18n }) {
  const node = display(raw);
  const label = menuLabel(i18n, node.name);
  const active = containsPath(node, activePath);
  const cls = [
    'flex size-10 items-center justify-center rounded-md transition-colors outline-none focus-visible:ring-2 focus-visible:ring-primary-light-5',
    active ? 'bg-primary text-white' : 'hover:bg-sidebar-hover hover:text-white',
  ].join(' ');
  const icon = <Icon name={menuIcon(node.icon, node.name)} className="size-[18px]" />;

  if (node.kind === 'page' && node.route) {
    return (
      <li>
        <Tooltip.Root>
          <Tooltip.Trigger asChild>
            <Link to={node.route.path} aria-current={node.route.path === activePath ? 'page' : undefined} className={cls}>
              {icon}
              <span className="sr-only">{label}</span>
            </Link>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content side="right" sideOffset={8} className="z-50 rounded-md bg-slate-900 px-2 py-1 text-xs text-white shadow">
              {label}
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      </li>
    );
  }
  return (
    <li>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className={cls}>
          {icon}
          <span className="sr-only">{label}</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content side="right" align="start" sideOffset={8} className="aw-menu">
            <DropdownMenu.Label className="px-2.5 py-1.5 text-xs font-medium text-slate-400">{label}</DropdownMenu.Label>
            <RailMenuItems nodes={node.children} activePath={activePath} i18n={i18n} />
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </li>
  );
}

function RailMenuItems({ nodes, activePath, i18n }: { nodes: MenuNode[]; activePath: string | null; i18n: I18n }) {
  return nodes.map((node) => {
    const label = menuLabel(i18n, node.name);
    if (node.kind === 'page' && node.route) {
      const active = node.route.path === activePath;
      return (
        <DropdownMenu.Item key={node.id} asChild className={`aw-menu-item ${active ? 'text-primary' : ''}`}>
          <Link to={node.route.path} aria-current={active ? 'page' : undefined}>
            {label}
          </Link>
        </DropdownMenu.Item>
      );
    }
    return (
      <DropdownMenu.Sub key={node.id}>
        <DropdownMenu.SubTrigger className="aw-menu-item justify-between">
          {label}
          <Icon name="chevronRight" className="size-3.5 opacity-60" />
        </DropdownMenu.SubTrigger>
        <DropdownMenu.Portal>
          <DropdownMenu.SubContent sideOffset={4} className="aw-menu">
            <RailMenuItems nodes={node.children} activePath={activePath} i18n={i18n} />
          </DropdownMenu.SubContent>
        </DropdownMenu.Portal>
      </DropdownMenu.Sub>
    );
  });
}
