/**
 * The kit's table (@tanstack/react-table, server-side sorting and paging): selection checkboxes,
 * sortable headers (asc → desc → none), the operation column (160 px, fixed right except on mini
 * screens) with info/update/delete, a right-click row menu (refresh, check, edit, delete, sort
 * ascending, sort descending) that also opens from the keyboard (context-menu key or Shift+F10 on
 * a focused row; Space checks it, Enter opens its details), empty and loading states.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ContextMenu } from 'radix-ui';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowSelectionState } from '@tanstack/react-table';
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../ui/icons.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { useOptions } from './dict.ts';
import type { Option, Perms, Row, RowAction, TableColumn } from './types.ts';
import { getPath } from './values.ts';

export const OP_WIDTH = 160;

export interface SortState {
  order?: string | undefined;
  sort?: 'asc' | 'desc' | undefined;
}

export interface KitTableProps {
  rows: Row[];
  columns: TableColumn[];
  loading: boolean;
  mini: boolean;
  perms: Perms;
  rowKey?: string;
  selection: boolean;
  selected: (number | string)[];
  onSelect: (ids: (number | string)[]) => void;
  sort: SortState;
  onSort: (next: SortState) => void;
  onRefresh: () => void;
  onInfo: (row: Row) => void;
  onUpdate: (row: Row) => void;
  onDelete: (row: Row) => void;
  /** Row buttons: defaults info, update, delete; false hides the operation column. */
  op?: ('info' | 'update' | 'delete')[] | false;
  /** Extra row buttons after the default ones. */
  rowActions?: RowAction[];
  /** Right-click menu; false turns it off. */
  rowMenu?: boolean;
}

function DictCell({ source, value }: { source: Option[] | string; value: unknown }) {
  const options = useOptions(source);
  const values = Array.isArray(value) ? value : typeof value === 'string' && value.includes(',') ? value.split(',') : [value];
  return (
    <span className="flex flex-wrap gap-1">
      {values.map((v, i) => {
        const o = options.find((x) => String(x.value) === String(v));
        if (!o) return <span key={i}>{v === null || v === undefined ? '' : String(v)}</span>;
        return (
          <span
            key={i}
            className="inline-flex h-6 items-center rounded border px-2 text-xs"
            style={o.color ? { color: o.color, borderColor: `color-mix(in srgb, ${o.color} 40%, white)`, background: `color-mix(in srgb, ${o.color} 10%, white)` } : undefined}
          >
            {o.label}
          </span>
        );
      })}
    </span>
  );
}

function cellText(value: unknown): ReactNode {
  if (value === null || value === undefined || value === '') return <span className="text-slate-300">—</span>;
  if (typeof value === 'boolean') return value ? '✓' : '✗';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function KitTable(props: KitTableProps) {
  const { t } = useLingui();
  const { rows, columns, loading, mini, perms, rowKey = 'id', selection, selected, onSelect, sort, onSort } = props;
  const idOf = (row: Row) => row[rowKey] as number | string;
  const op = props.op === false ? [] : (props.op ?? ['info', 'update', 'delete']).filter((a) => perms[a]);
  const extra = props.rowActions ?? [];
  const showOp = op.length > 0 || extra.length > 0;
  const [menuAt, setMenuAt] = useState<{ row: Row; prop: string | null } | null>(null);
  const bodyRef = useRef<HTMLTableSectionElement>(null);

  const rowSelection: RowSelectionState = useMemo(() => Object.fromEntries(selected.map((id) => [String(id), true])), [selected]);

  const defs = useMemo<ColumnDef<Row>[]>(() => {
    const list: ColumnDef<Row>[] = [];
    if (selection) {
      list.push({
        id: '__select',
        size: 44,
        header: ({ table }) => (
          <input
            type="checkbox"
            className="size-4 accent-primary"
            aria-label={t`Select all`}
            checked={table.getIsAllRowsSelected()}
            ref={(el) => {
              if (el) el.indeterminate = table.getIsSomeRowsSelected();
            }}
            onChange={table.getToggleAllRowsSelectedHandler()}
            disabled={table.getRowModel().rows.length === 0}
          />
        ),
        cell: ({ row }) => (
          <input type="checkbox" className="size-4 accent-primary" aria-label={t`Select row`} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />
        ),
      });
    }
    for (const c of columns) {
      if (c.hidden) continue;
      list.push({
        id: c.prop,
        header: c.label,
        size: c.width ?? c.minWidth ?? 120,
        meta: c,
        cell: ({ row }) => {
          const value = getPath(row.original, c.prop);
          if (c.render) return c.render(row.original);
          if (c.dict) return <DictCell source={c.dict} value={value} />;
          return cellText(value);
        },
      });
    }
    return list;
  }, [columns, selection, t]);

  const table = useReactTable({
    data: rows,
    columns: defs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row, index) => String(row[rowKey] ?? index),
    manualSorting: true,
    manualPagination: true,
    enableRowSelection: selection,
    state: { rowSelection },
    onRowSelectionChange: (updater) => {
      const next = typeof updater === 'function' ? updater(rowSelection) : updater;
      onSelect(rows.map(idOf).filter((id) => next[String(id)]));
    },
  });

  const toggleSort = (prop: string) => {
    if (sort.order !== prop) onSort({ order: prop, sort: 'asc' });
    else if (sort.sort === 'asc') onSort({ order: prop, sort: 'desc' });
    else onSort({});
  };

  const opButton = (label: string, onClick: () => void, danger = false, badge?: ReactNode) => (
    <button type="button" onClick={onClick} className={`rounded px-1 py-0.5 text-[13px] whitespace-nowrap outline-none hover:underline focus-visible:ring-2 focus-visible:ring-primary-light-5 ${danger ? 'text-red-600' : 'text-primary'} ${badge ? 'inline-flex items-center gap-1' : ''}`}>
      {label}
      {badge}
    </button>
  );
  const sticky = !mini;
  // The fixed operation column casts a clear shadow while columns are hidden under it (until the
  // table is scrolled to its end), so the user sees there is more to the right.
  const opCell = `w-[160px] min-w-[160px] ${sticky ? 'sticky right-0 z-[1] before:pointer-events-none before:absolute before:inset-y-0 before:-left-3 before:w-3 before:bg-linear-to-l before:from-slate-900/15 before:to-transparent before:opacity-0 before:transition-opacity group-data-[covered=true]/table:before:opacity-100' : ''}`;

  // Is something hidden to the right (under the fixed column)? Checked on scroll and resize.
  const scrollRef = useRef<HTMLDivElement>(null);
  const [covered, setCovered] = useState(false);
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const update = () => setCovered(el.scrollLeft + el.clientWidth < el.scrollWidth - 1);
    update();
    el.addEventListener('scroll', update, { passive: true });
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    ro?.observe(el);
    if (el.firstElementChild) ro?.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', update);
      ro?.disconnect();
    };
  }, [rows, columns]);

  const menuColumn = menuAt?.prop ? columns.find((c) => c.prop === menuAt.prop) : undefined;
  const menuRowSelected = menuAt ? selected.some((id) => String(id) === String(idOf(menuAt.row))) : false;

  const body = (
    <tbody ref={bodyRef}>
      {table.getRowModel().rows.map((row) => (
        <tr
          key={row.id}
          tabIndex={0}
          data-row-id={row.id}
          aria-selected={selection ? row.getIsSelected() : undefined}
          className="group border-b border-slate-100 outline-none hover:bg-slate-50 focus-visible:bg-primary-light-9 aria-selected:bg-primary-light-9"
          onContextMenu={(e) => {
            const td = (e.target as HTMLElement).closest('td');
            setMenuAt({ row: row.original, prop: td?.getAttribute('data-prop') ?? null });
          }}
          onKeyDown={(e) => {
            if (e.target !== e.currentTarget) return;
            if (e.key === ' ' && selection) {
              e.preventDefault();
              row.toggleSelected();
            } else if (e.key === 'Enter' && (op.includes('info') || op.includes('update'))) {
              // Enter opens the row: details when offered, else edit.
              e.preventDefault();
              if (op.includes('info')) props.onInfo(row.original);
              else props.onUpdate(row.original);
            } else if (e.key === 'F10' && e.shiftKey) {
              // Keyboards without a context-menu key: open the row menu where the row is.
              e.preventDefault();
              const r = e.currentTarget.getBoundingClientRect();
              e.currentTarget.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: r.left + 24, clientY: r.top + r.height / 2 }));
            }
          }}
        >
          {row.getVisibleCells().map((cell) => {
            const meta = cell.column.columnDef.meta as TableColumn | undefined;
            return (
              <td
                key={cell.id}
                data-prop={meta?.prop}
                className={`px-3 py-2.5 align-middle text-sm whitespace-nowrap text-slate-700 ${cell.column.id === '__select' ? 'w-11 text-center' : ''}`}
                style={meta ? { textAlign: meta.align ?? 'left', minWidth: meta.minWidth, width: meta.width } : undefined}
              >
                {flexRender(cell.column.columnDef.cell, cell.getContext())}
              </td>
            );
          })}
          {showOp && (
            <td className={`${opCell} bg-white px-1 py-2 group-hover:bg-slate-50 group-aria-selected:bg-primary-light-9`}>
              <div className="flex flex-wrap items-center justify-center gap-x-0.5">
                {op.includes('info') && opButton(t`Details`, () => props.onInfo(row.original))}
                {op.includes('update') && opButton(t`Edit`, () => props.onUpdate(row.original))}
                {op.includes('delete') && opButton(t`Delete`, () => props.onDelete(row.original), true)}
                {extra.filter((a) => !a.hidden?.(row.original)).map((a) => (
                  <span key={a.label}>{opButton(a.label, () => a.onClick(row.original), a.danger, a.badge?.(row.original))}</span>
                ))}
              </div>
            </td>
          )}
        </tr>
      ))}
    </tbody>
  );

  return (
    <div
      ref={scrollRef}
      data-covered={covered}
      data-testid="kit-table-scroll"
      // An always-visible horizontal scrollbar (overlay scrollbars hide that the table scrolls).
      className="group/table relative min-h-48 overflow-x-auto rounded-md border border-slate-200 [&::-webkit-scrollbar]:h-2.5 [&::-webkit-scrollbar-thumb]:rounded-full [&::-webkit-scrollbar-thumb]:bg-slate-300 hover:[&::-webkit-scrollbar-thumb]:bg-slate-400 [&::-webkit-scrollbar-track]:bg-slate-100"
      aria-busy={loading}
    >
      <table className="w-full border-collapse bg-white">
        <thead className="bg-slate-50">
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id} className="border-b border-slate-200">
              {hg.headers.map((header) => {
                const meta = header.column.columnDef.meta as TableColumn | undefined;
                const active = meta && sort.order === meta.prop ? sort.sort : undefined;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={meta?.sortable ? (active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : 'none') : undefined}
                    // The whole cell sorts (the button inside keeps it reachable by keyboard; its click bubbles here).
                    onClick={meta?.sortable ? () => toggleSort(meta.prop) : undefined}
                    className={`h-11 px-3 text-left text-[13px] font-semibold whitespace-nowrap text-slate-600 ${meta?.sortable ? 'cursor-pointer select-none hover:bg-slate-100' : ''} ${header.column.id === '__select' ? 'w-11 text-center' : ''}`}
                    style={meta ? { textAlign: meta.align ?? 'left', minWidth: meta.minWidth, width: meta.width } : undefined}
                  >
                    {meta?.sortable ? (
                      <button type="button" className="inline-flex items-center gap-1 rounded outline-none hover:text-primary focus-visible:ring-2 focus-visible:ring-primary-light-5">
                        {flexRender(header.column.columnDef.header, header.getContext())}
                        <SortMark dir={active} />
                      </button>
                    ) : (
                      flexRender(header.column.columnDef.header, header.getContext())
                    )}
                  </th>
                );
              })}
              {showOp && (
                <th scope="col" className={`${opCell} h-11 bg-slate-50 px-2 text-center text-[13px] font-semibold text-slate-600`}>
                  {t`Operation`}
                </th>
              )}
            </tr>
          ))}
        </thead>
        {props.rowMenu === false ? (
          body
        ) : (
          <ContextMenu.Root onOpenChange={(o) => !o && setTimeout(() => setMenuAt(null), 0)}>
            <ContextMenu.Trigger asChild>{body}</ContextMenu.Trigger>
            <ContextMenu.Portal>
              <ContextMenu.Content className="aw-menu" aria-label={t`Row menu`}>
                <ContextMenu.Item className="aw-menu-item" onSelect={props.onRefresh}>
                  <Icon name="refresh" className="size-4" />
                  {t`Refresh`}
                </ContextMenu.Item>
                {selection && (
                  <ContextMenu.Item
                    className="aw-menu-item"
                    onSelect={() => {
                      if (!menuAt) return;
                      const id = idOf(menuAt.row);
                      onSelect(menuRowSelected ? selected.filter((s) => String(s) !== String(id)) : [...selected, id]);
                    }}
                  >
                    <Icon name="check" className="size-4" />
                    {menuRowSelected ? t`Uncheck` : t`Check`}
                  </ContextMenu.Item>
                )}
                {perms.update && (
                  <ContextMenu.Item className="aw-menu-item" onSelect={() => menuAt && props.onUpdate(menuAt.row)}>
                    <Icon name="file" className="size-4" />
                    {t`Edit`}
                  </ContextMenu.Item>
                )}
                {perms.delete && (
                  <ContextMenu.Item className="aw-menu-item text-red-600" onSelect={() => menuAt && props.onDelete(menuAt.row)}>
                    <Icon name="x" className="size-4" />
                    {t`Delete`}
                  </ContextMenu.Item>
                )}
                <ContextMenu.Separator className="my-1 h-px bg-slate-100" />
                <ContextMenu.Item className="aw-menu-item" disabled={!menuColumn?.sortable} onSelect={() => menuColumn && onSort({ order: menuColumn.prop, sort: 'asc' })}>
                  <SortMark dir="asc" />
                  {t`Sort ascending`}
                </ContextMenu.Item>
                <ContextMenu.Item className="aw-menu-item" disabled={!menuColumn?.sortable} onSelect={() => menuColumn && onSort({ order: menuColumn.prop, sort: 'desc' })}>
                  <SortMark dir="desc" />
                  {t`Sort descending`}
                </ContextMenu.Item>
              </ContextMenu.Content>
            </ContextMenu.Portal>
          </ContextMenu.Root>
        )}
      </table>
      {!loading && rows.length === 0 && (
        <div className="flex flex-col items-center justify-center gap-2 py-12 text-sm text-slate-400" data-testid="kit-empty">
          <Icon name="folder" className="size-8" />
          {t`No data`}
        </div>
      )}
      {loading && (
        <div role="status" className="absolute inset-0 flex items-center justify-center gap-2 bg-white/60 text-sm text-slate-500">
          <Spinner />
          {t`Loading…`}
        </div>
      )}
    </div>
  );
}

function SortMark({ dir }: { dir: 'asc' | 'desc' | undefined }) {
  return (
    <span className="inline-flex flex-col leading-none" aria-hidden="true">
      <svg viewBox="0 0 10 6" className={`h-1.5 w-2.5 ${dir === 'asc' ? 'fill-primary' : 'fill-slate-300'}`}>
        <path d="M5 0l5 6H0z" />
      </svg>
      <svg viewBox="0 0 10 6" className={`mt-0.5 h-1.5 w-2.5 ${dir === 'desc' ? 'fill-primary' : 'fill-slate-300'}`}>
        <path d="M0 0h10L5 6z" />
      </svg>
    </span>
  );
}
