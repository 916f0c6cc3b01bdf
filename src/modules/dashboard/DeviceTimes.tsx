/**
 * Device processing and standby time: per device a bar of its online time in the period, the
 * bending part in the theme colour and the standby part grey (docs/dashboard.md has the rule).
 */
import { useLingui } from '@lingui/react/macro';
import type { DeviceTime } from './data.ts';
import { Empty, formatDuration } from './parts.tsx';

export function DeviceTimes({ devices }: { devices: DeviceTime[] }) {
  const { t, i18n } = useLingui();
  if (!devices.length) return <Empty>{t`No devices`}</Empty>;
  const max = Math.max(...devices.map((d) => d.onlineMs), 1);
  const fmt = (ms: number) => formatDuration(ms, i18n.locale);
  const total = (key: 'bendMs' | 'standbyMs') => devices.reduce((a, d) => a + d[key], 0);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-500">
        <span className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm bg-primary" />
          {t`Bending`} <span className="text-slate-700 tabular-nums">{fmt(total('bendMs'))}</span>
        </span>
        <span className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm bg-slate-300" />
          {t`Standby`} <span className="text-slate-700 tabular-nums">{fmt(total('standbyMs'))}</span>
        </span>
      </div>
      <ul className="flex max-h-80 flex-col gap-2.5 overflow-auto pr-1">
        {devices.map((d) => {
          const summary = `${t`Bending`} ${fmt(d.bendMs)} · ${t`Standby`} ${fmt(d.standbyMs)} · ${t`Wires bent: ${d.jobs}`}`;
          return (
            <li key={d.deviceId} className="flex flex-col gap-1 text-sm">
              <div className="flex min-w-0 items-center gap-2">
                <span className={`size-2 shrink-0 rounded-full ${d.online ? 'bg-emerald-500' : 'bg-slate-300'}`} title={d.online ? t`Online` : t`Offline`} />
                <span className="min-w-0 truncate text-slate-700" title={d.name}>
                  {d.name}
                </span>
              </div>
              <div className="flex items-center gap-2">
                <div className="flex h-2.5 min-w-0 flex-1 overflow-hidden rounded-full bg-slate-100" role="img" aria-label={`${d.name}: ${summary}`} title={summary}>
                  <span className="h-full bg-primary" style={{ width: `${(d.bendMs / max) * 100}%` }} />
                  <span className="h-full bg-slate-300" style={{ width: `${(d.standbyMs / max) * 100}%` }} />
                </div>
                <span className="shrink-0 text-xs text-slate-500 tabular-nums">
                  {fmt(d.bendMs)} / {fmt(d.standbyMs)}
                </span>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
