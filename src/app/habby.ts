/**
 * The user's preferences kept on the server (common/habby.ts): the theme, page transition,
 * language and tooth numbering. A choice made in a menu applies at once, stays in this browser
 * (localStorage, as before) and, when signed in, is saved with POST updateHabby; at sign-in
 * (src/app/store.ts markSignedIn) the stored ones apply, so every browser shows the same.
 */
import type { Habby } from '../../common/habby.ts';
import { request, session } from '../api/client.ts';
import { activateLocale, currentLocale } from '../i18n/index.ts';
import { isLocale } from '../i18n/detect.ts';
import { getTheme, setTheme, setTransition } from '../ui/theme.ts';
import { getToothNumbering, setToothNumbering, type ToothNumbering } from '../ui/toothNumbering.ts';

function save(patch: Habby): void {
  if (!session.hasToken() || session.isTokenExpired()) return;
  // Best effort: the choice already applies here; a failure only leaves other browsers behind.
  void request<Habby>({ url: '/admin/base/comm/updateHabby', method: 'POST', data: patch, silent: true }).catch(() => undefined);
}

/** Applies the stored preferences of the signed-in user (unknown or missing ones are left as they are). */
export async function applyHabby(habby: Habby | null | undefined): Promise<void> {
  if (!habby) return;
  if (habby.theme && habby.theme !== getTheme().name) setTheme(habby.theme);
  if (habby.transition !== undefined && habby.transition !== getTheme().transition) setTransition(habby.transition);
  if (habby.toothNumbering && habby.toothNumbering !== getToothNumbering()) setToothNumbering(habby.toothNumbering);
  if (habby.language && isLocale(habby.language) && habby.language !== currentLocale()) await activateLocale(habby.language, true);
}

export function chooseTheme(name: string): void {
  setTheme(name);
  save({ theme: name });
}

export function chooseTransition(on: boolean): void {
  setTransition(on);
  save({ transition: on });
}

export function chooseToothNumbering(numbering: ToothNumbering): void {
  setToothNumbering(numbering);
  save({ toothNumbering: numbering });
}

export async function chooseLanguage(language: 'zh' | 'en' | 'de'): Promise<void> {
  // A newer choice made while this catalog loaded is the one kept (and saved).
  if (await activateLocale(language, true)) save({ language });
}
