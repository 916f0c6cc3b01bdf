// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';

describe('theme presets', () => {
  it('derive shades 1-9 at 10 % steps towards white and a darker hover colour', async () => {
    const { themeVariables, THEMES } = await import('../../src/ui/theme.ts');
    expect(THEMES.map((p) => [p.name, p.color])).toEqual([
      ['default', '#4165d7'],
      ['jihei', '#222222'],
      ['guolv', '#51C21A'],
      ['jiangzi', '#d0378d'],
      ['cangqing', '#7397ab'],
    ]);
    const vars = themeVariables('#222222');
    expect(vars['--color-primary']).toBe('#222222');
    expect(vars['--color-primary-light-1']).toBe('#383838'); // 34 + (255 - 34) * 0.1
    expect(vars['--color-primary-light-5']).toBe('#919191');
    expect(vars['--color-primary-light-9']).toBe('#e9e9e9');
    expect(Object.keys(vars).filter((k) => k.includes('light'))).toHaveLength(9);
    expect(vars['--color-primary-dark']).toBe('#1c1c1c');
  });

  it('apply to the page, persist, and come back on the next load', async () => {
    vi.resetModules();
    localStorage.clear();
    const theme = await import('../../src/ui/theme.ts');
    const root = document.documentElement;
    expect(root.style.getPropertyValue('--color-primary')).toBe('#4165d7');
    let changes = 0;
    const off = theme.onThemeChange(() => changes++);
    theme.setTheme('jiangzi');
    expect(root.style.getPropertyValue('--color-primary')).toBe('#d0378d');
    expect(root.style.getPropertyValue('--color-primary-light-9')).toBe('#faebf4');
    expect(root.dataset.theme).toBe('jiangzi');
    theme.setTransition(false);
    expect(root.dataset.transition).toBe('off');
    expect(changes).toBe(2);
    off();
    theme.setTheme('no-such-theme');
    expect(theme.getTheme().name).toBe('jiangzi');
    expect(JSON.parse(localStorage.getItem('aw.theme')!)).toEqual({ name: 'jiangzi', color: '#d0378d', transition: false });

    // A fresh page load reads the stored choice.
    root.removeAttribute('style');
    vi.resetModules();
    const again = await import('../../src/ui/theme.ts');
    expect(again.getTheme()).toEqual({ name: 'jiangzi', color: '#d0378d', transition: false });
    expect(root.style.getPropertyValue('--color-primary')).toBe('#d0378d');
  });
});
