/**
 * The visited-pages list ("process" list): pages the user opened, shown as tabs under the top bar.
 * The home page is always first and is not stored here. Kept per browser tab (sessionStorage)
 * and cleared when the session ends.
 */
import { useSyncExternalStore } from 'react';
import { session } from '../api/client.ts';

export interface VisitedTab {
  /** Normalised path, also the key. */
  path: string;
  /** Untranslated label (a menu name); translated when shown. */
  label: string;
  /** Full location (path with search) to return to. */
  href: string;
}

const KEY = 'aw.tabs';
const listeners = new Set<() => void>();

function read(): VisitedTab[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter(
          (t): t is VisitedTab =>
            typeof t?.path === 'string' && typeof t?.label === 'string' && typeof t?.href === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

let tabs: VisitedTab[] = read();

function set(next: VisitedTab[]) {
  tabs = next;
  try {
    sessionStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Not persisted; fine.
  }
  for (const l of listeners) l();
}

export const visited = {
  get: () => tabs,
  /** Adds a tab, or updates its label and location if it is already listed. */
  visit(tab: VisitedTab) {
    const i = tabs.findIndex((t) => t.path === tab.path);
    if (i < 0) set([...tabs, tab]);
    else if (tabs[i]?.href !== tab.href || tabs[i]?.label !== tab.label) set(tabs.map((t, j) => (j === i ? tab : t)));
  },
  close(path: string) {
    set(tabs.filter((t) => t.path !== path));
  },
  closeOthers(path: string) {
    set(tabs.filter((t) => t.path === path));
  },
  clear() {
    set([]);
  },
};

export function useVisited(): VisitedTab[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => tabs,
  );
}

session.subscribe((event) => {
  if (event.type === 'change' && !event.session) visited.clear();
});
