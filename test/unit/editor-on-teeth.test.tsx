// @vitest-environment jsdom
// The wire tool's "On tooth" row in a DOM: the tooth (or jaw) chosen goes to engine.wires.placeOnTeeth.
/// <reference path="../../src/po.d.ts" />
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { messages as en } from '../../src/locales/en/messages.po';
import type { EditorEngine, EditorState } from '../../src/editor/engine/EditorEngine.ts';
import type { WireType } from '../../src/editor/engine/document.ts';
import { OnTeeth } from '../../src/editor/features/wires/OnTeeth.tsx';

i18n.load({ en });
i18n.activate('en');
afterEach(cleanup);

function row(type: WireType) {
  const calls: unknown[][] = [];
  const engine = { wires: { placeOnTeeth: (...args: unknown[]) => (calls.push(args), Promise.resolve('w')) } } as unknown as EditorEngine;
  const state = { models: [{ role: 'lower', status: 'ready' }] } as unknown as EditorState;
  render(
    <I18nProvider i18n={i18n}>
      <OnTeeth engine={engine} state={state} type={type} busy={false} />
    </I18nProvider>,
  );
  return calls;
}

describe('On tooth row', () => {
  it('places a single-arm clasp on the tooth chosen (across the contact the wire options name)', () => {
    const calls = row('singleArmClasp');
    fireEvent.click(screen.getByTestId('wire-on-teeth-place'));
    fireEvent.change(screen.getByTestId('wire-on-teeth-target'), { target: { value: '19' } });
    fireEvent.click(screen.getByTestId('wire-on-teeth-place'));
    expect(calls).toEqual([
      ['singleArmClasp', { tooth: 30 }],
      ['singleArmClasp', { tooth: 19 }],
    ]);
  });

  it('places a bow on the jaw chosen', () => {
    const calls = row('labialBow');
    fireEvent.click(screen.getByTestId('wire-on-teeth-place'));
    expect(calls).toEqual([['labialBow', { jaw: 'lower' }]]);
  });
});
