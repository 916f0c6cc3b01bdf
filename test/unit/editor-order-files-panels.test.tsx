// The order's files in the side panel, rendered (server-side, no DOM) for a headless editor with
// the calls stood in: the base panel's "stored on the server" link and a refusal with the local
// base kept; each jaw's model versions with the active one and Restore; in en, zh and de.
/// <reference path="../../src/po.d.ts" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { messages as de } from '../../src/locales/de/messages.po';
import { messages as en } from '../../src/locales/en/messages.po';
import { messages as zh } from '../../src/locales/zh/messages.po';
import type { EditorState } from '../../src/editor/engine/EditorEngine.ts';
import { BasePanel } from '../../src/editor/features/base/BasePanel.tsx';
import { ModelVersionsPanel } from '../../src/editor/order/ModelVersionsPanel.tsx';
import type { OrderModelVersion } from '../../common/order-lifecycle.ts';
import { headlessEditor, type Headless } from './editor-harness.ts';

i18n.load({ en, zh, de });

let h: Headless;
beforeAll(async () => {
  h = await headlessEditor();
});
afterAll(() => h?.dispose());

function render(locale: 'en' | 'zh' | 'de', node: (state: EditorState) => React.ReactElement, tool: EditorState['tool']): string {
  i18n.activate(locale);
  const state = { ...h.editor.getState(), tool };
  return renderToStaticMarkup(<I18nProvider i18n={i18n}>{node(state)}</I18nProvider>)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/&quot;/g, '"');
}

const version = (v: number, note: string, active: boolean): OrderModelVersion => ({ jaw: 'lower', version: v, fileId: v, name: `f${v}.stl`, note, userId: 1, createTime: `2026-11-27 10:0${v}:00`, url: `/f/${v}`, active });

describe('order files in the side panel', () => {
  it('the base panel: stored on the server with its link; a refusal with the server message, the local base kept, Store again', async () => {
    let refuse = false;
    h.editor.baseFile.attach({ id: 7, caseNo: 'C-7', baseFile: { id: 50, url: '/admin/base/comm/file/50', name: 'base-C-7.stl' } }, {
      saveBase: async () => {
        if (refuse) throw new Error('Not possible while the order is "To be processed"');
        return { baseFileId: 51, url: '/admin/base/comm/file/51' };
      },
    });
    const panel = (locale: 'en' | 'zh' | 'de') => render(locale, (state) => <BasePanel engine={h.editor} state={state} caseNo="C-7" />, 'base');
    expect(panel('en')).toContain('Stored on the server: base-C-7.stl');
    expect(panel('zh')).toContain('已保存到服务器： base-C-7.stl');
    expect(panel('de')).toContain('Auf dem Server gespeichert: base-C-7.stl');

    refuse = true;
    // No base shown: nothing to store. A base stands in through the export.
    (h.editor.baseFile as unknown as { exportBase: () => Promise<Uint8Array> }).exportBase = async () => new Uint8Array(84);
    expect(await h.editor.baseFile.store()).toBe(false);
    const en = panel('en');
    expect(en).toContain('The base could not be stored on the server: Not possible while the order is "To be processed"');
    expect(en).toContain('The base in the editor is kept.');
    expect(en).toContain('Store again');
    expect(en).toContain('The server keeps the base stored before: base-C-7.stl');
    expect(panel('zh')).toContain('基托未能保存到服务器');
    expect(panel('de')).toContain('Erneut speichern');
    h.editor.baseFile.detach();
  });

  it("each jaw's versions with the active one and Restore; straightening explains why it is not a version", async () => {
    const versions = [version(1, 'original', false), version(2, 'smoothed', true)];
    h.editor.modelVersions.attach({ id: 7, caseNo: 'C-7' }, {
      upload: async () => ({ id: 1 }),
      modify: async () => ({ versions }),
      versions: async () => versions,
      source: () => async () => new ArrayBuffer(0),
    });
    await h.editor.modelVersions.refresh();
    const smooth = (locale: 'en' | 'zh' | 'de') => render(locale, (state) => <ModelVersionsPanel engine={h.editor} state={state} />, 'smooth');
    const en = smooth('en');
    expect(en).toContain('Model versions');
    expect(en).toContain('v1 Original 2026-11-27 10:01:00 Restore');
    expect(en).toContain('v2 Smoothed 2026-11-27 10:02:00 Active');
    expect(en).toContain('Keep as new model version');
    expect(smooth('zh')).toContain('v2 已平滑 2026-11-27 10:02:00 当前');
    expect(smooth('de')).toContain('v1 Original 2026-11-27 10:01:00 Wiederherstellen');
    const straighten = render('en', (state) => <ModelVersionsPanel engine={h.editor} state={state} />, 'straighten');
    expect(straighten).toContain('Straightening stays in the design');
    expect(straighten).not.toContain('Keep as new model version');
    // Other tools: not shown.
    expect(render('en', (state) => <ModelVersionsPanel engine={h.editor} state={state} />, null).trim()).toBe('');
    h.editor.modelVersions.detach();
  });
});
