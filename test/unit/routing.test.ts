/// <reference path="../../src/po.d.ts" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { setupI18n } from '@lingui/core';
import { resolvePage, safeRedirect, PUBLIC_PATHS, MY_INFO } from '../../src/app/pages.ts';
import { buildMenu, type Menu } from '../../src/menu/build.ts';
import { menuLabel } from '../../src/menu/names.ts';
import { getView, modulePages, viewKey } from '../../src/modules/registry.ts';

const menus: Menu[] = [
  { id: 1, parentId: null, name: 'Data board', type: 0, orderNum: 1 },
  { id: 2, parentId: 1, name: 'Data board', type: 1, router: '/dashboard', viewPath: 'modules/dashboard/views/board', orderNum: 1 },
  { id: 3, parentId: null, name: 'Help center', type: 0, orderNum: 2 },
  { id: 4, parentId: 3, name: 'Vendor docs', type: 1, router: '/help/vendor', viewPath: 'https://example.com/', orderNum: 1 },
];

describe('page resolution (routing rules 1 to 3)', () => {
  const menu = buildMenu(menus);

  it('resolves / to the home page and menu paths to their routes', () => {
    expect(resolvePage('/', menu)?.path).toBe('/dashboard');
    expect(resolvePage('/dashboard/', menu)?.path).toBe('/dashboard');
    expect(resolvePage('/help/vendor', menu)?.meta.iframeUrl).toBe('https://example.com/');
  });

  it('resolves module pages and the personal centre, and nothing else', () => {
    expect(resolvePage('/my/info', menu)).toBe(MY_INFO);
    expect(resolvePage('/space/list', menu)?.viewPath).toBe('modules/space/views/list');
    expect(resolvePage('/helper/ai-code', menu)?.meta.keepAlive).toBe(true);
    expect(resolvePage('/nope', menu)).toBeNull();
    expect(modulePages.every((p) => p.meta.process)).toBe(true);
  });

  it('allows exactly the public pages without a token', () => {
    expect([...PUBLIC_PATHS].sort()).toEqual(['/401', '/403', '/404', '/500', '/502', '/login', '/transfer']);
  });

  it('only returns to local paths after login', () => {
    expect(safeRedirect('/order/list?x=1')).toBe('/order/list?x=1');
    expect(safeRedirect('//evil.example')).toBeUndefined();
    expect(safeRedirect('https://evil.example')).toBeUndefined();
    expect(safeRedirect('/login')).toBeUndefined();
    expect(safeRedirect(42)).toBeUndefined();
  });
});

describe('module registry', () => {
  it('normalises view paths', () => {
    expect(viewKey('modules/order/views/list')).toBe('order/views/list');
    expect(viewKey('/cool/modules/order/views/list.vue')).toBe('order/views/list');
  });

  it('has no view for modules not built yet (they show "coming soon")', () => {
    expect(getView('modules/nothing-here/views/list')).toBeNull();
  });
});

/** msgid/msgstr pairs of a .po file (strings may continue over several lines). */
function poEntries(po: string): { id: string; str: string }[] {
  return po.split(/\n\s*\n/).flatMap((block) => {
    const field = (name: string) => {
      const m = new RegExp(`^${name} ((?:"(?:[^"\\\\]|\\\\.)*"\\s*)+)`, 'm').exec(block);
      return m?.[1] ? [...m[1].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((q) => q[1]).join('') : null;
    };
    const id = field('msgid');
    const str = field('msgstr');
    return id === null || str === null ? [] : [{ id, str }];
  });
}

describe('catalogs', () => {
  it('translates known menu names and passes unknown ones through', async () => {
    const zh = (await import('../../src/locales/zh/messages.po')).messages;
    const de = (await import('../../src/locales/de/messages.po')).messages;
    const i18n = setupI18n({ locale: 'zh', messages: { zh, de } });
    expect(menuLabel(i18n, 'System management')).toBe('系统管理');
    expect(menuLabel(i18n, 'Order management')).toBe('订单管理');
    expect(menuLabel(i18n, 'My custom page')).toBe('My custom page');
    i18n.activate('de');
    expect(menuLabel(i18n, 'System management')).toBe('Systemverwaltung');
  });

  it('has every message translated in zh and de', () => {
    for (const locale of ['zh', 'de']) {
      const po = readFileSync(new URL(`../../src/locales/${locale}/messages.po`, import.meta.url), 'utf8');
      const empty = poEntries(po)
        .filter((e) => e.id !== '' && e.str === '')
        .map((e) => e.id);
      expect(empty, `untranslated in ${locale}`).toEqual([]);
    }
  });
});
