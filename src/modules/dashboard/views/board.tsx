/**
 * The home dashboard (spec "Home dashboard"): a period (today, 7 days, 30 days, 12 months, all;
 * kept in the URL) and the figures of /admin/dashboard/info/*: new and total orders, users and
 * devices with their series, orders by status, the AI-enabled share, the designer and
 * manufacturer (department) rankings and the devices online. A call the user may not make leaves its card out.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useRouter, useRouterState } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import uPlot from 'uplot';
import { request } from '../../../api/client';
import { hasPerm, useApp } from '../../../app/store';
import { Icon, type IconName } from '../../../ui/icons';
import { Spinner } from '../../../ui/Spinner';
import { Chart, cssColor } from '../Chart';

type Period = 'day' | 'week' | 'month' | 'year' | 'all';
const PERIODS: Period[] = ['day', 'week', 'month', 'year', 'all'];

interface AddInfo {
  unit: 'hour' | 'day' | 'month';
  added: { orders: number; users: number | null; devices: number };
  totals: { orders: number; users: number | null; devices: number };
  series: { time: string; orders: number; users: number; devices: number }[];
}
interface Ranking {
  designerId: number;
  name: string;
  orders: number;
  processed: number;
}
interface DepartmentRow {
  departmentId: number | null;
  name: string | null;
  orders: number;
  processed: number;
}
interface Board {
  departments?: DepartmentRow[];
  add?: AddInfo;
  status?: { status: number; count: number }[];
  ai?: { orders: number; enabled: number; ratio: number };
  designers?: Ranking[];
  devices?: { online: number; offline: number; total: number };
}

const BASE = '/admin/dashboard/info';
/** Axis steps for counts: whole numbers only. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];

/** Calls the user holds the permission of; the others are skipped (their card is left out). */
async function load(period: Period): Promise<Board> {
  const call = <T,>(name: string): Promise<T | undefined> =>
    hasPerm(`dashboard:info:${name}`) ? request<T>({ url: `${BASE}/${name}`, method: 'POST', data: { period } }).catch(() => undefined) : Promise.resolve(undefined);
  const [add, status, ai, designers, devices, departments] = await Promise.all([
    call<AddInfo>('addInfo'),
    call<Board['status']>('designInfo'),
    call<Board['ai']>('aiInfo'),
    call<Ranking[]>('designerProcessInfo'),
    call<Board['devices']>('deviceWorkInfo'),
    call<DepartmentRow[]>('departmentInfo'),
  ]);
  const board: Board = {};
  if (departments) board.departments = departments;
  if (add) board.add = add;
  if (status) board.status = status;
  if (ai) board.ai = ai;
  if (designers) board.designers = designers;
  if (devices) board.devices = devices;
  return board;
}

/** Bucket key ("YYYY-MM-DD HH", "YYYY-MM-DD", "YYYY-MM") → seconds since the epoch (UTC). */
function bucketTime(key: string): number {
  const [date, hour] = key.split(' ');
  const [y, m, d] = (date ?? '').split('-').map(Number);
  return Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1, Number(hour ?? 0)) / 1000;
}

function usePeriod(): [Period, (p: Period) => void] {
  const router = useRouter();
  const location = useRouterState({ select: (s) => s.location });
  const raw = (location.search as Record<string, unknown>).period;
  const period = PERIODS.includes(raw as Period) ? (raw as Period) : 'week';
  const set = (p: Period) => {
    const search = { ...(location.search as Record<string, unknown>), period: p === 'week' ? undefined : p };
    void router.navigate({ href: `${location.pathname}${router.options.stringifySearch(search)}`, replace: true });
  };
  return [period, set];
}

export default function DataBoard() {
  const { t } = useLingui();
  const { perms } = useApp();
  const [period, setPeriod] = usePeriod();
  const [board, setBoard] = useState<Board | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    let live = true;
    setLoading(true);
    load(period).then((b) => {
      if (!live) return;
      setBoard(b);
      setLoading(false);
    });
    return () => {
      live = false;
    };
  }, [period, perms]);

  const labels: Record<Period, string> = { day: t`Today`, week: t`7 days`, month: t`30 days`, year: t`12 months`, all: t`All` };
  const statusLabels = [t`In design`, t`To be processed`, t`Processed`, t`Bite registration`];

  return (
    <div className="flex flex-col gap-4 p-3 sm:p-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-lg font-semibold text-slate-800">{t`Data board`}</h1>
        {loading && <Spinner className="size-4" />}
        <div role="radiogroup" aria-label={t`Period`} className="flex rounded-md border border-slate-300 bg-white p-0.5">
          {PERIODS.map((p) => (
            <button
              key={p}
              type="button"
              role="radio"
              aria-checked={p === period}
              onClick={() => setPeriod(p)}
              className={`h-7 rounded px-2.5 text-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-primary-light-5 ${p === period ? 'bg-primary text-white' : 'text-slate-600 hover:text-primary'}`}
            >
              {labels[p]}
            </button>
          ))}
        </div>
      </div>

      {board === null ? (
        <div className="flex h-60 items-center justify-center">
          <Spinner />
        </div>
      ) : Object.keys(board).length === 0 ? (
        <p className="aw-card p-6 text-center text-sm text-slate-500">{t`You have no access to the figures of the data board.`}</p>
      ) : (
        <>
          <div className="grid grid-cols-1 gap-3 min-[480px]:grid-cols-2 sm:gap-4 xl:grid-cols-4">
            {board.add && (
              <>
                <Stat icon="clipboard" label={t`New orders`} value={board.add.added.orders} total={board.add.totals.orders} totalLabel={t`Total`} />
                {board.add.added.users !== null && <Stat icon="users" label={t`New users`} value={board.add.added.users} total={board.add.totals.users ?? 0} totalLabel={t`Total`} />}
                <Stat icon="cpu" label={t`New devices`} value={board.add.added.devices} total={board.add.totals.devices} totalLabel={t`Total`} />
              </>
            )}
            {board.ai && <Stat icon="sparkles" label={t`AI enabled`} value={`${Math.round(board.ai.ratio * 100)} %`} total={`${board.ai.enabled} / ${board.ai.orders}`} totalLabel={t`Orders`} />}
          </div>

          <div className="grid grid-cols-1 gap-4 xl:grid-cols-3">
            {board.add && (
              <Card title={t`New over time`} className="xl:col-span-2">
                <SeriesChart add={board.add} names={{ orders: t`Orders`, users: t`Users`, devices: t`Devices` }} label={t`New orders, users and devices over time`} />
              </Card>
            )}
            {board.status && (
              <Card title={t`Orders by status`}>
                <StatusChart rows={board.status} labels={statusLabels} label={t`Orders by status`} empty={t`No data`} />
              </Card>
            )}
            {board.designers && (
              <Card title={t`Designer ranking`}>
                <RankingList rows={board.designers.map((r) => ({ key: r.designerId, name: r.name, orders: r.orders, processed: r.processed }))} empty={t`No data`} ordersLabel={t`Orders`} processedLabel={t`Processed`} />
              </Card>
            )}
            {board.departments && (
              <Card title={t`Manufacturer ranking`}>
                <RankingList
                  rows={board.departments.map((r) => ({ key: r.departmentId ?? 0, name: r.name ?? t`No department`, orders: r.orders, processed: r.processed }))}
                  empty={t`No data`}
                  ordersLabel={t`Orders`}
                  processedLabel={t`Processed`}
                />
              </Card>
            )}
            {board.devices && (
              <Card title={t`Devices`}>
                <DeviceSplit {...board.devices} online={board.devices.online} labels={{ online: t`Online`, offline: t`Offline` }} empty={t`No devices`} />
              </Card>
            )}
          </div>
        </>
      )}
    </div>
  );
}

function Stat({ icon, label, value, total, totalLabel }: { icon: IconName; label: string; value: ReactNode; total: ReactNode; totalLabel: string }) {
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

function Card({ title, children, className = '' }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section className={`aw-card min-w-0 p-4 ${className}`} aria-label={title}>
      <h2 className="mb-3 text-sm font-semibold text-slate-700">{title}</h2>
      {children}
    </section>
  );
}

/** Tick labels of a time axis in the UI language (the buckets are UTC). */
function timeTicks(unit: AddInfo['unit'], locale: string) {
  const fmt = new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    ...(unit === 'hour' ? { hour: '2-digit', minute: '2-digit' } : unit === 'day' ? { month: 'short', day: 'numeric' } : { year: 'numeric', month: 'short' }),
  } as Intl.DateTimeFormatOptions);
  return (_u: uPlot, splits: number[]) => splits.map((ts) => fmt.format(new Date(ts * 1000)));
}

const HTML_LANG: Record<string, string> = { zh: 'zh-CN', en: 'en', de: 'de' };

function SeriesChart({ add, names, label }: { add: AddInfo; names: { orders: string; users: string; devices: string }; label: string }) {
  const { i18n } = useLingui();
  const locale = HTML_LANG[i18n.locale] ?? 'en';
  const data = useMemo<uPlot.AlignedData>(
    () => [add.series.map((s) => bucketTime(s.time)), add.series.map((s) => s.orders), add.series.map((s) => s.users), add.series.map((s) => s.devices)],
    [add],
  );
  const showUsers = add.added.users !== null;
  const options = (size: { width: number; height: number }): uPlot.Options => {
    const primary = cssColor('--color-primary', '#4165d7');
    const fill = cssColor('--color-primary-light-8', '#d9e0f7');
    return {
      ...size,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'), // the buckets are UTC
      scales: { x: { time: true } },
      axes: [
        { stroke: '#64748b', grid: { stroke: '#f1f5f9' }, values: timeTicks(add.unit, locale) },
        { stroke: '#64748b', grid: { stroke: '#f1f5f9' }, incrs: COUNT_STEPS },
      ],
      legend: { live: false },
      series: [
        {},
        { label: names.orders, stroke: primary, fill: `${fill}99`, width: 2, points: { show: add.series.length <= 31 } },
        { label: names.users, stroke: '#f59e0b', width: 2, show: showUsers },
        { label: names.devices, stroke: '#10b981', width: 2 },
      ],
    };
  };
  return <Chart options={options} data={data} height={260} label={label} />;
}

function StatusChart({ rows, labels, label, empty }: { rows: { status: number; count: number }[]; labels: string[]; label: string; empty: string }) {
  const data = useMemo<uPlot.AlignedData>(() => [labels.map((_, i) => i), labels.map((_, i) => rows.find((r) => r.status === i)?.count ?? 0)], [rows, labels]);
  if (!rows.length) return <p className="py-10 text-center text-sm text-slate-400">{empty}</p>;
  const options = (size: { width: number; height: number }): uPlot.Options => {
    const primary = cssColor('--color-primary', '#4165d7');
    return {
      ...size,
      scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.15)] } },
      axes: [
        { stroke: '#64748b', grid: { show: false }, values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? (labels[v] ?? '') : '')), splits: () => labels.map((_, i) => i) },
        { stroke: '#64748b', grid: { stroke: '#f1f5f9' }, incrs: COUNT_STEPS },
      ],
      legend: { show: false },
      series: [{}, { label, stroke: primary, fill: primary, paths: barPaths(), points: { show: false } }],
    };
  };
  return <Chart options={options} data={data} height={260} label={label} />;
}

let bars: uPlot.Series.PathBuilder | null = null;
const barPaths = () => (bars ??= uPlot.paths.bars!({ size: [0.6, 64] }));

interface RankRow {
  key: number;
  name: string;
  orders: number;
  processed: number;
}

function RankingList({ rows, empty, ordersLabel, processedLabel }: { rows: RankRow[]; empty: string; ordersLabel: string; processedLabel: string }) {
  if (!rows.length) return <p className="py-10 text-center text-sm text-slate-400">{empty}</p>;
  const max = Math.max(...rows.map((r) => r.orders), 1);
  return (
    <ol className="flex flex-col gap-2.5">
      {rows.map((r, i) => (
        <li key={r.key} className="grid grid-cols-[1.5rem_minmax(4rem,8rem)_1fr_auto] items-center gap-2.5 text-sm">
          <span className={`flex size-6 items-center justify-center rounded-full text-xs font-semibold ${i < 3 ? 'bg-primary text-white' : 'bg-slate-100 text-slate-500'}`}>{i + 1}</span>
          <span className="truncate text-slate-700" title={r.name}>
            {r.name}
          </span>
          <span className="h-2.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
            <span className="block h-full rounded-full bg-primary" style={{ width: `${(r.orders / max) * 100}%` }} />
          </span>
          <span className="text-right text-slate-600 tabular-nums" title={`${ordersLabel} ${r.orders} · ${processedLabel} ${r.processed}`}>
            {r.orders}
            <span className="ml-1 text-xs text-slate-400">/ {r.processed}</span>
          </span>
        </li>
      ))}
    </ol>
  );
}

function DeviceSplit({ online, offline, total, labels, empty }: { online: number; offline: number; total: number; labels: { online: string; offline: string }; empty: string }) {
  if (!total) return <p className="py-10 text-center text-sm text-slate-400">{empty}</p>;
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
