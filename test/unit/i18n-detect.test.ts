import { describe, expect, it } from 'vitest';
import { detectLocale, htmlLang, isLocale, LOCALES } from '../../src/i18n/detect.ts';

describe('language detection', () => {
  it('offers zh, en and de', () => {
    expect(LOCALES).toEqual(['zh', 'en', 'de']);
  });

  it('takes the stored choice first', () => {
    expect(detectLocale('de', 'zh-CN')).toBe('de');
    expect(detectLocale('en', 'de-DE')).toBe('en');
    expect(detectLocale('zh', 'en-US')).toBe('zh');
  });

  it('ignores an unknown stored value', () => {
    expect(detectLocale('fr', 'de-DE')).toBe('de');
    expect(detectLocale('', 'en-GB')).toBe('en');
  });

  it('maps a browser locale with cn to zh', () => {
    expect(detectLocale(null, 'zh-CN')).toBe('zh');
    expect(detectLocale(null, 'zh-cn')).toBe('zh');
    expect(detectLocale(null, 'en-CN')).toBe('zh');
    expect(detectLocale(null, 'zh')).toBe('zh');
    expect(detectLocale(null, 'zh-TW')).toBe('zh');
  });

  it('maps a browser locale with de to de', () => {
    expect(detectLocale(null, 'de')).toBe('de');
    expect(detectLocale(null, 'de-DE')).toBe('de');
    expect(detectLocale(undefined, 'de-AT')).toBe('de');
    expect(detectLocale(undefined, 'de_CH')).toBe('de');
  });

  it('maps anything else to en', () => {
    expect(detectLocale(null, 'en-US')).toBe('en');
    expect(detectLocale(null, 'fr-FR')).toBe('en');
    expect(detectLocale(null, 'ja')).toBe('en');
    expect(detectLocale(null, 'nds')).toBe('en');
  });

  it('defaults to zh when nothing can be told', () => {
    expect(detectLocale(null, undefined)).toBe('zh');
    expect(detectLocale(null, '')).toBe('zh');
  });

  it('gives the html lang attribute', () => {
    expect(htmlLang('zh')).toBe('zh-CN');
    expect(htmlLang('de')).toBe('de');
    expect(isLocale('en')).toBe(true);
    expect(isLocale('EN')).toBe(false);
  });
});
