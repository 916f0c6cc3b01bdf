/**
 * The wire diameters a device takes: the usual ones (0.5 to 1.2 mm in 0.1 mm steps) as toggle
 * chips, and any other value typed in ("Other"). The value is a list of numbers (sent joined:
 * the form item's `join` hook); values outside the usual set show as chips too.
 */
import { useId, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { formatNumber } from '../../i18n/format.ts';

const USUAL_DIAMETERS: readonly number[] = Array.from({ length: 8 }, (_, i) => Math.round((0.5 + i * 0.1) * 10) / 10);
export const MIN_DIAMETER = 0.1;
export const MAX_DIAMETER = 5;

/** The form value as sorted unique numbers ("0.7,0.8", ['0.7', 0.8], …). */
export function diameterList(value: unknown): number[] {
  const raw = Array.isArray(value) ? value : String(value ?? '').split(',');
  const nums = raw.map((v) => Number(String(v).trim().replace(',', '.'))).filter((n) => Number.isFinite(n) && n > 0);
  return [...new Set(nums.map((n) => Math.round(n * 100) / 100))].sort((a, b) => a - b);
}

export function DiameterPicker({ id, name, value, onChange, disabled }: { id: string; name: string; value: unknown; onChange: (v: number[]) => void; disabled?: boolean }) {
  const { t, i18n } = useLingui();
  const [other, setOther] = useState('');
  const otherId = useId();
  const chosen = diameterList(value);
  const shown = [...new Set([...USUAL_DIAMETERS, ...chosen])].sort((a, b) => a - b);
  const toggle = (d: number) => onChange(chosen.includes(d) ? chosen.filter((c) => c !== d) : diameterList([...chosen, d]));
  const otherValue = Number(other.trim().replace(',', '.'));
  const otherValid = other.trim() !== '' && otherValue >= MIN_DIAMETER && otherValue <= MAX_DIAMETER;
  const add = () => {
    if (!otherValid) return;
    onChange(diameterList([...chosen, otherValue]));
    setOther('');
  };
  return (
    <div className="space-y-2">
      <div id={id} role="group" aria-label={name} className="flex flex-wrap gap-1.5">
        {shown.map((d) => {
          const on = chosen.includes(d);
          return (
            <button
              key={d}
              type="button"
              disabled={disabled}
              aria-pressed={on}
              className={`h-7 min-w-12 rounded-md border px-2 text-xs tabular-nums disabled:cursor-not-allowed disabled:opacity-60 ${
                on ? 'border-primary bg-primary-light-9 font-medium text-primary' : 'border-slate-300 bg-white text-slate-600 hover:border-slate-400'
              }`}
              onClick={() => toggle(d)}
            >
              {formatNumber(d, { min: 1, max: 2 }, i18n.locale)}
            </button>
          );
        })}
      </div>
      {!disabled && (
        <div className="flex items-center gap-2">
          <label htmlFor={otherId} className="shrink-0 text-xs text-slate-500">
            {t`Other (mm)`}
          </label>
          <input
            id={otherId}
            className="aw-input h-7 w-20 text-xs"
            inputMode="decimal"
            value={other}
            onChange={(e) => setOther(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
          <button type="button" className="h-7 rounded-md border border-slate-300 px-2 text-xs text-slate-700 hover:bg-slate-50 disabled:opacity-50" disabled={!otherValid} onClick={add}>
            {t`Add`}
          </button>
        </div>
      )}
    </div>
  );
}
