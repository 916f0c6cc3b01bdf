/**
 * Dictionaries for selects, radios and table columns: `POST /admin/dict/info/data { types }`
 * answers `{ [type]: [{ id, name, value? }] }` (the entry's label is `name`, its value `value`,
 * else `id`). Loaded once per type and cached for the session; failures are silent (no options).
 */
import { useSyncExternalStore } from 'react';
import { request } from '../api/client.ts';
import type { Option } from './types.ts';

interface DictEntry {
  id: number | string;
  name: string;
  value?: string | number | null;
  color?: string | null;
  children?: DictEntry[];
}

const cache = new Map<string, Option[]>();
const pending = new Set<string>();
const listeners = new Set<() => void>();
let version = 0;

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** Options of dictionary entries (trees are flattened, parents first). */
export function dictOptions(entries: readonly DictEntry[]): Option[] {
  const flat = (list: readonly DictEntry[]): DictEntry[] => list.flatMap((e) => [e, ...flat(e.children ?? [])]);
  return flat(entries).map((e) => {
    const raw = e.value ?? e.id;
    const value = typeof raw === 'string' && NUMERIC.test(raw) ? Number(raw) : raw;
    return { label: e.name, value, ...(e.color ? { color: e.color } : {}) };
  });
}

async function load(type: string): Promise<void> {
  if (pending.has(type) || cache.has(type)) return;
  pending.add(type);
  try {
    const data = await request<Record<string, DictEntry[]>>({ url: '/admin/dict/info/data', method: 'POST', data: { types: [type] }, silent: true });
    cache.set(type, dictOptions(data?.[type] ?? []));
  } catch {
    cache.set(type, []);
  } finally {
    pending.delete(type);
    version++;
    for (const l of listeners) l();
  }
}

/** Puts a dictionary into the cache (tests, pages that already hold it). */
export function setDict(type: string, options: Option[]): void {
  cache.set(type, options);
  version++;
  for (const l of listeners) l();
}

/** Options given inline, or those of a dictionary type (empty until loaded). */
export function useOptions(source: Option[] | string | undefined): Option[] {
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => version,
  );
  if (source === undefined) return [];
  if (typeof source !== 'string') return source;
  const found = cache.get(source);
  if (!found) void load(source);
  return found ?? [];
}
