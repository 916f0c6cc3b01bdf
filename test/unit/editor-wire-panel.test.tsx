// The wire panel's words: the live rules' issues in the specification's sentences (en, zh, de)
// with the offending length, the list's status, auto-fit refused for other types than the
// single-arm clasp, and the AI review (wires left out, tags held short) in the designer's tooth
// numbering. The panel is rendered (server-side, no DOM needed) for a real headless editor
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
import { setToothNumbering } from '../../src/ui/toothNumbering.ts';
import type { AiReportRecord } from '../../common/ai-report.ts';
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

  it('reviews an AI design: the wire left out with its reason and the tag held short, in the tooth numbering chosen; none for a design of the designer', () => {
    const editor = h.editor;
    const record: AiReportRecord = {
      orderId: 7,
      version: 1,
      createTime: '2026-11-28 10:00:00',
      report: {
        wires: [
          { wireId: clasp.id, jaw: 'lower', type: 'singleArmClasp', teeth: [30], status: 'placed' },
          { jaw: 'upper', type: 'labialBow', teeth: [6, 11], status: 'failed', code: 'DETECTION_FAILED', tooth: 6, message: 'AI detection failed for the labial bow on tooth 13' },
          { jaw: 'upper', type: 'arrowClasp', teeth: [3, 4], status: 'failed', code: 'COLLISION' },
        ],
        bases: [
          { jaw: 'lower', status: 'generated', slots: [], tags: [{ wireId: clasp.id, inside: 0.2, outside: 1 }] },
          { jaw: 'upper', status: 'failed', code: 'OUTLINE_FAILED', slots: [] },
        ],
      },
    };
    editor.wires.setReview(record);
    // The designer's own wires: nothing to review.
    expect(panel('en')).not.toContain('data-testid="ai-review"');
    const doc = editor.getState().document;
    editor.changeDocument('test', { ...doc, wires: doc.wires!.map((w) => (w.id === clasp.id ? { ...w, ai: { accepted: false } } : w)) });
    const en = text(panel('en'));
    expect(en).toContain('AI review');
    expect(en).toContain('Labial bow (13, 23): AI detection failed on tooth 13; left out.');
    expect(en).toContain('Arrow clasp (16, 15): the bending path collided with the machine; left out.');
    expect(en).toContain('Tag of Single-arm clasp (46) 0.2 mm inside the base, 1 corner outside the acrylic: check before processing.');
    expect(en).toContain('The upper base could not be designed automatically; the wires are kept.');
    expect(panel('en')).toMatch(/data-kind="tag" data-wire="[^"]+" data-accepted="false" data-live="false" data-held="false"><button/);
    expect(text(panel('zh'))).toContain('唇弓 (13, 23)：AI 识别牙位 13 失败，已略去。');
    expect(text(panel('zh'))).toContain('在基托内 0.2 mm，1 个拐点在树脂外：加工前请检查。');
    expect(text(panel('de'))).toContain('Retentionsteil von Einarmige Klammer (46) 0,2 mm innerhalb der Basis, 1 Ecke außerhalb des Kunststoffs');
    setToothNumbering('universal');
    try {
      expect(text(panel('en'))).toContain('Labial bow (6, 11): AI detection failed on tooth 6; left out.');
    } finally {
      setToothNumbering('fdi');
    }
    editor.wires.setReview(null);
    expect(panel('en')).not.toContain('data-testid="ai-review"');
  });

  it('offers the crossing of the next single-arm clasp with the wire tool, in en, zh and de, and for no other type', () => {
    const editor = h.editor;
    editor.setTool('wire');
    try {
      editor.wires.setType('singleArmClasp');
      editor.wires.setCrossing('distal');
      const html = panel('en');
      expect(html).toMatch(/<select[^>]*data-testid="wire-crossing"[^>]*>/);
      expect(text(html)).toContain('Crossing mesial distal');
      expect(html).toMatch(/<option value="distal" selected="">distal<\/option>/);
      expect(text(panel('zh'))).toContain('近中');
      expect(text(panel('de'))).toContain('distal');
      editor.wires.setType('labialBow');
      expect(panel('en')).not.toContain('wire-crossing');
    } finally {
      editor.wires.setCrossing('mesial');
      editor.wires.setType('singleArmClasp');
      editor.setTool(null);
    }
  });
});
