/** The languages the application offers. zh is the default. */
export const LOCALES = ['zh', 'en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh';
/** localStorage key holding the user's chosen language. */
export const LOCALE_STORAGE_KEY = 'aw.lang';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The language rule of the specification: the stored choice wins; otherwise the browser locale
 * decides (a locale with `cn`, or any Chinese locale, gives zh; one with `de` gives de; anything
 * else gives en). When nothing can be told (no stored choice, no browser locale) the default zh
 * applies. "With cn/de" is matched per subtag, so `zh-CN`, `en-CN`, `de`, `de-AT`, `en-DE` count,
 * but `nds` or `mde` do not.
 */
export function detectLocale(stored: string | null | undefined, browser: string | null | undefined): Locale {
  if (isLocale(stored)) return stored;
  const tag = (browser ?? '').trim().toLowerCase();
  if (!tag) return DEFAULT_LOCALE;
  const parts = tag.split(/[-_]/);
  if (parts[0] === 'zh' || parts.includes('cn')) return 'zh';
  if (parts.includes('de')) return 'de';
  return 'en';
}

/** The value for `<html lang>`. */
export function htmlLang(locale: Locale): string {
  return locale === 'zh' ? 'zh-CN' : locale;
}
