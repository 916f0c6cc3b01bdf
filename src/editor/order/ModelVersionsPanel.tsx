// The jaws' model versions of the open order, under the smoothing and straightening tools: "Keep
// as new model version" (the jaw as smoothed becomes the order's model) and each jaw's versions
// (version, note, time, active) with "Restore" (order/orderFiles.ts).
import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { EditorEngine, EditorState } from '../engine/EditorEngine.ts';
import { useEngineStore } from '../ui/useEngineStore.ts';
import type { Jaw, ModelVersionsView } from './orderFiles.ts';

const NONE: ModelVersionsView = { orderId: null, versions: [], loaded: false, busy: null, error: null, done: null };

const NOTES: Record<string, MessageDescriptor> = {
  original: msg`Original`,
  smoothed: msg`Smoothed`,
  straightened: msg`Straightened`,
  edited: msg`Edited`,
};

const BUTTON = 'inline-flex h-7 items-center rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium text-slate-700 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50';

export function ModelVersionsPanel({ engine, state }: { engine: EditorEngine | null; state: EditorState }) {
  const { t } = useLingui();
  const view = useEngineStore(engine?.modelVersions, (v) => v, NONE);
  if (view.orderId === null || (state.tool !== 'smooth' && state.tool !== 'straighten')) return null;
  const jaws = (['upper', 'lower'] as const).filter((jaw) => state.models.some((m) => m.role === jaw) || view.versions.some((v) => v.jaw === jaw));
  const jawName = (jaw: Jaw) => (jaw === 'upper' ? t`Upper jaw` : t`Lower jaw`);
  return (
    <section className="border-b border-slate-200 px-3 py-3" data-testid="model-versions" aria-label={t`Model versions`}>
      <h2 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Model versions`}</h2>
      {state.tool === 'straighten' && <p className="mb-2 text-xs text-slate-500">{t`Straightening stays in the design (it moves both jaws and the bite together); keep a smoothed jaw as a new model version from the smoothing tool.`}</p>}
      {jaws.map((jaw) => {
        const versions = view.versions.filter((v) => v.jaw === jaw);
        const busy = view.busy?.jaw === jaw ? view.busy.kind : null;
        const smoothed = (state.document.smoothing ?? []).some((op) => op.model === jaw);
        return (
          <div key={jaw} className="mb-2 text-xs" data-testid={`model-versions-${jaw}`}>
            <div className="flex items-center justify-between gap-2">
              <span className="font-medium text-slate-700">{jawName(jaw)}</span>
              {state.tool === 'smooth' && (
                <button
                  type="button"
                  className={BUTTON}
                  disabled={!smoothed || view.busy !== null}
                  title={smoothed ? undefined : t`Smooth this jaw first`}
                  onClick={() => void engine?.modelVersions.keep(jaw)}
                  data-testid={`model-keep-${jaw}`}
                >
                  {busy === 'keep' ? t`Keeping…` : t`Keep as new model version`}
                </button>
              )}
            </div>
            {versions.length === 0 ? (
              <p className="mt-1 text-slate-500">{t`No other versions.`}</p>
            ) : (
              <ul className="mt-1 space-y-1">
                {versions.map((v) => (
                  <li key={v.version} className="flex items-center gap-2" data-testid="model-version" data-version={v.version} data-active={v.active ? 'true' : 'false'}>
                    <span className="tabular-nums text-slate-700">v{v.version}</span>
                    <span className="text-slate-600">{NOTES[v.note] ? t(NOTES[v.note]!) : v.note}</span>
                    <span className="min-w-0 flex-1 truncate text-slate-400 tabular-nums">{v.createTime}</span>
                    {v.active ? (
                      <span className="rounded bg-emerald-50 px-1.5 py-0.5 text-emerald-700">{t`Active`}</span>
                    ) : (
                      <button type="button" className="text-primary underline hover:no-underline disabled:opacity-50" disabled={view.busy !== null} onClick={() => {
                          // Smoothing not kept is made on the version being left: it goes with it.
                          if (smoothed && !window.confirm(t`The smoothing of this jaw that was not kept as a version will be lost. Restore version ${v.version}?`)) return;
                          void engine?.modelVersions.restore(jaw, v.version);
                        }} data-testid="model-restore">
                        {t`Restore`}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {busy === 'restore' && <p className="mt-1 text-slate-500">{t`Restoring the version…`}</p>}
            {view.error?.jaw === jaw && (
              <p role="alert" className="mt-1 rounded-md bg-red-50 px-2 py-1 text-red-700" data-testid="model-version-error">
                {view.error.message}
              </p>
            )}
            {view.done?.jaw === jaw && (
              <p className="mt-1 text-emerald-700" data-testid="model-version-done">
                {view.done.kind === 'keep' ? t`Kept as version ${view.done.version}: the smoothing is part of the model now.` : t`Version ${view.done.version} restored.`}
              </p>
            )}
          </div>
        );
      })}
    </section>
  );
}
