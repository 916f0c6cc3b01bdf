/**
 * The department tree beside the user list: pick a department (its subtree's users show), add,
 * rename, delete (children and users move up to the parent) and reorder among siblings.
 */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { createService, UpsertDialog, useConfirm, type FormItem, type Row, type UpsertTarget } from '../../kit/index.ts';
import { request } from '../../api/client.ts';
import { hasPerm } from '../../app/store.ts';
import { Icon } from '../../ui/icons.tsx';
import { toast } from '../../ui/toast.tsx';
import { locationItems, withLocation } from '../dashboard/location.ts';
import { childrenOf, type TreeRow } from './tree.ts';

const DEPARTMENT = '/admin/base/sys/department';
const service = createService<Row>(DEPARTMENT);

export interface DepartmentPanelProps {
  rows: TreeRow[];
  current: number | null;
  onPick: (id: number | null) => void;
  onChanged: () => void;
}

export function DepartmentPanel({ rows, current, onPick, onChanged }: DepartmentPanelProps) {
  const { t, i18n } = useLingui();
  const [target, setTarget] = useState<UpsertTarget | null>(null);
  const [closed, setClosed] = useState<Set<number>>(() => new Set());
  const [confirm, confirmDialog] = useConfirm();
  const children = childrenOf(rows);
  const canAdd = hasPerm('base:sys:department:add');
  const canEdit = hasPerm('base:sys:department:update');
  const canOrder = hasPerm('base:sys:department:order');
  const canDelete = hasPerm('base:sys:department:delete');
  const items: FormItem[] = [
    { prop: 'name', label: t({ message: 'Name', context: 'object' }), required: true },
    { prop: 'orderNum', label: t`Sort order`, type: 'number', value: 0 },
    ...locationItems(i18n),
  ];

  async function remove(row: TreeRow) {
    const name = String(row.name);
    const ok = await confirm({ message: t`Delete the department "${name}"? Its sub-departments and users move up to its parent.`, danger: true });
    if (!ok) return;
    await service.delete!({ ids: [row.id] });
    toast.success(t`Delete successful`);
    if (current === row.id) onPick(null);
    onChanged();
  }

  /** Swaps a department with its previous (-1) or next (+1) sibling. */
  async function move(row: TreeRow, step: -1 | 1) {
    const siblings = children.get(row.parentId !== null && rows.some((r) => r.id === row.parentId) ? row.parentId : null) ?? [];
    const i = siblings.findIndex((s) => s.id === row.id);
    const other = siblings[i + step];
    if (!other) return;
    const order = siblings.map((s, k) => ({ id: s.id, orderNum: k + 1 }));
    order[i]!.orderNum = i + step + 1;
    order[i + step]!.orderNum = i + 1;
    await request({ url: `${DEPARTMENT}/order`, method: 'POST', data: order });
    onChanged();
  }

  const node = (row: TreeRow, index: number, count: number) => {
    const kids = children.get(row.id);
    const open = !closed.has(row.id);
    const name = String(row.name);
    return (
      <li key={row.id} role="treeitem" aria-expanded={kids ? open : undefined} aria-selected={current === row.id}>
        <div className={`group flex items-center gap-0.5 rounded-md px-1 py-1 text-sm ${current === row.id ? 'bg-primary-light-9 text-primary' : 'text-slate-700 hover:bg-slate-50'}`}>
          {kids ? (
            <button
              type="button"
              className="flex size-5 shrink-0 items-center justify-center text-slate-400"
              aria-label={open ? t`Collapse ${name}` : t`Expand ${name}`}
              onClick={() => setClosed((c) => { const n = new Set(c); if (open) n.add(row.id); else n.delete(row.id); return n; })}
            >
              <Icon name={open ? 'chevronDown' : 'chevronRight'} className="size-3.5" />
            </button>
          ) : (
            <span className="size-5 shrink-0" />
          )}
          <button type="button" className="min-w-0 flex-1 truncate text-left" onClick={() => onPick(row.id)} aria-current={current === row.id}>
            {name}
          </button>
          <span className="hidden shrink-0 group-focus-within:flex group-hover:flex">
            {canOrder && index > 0 && (
              <button type="button" className="aw-btn-icon size-6" aria-label={t`Move ${name} up`} title={t`Move up`} onClick={() => void move(row, -1).catch(() => undefined)}>
                <Icon name="chevronDown" className="size-3.5 rotate-180" />
              </button>
            )}
            {canOrder && index < count - 1 && (
              <button type="button" className="aw-btn-icon size-6" aria-label={t`Move ${name} down`} title={t`Move down`} onClick={() => void move(row, 1).catch(() => undefined)}>
                <Icon name="chevronDown" className="size-3.5" />
              </button>
            )}
            {canAdd && (
              <button type="button" className="aw-btn-icon size-6" aria-label={t`Add a department under ${name}`} title={t`Add child`} onClick={() => setTarget({ mode: 'add', prefill: { parentId: row.id } })}>
                <span className="text-base leading-none">+</span>
              </button>
            )}
            {canEdit && (
              <button type="button" className="aw-btn-icon size-6" aria-label={t`Edit ${name}`} title={t`Edit`} onClick={() => setTarget({ mode: 'update', id: row.id })}>
                <Icon name="settings" className="size-3.5" />
              </button>
            )}
            {canDelete && (
              <button type="button" className="aw-btn-icon size-6 hover:text-red-600" aria-label={t`Delete ${name}`} title={t`Delete`} onClick={() => void remove(row).catch(() => undefined)}>
                <Icon name="x" className="size-3.5" />
              </button>
            )}
          </span>
        </div>
        {kids && open && <ul role="group" className="ml-3 border-l border-slate-100 pl-1">{kids.map((k, i) => node(k, i, kids.length))}</ul>}
      </li>
    );
  };
  const roots = children.get(null) ?? [];

  return (
    <aside className="aw-card flex w-full shrink-0 flex-col md:w-56" aria-label={t`Departments`}>
      <div className="flex items-center justify-between border-b border-slate-100 px-3 py-2.5">
        <h2 className="text-sm font-semibold text-slate-700">{t`Departments`}</h2>
        {canAdd && (
          <button type="button" className="aw-btn-primary h-7 px-2 text-xs" onClick={() => setTarget({ mode: 'add' })}>
            + {t`Add`}
          </button>
        )}
      </div>
      <div className="max-h-[70vh] flex-1 overflow-auto p-1.5">
        <button
          type="button"
          className={`mb-0.5 w-full rounded-md px-2 py-1 text-left text-sm ${current === null ? 'bg-primary-light-9 text-primary' : 'text-slate-700 hover:bg-slate-50'}`}
          aria-current={current === null}
          onClick={() => onPick(null)}
        >
          {t`All users`}
        </button>
        <ul role="tree" aria-label={t`Department tree`}>{roots.map((r, i) => node(r, i, roots.length))}</ul>
      </div>
      <UpsertDialog
        target={target}
        onClose={() => setTarget(null)}
        onSaved={onChanged}
        service={service}
        items={items}
        width="420px"
        title={(mode) => (mode === 'add' ? t`Add department` : t`Edit department`)}
        onSubmit={(data, mode) =>
          mode === 'add' ? service.add!({ ...withLocation(data), parentId: (target as { prefill?: Row } | null)?.prefill?.parentId ?? null }) : service.update!(withLocation(data))
        }
      />
      {confirmDialog}
    </aside>
  );
}
