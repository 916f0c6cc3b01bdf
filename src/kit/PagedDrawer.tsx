/**
 * A paged list of one record's entries in a drawer from the right (a task's runs, a partner's
 * callbacks): usePagedEntries loads a page of `url?id=&page=&size=` and starts again at page 1
 * for another record; PagedDrawer is the drawer: title, Refresh and Close, the list (a spinner
 * while the first page loads, a sentence when empty), and the pager with room for actions before it.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Dialog } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { request } from '../api/client.ts';
import { Icon } from '../ui/icons.tsx';
import { Spinner } from '../ui/Spinner.tsx';

export const DRAWER_PAGE_SIZE = 20;

export interface PagedEntries<T> {
  rows: T[];
  total: number;
  page: number;
  pages: number;
  setPage: (page: number) => void;
  loading: boolean;
  /** Loads `page` again (default: the shown one). */
  reload: (page?: number) => void;
}

/** The entries of record `id` (none while null), a page at a time. */
export function usePagedEntries<T>(url: string, id: number | null): PagedEntries<T> {
  const [rows, setRows] = useState<T[]>([]);
  const [page, setPage] = useState(1);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    async (of: number, p: number) => {
      setLoading(true);
      try {
        const reply = await request<{ list: T[]; pagination: { total: number } }>({ url, params: { id: of, page: p, size: DRAWER_PAGE_SIZE } });
        setRows(reply.list);
        setTotal(reply.pagination.total);
      } catch {
        // The toast told the user.
      } finally {
        setLoading(false);
      }
    },
    [url],
  );

  useEffect(() => {
    if (id !== null) void load(id, page);
  }, [id, page, load]);
  useEffect(() => setPage(1), [id]);

  const reload = (p = page) => {
    if (id === null) return;
    // Another page loads by the effect; the shown one again here.
    if (p !== page) setPage(p);
    else void load(id, p);
  };
  return { rows, total, page, pages: Math.max(1, Math.ceil(total / DRAWER_PAGE_SIZE)), setPage, loading, reload };
}

export interface PagedDrawerProps {
  open: boolean;
  onClose: () => void;
  title: string;
  testId: string;
  /** Width from the md breakpoint on (a Tailwind class). */
  widthClass: string;
  list: PagedEntries<unknown>;
  emptyText: string;
  /** Actions at the start of the pager's row. */
  actions?: ReactNode;
  /** The entries, as <li> elements. */
  children: ReactNode;
  /** Rendered inside the drawer (a confirm dialog of its actions). */
  extra?: ReactNode;
}

export function PagedDrawer({ open, onClose, title, testId, widthClass, list, emptyText, actions, children, extra }: PagedDrawerProps) {
  const { t } = useLingui();
  const { total, page, pages, setPage, loading, reload } = list;
  const count = list.rows.length;
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/30" style={{ animation: 'aw-fade-in .15s' }} />
        <Dialog.Content
          aria-describedby={undefined}
          data-testid={testId}
          style={{ animation: 'aw-drawer-in .2s ease-out' }}
          className={`fixed inset-y-0 right-0 z-50 flex w-full flex-col bg-white shadow-2xl outline-none ${widthClass} md:min-w-96`}
        >
          <div className="flex h-12 shrink-0 items-center gap-2 border-b border-slate-100 pr-2 pl-5">
            <Dialog.Title className="flex-1 truncate text-base font-semibold text-slate-900">{title}</Dialog.Title>
            <button type="button" className="aw-btn-icon" aria-label={t`Refresh`} title={t`Refresh`} onClick={() => reload()}>
              <Icon name="refresh" className="size-4" />
            </button>
            <Dialog.Close className="aw-btn-icon" aria-label={t`Close`}>
              <Icon name="x" className="size-4" />
            </Dialog.Close>
          </div>
          <div className="flex-1 overflow-auto px-5 py-3">
            {loading && count === 0 ? (
              <div className="flex justify-center py-10">
                <Spinner />
              </div>
            ) : count === 0 ? (
              <p className="py-10 text-center text-sm text-slate-400">{emptyText}</p>
            ) : (
              <ol className="flex flex-col gap-2">{children}</ol>
            )}
          </div>
          <div className="flex shrink-0 items-center gap-2 border-t border-slate-100 px-5 py-2.5 text-sm text-slate-600">
            {actions}
            <span className="ml-auto tabular-nums">{t`Total ${total}`}</span>
            <button type="button" className="aw-btn-default h-8" disabled={page <= 1} onClick={() => setPage(page - 1)} aria-label={t`Previous page`}>
              ‹
            </button>
            <span className="tabular-nums">
              {page} / {pages}
            </span>
            <button type="button" className="aw-btn-default h-8" disabled={page >= pages} onClick={() => setPage(page + 1)} aria-label={t`Next page`}>
              ›
            </button>
          </div>
          {extra}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
