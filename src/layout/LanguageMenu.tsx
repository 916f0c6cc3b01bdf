import { DropdownMenu } from 'radix-ui';
import { useLingui } from '@lingui/react/macro';
import { currentLocale, LANGUAGE_NAMES, LOCALES } from '../i18n/index.ts';
import { chooseLanguage } from '../app/habby.ts';
import { isLocale } from '../i18n/detect.ts';
import { Icon } from '../ui/icons.tsx';

/** Language switch: a menu button named "Language" with one radio item per language. */
export function LanguageMenu({ className = 'aw-btn-icon w-auto gap-1.5 px-2 text-sm' }: { className?: string }) {
  const { t, i18n } = useLingui();
  const locale = isLocale(i18n.locale) ? i18n.locale : currentLocale();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={className} aria-label={t`Language`} title={t`Language`}>
        <Icon name="globe" className="size-4" />
        <span aria-hidden="true" className="hidden sm:inline">
          {LANGUAGE_NAMES[locale]}
        </span>
        <Icon name="chevronDown" className="size-3 opacity-60" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className="aw-menu min-w-36">
          <DropdownMenu.RadioGroup
            value={locale}
            onValueChange={(value) => {
              if (isLocale(value)) void chooseLanguage(value);
            }}
          >
            {LOCALES.map((l) => (
              <DropdownMenu.RadioItem key={l} value={l} lang={l === 'zh' ? 'zh-CN' : l} className="aw-menu-item justify-between">
                {LANGUAGE_NAMES[l]}
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
