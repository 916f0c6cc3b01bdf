import { describe, expect, it } from 'vitest';
import { formatCount, formatMm, formatNumber } from '../../src/i18n/format.ts';

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
});
