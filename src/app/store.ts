/**
 * The signed-in user's state: who they are, their menu (sidebar tree and page routes) and their
 * permissions. Loaded once after login (rule 1 needs the menu routes before resolving a path),
 * cleared when the session ends.
 */
import { useSyncExternalStore } from 'react';
import { baseApi, type User } from '../api/base.ts';
import { session } from '../api/client.ts';
import { buildMenu, type MenuModel } from '../menu/build.ts';
import { checkPerm, type PermCheck } from './perm.ts';
import { applyHabby } from './habby.ts';
import type { Habby } from '../../common/habby.ts';

export interface AppState {
  user: User | null;
  menu: MenuModel;
  perms: string[];
  /** True once the menu has been fetched (successfully or not) for this session. */
  loaded: boolean;
}

const EMPTY: AppState = { user: null, menu: buildMenu([]), perms: [], loaded: false };

let state: AppState = EMPTY;
let loading: Promise<void> | null = null;
/** Set by a sign-in (markSignedIn): the next load applies the user's stored preferences. */
let signedInNow = false;

/** A sign-in just happened (login page, one-time link): the user's stored preferences apply at the next load. */
export function markSignedIn(): void {
  signedInNow = true;
}
const listeners = new Set<() => void>();

function set(patch: Partial<AppState>) {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export function getApp(): AppState {
  return state;
}

export function useApp(): AppState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

/** Loads the user and the menu once per session. Errors are swallowed (their toast is shown). */
export function ensureBootstrap(): Promise<void> {
  if (state.loaded || !session.hasToken()) return Promise.resolve();
  loading ??= Promise.all([
    baseApi.person().then(
      (user) => {
        set({ user });
        // Right after a sign-in, the preferences kept on the server apply (in any browser); a
        // reload keeps what this browser shows (its choices were saved as they were made).
        if (signedInNow) void applyHabby(user.habby as Habby | undefined);
        signedInNow = false;
      },
      () => undefined,
    ),
    baseApi.permmenu().then(
      ({ menus, perms }) => set({ menu: buildMenu(menus ?? [], perms ?? []), perms: perms ?? [] }),
      () => undefined,
    ),
  ]).then(() => {
    loading = null;
    if (session.hasToken()) set({ loaded: true });
  });
  return loading;
}

export async function reloadUser(): Promise<void> {
  set({ user: await baseApi.person() });
}

/** Loads the menu and permissions again (a module created or removed while signed in). */
export async function reloadMenu(): Promise<void> {
  const { menus, perms } = await baseApi.permmenu();
  set({ menu: buildMenu(menus ?? [], perms ?? []), perms: perms ?? [] });
}

export function hasPerm(value: PermCheck): boolean {
  return checkPerm(state.perms, value);
}

/** Forgets the user's state (at logout, and before a new login). */
export function resetApp(): void {
  loading = null;
  set(EMPTY);
}

session.subscribe((event) => {
  if (event.type === 'change' && !event.session) resetApp();
});
