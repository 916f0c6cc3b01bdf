/**
 * Which plugins are disabled (GET /admin/plugin/info/state, any signed-in user), loaded once per
 * session and again after the plugin page changes one: a disabled built-in hides its feature
 * (the Excel kit's buttons, for one). Until the answer comes, and if it fails, all are enabled.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { request, session } from '../api/client.ts';

let disabled: ReadonlySet<string> = new Set();
let loaded: Promise<void> | null = null;
const listeners = new Set<() => void>();

function load(): Promise<void> {
  if (!session.hasToken()) return Promise.resolve();
  loaded ??= request<{ disabled: string[] }>({ url: '/admin/plugin/info/state', silent: true }).then(
    (reply) => {
      disabled = new Set(reply.disabled);
      for (const l of listeners) l();
    },
    () => {
      loaded = null;
    },
  );
  return loaded;
}

/** Loads the state again (after enabling or disabling a plugin). */
export function reloadPlugins(): Promise<void> {
  loaded = null;
  return load();
}

export function usePluginEnabled(key: string): boolean {
  useEffect(() => void load(), []);
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => !disabled.has(key),
  );
}
