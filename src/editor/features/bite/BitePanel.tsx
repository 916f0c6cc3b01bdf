// The bite's side panel section: how well the registered bite fits (RMS, overlap, penetration and
// what was resolved, or why registration failed), the server's job while it runs, the bite scan's
// toggle, re-running, and the manual alignment's pairs with "Align".
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { EditorEngine, EditorState } from '../../engine/EditorEngine.ts';
import type { ActionId } from '../actions.ts';
import { useEngineStore } from '../../ui/useEngineStore.ts';
import { formatNumber } from '../../../i18n/format.ts';
import { isServerBite, MIN_PAIRS, type BiteProblem, type BiteView } from './feature.ts';

const IDLE: BiteView = { server: null, loadError: null, failure: null, quality: null, running: null, aligning: false, problem: null, pairs: [] };

const PROBLEMS: Record<BiteProblem, MessageDescriptor> = {
  BITE_UNAVAILABLE: msg`Bite registration is not available in this version of the editor.`,
  BITE_NEEDS_MODELS: msg`Bite registration needs the upper, the lower and the bite scan loaded.`,
  BITE_NEEDS_PAIRS: msg`Pick at least three point pairs on a jaw first.`,
  BITE_FAILED: msg`The bite could not be registered. Try again, or align it by point pairs.`,
};

export function BitePanel({ engine, state }: { engine: EditorEngine | null; state: EditorState }) {
  const { t, i18n } = useLingui();
  const view = useEngineStore(engine?.bite, (v) => v, IDLE);
  const hasScan = state.models.some((m) => m.role === 'occlusion') || !!view.server?.occlusion;
  if (!engine || !hasScan) return null;
  const n = (v: number | null, digits = 2): string => (v === null ? '—' : formatNumber(v, { fixed: digits }, i18n.locale));
  const q = view.quality;
  const job = view.server?.job;
  const jobRunning = job && (job.state === 'queued' || job.state === 'running');
  const jobPercent = job ? Math.round(job.progress * 100) : 0;
  const jobError = view.failure ?? '';
  const fromServer = isServerBite(state.document.bite, view.server);
  const doc = fromServer ? undefined : state.document.bite;
  const sourceText = doc ? (doc.source === 'manual' ? t`Aligned by hand (saved with the design)` : t`Registered (saved with the design)`) : fromServer ? t`Registered on the server` : t`Not registered: the jaws are shown as scanned`;
  const button = (id: ActionId, label: string) => (
    <button
      type="button"
      className={`h-7 rounded-md border px-2 text-xs ${engine.actions.active(id) ? 'border-primary bg-primary text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'} disabled:opacity-40`}
      disabled={!engine.actions.enabled(id)}
      aria-pressed={engine.actions.active(id) || undefined}
      data-testid={`bite-${id}`}
      onClick={() => engine.actions.run(id)}
    >
      {label}
    </button>
  );
  const upperPairs = view.pairs.filter((p) => p.jaw === 'upper').length;
  const lowerPairs = view.pairs.filter((p) => p.jaw === 'lower').length;
  const runPercent = view.running === null ? 0 : Math.round(view.running * 100);
  return (
    <section
      className="border-b border-slate-200 px-3 py-3"
      data-testid="bite-panel"
      aria-label={t`Bite registration`}
      data-source={doc?.source ?? (fromServer ? 'server' : 'none')}
      data-failed={q?.error ? 'true' : 'false'}
      // The transforms the jaws are placed with now (browser tests compare them with the server's).
      data-placed-upper={JSON.stringify(Array.from(engine.modelBite('upper') ?? []))}
      data-placed-lower={JSON.stringify(Array.from(engine.modelBite('lower') ?? []))}
    >
      <h2 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Bite registration`}</h2>
      <p className="text-xs text-slate-600" data-testid="bite-source">
        {sourceText}
      </p>
      {jobRunning && (
        <p className="mt-1 text-xs text-violet-700" role="status" data-testid="bite-job">
          {t`Registering the bite on the server… ${jobPercent}%`}
        </p>
      )}
      {view.loadError && <p className="mt-1 text-xs text-red-700">{view.loadError}</p>}
      {q && !q.error && (
        <dl className="mt-2 grid grid-cols-2 gap-x-2 gap-y-0.5 text-xs" data-testid="bite-quality">
          <dt className="text-slate-500">{t`RMS distance`}</dt>
          <dd className="text-right tabular-nums" data-testid="bite-rms">{n(q.rms)} mm</dd>
          {q.overlap !== null && (
            <>
              <dt className="text-slate-500">{t`Overlap`}</dt>
              <dd className="text-right tabular-nums">{n(q.overlap * 100, 0)} %</dd>
            </>
          )}
          {q.penetration !== null && (
            <>
              <dt className="text-slate-500">{t`Penetration`}</dt>
              <dd className="text-right tabular-nums">{n(q.penetration)} mm</dd>
            </>
          )}
          {q.resolved !== null && (
            <>
              <dt className="text-slate-500">{t`Resolved by`}</dt>
              <dd className="text-right tabular-nums">{n(q.resolved)} mm</dd>
            </>
          )}
        </dl>
      )}
      {!q && view.failure && (
        <p className="mt-2 rounded border border-amber-200 bg-amber-50 px-2 py-1 text-xs text-amber-800" role="alert" data-testid="bite-error">
          {t`Bite registration failed: ${jobError}`}
        </p>
      )}
      {q?.error && (
        <p className="mt-2 rounded border border-amber-200 bg-amber-50 px-2 py-1 text-xs text-amber-800" role="alert" data-testid="bite-error" data-code={q.code ?? ''}>
          {t`Bite registration failed: ${q.error}`}
        </p>
      )}
      {view.problem && (
        <p className="mt-2 text-xs text-red-700" role="alert" data-testid="bite-problem">
          {t(PROBLEMS[view.problem])}
        </p>
      )}
      <div className="mt-2 flex flex-wrap gap-1.5">
        {button('bite.scan', t`Bite scan`)}
        {button('bite.rerun', view.running !== null ? t`Registering… ${runPercent}%` : t`Register again`)}
        {button('tool.bite', t`Align by point pairs`)}
      </div>
      {state.tool === 'bite' && (
        <div className="mt-2 rounded-md border border-slate-200 bg-slate-50 p-2 text-xs text-slate-600" data-testid="bite-pairs" data-pairs={view.pairs.length}>
          <p>{t`Pairs: upper ${upperPairs}, lower ${lowerPairs} (at least ${MIN_PAIRS} on a jaw)`}</p>
          <div className="mt-1.5 flex gap-1.5">
            {button('bite.align', view.aligning ? t`Aligning…` : t`Align`)}
            <button type="button" className="h-7 rounded-md border border-slate-300 bg-white px-2 text-xs text-slate-700 disabled:opacity-40" disabled={view.pairs.length === 0} onClick={() => engine.bite.clearPairs()}>
              {t`Clear pairs`}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
