// The wire panel's words: the live rules' issues in the specification's sentences (en, zh, de)
// with the offending length, the list's status, and auto-fit refused for other types than the
// single-arm clasp. The panel is rendered (server-side, no DOM needed) for a real headless editor
// whose clasp was placed through the worker and then given a too short end straight.
/// <reference path="../../src/po.d.ts" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { messages as de } from '../../src/locales/de/messages.po';
import { messages as en } from '../../src/locales/en/messages.po';
import { messages as zh } from '../../src/locales/zh/messages.po';
import type { WireDesign } from '../../src/editor/engine/document.ts';
import { WirePanel } from '../../src/editor/features/wires/WirePanel.tsx';
import { headlessEditor, openJaws, type Headless } from './editor-harness.ts';

i18n.load({ en, zh, de });

let h: Headless;
let clasp: WireDesign;

function panel(locale: 'en' | 'zh' | 'de'): string {
  i18n.activate(locale);
  return renderToStaticMarkup(
    <I18nProvider i18n={i18n}>
      <WirePanel engine={h.editor} state={h.editor.getState()} />
    </I18nProvider>,
  );
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

beforeAll(async () => {
  h = await headlessEditor();
  const editor = h.editor;
  await openJaws(editor);
  editor.setVisible('upper', false);
  editor.setView('top');
  editor.renderNow();
  // The buccal side of the lower right first molar (test/fixtures/jaw.ts: tooth 1 at x -24.3, y 5.3; 3.5 mm outwards).
  const at = editor.projectModelPoint('lower', [-27.6, 4.3, -1])!;
  const hit = await editor.pickAt(at.x, at.y);
  expect(hit?.model).toBe('lower');
  const id = await editor.wires.place('lower', 'singleArmClasp', [hit!.pick]);
  clasp = editor.getState().document.wires!.find((w) => w.id === id)!;
  // The last corner 2 mm from the one before it: the end straight is too short.
  const n = clasp.points.length;
  const a = clasp.points[n - 2]!.point, b = clasp.points[n - 1]!.point;
  const l = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  const p = [0, 1, 2].map((k) => a[k]! + ((b[k]! - a[k]!) * 2) / l);
  editor.wires.moveCorner(clasp.id, n - 1, { point: p as unknown as WireDesign['points'][number]['point'] });
  await editor.wires.settled();
});
afterAll(() => h?.dispose());

describe('wire panel', () => {
  it('shows a too short end straight in the specification\'s words, with its length, in en, zh and de', () => {
    const en = text(panel('en'));
    expect(en).toMatch(/End straight length must be a valid number from 5 to 100 mm \(\d+\.\d mm\)/);
    expect(en).toContain('1. Single-arm clasp');
    expect(en).toContain('Errors');
    expect(panel('en')).toContain('data-status="errors"');
    expect(text(panel('zh'))).toContain('末端直段长度必须是 5 到 100 mm 之间的有效数值');
    expect(text(panel('zh'))).toContain('有错误');
    expect(text(panel('de'))).toContain('Die gerade Endlänge muss eine gültige Zahl von 5 bis 100 mm sein');
    // The clasp may be auto-fitted: no refusal note.
    expect(panel('en')).not.toContain('wire-autofit-note');
  });

  it('says auto-fit supports only the single-arm clasp for another type, with the button disabled', () => {
    const editor = h.editor;
    const doc = editor.getState().document;
    editor.changeDocument('test', { ...doc, wires: [...doc.wires!, { ...clasp, id: 'bow', type: 'labialBow' }] });
    editor.wires.select('bow');
    const html = panel('en');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*data-testid="wire-autofit"|<button[^>]*data-testid="wire-autofit"[^>]*disabled=""/);
    expect(text(html)).toContain('Auto-fit supports only the single-arm clasp');
    expect(text(panel('zh'))).toContain('自动贴合仅支持单臂卡环');
    expect(text(panel('de'))).toContain('Die automatische Anpassung unterstützt nur die einarmige Klammer');
    expect(text(panel('en'))).toContain('2. Labial bow');
  });
});
