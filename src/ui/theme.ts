/**
 * Theme presets (spec §3 "Theme setting"): a primary colour and its shades 1 to 9 at 10 % steps
 * towards white, set as the CSS variables every `primary` utility reads, so the whole UI follows.
 * The choice persists in localStorage["aw.theme"] and applies as soon as this module loads.
 */
import { useSyncExternalStore } from 'react';

export interface ThemePreset {
  name: string;
  color: string;
}

export const THEMES: readonly ThemePreset[] = [
  { name: 'default', color: '#4165d7' },
  { name: 'jihei', color: '#222222' },
  { name: 'guolv', color: '#51C21A' },
  { name: 'jiangzi', color: '#d0378d' },
  { name: 'cangqing', color: '#7397ab' },
];

const THEME_STORAGE_KEY = 'aw.theme';
const DEFAULT = THEMES[0]!;

function parseHex(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  const n = Number.parseInt(full, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const toHex = (rgb: number[]) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** `color` mixed with `other` by `weight` (0..1) of `other`. */
export function mix(color: string, other: string, weight: number): string {
  const a = parseHex(color);
  const b = parseHex(other);
  return toHex(a.map((v, i) => v * (1 - weight) + b[i]! * weight));
}

/** The CSS variables of a colour: primary, dark, and light-1 (10 % white) to light-9 (90 % white). */
export function themeVariables(color: string): Record<string, string> {
  const vars: Record<string, string> = {
    '--color-primary': color.toLowerCase(),
    '--color-primary-dark': mix(color, '#000000', 0.18),
  };
  for (let i = 1; i <= 9; i++) vars[`--color-primary-light-${i}`] = mix(color, '#ffffff', i / 10);
  return vars;
}

/** The stored setting: the preset and whether pages slide in (spec: name, color, transition). */
export interface ThemeSetting extends ThemePreset {
  transition: boolean;
}

const DEFAULT_SETTING: ThemeSetting = { ...DEFAULT, transition: true };

function read(): ThemeSetting {
  try {
    const raw = localStorage.getItem(THEME_STORAGE_KEY);
    if (!raw) return DEFAULT_SETTING;
    const parsed = JSON.parse(raw) as Partial<ThemeSetting>;
    const preset = THEMES.find((p) => p.name === parsed.name) ?? DEFAULT;
    return { ...preset, transition: parsed.transition !== false };
  } catch {
    return DEFAULT_SETTING;
  }
}

let current: ThemeSetting = DEFAULT_SETTING;
const listeners = new Set<() => void>();

function apply(setting: ThemeSetting): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  for (const [k, v] of Object.entries(themeVariables(setting.color))) root.style.setProperty(k, v);
  root.dataset.theme = setting.name;
  root.dataset.transition = setting.transition ? 'on' : 'off';
}

function save(next: ThemeSetting): void {
  current = next;
  apply(next);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Not remembered in private mode.
  }
  for (const l of [...listeners]) l();
}

/** Switches the theme, applies it to the page and remembers it. */
export function setTheme(name: string): void {
  const preset = THEMES.find((p) => p.name === name);
  if (preset) save({ ...current, ...preset });
}

/** Turns the pages' slide-in transition on or off (remembered with the theme). */
export function setTransition(on: boolean): void {
  save({ ...current, transition: on });
}

export function getTheme(): ThemeSetting {
  return current;
}

/** Called after every theme change (charts redraw in the new colours); returns the unsubscribe. */
export function onThemeChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme(): ThemeSetting {
  return useSyncExternalStore(onThemeChange, getTheme, getTheme);
}

if (typeof window !== 'undefined') {
  current = read();
  apply(current);
  // Another tab picked a theme.
  window.addEventListener('storage', (e) => {
    if (e.key !== THEME_STORAGE_KEY) return;
    current = read();
    apply(current);
    for (const l of [...listeners]) l();
  });
}
