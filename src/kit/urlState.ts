/**
 * Table state in the URL search params of the current route: page, size, keyWord, order, sort and
 * the advanced search fields, so that reload, bookmarks and back restore a list.
 *
 * A kept-alive page stays mounted while another page is shown; it then keeps its last state and
 * ignores the other page's URL (it only follows the location of the path it was mounted at).
 */
import { useCallback, useRef, useState } from 'react';
import { useRouter, useRouterState } from '@tanstack/react-router';
import { cleanQuery } from './values.ts';

export const DEFAULT_PAGE = 1;
export const DEFAULT_SIZE = 20;
export const PAGE_SIZES = [10, 20, 30, 40, 50, 100] as const;

export interface TableState {
  page: number;
  size: number;
  keyWord: string;
  order?: string;
  sort?: 'asc' | 'desc';
  /** Advanced search fields. */
  filters: Record<string, unknown>;
}

const RESERVED = new Set(['page', 'size', 'keyWord', 'order', 'sort']);

const positive = (v: unknown, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Reads a table state from parsed search params; `fields` are the advanced search props. */
export function readState(search: Record<string, unknown>, fields: readonly string[]): TableState {
  const size = positive(search.size, DEFAULT_SIZE);
  const state: TableState = {
    page: positive(search.page, DEFAULT_PAGE),
    size: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
    keyWord: search.keyWord === undefined || search.keyWord === null ? '' : String(search.keyWord),
    filters: {},
  };
  if (typeof search.order === 'string' && search.order) {
    state.order = search.order;
    state.sort = search.sort === 'asc' ? 'asc' : 'desc';
  }
  for (const f of fields) if (!RESERVED.has(f) && search[f] !== undefined) state.filters[f] = search[f];
  return state;
}

/** The search params of a state; defaults and empty values are left out. */
export function writeState(state: TableState): Record<string, unknown> {
  return cleanQuery({
    ...state.filters,
    page: state.page === DEFAULT_PAGE ? undefined : state.page,
    size: state.size === DEFAULT_SIZE ? undefined : state.size,
    keyWord: state.keyWord,
    order: state.order,
    sort: state.order ? state.sort : undefined,
  });
}

/** The request query of a state (what `page` receives). */
export function stateQuery(state: TableState): Record<string, unknown> {
  return cleanQuery({
    ...state.filters,
    page: state.page,
    size: state.size,
    keyWord: state.keyWord,
    order: state.order,
    sort: state.order ? state.sort : undefined,
  });
}

/**
 * Where a table keeps its state: the URL (default), the URL under a prefix (`{ prefix: 'cfg.' }`
 * gives `cfg.page`, `cfg.size`, ... so that two lists share a route), or memory (`false`: a list
 * inside a dialog, gone when it closes).
 */
export type StateMode = boolean | { prefix: string };

type SetState = (patch: Partial<TableState> | ((s: TableState) => Partial<TableState>), opts?: { replace?: boolean }) => void;

/** The table state and its setter, kept as `mode` says. */
export function useTableState(fields: readonly string[], mode: StateMode = true): { state: TableState; setState: SetState } {
  // The mode is fixed for the life of a table (hooks cannot change with it).
  const [fixed] = useState(mode);
  // eslint-disable-next-line react-hooks/rules-of-hooks -- the branch never changes for a mounted table
  return fixed === false ? useMemoryState(fields) : useUrlState(fields, fixed === true ? '' : fixed.prefix);
}

function useMemoryState(fields: readonly string[]) {
  const [search, setSearch] = useState<Record<string, unknown>>({});
  const state = readState(search, fields);
  const stateRef = useRef(state);
  stateRef.current = state;
  const setState: SetState = useCallback((patch) => {
    const current = stateRef.current;
    const next = { ...current, ...(typeof patch === 'function' ? patch(current) : patch) };
    stateRef.current = next;
    setSearch(writeState(next));
  }, []);
  return { state, setState };
}

const strip = (search: Record<string, unknown>, prefix: string) =>
  prefix ? Object.fromEntries(Object.entries(search).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : []))) : search;
const addPrefix = (params: Record<string, unknown>, prefix: string) =>
  prefix ? Object.fromEntries(Object.entries(params).map(([k, v]) => [`${prefix}${k}`, v])) : params;

function useUrlState(fields: readonly string[], prefix: string) {
  const router = useRouter();
  const location = useRouterState({ select: (s) => s.location });
  const [home] = useState(location.pathname);
  const last = useRef<Record<string, unknown>>(location.search as Record<string, unknown>);
  if (location.pathname === home) last.current = location.search as Record<string, unknown>;
  const search = strip(last.current, prefix);
  const key = fields.join('\n');
  const state = readState(search, fields);
  const stateRef = useRef(state);
  stateRef.current = state;

  /** Writes a new state into the URL (a history entry, unless `replace`). */
  const setState = useCallback(
    (patch: Partial<TableState> | ((s: TableState) => Partial<TableState>), opts: { replace?: boolean } = {}) => {
      const current = stateRef.current;
      const next = { ...current, ...(typeof patch === 'function' ? patch(current) : patch) };
      // Keep foreign params of the URL (not the table's).
      const own = new Set([...RESERVED, ...key.split('\n')].map((k) => `${prefix}${k}`));
      const foreign = Object.fromEntries(Object.entries(last.current).filter(([k]) => !own.has(k)));
      const params = { ...foreign, ...addPrefix(writeState(next), prefix) };
      const href = `${home}${router.options.stringifySearch(params)}`;
      stateRef.current = next;
      void router.navigate({ href, replace: opts.replace ?? false });
    },
    [router, home, key, prefix],
  );

  return { state, setState };
}
