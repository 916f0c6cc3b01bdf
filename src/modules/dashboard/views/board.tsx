/**
 * The home dashboard (spec "Home dashboard"): a period (today, 7 days, 30 days, 12 months, all;
 * kept in the URL) and the cards of /admin/dashboard/info/*: new and total orders, manufacturers
 * and devices with their series, orders by status, the AI-enabled share, the designer and
 * manufacturer rankings, the devices online, the map of locations, device bending and standby
 * time, arch wires bent, the base and wire rankings, designs and bases, wires designed per type
 * (over time, per manufacturer), each manufacturer's orders, wires bent and bending time, and
 * each designer's work. A call the user may not make leaves its
 * card out (docs/dashboard.md).
 */
import { useEffect, useState } from 'react';
import { useRouter, useRouterState } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { useApp } from '../../../app/store.ts';
import { Spinner } from '../../../ui/Spinner.tsx';
import { BaseRankings } from '../BaseRankings.tsx';
import { LinesChart, SeriesChart, StatusChart } from '../charts.tsx';
import { DepartmentOrdersTable, DesignerTable, TypeMatrixTable, useTypeName } from '../DesignCards.tsx';
import { loadBoard, PERIODS, type Board, type Period } from '../data.ts';
import { DeviceTimes } from '../DeviceTimes.tsx';
import { Card, DeviceSplit, Empty, formatDuration, RankingList, Segmented, Stat } from '../parts.tsx';
import { WireCard } from '../WireCard.tsx';
import { WorldMap } from '../WorldMap.tsx';
import { formatCount, formatNumber } from '../../../i18n/format.ts';

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
  const { t, i18n } = useLingui();
  const typeName = useTypeName();
  const { perms } = useApp();
  const [period, setPeriod] = usePeriod();
  const [board, setBoard] = useState<Board | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    let live = true;
    setLoading(true);
    void loadBoard(period).then((b) => {
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
  const b = board ?? {};

  return (
    <div className="flex flex-col gap-4 p-3 sm:p-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-lg font-semibold text-slate-800">{t`Data board`}</h1>
        {loading && <Spinner className="size-4" />}
        <Segmented label={t`Period`} value={period} onChange={setPeriod} options={PERIODS.map((p) => ({ value: p, label: labels[p] }))} />
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
            {b.add && (
              <>
                <Stat icon="clipboard" label={t`New orders`} value={b.add.added.orders} total={b.add.totals.orders} totalLabel={t`Total`} />
                <Stat icon="users" label={t`New manufacturers`} value={b.add.added.manufacturers} total={b.add.totals.manufacturers} totalLabel={t`Total`} />
                <Stat icon="cpu" label={t`New devices`} value={b.add.added.devices} total={b.add.totals.devices} totalLabel={t`Total`} />
              </>
            )}
            {b.ai && (
              <>
                <Stat
                  icon="sparkles"
                  label={t`AI design success`}
                  value={b.ai.byStatus.ready + b.ai.byStatus.fail ? `${formatNumber(b.ai.successRate * 100)} %` : '—'}
                  total={`${formatCount(b.ai.byStatus.ready)} / ${formatCount(b.ai.byStatus.ready + b.ai.byStatus.fail)} · ${t`AI enabled`} ${formatCount(b.ai.enabled)} / ${formatCount(b.ai.orders)}`}
                  totalLabel={t`Ready / finished`}
                />
                <Stat
                  icon="sparkles"
                  label={t`AI design mean time`}
                  value={meanTime(b.ai.meanSeconds)}
                  total={`${formatCount(b.ai.byStatus.submitted + b.ai.byStatus.processing)} · ${t`Failed`} ${formatCount(b.ai.byStatus.fail)}`}
                  totalLabel={t`In progress`}
                />
              </>
            )}
          </div>

          <div className="grid grid-cols-1 gap-4 xl:grid-flow-dense xl:grid-cols-3">
            {b.add && (
              <Card title={t`New over time`} className="xl:col-span-2">
                <SeriesChart add={b.add} names={{ orders: t`Orders`, manufacturers: t`Manufacturers`, devices: t`Devices` }} label={t`New orders, manufacturers and devices over time`} />
              </Card>
            )}
            {b.status && (
              <Card title={t`Orders by status`}>
                <StatusChart rows={b.status} labels={statusLabels} label={t`Orders by status`} empty={t`No data`} />
              </Card>
            )}
            {b.designers && (
              <Card title={t`Designer ranking`}>
                <RankingList
                  rows={b.designers.map((r) => ({ key: r.designerId, name: r.name, value: r.orders, detail: `/ ${r.processed}`, title: `${t`Orders`} ${r.orders} · ${t`Processed`} ${r.processed}` }))}
                  empty={t`No data`}
                />
              </Card>
            )}
            {b.departments && (
              <Card title={t`Manufacturer ranking`}>
                <RankingList
                  rows={b.departments.map((r) => ({ key: r.departmentId ?? 0, name: r.name ?? t`No department`, value: r.orders, detail: `/ ${r.processed}`, title: `${t`Orders`} ${r.orders} · ${t`Processed`} ${r.processed}` }))}
                  empty={t`No data`}
                />
              </Card>
            )}
            {b.devices && (
              <Card title={t`Devices`}>
                <DeviceSplit {...b.devices} labels={{ online: t`Online`, offline: t`Offline` }} empty={t`No devices`} />
              </Card>
            )}
            {b.places && (
              <Card title={t`Manufacturer and device locations`} className="xl:col-span-2">
                <WorldMap places={b.places} />
              </Card>
            )}
            {b.deviceTimes && (
              <Card title={t`Device processing and standby time`}>
                <DeviceTimes devices={b.deviceTimes.devices} />
              </Card>
            )}
            {b.wires && (
              <Card title={t`Arch wires bent`} className="xl:col-span-2">
                <WireCard wires={b.wires} />
              </Card>
            )}
            {b.rankings && (
              <Card title={t`Base design and processing ranking`}>
                <BaseRankings rankings={b.rankings} />
              </Card>
            )}
            {b.designBase && (
              <Card title={t`Designs and bases`} className="xl:col-span-2" actions={<span className="text-xs text-slate-500 tabular-nums">{t`Designs ${b.designBase.designs} · bases ${b.designBase.bases}`}</span>}>
                <LinesChart
                  unit={b.designBase.unit}
                  times={b.designBase.series.map((s) => s.time)}
                  lines={[
                    { label: t`Designs`, values: b.designBase.series.map((s) => s.designs), fill: true },
                    { label: t`Bases`, values: b.designBase.series.map((s) => s.bases) },
                  ]}
                  label={t`Designs saved and bases generated over time`}
                />
              </Card>
            )}
            {b.designTypes && (
              <Card title={t`Wires designed by type`}>
                <RankingList
                  rows={[...b.designTypes].sort((x, y) => y.wires - x.wires).map((r) => ({ key: r.type, name: typeName(r), value: r.wires, detail: `/ ${r.orders}`, title: `${t`Wires`} ${r.wires} · ${t`Orders`} ${r.orders}` }))}
                  empty={t`No data`}
                />
              </Card>
            )}
            {b.designTypeSeries && (
              <Card title={t`Wire types designed over time`} className="xl:col-span-2">
                <LinesChart
                  unit={b.designTypeSeries.unit}
                  times={b.designTypeSeries.series.map((s) => s.time)}
                  lines={b.designTypeSeries.types.map((ty) => ({ label: typeName(ty), values: b.designTypeSeries!.series.map((s) => s.counts[ty.type] ?? 0) }))}
                  label={t`Wires designed per type over time`}
                />
              </Card>
            )}
            {b.departmentWork && (
              <Card title={t`Wires bent per manufacturer`}>
                <RankingList
                  rows={b.departmentWork.map((r) => ({ key: r.departmentId ?? 0, name: r.name ?? t`No department`, value: r.done, detail: r.failed ? `· ${t`Failed`} ${r.failed}` : undefined }))}
                  empty={t`No data`}
                />
              </Card>
            )}
            {b.designDepartmentTypes && (
              <Card title={t`Wire types designed per manufacturer`} className="xl:col-span-2">
                <TypeMatrixTable matrix={b.designDepartmentTypes} caption={t`Wire types designed per manufacturer`} />
              </Card>
            )}
            {b.departmentTimes && (
              <Card title={t`Bending time per manufacturer`}>
                <RankingList
                  rows={b.departmentTimes.map((r) => ({
                    key: r.departmentId ?? 0,
                    name: r.name ?? t`No department`,
                    value: r.bendMs,
                    display: formatDuration(r.bendMs, i18n.locale),
                    title: `${t`Wires bent: ${r.jobs}`} · ${t`Average bend time`} ${r.avgMs === null ? '–' : formatDuration(r.avgMs, i18n.locale)}`,
                  }))}
                  empty={t`No data`}
                />
              </Card>
            )}
            {b.departmentOrders && (
              <Card title={t`Orders per manufacturer`} className="xl:col-span-2">
                <DepartmentOrdersTable rows={b.departmentOrders} />
              </Card>
            )}
            {b.departmentTypes && (
              <Card title={t`Wire types bent per manufacturer`}>
                <TypeMatrixTable matrix={b.departmentTypes} caption={t`Wire types bent per manufacturer`} />
              </Card>
            )}
            {b.departmentTimeSeries && (
              <Card title={t`Bending time per manufacturer over time`} className="xl:col-span-3">
                {b.departmentTimeSeries.departments.length === 0 ? (
                  <Empty>{t`No data`}</Empty>
                ) : (
                  <LinesChart
                    unit={b.departmentTimeSeries.unit}
                    times={b.departmentTimeSeries.series.map((s) => s.time)}
                    // Minutes: the axis counts them.
                    lines={b.departmentTimeSeries.departments.map((d, i) => ({ label: d.name ?? t`No department`, values: b.departmentTimeSeries!.series.map((s) => Math.round((s.ms[i] ?? 0) / 6000) / 10) }))}
                    label={t`Bending time per manufacturer over time, in minutes`}
                    height={220}
                  />
                )}
              </Card>
            )}
            {b.designerDetails && (
              <Card title={t`Designer details`} className="xl:col-span-3">
                <DesignerTable types={b.designerDetails.types} designers={b.designerDetails.designers} />
              </Card>
            )}
          </div>
        </>
      )}
    </div>
  );
}

/** Seconds as "42 s", "3,5 min" or "1,2 h" in the active language; "—" without finished runs. */
function meanTime(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${formatNumber(seconds)} s`;
  if (seconds < 3600) return `${formatNumber(seconds / 60, { fixed: 1 })} min`;
  return `${formatNumber(seconds / 3600, { fixed: 1 })} h`;
}
