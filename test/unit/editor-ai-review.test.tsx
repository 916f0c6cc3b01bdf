// @vitest-environment jsdom
// The AI review of the wires panel in a DOM: a slot not cut or a tag the base holds short selects
// its wire when clicked; a wire left out (no wire in the design) is text only.
/// <reference path="../../src/po.d.ts" />
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { messages as en } from '../../src/locales/en/messages.po';
import type { AiReport } from '../../common/ai-report.ts';
import type { WireDesign } from '../../src/editor/engine/document.ts';
import { mm } from '../../src/editor/engine/units.ts';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import { AiReview } from '../../src/editor/features/wires/AiReview.tsx';

i18n.load({ en });
i18n.activate('en');
afterEach(cleanup);

const wire: WireDesign = { id: 'ai-0', type: 'singleArmClasp', jaw: 'upper', diameter: mm(0.8), clearance: mm(0.1), points: [], anchors: [], ai: { accepted: false } };
const report: AiReport = {
  wires: [
    { wireId: 'ai-0', jaw: 'upper', type: 'singleArmClasp', teeth: [3], status: 'placed' },
    { jaw: 'upper', type: 'wraparoundBow', teeth: [2, 15], status: 'failed', code: 'CHECKS_FAILED' },
  ],
  bases: [{ jaw: 'upper', status: 'generated', slots: [{ wireId: 'ai-0', status: 'failed', code: 'SLOTTING_FAILED' }], tags: [{ wireId: 'ai-0', inside: -0.4, outside: 0 }] }],
};

describe('AI review', () => {
  it('selects the wire of a slot not cut or a tag held short; a wire left out has nothing to select', () => {
    const selected: (string | null)[] = [];
    const engine = { wires: { select: (id: string | null) => selected.push(id), tags: () => null } } as unknown as EditorEngine;
    render(
      <I18nProvider i18n={i18n}>
        <AiReview engine={engine} wires={[wire]} report={report} />
      </I18nProvider>,
    );
    const items = screen.getAllByTestId('ai-review-item');
    expect(items.map((li) => li.getAttribute('data-kind'))).toEqual(['left-out', 'slot', 'tag']);
    expect(items[0]!.textContent).toBe('Wraparound bow (17, 27): fails the bending checks; left out.');
    expect(items[0]!.querySelector('button')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Tag of Single-arm clasp (16) 0.4 mm outside the base: check before processing.' }));
    expect(selected).toEqual(['ai-0']);
    fireEvent.click(screen.getByRole('button', { name: 'Slot of Single-arm clasp (16) could not be cut into the base: slot it in the editor.' }));
    expect(selected).toEqual(['ai-0', 'ai-0']);
  });

  it('strikes through the rows of a wire the designer has since accepted or edited', () => {
    const view = (w: WireDesign) =>
      render(
        <I18nProvider i18n={i18n}>
          <AiReview engine={null} wires={[w]} report={report} />
        </I18nProvider>,
      );
    view(wire);
    expect(screen.getAllByTestId('ai-review-item').map((li) => li.getAttribute('data-accepted'))).toEqual([null, 'false', 'false']);
    expect(screen.queryByText('accepted')).toBeNull();
    cleanup();
    view({ ...wire, ai: { accepted: true } });
    const items = screen.getAllByTestId('ai-review-item');
    expect(items.map((li) => li.getAttribute('data-accepted'))).toEqual([null, 'true', 'true']);
    expect(screen.getAllByText('accepted')).toHaveLength(2);
    expect(items[2]!.querySelector('button')!.className).toContain('line-through');
  });

  it('shows the tags of a wire as measured again in the base shown, one row for them, struck through once they are held', () => {
    const bow: WireDesign = { ...wire, id: 'ai-1', type: 'labialBow' };
    const twoTags: AiReport = {
      wires: [{ wireId: 'ai-1', jaw: 'upper', type: 'labialBow', teeth: [6, 11], status: 'placed' }],
      bases: [{ jaw: 'upper', status: 'generated', slots: [], tags: [{ wireId: 'ai-1', inside: 0.6, outside: 0 }, { wireId: 'ai-1', inside: 0.3, outside: 1 }] }],
    };
    let now: { inside: number; outside: number }[] | null = null;
    const engine = { wires: { select: () => {}, tags: (id: string) => (id === 'ai-1' ? now : null) } } as unknown as EditorEngine;
    const view = () =>
      render(
        <I18nProvider i18n={i18n}>
          <AiReview engine={engine} wires={[bow]} report={twoTags} />
        </I18nProvider>,
      );
    view();
    let rows = screen.getAllByTestId('ai-review-item');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.textContent).toBe('Tag of Labial bow (13, 23) 0.3 mm inside the base, 1 corner outside the acrylic: check before processing.');
    expect(rows[0]!.getAttribute('data-live')).toBe('false');
    cleanup();
    now = [{ inside: 0.8, outside: 0 }, { inside: 1.4, outside: 0 }];
    view();
    rows = screen.getAllByTestId('ai-review-item');
    expect(rows[0]!.textContent).toBe('Tag of Labial bow (13, 23) only 0.8 mm inside the base: check before processing.');
    expect([rows[0]!.getAttribute('data-live'), rows[0]!.getAttribute('data-held')]).toEqual(['true', 'false']);
    expect(rows[0]!.querySelector('button')!.className).not.toContain('line-through');
    cleanup();
    now = [{ inside: 1.2, outside: 0 }, { inside: 1.4, outside: 0 }];
    view();
    rows = screen.getAllByTestId('ai-review-item');
    expect(rows[0]!.textContent).toBe('Tag of Labial bow (13, 23) now 1.2 mm inside the base.');
    expect(rows[0]!.getAttribute('data-held')).toBe('true');
    expect(rows[0]!.querySelector('button')!.className).toContain('line-through');
  });
});
