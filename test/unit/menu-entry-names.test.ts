import { describe, expect, it } from 'vitest';
import { setupI18n } from '@lingui/core';
import { seedMenus, type MenuSeed } from '../../server/db/seed-menus.ts';
import { entryLabel } from '../../src/modules/base/names.ts';

// The menu and role screens show every seeded entry by its translated name; an entry added to the
// seed without a translation would show in English in a Chinese or German screen.
function flatten(items: readonly MenuSeed[]): MenuSeed[] {
  return items.flatMap((m) => [m, ...flatten(m.children ?? [])]);
}

describe('seeded menu entries', () => {
  it('all have a Chinese and a German name', async () => {
    const zh = (await import('../../src/locales/zh/messages.po')).messages;
    const de = (await import('../../src/locales/de/messages.po')).messages;
    const i18n = setupI18n({ locale: 'zh', messages: { zh, de } });
    const names = [...new Map(flatten(seedMenus).map((m) => [`${m.type}:${m.name}`, m])).values()];
    for (const locale of ['zh', 'de']) {
      i18n.activate(locale);
      const untranslated = names.filter((m) => entryLabel(i18n, m.name, m.type) === m.name && !(locale === 'de' && GERMAN_SAME.has(m.name))).map((m) => m.name);
      expect(untranslated, locale).toEqual([]);
    }
  });
});

/** Names spelled the same in German. */
const GERMAN_SAME = new Set(['Import', 'Export', 'Design', 'Config', 'Plugins', 'Demo']);
