/** FDI or Universal tooth numbers in the editor: the personal centre's choice (the theme menu has it too). */
import { useLingui } from '@lingui/react/macro';
import { useToothNumbering } from '../ui/toothNumbering.ts';
import { chooseToothNumbering } from '../app/habby.ts';

export function ToothNumberingChoice() {
  const { t } = useLingui();
  const numbering = useToothNumbering();
  return (
    <div role="radiogroup" aria-label={t`Tooth numbers`} className="flex flex-wrap gap-3 text-sm text-slate-700">
      {(['fdi', 'universal'] as const).map((n) => (
        <label key={n} className="flex items-center gap-2">
          <input type="radio" name="tooth-numbering" className="size-4 accent-primary" checked={numbering === n} onChange={() => chooseToothNumbering(n)} />
          {n === 'fdi' ? t`FDI (11-48)` : t`Universal (1-32)`}
        </label>
      ))}
    </div>
  );
}
