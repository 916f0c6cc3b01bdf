// Side panel section of the undercut analysis and heatmaps: which heatmap, which jaw, the
// insertion direction (tilt sliders, aim along the view, best direction in a cone) and what the
// last map found. Everything it changes goes through engine.analysis (undoable document changes).
import { useEffect, useState } from 'react';
import { useEngineStore } from '../../ui/useEngineStore.ts';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { BEST_DIRECTION_CONE_DEG, MAX_TILT_DEG, tiltsOf, type AnalysisController, type HeatmapMode } from './feature.ts';
import type { EditorEngine, EditorState } from '../../engine/EditorEngine.ts';
import { formatNumber, formatVector } from '../../../i18n/format.ts';

const MODES: { mode: HeatmapMode; label: MessageDescriptor }[] = [
  { mode: 'off', label: msg`Off` },
  { mode: 'undercut', label: msg`Undercuts` },
  { mode: 'occlusal', label: msg`Occlusal distance` },
  { mode: 'thickness', label: msg`Base thickness` },
];

function TiltSlider({ label, value, onCommit }: { label: string; value: number; onCommit: (v: number) => void }) {
  // Shown while dragging, committed (one undo step) on release.
  const [draft, setDraft] = useState<number | null>(null);
  const shown = draft ?? Math.round(value);
  const commit = () => {
    if (draft !== null) onCommit(draft);
    setDraft(null);
  };
  return (
    <label className="mt-1 block text-xs text-slate-500">
      <span className="flex justify-between">
        {label}
        <span className="tabular-nums">{shown}°</span>
      </span>
      <input
        type="range"
        min={-MAX_TILT_DEG}
        max={MAX_TILT_DEG}
        step={1}
        value={shown}
        onChange={(e) => setDraft(Number(e.target.value))}
        onPointerUp={commit}
        onKeyUp={commit}
        onBlur={commit}
        className="mt-1 w-full accent-primary"
        aria-label={label}
      />
    </label>
  );
}

function Panel({ engine, analysis, state }: { engine: EditorEngine; analysis: AnalysisController; state: EditorState }) {
  const { t, i18n } = useLingui();
  const a = useEngineStore(analysis, (s) => s, analysis.getState());
  useEffect(() => analysis.sync(), [analysis]);
  const ready = (role: 'upper' | 'lower') => state.models.some((m) => m.role === role && m.status === 'ready');
  const hasJaw = ready('upper') || ready('lower');
  const tilts = tiltsOf(a.direction, a.model);
  const number = (v: number, digits = 1) => formatNumber(v, { max: digits }, i18n.locale);
  const area = a.undercutArea !== null ? number(a.undercutArea) : '';
  const depth = a.maxValue !== null ? number(a.maxValue, 2) : '';
  const percent = Math.round((a.progress ?? 0) * 100);
  const bestPercent = Math.round((a.best?.progress ?? 0) * 100);
  const cone = BEST_DIRECTION_CONE_DEG;
  const unavailable = (mode: HeatmapMode): string | null => {
    if (mode === 'thickness' && !a.thicknessAvailable) return t`Generate a base first: the thickness map measures it against its model.`;
    if (mode === 'occlusal' && !(ready('upper') && ready('lower'))) return t`Needs both the upper and the lower jaw.`;
    if (mode === 'undercut' && !hasJaw) return t`Open a jaw model first.`;
    return null;
  };
  const aiming = state.tool === 'direction';
  return (
    <section className="border-b border-slate-200 px-3 py-3" data-testid="analysis" data-mode={a.mode} data-status={a.status} aria-label={t`Undercut analysis and heatmaps`}>
      <h2 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Undercut analysis and heatmaps`}</h2>
      <div role="radiogroup" aria-label={t`Heatmap`} className="grid grid-cols-2 gap-1">
        {MODES.map(({ mode, label }) => {
          const why = unavailable(mode);
          return (
            <button
              key={mode}
              type="button"
              role="radio"
              aria-checked={a.mode === mode}
              disabled={!!why && a.mode !== mode}
              title={why ?? undefined}
              data-testid={`heatmap-${mode}`}
              onClick={() => analysis.setMode(mode)}
              className={`h-7 rounded-md border px-2 text-xs ${a.mode === mode ? 'border-primary bg-primary text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'} disabled:cursor-not-allowed disabled:opacity-50`}
            >
              {t(label)}
            </button>
          );
        })}
      </div>
      {a.status === 'computing' && (
        <div className="mt-2" data-testid="heatmap-progress">
          <div role="progressbar" aria-label={t`Computing the heatmap`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-1.5 overflow-hidden rounded-full bg-slate-200">
            <div className="h-full rounded-full bg-primary" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-500">{t`Computing the heatmap…`}</p>
        </div>
      )}
      {a.error && (
        <p role="alert" className="mt-2 text-xs text-red-700" data-testid="analysis-error">
          {a.error === 'MODEL_MISSING' ? t`The model needed for this map is not loaded.` : t`The heatmap could not be computed.`}
        </p>
      )}
      {a.mode === 'undercut' && a.status === 'ready' && (
        <p className="mt-2 text-xs text-slate-600 tabular-nums" data-testid="undercut-summary">
          {t`Undercut area: ${area} mm² · deepest ${depth} mm`}
        </p>
      )}

      <h3 className="mt-3 mb-1 text-xs font-medium text-slate-700">{t`Insertion direction`}</h3>
      <label className="flex items-center justify-between py-1 text-sm text-slate-700">
        {t`Jaw`}
        <select
          className="h-7 rounded-md border border-slate-300 bg-white px-1 text-xs"
          value={a.model}
          onChange={(e) => analysis.setModel(e.target.value as 'upper' | 'lower')}
          aria-label={t`Jaw`}
          data-testid="analysis-jaw"
        >
          <option value="upper" disabled={!ready('upper')}>{t`Upper jaw`}</option>
          <option value="lower" disabled={!ready('lower')}>{t`Lower jaw`}</option>
        </select>
      </label>
      <p className="text-xs text-slate-500 tabular-nums" data-testid="direction-value">
        {a.directionSet ? formatVector(a.direction, 3, i18n.locale) : t`The jaw's axis (default)`}
      </p>
      <TiltSlider label={t`Tilt front / back`} value={tilts.front} onCommit={(v) => analysis.setTilts(v, tilts.side)} />
      <TiltSlider label={t`Tilt left / right`} value={tilts.side} onCommit={(v) => analysis.setTilts(tilts.front, v)} />
      <div className="mt-2 flex flex-wrap gap-1">
        <button
          type="button"
          aria-pressed={aiming}
          disabled={!hasJaw}
          onClick={() => engine.actions.run('tool.direction')}
          title={t`Turn the view to look along the insertion direction, then click the model`}
          className={`h-7 rounded-md border px-2 text-xs ${aiming ? 'border-primary bg-primary/10 text-primary' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'} disabled:opacity-50`}
          data-testid="direction-aim"
        >
          {t`Aim along the view`}
        </button>
        <button
          type="button"
          disabled={!a.directionSet}
          onClick={() => analysis.resetDirection()}
          className="h-7 rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-700 hover:bg-slate-50 disabled:opacity-50"
        >
          {t`Reset`}
        </button>
        {a.best?.running ? (
          <button type="button" onClick={() => analysis.cancelBest()} className="h-7 rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-700 hover:bg-slate-50" data-testid="best-cancel">
            {t`Cancel`} ({bestPercent}%)
          </button>
        ) : (
          <button
            type="button"
            disabled={!ready(a.model)}
            onClick={() => void analysis.findBestDirection()}
            title={t`Least undercut area within ${cone}° of the current direction`}
            className="h-7 rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-700 hover:bg-slate-50 disabled:opacity-50"
            data-testid="best-direction"
          >
            {t`Best direction`}
          </button>
        )}
      </div>
      {a.best && !a.best.running && a.best.angleDeg !== null && (
        <p className="mt-1 text-xs text-slate-500 tabular-nums" data-testid="best-result">
          {t`Found ${number(a.best.angleDeg)}° away: undercut ${number(a.best.area ?? 0)} mm² (was ${number(a.best.hintArea ?? 0)} mm²).`}
        </p>
      )}
    </section>
  );
}

export function AnalysisPanel({ engine, state }: { engine: EditorEngine | null; state: EditorState }) {
  if (!engine) return null;
  return <Panel engine={engine} analysis={engine.analysis} state={state} />;
}
