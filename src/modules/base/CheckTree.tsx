/**
 * A tree of checkboxes (menus and permissions of a role, departments of its data scope). Checking
 * a node checks its subtree; a node whose subtree is partly checked shows as indeterminate.
 */
import { useMemo, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../../ui/icons.tsx';
import { childrenOf, withDescendants, type TreeRow } from './tree.ts';

export interface CheckTreeProps {
  rows: readonly TreeRow[];
  value: readonly number[];
  onChange?: (ids: number[]) => void;
  label: (row: TreeRow) => string;
  /** Small text after the label (e.g. a permission string). */
  hint?: (row: TreeRow) => string | null | undefined;
  /** Tooltip of a row's label. */
  title?: (row: TreeRow) => string | null | undefined;
  disabled?: boolean;
  /** Accessible name of the tree. */
  name: string;
}

export function CheckTree({ rows, value, onChange, label, hint, title, disabled, name }: CheckTreeProps) {
  const { t } = useLingui();
  const children = useMemo(() => childrenOf(rows), [rows]);
  const checked = useMemo(() => new Set(value), [value]);
  const [closed, setClosed] = useState<Set<number>>(() => new Set());

  const toggle = (row: TreeRow, on: boolean) => {
    const ids = withDescendants(rows, [row.id]);
    const next = new Set(checked);
    for (const id of ids) (on ? next.add(id) : next.delete(id));
    onChange?.([...next].sort((a, b) => a - b));
  };
  const state = (row: TreeRow): 'on' | 'off' | 'some' => {
    const ids = withDescendants(rows, [row.id]);
    const n = ids.filter((id) => checked.has(id)).length;
    return n === 0 ? 'off' : n === ids.length ? 'on' : checked.has(row.id) || n > 0 ? 'some' : 'off';
  };

  const renderLevel = (parent: number | null, depth: number) => (
    <ul role={depth === 0 ? 'tree' : 'group'} aria-label={depth === 0 ? name : undefined} className={depth ? 'ml-4 border-l border-slate-100 pl-1' : ''}>
      {(children.get(parent) ?? []).map((row) => {
        const kids = children.get(row.id);
        const open = !closed.has(row.id);
        const s = state(row);
        const text = label(row);
        return (
          <li key={row.id} role="treeitem" aria-expanded={kids ? open : undefined} aria-selected={s === 'on'}>
            <div className="flex items-center gap-1 rounded px-1 py-0.5 hover:bg-slate-50">
              {kids ? (
                <button
                  type="button"
                  className="flex size-5 items-center justify-center text-slate-400"
                  aria-label={open ? t`Collapse ${text}` : t`Expand ${text}`}
                  onClick={() => setClosed((c) => { const n = new Set(c); if (open) n.add(row.id); else n.delete(row.id); return n; })}
                >
                  <Icon name={open ? 'chevronDown' : 'chevronRight'} className="size-3.5" />
                </button>
              ) : (
                <span className="size-5" />
              )}
              <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 text-sm text-slate-700" title={title?.(row) || undefined}>
                <input
                  type="checkbox"
                  className="size-4 accent-[var(--color-primary,#4165d7)]"
                  checked={s === 'on'}
                  ref={(el) => { if (el) el.indeterminate = s === 'some'; }}
                  disabled={disabled}
                  onChange={(e) => toggle(row, e.target.checked)}
                />
                {/* The name is what people read: it keeps its width; a long permission hint gives way
                    (in full as a tooltip). */}
                <span className="shrink-0 whitespace-nowrap">{text}</span>
                {hint?.(row) && (
                  <span className="min-w-0 truncate font-mono text-xs text-slate-400" title={hint(row) ?? undefined}>
                    {hint(row)}
                  </span>
                )}
              </label>
            </div>
            {kids && open && renderLevel(row.id, depth + 1)}
          </li>
        );
      })}
    </ul>
  );

  return (
    <div className="max-h-80 overflow-auto rounded-md border border-slate-200 p-1.5">
      {rows.length === 0 ? <p className="px-2 py-4 text-center text-sm text-slate-400">{t`No data`}</p> : renderLevel(null, 0)}
    </div>
  );
}
