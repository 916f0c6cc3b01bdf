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

export const THEME_STORAGE_KEY = 'aw.theme';
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

function read(): ThemePreset {
  try {
    const raw = localStorage.getItem(THEME_STORAGE_KEY);
    if (!raw) return DEFAULT;
    const parsed = JSON.parse(raw) as Partial<ThemePreset>;
    return THEMES.find((p) => p.name === parsed.name) ?? DEFAULT;
  } catch {
    return DEFAULT;
  }
}

let current: ThemePreset = DEFAULT;
const listeners = new Set<() => void>();

function apply(preset: ThemePreset): void {
  if (typeof document === 'undefined') return;
  const style = document.documentElement.style;
  for (const [k, v] of Object.entries(themeVariables(preset.color))) style.setProperty(k, v);
  document.documentElement.dataset.theme = preset.name;
}

/** Switches the theme, applies it to the page and remembers it. */
export function setTheme(name: string): void {
  const preset = THEMES.find((p) => p.name === name);
  if (!preset) return;
  current = preset;
  apply(preset);
  try {
    localStorage.setItem(THEME_STORAGE_KEY, JSON.stringify({ name: preset.name, color: preset.color }));
  } catch {
    // Not remembered in private mode.
  }
  for (const l of [...listeners]) l();
}

export function getTheme(): ThemePreset {
  return current;
}

/** Called after every theme change (charts redraw in the new colours); returns the unsubscribe. */
export function onThemeChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme(): ThemePreset {
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
