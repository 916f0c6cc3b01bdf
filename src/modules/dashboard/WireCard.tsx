/** Arch wire counts and times: wires bent (done, failed) per bucket, the average bend time, and per wire type. */
import { useLingui } from '@lingui/react/macro';
import { WireChart } from './charts.tsx';
import type { WireCounts } from './data.ts';
import { Empty, formatDuration } from './parts.tsx';
import { isWireType } from '../../../common/wires.ts';
// The wire types' names: the editor's one translated definition (the same English as common's WIRE_TYPE_LABELS).
import { WIRE_TYPE_NAMES } from '../../editor/features/wires/messages.ts';

export function WireCard({ wires }: { wires: WireCounts }) {
  const { t, i18n } = useLingui();
  if (!wires.done && !wires.failed) return <Empty>{t`No wires were bent in this period`}</Empty>;
  const time = (ms: number | null) => (ms === null ? '–' : formatDuration(ms, i18n.locale));
  const typeName = (type: string | null) => (type === null ? t`Unknown` : isWireType(type) ? i18n._(WIRE_TYPE_NAMES[type]) : type);
  const figures = [
    { label: t`Done`, value: wires.done, className: 'text-primary' },
    { label: t`Failed`, value: wires.failed, className: 'text-red-600' },
    { label: t`Average bend time`, value: time(wires.avgMs), className: 'text-slate-800' },
  ];
  return (
    <div className="flex flex-col gap-3">
      <dl className="grid grid-cols-1 gap-2 text-sm min-[480px]:grid-cols-3">
        {figures.map((f) => (
          <div key={f.label} className="flex min-w-0 items-baseline justify-between gap-2 rounded-md bg-slate-50 px-3 py-2 min-[480px]:block">
            <dt className="truncate text-xs text-slate-500" title={f.label}>
              {f.label}
            </dt>
            <dd className={`text-lg font-semibold whitespace-nowrap tabular-nums ${f.className}`}>{f.value}</dd>
          </div>
        ))}
      </dl>
      <WireChart wires={wires} names={{ done: t`Done`, failed: t`Failed` }} label={t`Wires bent over time`} />
      <div className="overflow-x-auto">
        <table className="w-full text-xs sm:text-sm">
          <caption className="sr-only">{t`Wires by type`}</caption>
          <thead>
            <tr className="border-b border-slate-100 text-left text-xs text-slate-500">
              <th className="py-1.5 pr-3 font-medium">{t`Wire type`}</th>
              <th className="py-1.5 pr-3 text-right font-medium">{t`Done`}</th>
              {/* On a phone the failed count stays in the figures above: the table keeps its width. */}
              <th className="hidden py-1.5 pr-3 text-right font-medium min-[480px]:table-cell">{t`Failed`}</th>
              <th className="py-1.5 text-right font-medium">{t`Average bend time`}</th>
            </tr>
          </thead>
          <tbody>
            {wires.types.map((w) => (
              <tr key={`${w.type}|${w.diameter}`} className="border-b border-slate-50 text-slate-700 last:border-0">
                <td className="py-1.5 pr-3">
                  {typeName(w.type)}
                  {w.diameter !== null && <span className="block text-xs whitespace-nowrap text-slate-400 sm:ml-1.5 sm:inline">Ø {w.diameter} mm</span>}
                </td>
                <td className="py-1.5 pr-3 text-right tabular-nums">{w.done}</td>
                <td className="hidden py-1.5 pr-3 text-right tabular-nums min-[480px]:table-cell">{w.failed}</td>
                <td className="py-1.5 text-right whitespace-nowrap tabular-nums">{time(w.avgMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
