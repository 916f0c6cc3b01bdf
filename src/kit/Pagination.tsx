/**
 * The pagination bar: total, page sizes 10-100, pager with 7 page buttons (5 on mini screens).
 * Mini screens show only the total and the pager.
 */
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../ui/icons.tsx';
import { PAGE_SIZES } from './urlState.ts';

export type PagerItem = number | 'prev-more' | 'next-more';

/**
 * The buttons of a pager with `count` number buttons at most (first and last included); gaps
 * become "more" buttons that jump by `count - 2` pages.
 */
export function pagerItems(page: number, pages: number, count: number): PagerItem[] {
  if (pages <= count) return Array.from({ length: pages }, (_, i) => i + 1);
  const middle = count - 2;
  const half = Math.floor(middle / 2);
  let start = page - half;
  let end = start + middle - 1;
  let prevMore = true;
  let nextMore = true;
  if (start <= 2) {
    prevMore = false;
    start = 2;
    end = count - 1;
  }
  if (end >= pages - 1) {
    nextMore = false;
    end = pages - 1;
    start = pages - count + 2;
  }
  const items: PagerItem[] = [1];
  if (prevMore) items.push('prev-more');
  for (let p = start; p <= end; p++) items.push(p);
  if (nextMore) items.push('next-more');
  items.push(pages);
  return items;
}

interface PaginationProps {
  page: number;
  size: number;
  total: number;
  mini: boolean;
  onChange: (next: { page: number; size: number }) => void;
}

export function Pagination({ page, size, total, mini, onChange }: PaginationProps) {
  const { t } = useLingui();
  const pages = Math.max(1, Math.ceil(total / size));
  const items = pagerItems(Math.min(page, pages), pages, mini ? 5 : 7);
  const jump = mini ? 3 : 5;
  const go = (p: number) => onChange({ page: Math.min(pages, Math.max(1, p)), size });
  const btn =
    'inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm tabular-nums transition-colors outline-none focus-visible:ring-2 focus-visible:ring-primary-light-5 disabled:cursor-not-allowed disabled:opacity-40';

  return (
    <nav aria-label={t`Pagination`} data-layout={mini ? 'mini' : 'full'} className="flex flex-wrap items-center justify-end gap-x-3 gap-y-2 text-sm text-slate-600">
      <span data-testid="kit-total">{t`Total ${total}`}</span>
      {!mini && (
        <label className="flex items-center gap-1.5">
          <span className="sr-only">{t`Page size`}</span>
          <select
            aria-label={t`Page size`}
            value={size}
            onChange={(e) => onChange({ page: 1, size: Number(e.target.value) })}
            className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm outline-none focus:border-primary"
          >
            {PAGE_SIZES.map((s) => (
              <option key={s} value={s}>
                {t`${s}/page`}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="flex items-center gap-1">
        <button type="button" className={`${btn} hover:bg-slate-100`} disabled={page <= 1} onClick={() => go(page - 1)} aria-label={t`Previous page`}>
          <Icon name="chevronRight" className="size-4 rotate-180" />
        </button>
        {items.map((item) =>
          typeof item === 'number' ? (
            <button
              key={item}
              type="button"
              aria-current={item === page ? 'page' : undefined}
              aria-label={t`Page ${item}`}
              onClick={() => go(item)}
              className={`${btn} ${item === page ? 'bg-primary font-medium text-white' : 'hover:bg-slate-100 hover:text-primary'}`}
            >
              {item}
            </button>
          ) : (
            <button
              key={item}
              type="button"
              className={`${btn} hover:bg-slate-100`}
              aria-label={item === 'prev-more' ? t`Previous ${jump} pages` : t`Next ${jump} pages`}
              onClick={() => go(item === 'prev-more' ? page - jump : page + jump)}
            >
              …
            </button>
          ),
        )}
        <button type="button" className={`${btn} hover:bg-slate-100`} disabled={page >= pages} onClick={() => go(page + 1)} aria-label={t`Next page`}>
          <Icon name="chevronRight" className="size-4" />
        </button>
      </div>
    </nav>
  );
}
