/**
 * How the editor numbers teeth: FDI (ISO 3950, the default) or Universal (1-32). The choice
 * persists in localStorage["aw.toothNumbering"] beside the theme and the language.
 */
import { useSyncExternalStore } from 'react';

export type ToothNumbering = 'fdi' | 'universal';

const STORAGE_KEY = 'aw.toothNumbering';

function read(): ToothNumbering {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(STORAGE_KEY) === 'universal' ? 'universal' : 'fdi';
  } catch {
    return 'fdi';
  }
}

let current: ToothNumbering = read();
const listeners = new Set<() => void>();

export function getToothNumbering(): ToothNumbering {
  return current;
}

/** Switches the numbering and remembers it. */
export function setToothNumbering(next: ToothNumbering): void {
  if (next === current) return;
  current = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Not remembered in private mode.
  }
  for (const l of [...listeners]) l();
}

/** Called after every change; returns the unsubscribe. */
export function onToothNumberingChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToothNumbering(): ToothNumbering {
  return useSyncExternalStore(onToothNumberingChange, getToothNumbering, getToothNumbering);
}

if (typeof window !== 'undefined') {
  // Another tab chose.
  window.addEventListener('storage', (e) => {
    if (e.key !== STORAGE_KEY) return;
    current = read();
    for (const l of [...listeners]) l();
  });
}
