// Client hardening: which keys are developer-tool keys, and which param values turn it on.
import { describe, expect, it } from 'vitest';
import { hardeningOn } from '../../common/hardening.ts';
import { isDevToolsKey } from '../../src/app/hardening.ts';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('client hardening', () => {
  it('blocks F12, Ctrl+Shift+I/J/C, Ctrl+U (and their macOS forms), nothing else', () => {
    expect(isDevToolsKey(key('F12'))).toBe(true);
    for (const k of ['I', 'J', 'C', 'i']) expect(isDevToolsKey(key(k, { ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(isDevToolsKey(key('i', { metaKey: true, altKey: true }))).toBe(true);
    expect(isDevToolsKey(key('u', { ctrlKey: true }))).toBe(true);
    expect(isDevToolsKey(key('c', { ctrlKey: true }))).toBe(false); // copy
    expect(isDevToolsKey(key('u'))).toBe(false);
    expect(isDevToolsKey(key('F5'))).toBe(false);
    expect(isDevToolsKey(key('i', { shiftKey: true }))).toBe(false);
  });

  it('is on only for 1, true or on', () => {
    for (const v of ['1', 'true', 'ON', ' on ', 1, true]) expect(hardeningOn(v)).toBe(true);
    for (const v of ['0', 'off', '', null, undefined, 0, false, 'yes']) expect(hardeningOn(v)).toBe(false);
  });
});
