/**
 * Which plugins are disabled, and the built-in editors' settings (GET /admin/plugin/info/state, any signed-in user), loaded once per
 * session and again after the plugin page changes one: a disabled built-in hides its feature
 * (the Excel kit's buttons, for one). Until the answer comes, and if it fails, all are enabled.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { request, session } from '../api/client.ts';

let disabled: ReadonlySet<string> = new Set();
let settings: Readonly<Record<string, Record<string, unknown>>> = {};
let loaded: Promise<void> | null = null;
const listeners = new Set<() => void>();

function load(): Promise<void> {
  if (!session.hasToken()) return Promise.resolve();
  loaded ??= request<{ disabled: string[]; settings?: Record<string, Record<string, unknown>> }>({ url: '/admin/plugin/info/state', silent: true }).then(
    (reply) => {
      disabled = new Set(reply.disabled);
      settings = reply.settings ?? {};
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

const NO_SETTINGS: Record<string, unknown> = {};

/** A built-in editor's settings (markdown, code, richText, regionPicker); empty until loaded. */
export function usePluginSettings(key: string): Record<string, unknown> {
  useEffect(() => void load(), []);
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => settings[key] ?? NO_SETTINGS,
  );
}
