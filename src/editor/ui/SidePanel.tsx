// The side panel: the order's models (progress, errors, visibility, transparency), the display
// options (bite, clipping plane) and the active tool's options (the measurements).
import { useEffect, useRef, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ModelRole } from '../engine/document.ts';
import type { ToolId } from '../engine/tools/tool.ts';
import type { EditorEngine, EditorState, LoadStage, ModelView } from '../engine/EditorEngine.ts';
import { errorMessage } from './errors.ts';
import { EditorIcon } from './icons.tsx';
import { BasePanel } from '../features/base/BasePanel.tsx';
import { SlotPanel } from '../features/slots/SlotPanel.tsx';
import { SmoothPanel } from '../features/smooth/SmoothPanel.tsx';
import { ModelVersionsPanel } from '../order/ModelVersionsPanel.tsx';
import { WirePanel } from '../features/wires/WirePanel.tsx';
import { AnalysisPanel } from '../features/analysis/AnalysisPanel.tsx';
import { StraightenPanel } from '../features/straighten/StraightenPanel.tsx';
import { BitePanel } from '../features/bite/BitePanel.tsx';
import { TeethPanel } from '../features/teeth/TeethPanel.tsx';
import { formatCount, formatNumber } from '../../i18n/format.ts';

const ROLE_NAMES: Record<ModelRole, MessageDescriptor> = {
  upper: msg`Upper jaw`,
  lower: msg`Lower jaw`,
  occlusion: msg`Bite (occlusion)`,
};
const STAGES: Record<LoadStage, MessageDescriptor> = {
  download: msg`Downloading`,
  read: msg`Reading`,
  parse: msg`Processing`,
};
/** The side panel section of each tool (its data-testid). */
const TOOL_SECTION: Record<ToolId, string> = {
  measure: 'measurements',
  base: 'base-panel',
  smooth: 'smooth-panel',
  direction: 'analysis',
  straighten: 'straighten-panel',
  wire: 'wire-panel',
  bite: 'bite-panel',
  teeth: 'teeth-panel',
};

/**
 * Brings the active tool's section into view in the scrolling panel: when a tool is chosen, and
 * again when its hint changes (the base's Generate appears once the outline closes). A section
 * already in full view stays where it is; one taller than the panel shows from its top.
 */
function revealSection(panel: HTMLElement, section: HTMLElement): boolean {
  const box = panel.getBoundingClientRect();
  const at = section.getBoundingClientRect();
  if (at.top >= box.top && at.bottom <= box.bottom) return false;
  const top = panel.scrollTop + at.top - box.top;
  const delta = at.height > box.height || at.top < box.top ? top : panel.scrollTop + at.bottom - box.bottom;
  panel.scrollTop = Math.max(0, delta);
  return true;
}

const SWATCH: Record<ModelRole, string> = { upper: 'bg-[#eee3cc]', lower: 'bg-[#e6dbc7]', occlusion: 'bg-[#9ec2e6]' };

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="border-b border-slate-200 px-3 py-3" data-testid={testId} aria-label={title}>
      <h2 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{title}</h2>
      {children}
    </section>
  );
}

function ModelRow({ engine, model }: { engine: EditorEngine | null; model: ModelView }) {
  const { t, i18n } = useLingui();
  const role = t(ROLE_NAMES[model.role]);
  const percent = Math.round((model.progress?.fraction ?? 0) * 100);
  const stage = model.progress ? t(STAGES[model.progress.stage]) : '';
  const triangles = formatCount(model.triangles, i18n.locale);
  const opacity = Math.round(model.opacity * 100);
  const missing = model.error?.code === 'MODEL_MISSING';
  return (
    <li className="rounded-md border border-slate-200 bg-white p-2" data-testid={`model-${model.role}`} data-status={model.status}>
      <div className="flex items-center gap-2">
        <span className={`size-3 shrink-0 rounded-sm border border-slate-300 ${SWATCH[model.role]}`} aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-slate-800">{role}</p>
          {model.name && <p className="truncate text-xs text-slate-500">{model.name}</p>}
        </div>
        {model.status === 'ready' && (
          <button
            type="button"
            className="inline-flex size-7 items-center justify-center rounded text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            aria-label={model.visible ? t`Hide ${role}` : t`Show ${role}`}
            aria-pressed={model.visible}
            title={model.visible ? t`Hide ${role}` : t`Show ${role}`}
            onClick={() => engine?.setVisible(model.role, !model.visible)}
          >
            <EditorIcon name={model.visible ? 'eye' : 'eyeOff'} className="size-4" />
          </button>
        )}
      </div>
      {model.status === 'loading' && (
        <div className="mt-2">
          <div role="progressbar" aria-label={t`Loading ${role}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-1.5 overflow-hidden rounded-full bg-slate-200">
            <div className="h-full rounded-full bg-primary transition-[width] duration-100" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-500 tabular-nums">
            {stage}… {percent}%
          </p>
        </div>
      )}
      {model.status === 'error' && model.error && (
        <p role={missing ? undefined : 'alert'} className={`mt-1.5 text-xs ${missing ? 'text-slate-400' : 'text-red-700'}`} data-error-code={model.error.code}>
          {t(errorMessage(model.error))}
        </p>
      )}
      {model.status === 'ready' && (
        <div className="mt-1.5 flex items-center gap-2 text-xs text-slate-500">
          <span className="tabular-nums">{t`${triangles} triangles`}</span>
          <label className="ml-auto flex items-center gap-1.5">
            <span className="sr-only">{t`Opacity of ${role}`}</span>
            <input
              type="range"
              min={10}
              max={100}
              step={5}
              value={opacity}
              onChange={(e) => engine?.setOpacity(model.role, Number(e.target.value) / 100)}
              className="h-1 w-20 accent-primary"
              aria-label={t`Opacity of ${role}`}
            />
            <span className="w-8 text-right tabular-nums">{opacity}%</span>
          </label>
        </div>
      )}
    </li>
  );
}

export function SidePanel({ engine, state, caseNo }: { engine: EditorEngine | null; state: EditorState; caseNo?: string }) {
  const { t, i18n } = useLingui();
  const { clipping } = state;
  const offset = Math.round(clipping.offset);
  const measurements = state.document.measurements;
  const panelRef = useRef<HTMLElement>(null);
  // The measurement labels over the viewport are written by the engine: in the new language too.
  useEffect(() => engine?.relabelMeasurements(), [engine, i18n.locale]);
  const tool = state.tool;
  const revealedFor = useRef<string | null>(null);
  useEffect(() => {
    const panel = panelRef.current;
    const section = tool ? panel?.querySelector<HTMLElement>(`[data-testid="${TOOL_SECTION[tool]}"]`) : null;
    const chosen = revealedFor.current !== tool;
    revealedFor.current = tool;
    // A new hint (a check finished, the outline closed) never moves the panel under the pointer:
    // the user may be aiming at one of its buttons.
    if (panel && section && (chosen || !panel.matches(':hover'))) revealSection(panel, section);
  }, [tool, state.toolHint]);
  return (
    <aside ref={panelRef} className="flex w-72 shrink-0 flex-col overflow-y-auto border-l border-slate-200 bg-slate-50" aria-label={t`Side panel`} data-tool={tool ?? ''}>
      <Section title={t`Models`} testId="model-list">
        {state.models.length === 0 ? (
          <p className="text-xs text-slate-500">{t`No model opened yet.`}</p>
        ) : (
          <ul className="space-y-2">
            {state.models.map((m) => (
              <ModelRow key={m.role} engine={engine} model={m} />
            ))}
          </ul>
        )}
      </Section>
      <Section title={t`Display`}>
        <label className="flex items-center justify-between py-1 text-sm text-slate-700">
          {t`Bite opened`}
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={state.biteOpen}
            disabled={!engine?.actions.enabled('bite.toggle')}
            onChange={() => engine?.actions.run('bite.toggle')}
          />
        </label>
        <label className="flex items-center justify-between py-1 text-sm text-slate-700">
          {t`Clipping plane`}
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={clipping.enabled}
            disabled={!engine?.actions.enabled('clip.toggle')}
            onChange={() => engine?.actions.run('clip.toggle')}
          />
        </label>
        {clipping.enabled && (
          <label className="mt-1 block text-xs text-slate-500">
            <span className="flex justify-between">
              {t`Plane position`}
              <span className="tabular-nums">{offset} mm</span>
            </span>
            <input
              type="range"
              min={clipping.min}
              max={clipping.max}
              step={0.5}
              value={clipping.offset}
              onChange={(e) => engine?.setClipping(true, Number(e.target.value))}
              className="mt-1 w-full accent-primary"
              aria-label={t`Plane position`}
            />
          </label>
        )}
      </Section>
      <BitePanel engine={engine} state={state} />
      <TeethPanel engine={engine} state={state} />
      <StraightenPanel engine={engine} state={state} />
      <AnalysisPanel engine={engine} state={state} />
      <BasePanel engine={engine} state={state} caseNo={caseNo} />
      <SlotPanel engine={engine} state={state} />
      <SmoothPanel engine={engine} state={state} />
      <ModelVersionsPanel engine={engine} state={state} />
      <WirePanel engine={engine} state={state} />
      <Section title={t`Measurements`} testId="measurements">
        {measurements.length > 0 && (
          <label className="mb-2 flex items-center justify-between text-sm text-slate-700">
            {t`Show measurements`}
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={state.measurementsView.shown}
              onChange={(e) => engine?.setMeasurementsShown(e.target.checked)}
              data-testid="measurements-shown"
            />
          </label>
        )}
        {measurements.length > 0 && !state.measurementsView.shown && state.tool !== 'measure' && (
          <p className="mb-2 text-xs text-slate-500">{t`Shown on the model with the measure tool, or while you point at one below.`}</p>
        )}
        {measurements.length === 0 ? (
          <p className="text-xs text-slate-500">{t`Choose the measure tool (M), then click two points on a model.`}</p>
        ) : (
          <ol className="space-y-1.5">
            {measurements.map((m, i) => {
              const n = i + 1;
              const straight = formatNumber(m.straight, { fixed: 2 }, i18n.locale);
              const surface = m.geodesic === null ? '–' : formatNumber(m.geodesic, { fixed: 2 }, i18n.locale);
              return (
                <li
                  key={m.id}
                  className="flex items-center gap-2 rounded-md border border-slate-200 bg-white px-2 py-1.5 text-xs hover:border-primary focus-within:border-primary"
                  data-testid="measurement"
                  tabIndex={0}
                  onMouseEnter={() => engine?.focusMeasurement(m.id)}
                  onMouseLeave={() => engine?.focusMeasurement(null)}
                  onFocus={() => engine?.focusMeasurement(m.id)}
                  onBlur={() => engine?.focusMeasurement(null)}
                >
                  <span className="flex size-5 shrink-0 items-center justify-center rounded-full bg-primary text-[11px] font-semibold text-white">{n}</span>
                  <div className="min-w-0 flex-1 text-slate-700">
                    <p className="tabular-nums">{t`Straight: ${straight} mm`}</p>
                    <p className="tabular-nums text-slate-500">{t`Along the surface: ${surface} mm`}</p>
                  </div>
                  <button
                    type="button"
                    className="inline-flex size-6 items-center justify-center rounded text-slate-400 hover:bg-red-50 hover:text-red-600"
                    aria-label={t`Delete measurement ${n}`}
                    title={t`Delete measurement ${n}`}
                    onClick={() => engine?.removeMeasurement(m.id)}
                  >
                    <EditorIcon name="trash" className="size-3.5" />
                  </button>
                </li>
              );
            })}
          </ol>
        )}
      </Section>
    </aside>
  );
}
