// The slotting section of the side panel: the selected wire, depth and clearance of the slot,
// "Slot" (progress, cancel), "Reset slots", and the rules' messages (feature.ts).
import { useEngineStore } from '../../ui/useEngineStore.ts';
import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { EditorEngine, EditorState } from '../../engine/EditorEngine.ts';
import { DEFAULT_SLOT_CLEARANCE, DEFAULT_SLOT_DEPTH, MAX_SLOT_CLEARANCE, MAX_SLOT_DEPTH, type SlotProblemCode, type SlotView } from './feature.ts';
import { MmField } from '../../ui/MmField.tsx';
import { WIRE_TYPE_NAMES } from '../wires/messages.ts';

const NONE: SlotView = { status: 'idle', progress: null, problem: null, applied: 0, skipped: 0, depth: DEFAULT_SLOT_DEPTH, clearance: DEFAULT_SLOT_CLEARANCE };

/** The specification's sentence for each way slotting refuses or fails. */
function slotProblemMessage(code: SlotProblemCode): MessageDescriptor {
  switch (code) {
    case 'NO_BASE':
      return msg`Invalid operation, no base generated`;
    case 'NO_WIRE':
      return msg`Select a wire first, then slot it.`;
    case 'SLOT_WIRE_TYPE':
      return msg`Slotting supports only labial bow, single arm clasp and arrow clasp`;
    case 'NO_TAG':
      return msg`This wire has no part marked to be held in the base.`;
    case 'WRONG_JAW':
      return msg`The wire is on the other jaw than the base.`;
    case 'SLOT_BASE_NOT_MANIFOLD':
      return msg`The base is not a closed mesh; generate it again.`;
    case 'SLOTTING_FAILED':
      return msg`Slotting failed`;
  }
}

function useSlotView(engine: EditorEngine | null): SlotView {
  return useEngineStore(engine?.slots, (view) => view, NONE);
}

const BUTTON = 'inline-flex h-7 items-center rounded-md border px-2.5 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-50';

export function SlotPanel({ engine, state }: { engine: EditorEngine | null; state: EditorState }) {
  const { t } = useLingui();
  const view = useSlotView(engine);
  const doc = state.document;
  const slots = doc.slots ?? [];
  if (!doc.bases?.upper?.generated && !doc.bases?.lower?.generated && !doc.wires?.length && slots.length === 0 && !view.problem) return null;
  const selectedId = state.wires.selectedId;
  const wire = selectedId ? doc.wires?.find((w) => w.id === selectedId) : undefined;
  const wireName = wire ? t(WIRE_TYPE_NAMES[wire.type]) : null;
  const slotted = wire ? slots.some((s) => s.wireId === wire.id) : false;
  const busy = view.status !== 'idle';
  const percent = Math.round((view.progress ?? 0) * 100);
  const { applied, skipped } = view;
  // "Select a wire first" is answered once a wire is selected.
  const problem = view.problem && !(view.problem.code === 'NO_WIRE' && wire) ? view.problem : null;
  return (
    <section className="border-b border-slate-200 px-3 py-3" data-testid="slot-panel" aria-label={t`Slotting`}>
      <h2 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Slotting`}</h2>
      <p className="text-xs text-slate-600" data-testid="slot-wire" data-wire-id={wire?.id ?? ''}>
        {wireName ? (slotted ? t`Selected: ${wireName} (slotted; slot it again to replace its slot).` : t`Selected: ${wireName}.`) : t`No wire selected.`}
      </p>
      <div className="mt-2 grid grid-cols-2 gap-2">
        <MmField label={t`Depth (mm)`} min={0} max={MAX_SLOT_DEPTH} step={0.5} value={view.depth} onValue={(v) => engine?.slots.setSettings({ depth: v })} testId="slot-depth" />
        <MmField label={t`Clearance (mm)`} min={0} max={MAX_SLOT_CLEARANCE} step={0.05} value={view.clearance} onValue={(v) => engine?.slots.setSettings({ clearance: v })} testId="slot-clearance" />
      </div>
      <p className="mt-1 text-[11px] text-slate-500">{view.depth > 0 ? t`A channel open towards the insertion direction.` : t`Depth 0: a closed tunnel around the wire.`}</p>
      {view.status === 'cutting' && (
        <div className="mt-2">
          <div role="progressbar" aria-label={t`Slotting`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-1.5 overflow-hidden rounded-full bg-slate-200">
            <div className="h-full rounded-full bg-primary transition-[width] duration-100" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-500 tabular-nums">{t`Cutting the slot… ${percent}%`}</p>
        </div>
      )}
      {view.status === 'applying' && (
        <p className="mt-2 text-xs text-slate-500" role="status" data-testid="slot-applying">
          {t`Cutting the design's slots into the base…`}
        </p>
      )}
      {problem && (
        <p role="alert" className="mt-2 rounded-md bg-red-50 px-2 py-1.5 text-xs text-red-700" data-testid="slot-problem" data-code={problem.code}>
          {t(slotProblemMessage(problem.code))}
          {problem.code === 'SLOTTING_FAILED' && problem.detail ? `: ${problem.detail}` : ''}
        </p>
      )}
      {slots.length > 0 && (
        <p className="mt-2 text-xs text-emerald-700" data-testid="slot-status" data-applied={applied} data-skipped={skipped}>
          {t`Slots in the base: ${applied}.`}
          {skipped > 0 ? ` ${t`Left out: ${skipped} (wire deleted or not slottable).`}` : ''}
        </p>
      )}
      <div className="mt-2 flex flex-wrap gap-1.5">
        {view.status === 'cutting' ? (
          <button type="button" className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-slate-100`} onClick={() => engine?.slots.cancel()}>
            {t`Cancel`}
          </button>
        ) : (
          <button
            type="button"
            className={`${BUTTON} border-primary bg-primary text-white hover:opacity-90`}
            disabled={!engine || busy}
            onClick={() => void engine?.slots.cut()}
            data-testid="slot-cut"
          >
            {t`Slot`}
          </button>
        )}
        <button
          type="button"
          className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-red-50 hover:text-red-700`}
          disabled={slots.length === 0 || busy}
          onClick={() => engine?.slots.reset()}
          data-testid="slot-reset"
        >
          {t`Reset slots`}
        </button>
      </div>
    </section>
  );
}
