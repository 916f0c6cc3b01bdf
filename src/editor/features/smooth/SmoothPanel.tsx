// The smoothing brush's side panel section: radius and strength, and "Smooth all" per model
// with its progress.
import { useLingui } from '@lingui/react/macro';
import type { EditorEngine, EditorState } from '../../engine/EditorEngine.ts';
import { BRUSH_RADIUS, type SmoothView } from './feature.ts';
import { formatNumber } from '../../../i18n/format.ts';
import { useEngineStore } from '../../ui/useEngineStore.ts';

const IDLE: SmoothView = { radius: BRUSH_RADIUS.initial, strength: 0.5, progress: null, stroking: false };

export function SmoothPanel({ engine, state }: { engine: EditorEngine | null; state: EditorState }) {
  const { t, i18n } = useLingui();
  const view = useEngineStore(engine?.smoothing, (v) => v, IDLE);
  if (state.tool !== 'smooth') return null;
  const ready = state.models.filter((m) => m.status === 'ready');
  const percent = Math.round((view.progress ?? 0) * 100);
  const radius = formatNumber(view.radius, { fixed: 1 }, i18n.locale);
  const strength = Math.round(view.strength * 100);
  return (
    <section className="border-b border-slate-200 px-3 py-3" data-testid="smooth-panel" aria-label={t`Smoothing brush`}>
      <h2 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Smoothing brush`}</h2>
      <label className="block text-xs text-slate-600">
        <span className="flex justify-between">
          {t`Radius`}
          <span className="tabular-nums">{radius} mm</span>
        </span>
        <input
          type="range"
          min={BRUSH_RADIUS.min}
          max={BRUSH_RADIUS.max}
          step={0.5}
          value={view.radius}
          onChange={(e) => engine?.smoothing.setRadius(Number(e.target.value))}
          className="mt-1 w-full accent-primary"
          aria-label={t`Radius`}
        />
      </label>
      <label className="mt-2 block text-xs text-slate-600">
        <span className="flex justify-between">
          {t`Strength`}
          <span className="tabular-nums">{strength} %</span>
        </span>
        <input
          type="range"
          min={0.05}
          max={1}
          step={0.05}
          value={view.strength}
          onChange={(e) => engine?.smoothing.setStrength(Number(e.target.value))}
          className="mt-1 w-full accent-primary"
          aria-label={t`Strength`}
        />
      </label>
      {view.progress !== null ? (
        <div className="mt-2">
          <div role="progressbar" aria-label={t`Smoothing the model`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-1.5 overflow-hidden rounded-full bg-slate-200">
            <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-500 tabular-nums">{t`Smoothing the model… ${percent}%`}</p>
        </div>
      ) : (
        <div className="mt-2 flex flex-wrap gap-1.5">
          {ready.map((m) => {
            const name = m.role === 'upper' ? t`Upper jaw` : m.role === 'lower' ? t`Lower jaw` : t`Bite (occlusion)`;
            return (
              <button
                key={m.role}
                type="button"
                className="inline-flex h-7 items-center rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-700 hover:bg-slate-100"
                onClick={() => void engine?.smoothing.smoothAll(m.role)}
              >
                {t`Smooth all: ${name}`}
              </button>
            );
          })}
        </div>
      )}
    </section>
  );
}
