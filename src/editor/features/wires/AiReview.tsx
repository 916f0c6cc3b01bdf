// The automatic design's review in the wires panel, while the design holds wires the engine made:
// the prescribed wires it left out with their reasons, the bases it could not make, the slots it
// could not cut, and the tags the generated base holds short (the order's AI report, which comes with its design: getDesignData's
// aiReport). A slot's or tag's row selects its wire when the design still has it, and is struck
// through once the designer has accepted or edited that wire. A wire's tags are one row, with the
// figures measured again against the base shown once the editor has them (struck through when
// they are held now).
import { useLingui } from '@lingui/react/macro';
import type { AiReport } from '../../../../common/ai-report.ts';
import type { WireDesign } from '../../engine/document.ts';
import type { EditorEngine } from '../../engine/EditorEngine.ts';
import { formatNumber } from '../../../i18n/format.ts';
import { useToothNumbering } from '../../../ui/toothNumbering.ts';
import { toothName } from '../teeth/labels.ts';
import { aiBaseFailedMessage, aiLeftOutMessage, aiSlotFailedMessage, aiTagHeldMessage, aiTagMessage, WIRE_TYPE_NAMES } from './messages.ts';
import { isHeld, type TagFit } from './tags.ts';

export function AiReview({ engine, wires, report }: { engine: EditorEngine | null; wires: readonly WireDesign[]; report: AiReport }) {
  const { t, i18n } = useLingui();
  const numbering = useToothNumbering();
  if (!wires.some((w) => w.ai)) return null;
  const tooth = (n: number) => toothName(n, numbering);
  /** A wire as the designer finds it: its type and teeth ("Labial bow (13, 23)"). */
  const label = (w: { type: WireDesign['type']; teeth?: readonly number[] }) => {
    const name = t(WIRE_TYPE_NAMES[w.type]);
    return w.teeth?.length ? `${name} (${w.teeth.map(tooth).join(', ')})` : name;
  };
  const leftOut = report.wires.filter((w) => w.status === 'failed');
  const failedBases = report.bases.filter((b) => b.status === 'failed');
  const slots = report.bases.flatMap((b) => b.slots.filter((x) => x.status === 'failed'));
  const tags = tagRows(report, (id) => engine?.wires.tags(id) ?? null);
  if (leftOut.length + failedBases.length + slots.length + tags.length === 0) return null;
  /** Whether the design's wire of this id has been accepted or edited by the designer since. */
  const isAccepted = (wireId: string) => wires.find((w) => w.id === wireId)?.ai?.accepted === true;
  /**
   * The wire's name as the report or the design has it, and a button selecting it while the design
   * has it; struck through once the designer has accepted or edited the wire (the report is the
   * automatic design's), or once `resolved` (a tag measured again and held now).
   */
  const ofWire = (wireId: string, text: (name: string) => string, resolved = false) => {
    const wire = wires.find((w) => w.id === wireId);
    const named = report.wires.find((w) => w.wireId === wireId) ?? wire;
    const line = text(named ? label(named) : wireId);
    if (!wire) return line;
    const accepted = isAccepted(wireId);
    return (
      <>
        <button type="button" className={accepted || resolved ? 'text-left line-through opacity-60 hover:underline' : 'text-left hover:underline'} onClick={() => engine?.wires.select(wire.id)}>
          {line}
        </button>
        {accepted && (
          <span className="ml-1 rounded bg-violet-100 px-1 text-[10px] font-semibold" title={t`The designer has accepted or edited this wire since the automatic design`}>
            {t`accepted`}
          </span>
        )}
      </>
    );
  };
  return (
    <div className="mt-2 rounded-md border border-violet-200 bg-violet-50 p-2 text-xs text-violet-900" data-testid="ai-review">
      <h3 className="mb-1 font-semibold">{t`AI review`}</h3>
      <ul className="space-y-1">
        {leftOut.map((w, i) => (
          <li key={`wire-${i}`} data-testid="ai-review-item" data-kind="left-out" data-code={w.code ?? ''} title={w.message}>
            {t(aiLeftOutMessage(w.code, label(w), w.tooth ? tooth(w.tooth) : ''))}
          </li>
        ))}
        {failedBases.map((b) => (
          <li key={`base-${b.jaw}`} data-testid="ai-review-item" data-kind="base" data-code={b.code ?? ''} title={b.message}>
            {t(aiBaseFailedMessage(b.jaw))}
          </li>
        ))}
        {slots.map((slot, i) => (
          <li key={`slot-${i}`} data-testid="ai-review-item" data-kind="slot" data-wire={slot.wireId} data-code={slot.code ?? ''} data-accepted={String(isAccepted(slot.wireId))}>
            {ofWire(slot.wireId, (name) => t(aiSlotFailedMessage(name)))}
          </li>
        ))}
        {tags.map((tag) => {
          const distance = formatNumber(Math.abs(tag.inside), { fixed: 1 }, i18n.locale);
          const held = tag.live && isHeld(tag);
          return (
            <li
              key={`tag-${tag.wireId}`}
              data-testid="ai-review-item"
              data-kind="tag"
              data-wire={tag.wireId}
              data-accepted={String(isAccepted(tag.wireId))}
              data-live={String(tag.live)}
              data-held={String(held)}
            >
              {ofWire(tag.wireId, (name) => t(held ? aiTagHeldMessage(name, distance) : aiTagMessage(name, distance, tag.inside >= 0, tag.outside)), held)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * The report's tags held short, a row per wire: its worst tag's distance and all its corners
 * outside the acrylic; measured again (`live`) where the editor has the wire's tags in a base now.
 */
function tagRows(report: AiReport, measured: (wireId: string) => TagFit[] | null): (TagFit & { wireId: string; live: boolean })[] {
  const rows = new Map<string, TagFit & { wireId: string; live: boolean }>();
  for (const tag of report.bases.flatMap((b) => b.tags ?? [])) {
    const row = rows.get(tag.wireId);
    if (row) Object.assign(row, { inside: Math.min(row.inside, tag.inside), outside: row.outside + tag.outside });
    else rows.set(tag.wireId, { wireId: tag.wireId, inside: tag.inside, outside: tag.outside, live: false });
  }
  for (const row of rows.values()) {
    const now = measured(row.wireId);
    if (now?.length) Object.assign(row, { inside: Math.min(...now.map((x) => x.inside)), outside: now.reduce((n, x) => n + x.outside, 0), live: true });
  }
  return [...rows.values()];
}
