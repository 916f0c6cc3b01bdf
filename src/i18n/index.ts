/**
 * Lingui set-up: the catalogs `src/locales/<locale>/messages.po` are compiled by
 * `@lingui/vite-plugin` and loaded on demand. Switching the language re-renders every component
 * under `I18nProvider` and sets `<html lang>`.
 */
import { i18n } from '@lingui/core';
import { DEFAULT_LOCALE, detectLocale, htmlLang, isLocale, LOCALE_STORAGE_KEY, type Locale } from './detect.ts';

export { i18n };
export { LOCALES, type Locale } from './detect.ts';

/** Language names in their own language (deliberately not translated). */
export const LANGUAGE_NAMES: Record<Locale, string> = { zh: '中文', en: 'English', de: 'Deutsch' };

function readStored(): string | null {
  try {
    return localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The language to start with: local storage, then the browser locale (see `detect.ts`). */
export function initialLocale(): Locale {
  return detectLocale(readStored(), typeof navigator === 'undefined' ? undefined : navigator.language);
}

export function currentLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : DEFAULT_LOCALE;
}

/** The newest language asked for: a catalog that comes after a later choice's is not applied. */
let latest = 0;

/**
 * Loads and activates a language; `remember` stores the user's choice. Resolves to false when a
 * later call superseded this one (its catalog loaded later than the newer one, e.g. not cached).
 */
export async function activateLocale(locale: Locale, remember = false): Promise<boolean> {
  const ticket = ++latest;
  const { messages } = await import(`../locales/${locale}/messages.po`);
  if (ticket !== latest) return false;
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = htmlLang(locale);
  if (remember) {
    try {
      localStorage.setItem(LOCALE_STORAGE_KEY, locale);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  }
  return true;
}
