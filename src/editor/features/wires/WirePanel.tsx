// The wires' side panel section: the next wire's type, diameter and clearance (wire tool), the
// list of wires (type, diameter, developed length, rule status; select, delete), the automatic
// design's review (AiReview.tsx), and for the selected wire its rule messages, auto-fit and deletion.
import { useLingui } from '@lingui/react/macro';
import type { BendCheckResult } from '../../../geometry/client.ts';
import { WIRE_TYPES, type WireDesign } from '../../engine/document.ts';
import type { EditorEngine, EditorState } from '../../engine/EditorEngine.ts';
import { INITIAL_WIRE_VIEW, WIRE_DIAMETERS, type WireView } from './feature.ts';
import { EditorIcon } from '../../ui/icons.tsx';
import { bendIssueMessage, tagFitMessage, tagName, tagOutsideMessage, WIRE_TYPE_NAMES, wireProblemMessage } from './messages.ts';
import { isHeld, TAG_INSIDE_MM } from './tags.ts';
import { FIELD_CLASS, MmField } from '../../ui/MmField.tsx';
import { formatMm, formatNumber } from '../../../i18n/format.ts';
import { useEngineStore } from '../../ui/useEngineStore.ts';
import { OnTeeth } from './OnTeeth.tsx';
import type { ClaspCrossing } from '../../../../common/wires/templates.ts';
import { AiReview } from './AiReview.tsx';
import { isDesignerWire } from '../../../../common/ai.ts';
import { toothName } from '../teeth/labels.ts';
import { useToothNumbering } from '../../../ui/toothNumbering.ts';

function useWireView(engine: EditorEngine | null): WireView {
  return useEngineStore(engine?.wires, (view) => view, INITIAL_WIRE_VIEW);
}

const BUTTON = 'inline-flex h-7 items-center rounded-md border px-2.5 text-xs font-medium disabled:cursor-not-allowed disabled:opacity-50';

type Status = 'checking' | 'ok' | 'warnings' | 'errors';
function statusOf(result: BendCheckResult | null): Status {
  if (!result) return 'checking';
  if (!result.ok) return 'errors';
  return result.issues.length > 0 ? 'warnings' : 'ok';
}
const STATUS_STYLE: Record<Status, string> = {
  checking: 'bg-slate-100 text-slate-500',
  ok: 'bg-emerald-50 text-emerald-700',
  warnings: 'bg-amber-50 text-amber-800',
  errors: 'bg-red-50 text-red-700',
};

export function WirePanel({ engine, state }: { engine: EditorEngine | null; state: EditorState }) {
  const { t, i18n } = useLingui();
  const view = useWireView(engine);
  const numbering = useToothNumbering();
  const wires = state.document.wires ?? [];
  const tool = state.tool === 'wire';
  if (!tool && wires.length === 0) return null;
  const selected = wires.find((w) => w.id === view.selectedId) ?? null;
  const clicked = view.anchors;
  const needed = view.needed;
  const statusName: Record<Status, string> = { checking: t`Checking…`, ok: t`No issues`, warnings: t`Warnings`, errors: t`Errors` };
  return (
    <section className="border-b border-slate-200 px-3 py-3" data-testid="wire-panel" aria-label={t`Wires`}>
      <h2 className="mb-2 text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t`Wires`}</h2>
      {tool && (
        <div className="grid grid-cols-2 gap-2" data-testid="wire-options">
          <label className="col-span-2 text-xs text-slate-600">
            {t`Wire type`}
            <select className={FIELD_CLASS} value={view.type} onChange={(e) => engine?.wires.setType(e.target.value as WireDesign['type'])} data-testid="wire-type">
              {WIRE_TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(WIRE_TYPE_NAMES[type])}
                </option>
              ))}
            </select>
          </label>
          <label className="text-xs text-slate-600">
            {t`Diameter (mm)`}
            <select
              className={`${FIELD_CLASS} tabular-nums`}
              value={String(selected?.diameter ?? view.diameter)}
              onChange={(e) => void engine?.wires.setDiameter(Number(e.target.value))}
              data-testid="wire-diameter"
            >
              {WIRE_DIAMETERS.map((d) => (
                <option key={d} value={String(d)}>
                  {formatNumber(d, { fixed: 1 }, i18n.locale)}
                </option>
              ))}
            </select>
          </label>
          <MmField label={t`Clearance (mm)`} min={0} max={1} step={0.05} value={selected?.clearance ?? view.clearance} onValue={(v) => void engine?.wires.setClearance(v)} testId="wire-clearance" />
          {view.type === 'singleArmClasp' && (
            <label className="col-span-2 text-xs text-slate-600">
              {t`Crossing`}
              <select
                className={FIELD_CLASS}
                value={view.crossing}
                onChange={(e) => engine?.wires.setCrossing(e.target.value as ClaspCrossing)}
                data-testid="wire-crossing"
                title={t`The contact the clasp crosses into the base: distal where the gum beside the mesial one is too narrow for its tag`}
              >
                <option value="mesial">{t`mesial`}</option>
                <option value="distal">{t`distal`}</option>
              </select>
            </label>
          )}
          <p className="col-span-2 text-xs text-slate-500" data-testid="wire-clicks" data-anchors={view.anchors} data-needed={view.needed}>
            {selected && clicked === 0
              ? t`Diameter and clearance apply to the selected wire. Click beside it (or press Esc) to place a new one.`
              : view.needed === 1
                ? t`Click the tooth to place the wire on.`
                : t`Click the teeth to place the wire on: ${clicked} of ${needed}.`}
          </p>
          <OnTeeth engine={engine} state={state} type={view.type} busy={view.busy} />
        </div>
      )}
      {view.problem && (
        <p role="alert" className="mt-2 rounded-md bg-red-50 px-2 py-1.5 text-xs text-red-700" data-testid="wire-problem" data-code={view.problem}>
          {t(wireProblemMessage(view.problem, view.problemTooth ? toothName(view.problemTooth, numbering) : ''))}
        </p>
      )}
      {wires.length > 0 && (
        <ol className="mt-2 space-y-1.5" data-testid="wire-list">
          {wires.map((w, i) => {
            const result = engine?.wires.check(w.id) ?? null;
            // A result of an earlier shape still gives the length, but not the status.
            const status = engine?.wires.checkIsCurrent(w.id) ? statusOf(result) : 'checking';
            const length = result?.program ? formatNumber(result.program.length, { fixed: 1 }, i18n.locale) : '–';
            const name = t(WIRE_TYPE_NAMES[w.type]);
            const n = i + 1;
            const diameter = formatNumber(w.diameter, { fixed: 1 }, i18n.locale);
            const corners = w.points.length;
            const active = w.id === view.selectedId;
            return (
              <li
                key={w.id}
                className={`flex items-center gap-2 rounded-md border px-2 py-1.5 text-xs ${active ? 'border-primary bg-primary-light-9' : 'border-slate-200 bg-white'}`}
                data-testid="wire-item"
                data-wire={w.id}
                data-selected={active ? 'true' : 'false'}
                data-status={status}
              >
                <button type="button" className="min-w-0 flex-1 text-left" onClick={() => engine?.wires.select(active ? null : w.id)} aria-pressed={active}>
                  {/* The name gives way to the AI mark, which stays whole however long the name. */}
                  <span className="flex min-w-0 items-center gap-1.5 font-medium text-slate-800" data-testid="wire-name">
                    <span className="truncate">
                      {n}. {name}
                    </span>
                    {!isDesignerWire(w) && (
                      <span className="shrink-0 rounded bg-violet-100 px-1 py-px text-[10px] font-semibold text-violet-700" title={t`Made by the automatic design, not accepted yet`} data-testid="wire-ai">
                        AI
                      </span>
                    )}
                  </span>
                  <span className="block text-slate-500 tabular-nums">{t`Ø ${diameter} mm · length ${length} mm · ${corners} corners`}</span>
                </button>
                <span className={`shrink-0 rounded px-1.5 py-0.5 text-[11px] font-medium ${STATUS_STYLE[status]}`} data-testid="wire-status">
                  {statusName[status]}
                </span>
                <button
                  type="button"
                  className="inline-flex size-6 shrink-0 items-center justify-center rounded text-slate-400 hover:bg-red-50 hover:text-red-600"
                  aria-label={t`Delete wire ${n}`}
                  title={t`Delete wire ${n}`}
                  onClick={() => engine?.wires.remove(w.id)}
                >
                  <EditorIcon name="trash" className="size-3.5" />
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {view.review && <AiReview engine={engine} wires={wires} report={view.review.report} />}
      {selected && <SelectedWire engine={engine} wire={selected} view={view} />}
    </section>
  );
}

function SelectedWire({ engine, wire, view }: { engine: EditorEngine | null; wire: WireDesign; view: WireView }) {
  const { t, i18n } = useLingui();
  const result = engine?.wires.check(wire.id) ?? null;
  const fit = wire.type === 'singleArmClasp';
  const detail = result?.program?.detail ?? [];
  const corner = view.corner;
  const number = (corner ?? 0) + 1;
  const count = wire.points.length;
  return (
    <div className="mt-2 rounded-md border border-slate-200 bg-white p-2" data-testid="wire-selected" data-wire={wire.id} data-corners={wire.points.length} data-corner={corner ?? ''}>
      {result && result.issues.length > 0 ? (
        <ul className="space-y-1" data-testid="wire-issues">
          {result.issues.map((issue, i) => {
            const value =
              issue.code === 'START_LENGTH' ? detail[0]?.straight : issue.code === 'END_LENGTH' ? detail[detail.length - 1]?.straight : undefined;
            return (
              <li
                key={`${issue.code}-${i}`}
                className={`rounded px-2 py-1 text-xs ${issue.severity === 'error' ? 'bg-red-50 text-red-700' : 'bg-amber-50 text-amber-800'}`}
                data-testid="wire-issue"
                data-code={issue.code}
                data-severity={issue.severity}
              >
                {t(bendIssueMessage(issue.code))}
                {value !== undefined && <span className="tabular-nums"> ({formatMm(value, 1, i18n.locale)})</span>}
              </li>
            );
          })}
        </ul>
      ) : (
        result && <p className="text-xs text-emerald-700" data-testid="wire-ok">{t`The wire passes the bending rules.`}</p>
      )}
      <TagRows engine={engine} wire={wire} />
      {!isDesignerWire(wire) && (
        <div className="mt-1.5 flex items-center gap-2 rounded bg-violet-50 px-2 py-1.5 text-xs text-violet-800" data-testid="wire-ai-review">
          <span className="flex-1">{t`Made by the automatic design: accept it as it is, or edit it to make it yours.`}</span>
          <button type="button" className={`${BUTTON} border-violet-300 bg-white text-violet-800 hover:bg-violet-100`} disabled={!engine} onClick={() => engine?.wires.accept(wire.id)} data-testid="wire-accept">
            {t`Accept`}
          </button>
        </div>
      )}
      <p className="mt-1.5 text-xs text-slate-500">
        {corner === null ? t`Click a corner to select it; drag it to move it.` : t`Corner ${number} of ${count} selected.`}
      </p>
      <div className="mt-2 flex flex-wrap gap-1.5">
        <button
          type="button"
          className={`${BUTTON} border-primary bg-primary text-white hover:opacity-90`}
          disabled={!engine || !fit || view.busy}
          title={fit ? undefined : t`Auto-fit supports only the single-arm clasp`}
          onClick={() => void engine?.wires.autoFit(wire.id)}
          data-testid="wire-autofit"
        >
          {t`Auto-fit`}
        </button>
        <button
          type="button"
          className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-slate-100`}
          disabled={!engine || corner === null || wire.points.length <= 2}
          onClick={() => corner !== null && engine?.wires.deleteCorner(wire.id, corner)}
          data-testid="wire-delete-corner"
        >
          {t`Delete corner`}
        </button>
        <button
          type="button"
          className={`${BUTTON} border-slate-300 bg-white text-slate-700 hover:bg-red-50 hover:text-red-700`}
          disabled={!engine}
          onClick={() => engine?.wires.remove(wire.id)}
          data-testid="wire-delete"
        >
          {t`Delete wire`}
        </button>
      </div>
      {!fit && (
        <p className="mt-1.5 text-xs text-slate-500" data-testid="wire-autofit-note">
          {t`Auto-fit supports only the single-arm clasp`}
        </p>
      )}
    </div>
  );
}

/** Where the wire's tags lie in its jaw's base as shown (measured live), while there is one. */
function TagRows({ engine, wire }: { engine: EditorEngine | null; wire: WireDesign }) {
  const { t, i18n } = useLingui();
  const tags = engine?.wires.tags(wire.id) ?? null;
  if (!tags?.length) return null;
  const mm = (v: number, fixed = 2) => formatNumber(Math.abs(v), { fixed }, i18n.locale);
  return (
    <ul className="mt-1.5 space-y-1" data-testid="wire-tags">
      {tags.map((tag, i) => {
        const held = isHeld(tag);
        return (
          <li
            key={i}
            className={`rounded px-2 py-1 text-xs ${held ? 'bg-emerald-50 text-emerald-700' : 'bg-amber-50 text-amber-800'}`}
            data-testid="wire-tag"
            data-held={String(held)}
            data-inside={tag.inside.toFixed(2)}
            data-outside={tag.outside}
          >
            {t(tagFitMessage(t(tagName(i + 1, tags.length)), mm(tag.inside), tag.inside >= 0, held, mm(TAG_INSIDE_MM, 1)))}
            {tag.outside > 0 && <> {t(tagOutsideMessage(tag.outside))}</>}
          </li>
        );
      })}
    </ul>
  );
}
