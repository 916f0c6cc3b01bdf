// The one way React reads the editor: the engine's state or any feature's (engine/store.ts), a
// part of it picked by `selector`. Until the engine exists (`store` null) it answers `fallback`.
// The selector's answer is kept for as long as the store's snapshot is the same, so a selector may
// build a new value (it is not recomputed on every read).
import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { Store } from '../engine/store.ts';

export function useEngineStore<S, T>(store: Store<S> | null | undefined, selector: (state: S) => T, fallback: T): T {
  const subscribe = useCallback((notify: () => void) => (store ? store.subscribe(notify) : () => {}), [store]);
  const memo = useRef<{ store: Store<S>; state: S; selected: T } | null>(null);
  const read = (): T => {
    if (!store) return fallback;
    const state = store.getState();
    const m = memo.current;
    if (m && m.store === store && m.state === state) return m.selected;
    const selected = selector(state);
    memo.current = { store, state, selected };
    return selected;
  };
  return useSyncExternalStore(subscribe, read, read);
}
