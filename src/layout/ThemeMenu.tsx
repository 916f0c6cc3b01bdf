/** Theme picking: a top-bar menu and a row of swatches (personal centre). */
import { DropdownMenu } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { THEMES, useTheme } from '../ui/theme.ts';
import { chooseTheme, chooseToothNumbering, chooseTransition } from '../app/habby.ts';
import { Icon } from '../ui/icons.tsx';
import { useToothNumbering, type ToothNumbering } from '../ui/toothNumbering.ts';

const NAMES = {
  default: msg`Default blue`,
  jihei: msg`Jet black`,
  guolv: msg`Fruit green`,
  jiangzi: msg`Magenta`,
  cangqing: msg`Slate cyan`,
} as const;

function themeLabel(i18n: I18n, name: string): string {
  const m = NAMES[name as keyof typeof NAMES];
  return m ? i18n._(m) : name;
}

function Swatch({ color, className = 'size-4' }: { color: string; className?: string }) {
  return <span aria-hidden="true" className={`${className} shrink-0 rounded-full ring-1 ring-black/10`} style={{ background: color }} />;
}

export function ThemeMenu() {
  const { t, i18n } = useLingui();
  const theme = useTheme();
  const numbering = useToothNumbering();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="aw-btn-icon" aria-label={t`Theme`} title={t`Theme`}>
        <Swatch color={theme.color} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className="aw-menu min-w-44">
          <DropdownMenu.Label className="px-2.5 py-1.5 text-xs font-medium text-slate-400">{t`Theme`}</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={theme.name} onValueChange={chooseTheme}>
            {THEMES.map((p) => (
              <DropdownMenu.RadioItem key={p.name} value={p.name} className="aw-menu-item justify-between">
                <span className="flex items-center gap-2">
                  <Swatch color={p.color} />
                  {themeLabel(i18n, p.name)}
                </span>
                <DropdownMenu.ItemIndicator>
                  <Icon name="check" className="size-4 text-primary" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
          <DropdownMenu.CheckboxItem checked={theme.transition} onCheckedChange={chooseTransition} className="aw-menu-item justify-between">
            {t`Page transitions`}
            <DropdownMenu.ItemIndicator>
              <Icon name="check" className="size-4 text-primary" />
            </DropdownMenu.ItemIndicator>
          </DropdownMenu.CheckboxItem>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
          <DropdownMenu.Label className="px-2.5 py-1.5 text-xs font-medium text-slate-400">{t`Tooth numbers`}</DropdownMenu.Label>
          <DropdownMenu.RadioGroup value={numbering} onValueChange={(v) => chooseToothNumbering(v as ToothNumbering)}>
            {(['fdi', 'universal'] as const).map((n) => (
              <DropdownMenu.RadioItem key={n} value={n} className="aw-menu-item justify-between">
                {n === 'fdi' ? t`FDI (11-48)` : t`Universal (1-32)`}
                <DropdownMenu.ItemIndicator>
                  <Icon name="check" className="size-4 text-primary" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** Swatch buttons, one per preset (radio group), and the page transition switch. */
export function ThemeSwatches() {
  const { t, i18n } = useLingui();
  const theme = useTheme();
  return (
    <div className="flex flex-col gap-4">
    <div role="radiogroup" aria-label={t`Theme`} className="flex flex-wrap gap-3">
      {THEMES.map((p) => {
        const active = p.name === theme.name;
        return (
          <button
            key={p.name}
            type="button"
            role="radio"
            aria-checked={active}
            onClick={() => chooseTheme(p.name)}
            className={`flex items-center gap-2 rounded-md border px-3 py-2 text-sm transition-colors outline-none focus-visible:ring-2 focus-visible:ring-primary-light-5 ${active ? 'border-primary bg-primary-light-9 text-primary' : 'border-slate-200 text-slate-700 hover:border-slate-300'}`}
          >
            <Swatch color={p.color} className="size-5" />
            {themeLabel(i18n, p.name)}
            {active && <Icon name="check" className="size-4" />}
          </button>
        );
      })}
    </div>
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input type="checkbox" className="size-4 accent-primary" checked={theme.transition} onChange={(e) => chooseTransition(e.target.checked)} />
      {t`Page transitions`}
    </label>
    </div>
  );
}
