/** The uPlot charts of the dashboard: additions over time, orders by status, wires bent over time. */
import { useMemo } from 'react';
import { useLingui } from '@lingui/react/macro';
import uPlot from 'uplot';
import { Chart, cssColor } from './Chart.tsx';
import { bucketTime, type AddInfo, type Unit, type WireCounts } from './data.ts';
import { Empty, HTML_LANG } from './parts.tsx';

/** Axis steps for counts: whole numbers only. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];

/** Tick labels of a time axis in the UI language (the buckets are UTC). */
function timeTicks(unit: Unit, locale: string) {
  const fmt = new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    ...(unit === 'hour' ? { hour: '2-digit', minute: '2-digit' } : unit === 'day' ? { month: 'short', day: 'numeric' } : { year: 'numeric', month: 'short' }),
  } as Intl.DateTimeFormatOptions);
  return (_u: uPlot, splits: number[]) => splits.map((ts) => fmt.format(new Date(ts * 1000)));
}

const barBuilders = new Map<string, uPlot.Series.PathBuilder>();
/** Bars of a width share (0..1), left (-1), centred (0) or right (1) of their tick. */
const barPaths = (size: number, align: -1 | 0 | 1 = 0) => {
  const key = `${size}:${align}`;
  if (!barBuilders.has(key)) barBuilders.set(key, uPlot.paths.bars!({ size: [size, 48], align }));
  return barBuilders.get(key)!;
};

function timeAxes(unit: Unit, locale: string): uPlot.Axis[] {
  return [
    { stroke: '#64748b', grid: { stroke: '#f1f5f9' }, values: timeTicks(unit, locale) },
    { stroke: '#64748b', grid: { stroke: '#f1f5f9' }, incrs: COUNT_STEPS },
  ];
}

export function SeriesChart({ add, names, label }: { add: AddInfo; names: { orders: string; manufacturers: string; devices: string }; label: string }) {
  return (
    <LinesChart
      unit={add.unit}
      times={add.series.map((s) => s.time)}
      lines={[
        { label: names.orders, values: add.series.map((s) => s.orders), fill: true },
        { label: names.manufacturers, values: add.series.map((s) => s.manufacturers) },
        { label: names.devices, values: add.series.map((s) => s.devices) },
      ]}
      label={label}
    />
  );
}

/** Colours of the lines after the first (which takes the theme colour). */
const LINE_COLOURS = ['#f59e0b', '#10b981', '#8b5cf6', '#ef4444', '#0ea5e9', '#64748b'];

export interface Line {
  label: string;
  values: number[];
  /** Fill under the line (the first, main figure). */
  fill?: boolean;
}

/** Lines over the time buckets of a period: the first in the theme colour, the rest in fixed colours. */
export function LinesChart({ unit, times, lines, label, height = 260 }: { unit: Unit; times: string[]; lines: Line[]; label: string; height?: number }) {
  const { i18n } = useLingui();
  const locale = HTML_LANG[i18n.locale] ?? 'en';
  // Callers build their lines on every render: the chart is rebuilt only when the figures change.
  const key = JSON.stringify([times, lines.map((l) => l.values)]);
  const data = useMemo<uPlot.AlignedData>(() => [times.map(bucketTime), ...lines.map((l) => l.values)], [key]);
  const options = (size: { width: number; height: number }): uPlot.Options => {
    const primary = cssColor('--color-primary', '#4165d7');
    const fill = cssColor('--color-primary-light-8', '#d9e0f7');
    return {
      ...size,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'), // the buckets are UTC
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.15)] } },
      axes: timeAxes(unit, locale),
      legend: { live: false },
      series: [
        {},
        ...lines.map((l, i) => ({
          label: l.label,
          stroke: i === 0 ? primary : LINE_COLOURS[(i - 1) % LINE_COLOURS.length],
          ...(l.fill ? { fill: `${fill}99` } : {}),
          width: 2,
          points: { show: times.length <= 31 },
        })),
      ],
    };
  };
  return <Chart options={options} data={data} height={height} label={label} />;
}

export function StatusChart({ rows, labels, label, empty }: { rows: { status: number; count: number }[]; labels: string[]; label: string; empty: string }) {
  const data = useMemo<uPlot.AlignedData>(() => [labels.map((_, i) => i), labels.map((_, i) => rows.find((r) => r.status === i)?.count ?? 0)], [rows, labels]);
  if (!rows.length) return <Empty>{empty}</Empty>;
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
      series: [{}, { label, stroke: primary, fill: primary, paths: barPaths(0.6), points: { show: false } }],
    };
  };
  return <Chart options={options} data={data} height={260} label={label} />;
}

/** Done (theme colour) and failed (red) wires per bucket, side by side. */
export function WireChart({ wires, names, label }: { wires: WireCounts; names: { done: string; failed: string }; label: string }) {
  const { i18n } = useLingui();
  const locale = HTML_LANG[i18n.locale] ?? 'en';
  const data = useMemo<uPlot.AlignedData>(
    // No bar (null) rather than a flat one on the axis for an empty bucket.
    () => [wires.series.map((s) => bucketTime(s.time)), wires.series.map((s) => s.done || null), wires.series.map((s) => s.failed || null)],
    [wires],
  );
  const options = (size: { width: number; height: number }): uPlot.Options => {
    const primary = cssColor('--color-primary', '#4165d7');
    return {
      ...size,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.15)] } },
      axes: timeAxes(wires.unit, locale),
      legend: { live: false },
      series: [
        {},
        { label: names.done, stroke: primary, fill: primary, paths: barPaths(0.35, -1), points: { show: false } },
        { label: names.failed, stroke: '#ef4444', fill: '#ef4444', paths: barPaths(0.35, 1), points: { show: false } },
      ],
    };
  };
  return <Chart options={options} data={data} height={220} label={label} />;
}
