/** The building blocks of the dashboard's cards: figures, cards, rankings, segmented switches, durations. */
import type { ReactNode } from 'react';
import { Icon, type IconName } from '../../ui/icons.tsx';

export function Stat({ icon, label, value, total, totalLabel }: { icon: IconName; label: string; value: ReactNode; total: ReactNode; totalLabel: string }) {
  return (
    <section className="aw-card flex items-center gap-4 p-4" aria-label={label}>
      <div className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-primary-light-9 text-primary">
        <Icon name={icon} className="size-5" />
      </div>
      <div className="min-w-0">
        <div className="text-sm text-slate-500">{label}</div>
        <div className="text-2xl font-semibold text-slate-800 tabular-nums" data-testid={`stat-${label}`}>
          {value}
        </div>
        <div className="text-xs text-slate-400 tabular-nums">
          {totalLabel} {total}
        </div>
      </div>
    </section>
  );
}

export function Card({ title, children, className = '', actions }: { title: string; children: ReactNode; className?: string; actions?: ReactNode }) {
  return (
    <section className={`aw-card flex min-w-0 flex-col p-4 ${className}`} aria-label={title}>
      <div className="mb-3 flex min-h-7 flex-wrap items-center gap-2">
        <h2 className="mr-auto text-sm font-semibold text-slate-700">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="py-10 text-center text-sm text-slate-400">{children}</p>;
}

/** A row of exclusive choices (the period, designers or departments). */
export function Segmented<T extends string>({ value, options, onChange, label, size = 'md' }: { value: T; options: { value: T; label: string }[]; onChange: (v: T) => void; label: string; size?: 'sm' | 'md' }) {
  return (
    <div role="radiogroup" aria-label={label} className="inline-flex w-fit max-w-full flex-wrap rounded-md border border-slate-300 bg-white p-0.5">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={o.value === value}
          onClick={() => onChange(o.value)}
          className={`${size === 'sm' ? 'h-6 px-2 text-xs' : 'h-7 px-2.5 text-sm'} rounded whitespace-nowrap transition-colors outline-none focus-visible:ring-2 focus-visible:ring-primary-light-5 ${o.value === value ? 'bg-primary text-white' : 'text-slate-600 hover:text-primary'}`}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

export interface RankRow {
  key: number | string;
  name: string;
  value: number;
  /** Shown instead of the value (a formatted duration); the bar still follows `value`. */
  display?: ReactNode;
  /** Shown small after the value (e.g. "/ 3" processed of the orders). */
  detail?: ReactNode;
  title?: string;
}

/** Ranked names with a bar for their value; the first three stand out. */
export function RankingList({ rows, empty }: { rows: RankRow[]; empty: string }) {
  if (!rows.length) return <Empty>{empty}</Empty>;
  const max = Math.max(...rows.map((r) => r.value), 1);
  return (
    <ol className="flex flex-col gap-2.5">
      {rows.map((r, i) => (
        <li key={r.key} className="grid grid-cols-[1.5rem_minmax(4rem,8rem)_1fr_auto] items-center gap-2.5 text-sm">
          <span className={`flex size-6 items-center justify-center rounded-full text-xs font-semibold ${i < 3 ? 'bg-primary text-white' : 'bg-slate-100 text-slate-500'}`}>{i + 1}</span>
          <span className="truncate text-slate-700" title={r.name}>
            {r.name}
          </span>
          <span className="h-2.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
            <span className="block h-full rounded-full bg-primary" style={{ width: `${(r.value / max) * 100}%` }} />
          </span>
          <span className="text-right text-slate-600 tabular-nums" title={r.title}>
            {r.display ?? r.value}
            {r.detail !== undefined && <span className="ml-1 text-xs text-slate-400">{r.detail}</span>}
          </span>
        </li>
      ))}
    </ol>
  );
}

export function DeviceSplit({ online, offline, total, labels, empty }: { online: number; offline: number; total: number; labels: { online: string; offline: string }; empty: string }) {
  if (!total) return <Empty>{empty}</Empty>;
  const share = Math.round((online / total) * 100);
  return (
    <div className="flex flex-col gap-4">
      <div className="flex h-3 overflow-hidden rounded-full bg-slate-200" role="img" aria-label={`${labels.online} ${online}, ${labels.offline} ${offline}`}>
        <span className="h-full bg-emerald-500" style={{ width: `${share}%` }} />
      </div>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div className="rounded-md bg-emerald-50 p-3">
          <dt className="text-emerald-700">{labels.online}</dt>
          <dd className="text-xl font-semibold text-emerald-800 tabular-nums">{online}</dd>
        </div>
        <div className="rounded-md bg-slate-50 p-3">
          <dt className="text-slate-500">{labels.offline}</dt>
          <dd className="text-xl font-semibold text-slate-700 tabular-nums">{offline}</dd>
        </div>
      </dl>
    </div>
  );
}

export const HTML_LANG: Record<string, string> = { zh: 'zh-CN', en: 'en', de: 'de' };

/** A duration in the UI language with its two largest units ("2 h 5 min", "2小时5分钟", "45 s"). */
export function formatDuration(ms: number, locale: string): string {
  const lang = HTML_LANG[locale] ?? 'en';
  const unit = (value: number, u: 'hour' | 'minute' | 'second') => new Intl.NumberFormat(lang, { style: 'unit', unit: u, unitDisplay: 'narrow' }).format(value);
  if (ms > 0 && ms < 10_000) return unit(Math.round(ms / 100) / 10, 'second'); // short simulated or test bends
  const s = Math.round(ms / 1000);
  if (s < 60) return unit(s, 'second');
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${unit(m, 'minute')} ${unit(s % 60, 'second')}` : unit(m, 'minute');
  const h = Math.floor(m / 60);
  return m % 60 ? `${unit(h, 'hour')} ${unit(m % 60, 'minute')}` : unit(h, 'hour');
}
