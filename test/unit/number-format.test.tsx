// @vitest-environment jsdom
/// <reference path="../../src/po.d.ts" />
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { messages as de } from '../../src/locales/de/messages.po';
import { messages as en } from '../../src/locales/en/messages.po';
import { messages as zh } from '../../src/locales/zh/messages.po';
import { formatCount, formatMm, formatNumber, formatVector } from '../../src/i18n/format.ts';
import { StatusBar } from '../../src/editor/ui/StatusBar.tsx';
import { initialEditorState } from '../../src/editor/engine/state.ts';
import type { ModelView } from '../../src/editor/engine/models.ts';

i18n.load({ de, en, zh });
i18n.activate('en');
afterEach(cleanup);

describe('locale number formatting', () => {
  it('writes decimals and groups as zh, en and de do', () => {
    expect(formatNumber(3.44, { fixed: 1 }, 'zh')).toBe('3.4');
    expect(formatNumber(3.44, { fixed: 1 }, 'en')).toBe('3.4');
    expect(formatNumber(3.44, { fixed: 1 }, 'de')).toBe('3,4');
    expect(formatCount(358578, 'zh')).toBe('358,578');
    expect(formatCount(358578, 'en')).toBe('358,578');
    expect(formatCount(358578, 'de')).toBe('358.578');
    expect(formatMm(6.0449, 2, 'de')).toBe('6,04 mm');
    expect(formatMm(6.0449, 2, 'en')).toBe('6.04 mm');
  });

  it('keeps at most or at least the asked decimals, and a dash for what is no number', () => {
    expect(formatNumber(0.8, { max: 2 }, 'de')).toBe('0,8');
    expect(formatNumber(1, { min: 1, max: 2 }, 'de')).toBe('1,0');
    expect(formatNumber(1234.5, { max: 1 }, 'de')).toBe('1.234,5');
    expect(formatNumber(Number.NaN, {}, 'en')).toBe('–');
  });

  it('separates a vector\'s components so that a decimal comma stays readable', () => {
    expect(formatVector([0, 0.5, -0.866], 3, 'en')).toBe('(0.000, 0.500, -0.866)');
    expect(formatVector([0, 0.5, -0.866], 3, 'zh')).toBe('(0.000, 0.500, -0.866)');
    expect(formatVector([0, 0.5, -0.866], 3, 'de')).toBe('(0,000; 0,500; -0,866)');
  });
});

describe('the editor status bar in the user\'s language', () => {
  it('groups the triangle total as zh, en and de write numbers', () => {
    const state = initialEditorState();
    const model = (role: 'upper' | 'lower', triangles: number) => ({ role, status: 'ready', triangles }) as unknown as ModelView;
    state.models = [model('upper', 179289), model('lower', 179289)];
    const save = { status: 'saved', message: null } as never;
    const shown = (locale: 'zh' | 'en' | 'de') => {
      act(() => i18n.activate(locale));
      render(
        <I18nProvider i18n={i18n}>
          <StatusBar engine={null} state={state} save={save} saving={false} onRetry={() => {}} />
        </I18nProvider>,
      );
      const text = screen.getByRole('contentinfo').textContent ?? '';
      cleanup();
      return text;
    };
    expect(shown('en')).toContain('2 models, 358,578 triangles');
    expect(shown('de')).toContain('358.578 Dreiecke');
    expect(shown('zh')).toContain('358,578');
    act(() => i18n.activate('en'));
  });
});
