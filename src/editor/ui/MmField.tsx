// A labelled number field in millimetres for the side panel's settings (base, slots, wires).
// Only finite numbers reach `onValue`: a cleared or half-typed field changes nothing.

export const FIELD_CLASS = 'mt-0.5 h-7 w-full rounded border border-slate-300 bg-white px-1.5 text-sm';

export function MmField(props: { label: string; value: number; min: number; max: number; step: number; onValue: (mm: number) => void; testId: string }) {
  const { label, value, min, max, step, onValue, testId } = props;
  return (
    <label className="text-xs text-slate-600">
      {label}
      <input
        type="number"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => Number.isFinite(e.target.valueAsNumber) && onValue(e.target.valueAsNumber)}
        className={`${FIELD_CLASS} tabular-nums`}
        data-testid={testId}
      />
    </label>
  );
}
