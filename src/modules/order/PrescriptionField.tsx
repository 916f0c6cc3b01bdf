/**
 * The order form's prescription for the automatic design (common/prescription.ts): the lab's
 * default (value null) or the order's own, per jaw: its wires (type and teeth), base on or off and
 * the wire diameter. Teeth are stored as Universal numbers and shown in the user's numbering
 * (FDI or Universal, src/ui/toothNumbering.ts). The server checks it again (prescriptionSchema)
 * and names what does not fit.
 */
import { useLingui } from '@lingui/react/macro';
import { DEFAULT_PRESCRIPTION, PRESCRIPTION_DIAMETERS, PRESCRIPTION_TEETH, prescriptionProblem, type JawPrescription, type Prescription, type WirePrescription } from '../../../common/prescription.ts';
import { caninesOf, universalToFdi, type Jaw } from '../../../common/teeth.ts';
import { WIRE_TYPES, type WireType } from '../../../common/wires.ts';
import { WIRE_TYPE_NAMES } from '../../editor/features/wires/messages.ts';
import { useToothNumbering } from '../../ui/toothNumbering.ts';

const JAWS: Jaw[] = ['upper', 'lower'];
const teethOf = (jaw: Jaw) => Array.from({ length: 16 }, (_, i) => (jaw === 'upper' ? i + 1 : i + 17));

/** A new wire of a type on the jaw: bows on the canines, clasps on the first teeth that fit. */
function newWire(jaw: Jaw, type: WireType): WirePrescription {
  if (type === 'labialBow' || type === 'wraparoundBow') return { type, teeth: caninesOf(jaw) };
  const first = jaw === 'upper' ? 3 : 30;
  return { type, teeth: type === 'arrowClasp' ? [first, first - 1] : [first] };
}

/** Whether the prescription passes the same checks as the server's (common/prescription.ts). */
export function prescriptionFits(p: Prescription | null | undefined): boolean {
  if (!p) return true;
  return JAWS.every((jaw) => !p[jaw] || prescriptionProblem(jaw, p[jaw]!) === null);
}

/** `lab`: the lab's own default is edited (system params): no "use the default" choice. */
export function PrescriptionField({ id, value, onChange, disabled, lab = false }: { id?: string; value: unknown; onChange: (v: Prescription | null) => void; disabled?: boolean; lab?: boolean }) {
  const { t, i18n } = useLingui();
  const numbering = useToothNumbering();
  // The form holds anything but an object ('' for a null value) as the lab's default.
  const p = value !== null && typeof value === 'object' ? (value as Prescription) : null;
  const toothLabel = (n: number) => String(numbering === 'fdi' ? universalToFdi(n) : n);
  const jawName = (jaw: Jaw) => (jaw === 'upper' ? t`Upper jaw` : t`Lower jaw`);
  const setJaw = (jaw: Jaw, next: JawPrescription | null) => onChange({ ...(p ?? DEFAULT_PRESCRIPTION), [jaw]: next });
  const own = p !== null;

  return (
    <div id={id} className="space-y-2 text-sm" data-testid="prescription">
      <label className={`flex items-center gap-2 ${lab ? 'hidden' : ''}`}>
        <input type="checkbox" checked={!own} disabled={disabled} onChange={(e) => onChange(e.target.checked ? null : structuredClone(DEFAULT_PRESCRIPTION))} />
        {t`The lab's default prescription (system params)`}
      </label>
      {own &&
        JAWS.map((jaw) => {
          const j = p[jaw];
          const problem = j ? prescriptionProblem(jaw, j) : null;
          const setWire = (i: number, w: WirePrescription) => j && setJaw(jaw, { ...j, wires: j.wires.map((x, k) => (k === i ? w : x)) });
          return (
            <fieldset key={jaw} className={`rounded border p-2 ${problem ? 'border-red-400' : 'border-slate-200'}`} data-testid={`prescription-${jaw}`}>
              <legend className="px-1 font-medium">
                <label className="flex items-center gap-2">
                  <input type="checkbox" checked={!!j} disabled={disabled} onChange={(e) => setJaw(jaw, e.target.checked ? structuredClone(DEFAULT_PRESCRIPTION[jaw]) : null)} />
                  {jawName(jaw)}
                </label>
              </legend>
              {j && (
                <div className="space-y-1.5">
                  <div className="flex flex-wrap items-center gap-4">
                    <label className="flex items-center gap-1">
                      <input type="checkbox" checked={j.base} disabled={disabled} onChange={(e) => setJaw(jaw, { ...j, base: e.target.checked })} />
                      {t`Base`}
                    </label>
                    <label className="flex items-center gap-1">
                      {t`Wire diameter`}
                      <select className="rounded border px-1" value={j.diameter} disabled={disabled} onChange={(e) => setJaw(jaw, { ...j, diameter: Number(e.target.value) })}>
                        {PRESCRIPTION_DIAMETERS.map((d) => (
                          <option key={d} value={d}>{`${d} mm`}</option>
                        ))}
                      </select>
                    </label>
                  </div>
                  {j.wires.map((w, i) => (
                    <div key={i} className="flex flex-wrap items-center gap-2" data-testid="prescription-wire">
                      <select className="rounded border px-1" value={w.type} disabled={disabled} aria-label={t`Wire type`} onChange={(e) => setWire(i, newWire(jaw, e.target.value as WireType))}>
                        {WIRE_TYPES.map((type) => (
                          <option key={type} value={type}>
                            {i18n._(WIRE_TYPE_NAMES[type])}
                          </option>
                        ))}
                      </select>
                      {Array.from({ length: PRESCRIPTION_TEETH[w.type] }, (_, k) => (
                        <select
                          key={k}
                          className="rounded border px-1"
                          value={w.teeth[k] ?? ''}
                          disabled={disabled}
                          aria-label={t`Tooth`}
                          onChange={(e) => setWire(i, { ...w, teeth: Object.assign([...w.teeth], { [k]: Number(e.target.value) }) })}
                        >
                          {teethOf(jaw).map((n) => (
                            <option key={n} value={n}>
                              {toothLabel(n)}
                            </option>
                          ))}
                        </select>
                      ))}
                      <button type="button" className="text-red-700 hover:underline" disabled={disabled} onClick={() => setJaw(jaw, { ...j, wires: j.wires.filter((_, k) => k !== i) })}>
                        {t`Remove`}
                      </button>
                    </div>
                  ))}
                  {j.wires.length < 8 && (
                    <button type="button" className="text-blue-700 hover:underline" disabled={disabled} onClick={() => setJaw(jaw, { ...j, wires: [...j.wires, newWire(jaw, 'singleArmClasp')] })}>
                      {t`Add a wire`}
                    </button>
                  )}
                  {problem && <p className="text-xs text-red-700">{t`The teeth of a wire do not fit its type (count, jaw, neighbours); the server names which.`}</p>}
                </div>
              )}
            </fieldset>
          );
        })}
    </div>
  );
}
