// The wire tool's "on teeth" row: the next wire placed on named teeth instead of clicks (a clasp
// on a chosen tooth, the arrow clasp between it and its distal neighbour, the labial bow on the
// jaw's canines, the wraparound bow round its last molars). The teeth come from the segmentation
// (engine.teeth), found first if need be. A single-arm clasp crosses the contact the wire options
// name (WirePanel's "Crossing"), as one placed by clicks does.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { WireType } from '../../engine/document.ts';
import type { EditorEngine, EditorState } from '../../engine/EditorEngine.ts';
import { FIELD_CLASS } from '../../ui/MmField.tsx';
import { numbersOf, toothName, type Jaw } from '../teeth/labels.ts';
import { useToothNumbering } from '../../../ui/toothNumbering.ts';

const JAWS: readonly Jaw[] = ['upper', 'lower'];
/** First molars (FDI 16, 46) for a clasp; second premolars (15, 45) for an arrow clasp, which sits distal to them. */
const DEFAULT_TOOTH: Record<'singleArmClasp' | 'arrowClasp', Record<Jaw, number>> = {
  singleArmClasp: { upper: 3, lower: 30 },
  arrowClasp: { upper: 4, lower: 29 },
};

export function OnTeeth({ engine, state, type, busy }: { engine: EditorEngine | null; state: EditorState; type: WireType; busy: boolean }) {
  const { t } = useLingui();
  const numbering = useToothNumbering();
  const loaded = JAWS.filter((jaw) => state.models.some((m) => m.role === jaw && m.status === 'ready'));
  const [choice, setChoice] = useState<Record<WireType, string>>({ singleArmClasp: '', arrowClasp: '', labialBow: '', wraparoundBow: '' });
  if (!loaded.length) return null;
  const perTooth = type === 'singleArmClasp' || type === 'arrowClasp';
  const value = choice[type] || (perTooth ? String(DEFAULT_TOOTH[type][loaded[0]!]) : loaded[0]!);
  const jawName: Record<Jaw, string> = { upper: t`Upper jaw`, lower: t`Lower jaw` };
  const label = type === 'labialBow' ? t`On the canines of` : type === 'wraparoundBow' ? t`Round the last molars of` : type === 'arrowClasp' ? t`Distal to tooth` : t`On tooth`;
  const place = (): void => {
    if (!engine) return;
    void engine.wires.placeOnTeeth(type, perTooth ? { tooth: Number(value) } : { jaw: value as Jaw });
  };
  return (
    <div className="col-span-2 flex items-end gap-1.5" data-testid="wire-on-teeth">
      <label className="min-w-0 flex-1 text-xs text-slate-600">
        {label}
        <select className={FIELD_CLASS} value={value} onChange={(e) => setChoice({ ...choice, [type]: e.target.value })} data-testid="wire-on-teeth-target">
          {perTooth
            ? loaded.map((jaw) => (
                <optgroup key={jaw} label={jawName[jaw]}>
                  {numbersOf(jaw).map((n) => (
                    <option key={n} value={String(n)}>
                      {toothName(n, numbering)}
                    </option>
                  ))}
                </optgroup>
              ))
            : loaded.map((jaw) => (
                <option key={jaw} value={jaw}>
                  {jawName[jaw]}
                </option>
              ))}
        </select>
      </label>
      <button
        type="button"
        className="inline-flex h-7 shrink-0 items-center rounded-md border border-primary bg-primary px-2.5 text-xs font-medium text-white hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-50"
        disabled={!engine || busy}
        onClick={place}
        data-testid="wire-on-teeth-place"
      >
        {t`Place`}
      </button>
    </div>
  );
}
