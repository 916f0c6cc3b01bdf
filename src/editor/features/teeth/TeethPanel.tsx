// The teeth's side panel section, while the Teeth display is on: the segmentation's progress (with
// Cancel) or why it failed, FDI or Universal numbers, and the corrections: the tool's mode, and
// for the picked tooth a number picker (a number on another tooth swaps with it), "merge into" and
// the number a split gives the new part.
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { EditorEngine, EditorState } from '../../engine/EditorEngine.ts';
import { useEngineStore } from '../../ui/useEngineStore.ts';
import { numbersOf, toothName, type Jaw } from './labels.ts';
import type { JawTeeth, TeethMode, TeethProblem, TeethView } from './feature.ts';

const IDLE_JAW: JawTeeth = { status: 'idle', progress: null, corrected: false, teeth: [], linePoints: 0 };
const IDLE: TeethView = { shown: false, mode: 'pick', splitNumber: null, numbering: 'fdi', jaws: { upper: IDLE_JAW, lower: IDLE_JAW }, selected: null, problem: null };

const PROBLEMS: Record<TeethProblem, MessageDescriptor> = {
  TEETH_UNAVAILABLE: msg`Finding teeth is not available in this version of the editor.`,
  TEETH_FAILED: msg`The teeth could not be found on this model. Check the model, or hide the teeth and try again.`,
  TEETH_NONE: msg`No teeth were found on this model.`,
  TEETH_NUMBER_USED: msg`That number is already on another tooth: pick a free one.`,
  TEETH_NO_FREE_NUMBER: msg`Every number of this jaw is in use: merge or renumber a tooth first.`,
  TEETH_WRONG_JAW: msg`That number belongs to the other jaw.`,
};

const JAW_NAMES: Record<Jaw, MessageDescriptor> = { upper: msg`Upper jaw`, lower: msg`Lower jaw` };

const MODES: { mode: TeethMode; label: MessageDescriptor }[] = [
  { mode: 'pick', label: msg`Pick` },
  { mode: 'add', label: msg`Add region` },
  { mode: 'remove', label: msg`Remove region` },
  { mode: 'split', label: msg`Split` },
];

const chip = (on: boolean) =>
  `h-7 min-w-7 rounded-md border px-1.5 text-xs tabular-nums ${on ? 'border-primary bg-primary text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'} disabled:opacity-40`;

export function TeethPanel({ engine, state }: { engine: EditorEngine | null; state: EditorState }) {
  const { t } = useLingui();
  const view = useEngineStore(engine?.teeth, (v) => v, IDLE);
  if (!engine || !view.shown) return null;
  const teeth = engine.teeth;
  const name = (n: number) => toothName(n, view.numbering);
  const running = (['upper', 'lower'] as const).filter((jaw) => view.jaws[jaw].status === 'running');
  const selected = view.selected;
  const present = selected ? view.jaws[selected.jaw].teeth.map((x) => x.number) : [];
  const free = selected ? teeth.freeNumbers(selected.jaw) : [];
  const splitTo = teeth.splitTarget();
  const tool = state.tool === 'teeth';
  return (
    <section className="border-b border-slate-200 px-3 py-3" data-testid="teeth-panel" aria-label={t`Teeth`} data-numbering={view.numbering}>
      <h2 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Teeth`}</h2>
      {running.map((jaw) => {
        const percent = Math.round((view.jaws[jaw].progress ?? 0) * 100);
        const jawName = t(JAW_NAMES[jaw]);
        return (
          <div key={jaw} className="mb-2" data-testid={`teeth-running-${jaw}`}>
            <div role="progressbar" aria-label={t`Finding the teeth of the ${jawName}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-1.5 overflow-hidden rounded-full bg-slate-200">
              <div className="h-full rounded-full bg-primary transition-[width] duration-100" style={{ width: `${percent}%` }} />
            </div>
            <p className="mt-1 text-xs text-slate-500 tabular-nums">{t`Finding the teeth of the ${jawName}… ${percent}%`}</p>
          </div>
        );
      })}
      {running.length > 0 && (
        <button type="button" className={chip(false)} onClick={() => teeth.cancel()}>
          {t`Cancel`}
        </button>
      )}
      {view.problem && (
        <p className="mt-1 text-xs text-red-700" role="alert" data-testid="teeth-problem" data-code={view.problem}>
          {t(PROBLEMS[view.problem])}
        </p>
      )}
      {(['upper', 'lower'] as const).map((jaw) =>
        view.jaws[jaw].status === 'ready' ? (
          <p key={jaw} className="text-xs text-slate-600" data-testid={`teeth-summary-${jaw}`} data-count={view.jaws[jaw].teeth.length}>
            {t(JAW_NAMES[jaw])}: {view.jaws[jaw].teeth.map((x) => name(x.number)).join(' ')}
            {view.jaws[jaw].corrected ? ` · ${t`corrected`}` : ''}
          </p>
        ) : null,
      )}
      <div className="mt-2 flex items-center gap-1.5 text-xs text-slate-600" role="radiogroup" aria-label={t`Tooth numbers`}>
        <span>{t`Tooth numbers`}</span>
        {(['fdi', 'universal'] as const).map((n) => (
          <button key={n} type="button" role="radio" aria-checked={view.numbering === n} className={chip(view.numbering === n)} onClick={() => teeth.setNumbering(n)}>
            {n === 'fdi' ? t`FDI` : t`Universal`}
          </button>
        ))}
      </div>
      <div className="mt-2 flex flex-wrap gap-1.5">
        <button type="button" className={chip(tool)} aria-pressed={tool} data-testid="teeth-tool" disabled={!engine.actions.enabled('tool.teeth')} onClick={() => engine.actions.run('tool.teeth')}>
          {t`Correct`}
        </button>
        {tool &&
          MODES.map(({ mode, label }) => (
            <button key={mode} type="button" className={chip(view.mode === mode)} aria-pressed={view.mode === mode} data-testid={`teeth-mode-${mode}`} onClick={() => teeth.setMode(mode)}>
              {t(label)}
            </button>
          ))}
      </div>
      {tool && selected && (
        <div className="mt-2 rounded-md border border-slate-200 bg-slate-50 p-2 text-xs text-slate-600" data-testid="teeth-picked" data-tooth={selected.number}>
          <p>{t`Tooth ${name(selected.number)}: give it the number`}</p>
          <div className="mt-1 grid grid-cols-8 gap-1" role="group" aria-label={t`Number`}>
            {numbersOf(selected.jaw).map((n) => (
              <button
                key={n}
                type="button"
                // A number on another tooth: underlined (picking it swaps the two).
                className={`${chip(n === selected.number)} ${present.includes(n) && n !== selected.number ? 'underline decoration-dotted' : ''}`}
                data-testid={`teeth-number-${n}`}
                title={present.includes(n) && n !== selected.number ? t`Swap with tooth ${name(n)}` : undefined}
                onClick={() => teeth.renumber(selected.jaw, selected.number, n)}
              >
                {name(n)}
              </button>
            ))}
          </div>
          {present.length > 1 && (
            <>
              <p className="mt-2">{t`Merge into tooth`}</p>
              <div className="mt-1 flex flex-wrap gap-1">
                {present
                  .filter((n) => n !== selected.number)
                  .map((n) => (
                    <button key={n} type="button" className={chip(false)} data-testid={`teeth-merge-${n}`} onClick={() => teeth.merge(selected.jaw, n, selected.number)}>
                      {name(n)}
                    </button>
                  ))}
              </div>
            </>
          )}
          {view.mode === 'split' && (
            <label className="mt-2 flex items-center gap-1.5">
              {t`The part right of the line becomes`}
              <select className="h-7 rounded border border-slate-300 bg-white px-1" value={splitTo ?? ''} onChange={(e) => teeth.setSplitNumber(Number(e.target.value))}>
                {free.map((n) => (
                  <option key={n} value={n}>
                    {name(n)}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
      )}
    </section>
  );
}
