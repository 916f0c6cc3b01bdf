/**
 * The application's API client: the session state machine bound to the browser (fetch,
 * localStorage, Web Locks, the UI language) and the user-facing side of its events: messages,
 * error toasts and navigation.
 */
import { t } from '@lingui/core/macro';
import { currentLocale } from '../i18n/index.ts';
import { toast } from '../ui/toast.tsx';
import { ApiError, unwrap, type Reply, type RequestOptions } from './http.ts';
import { progress } from './progress.ts';
import { createSession, SESSION_STORAGE_KEY, type KeyValueStore, type LogoutReason } from './session.ts';

function browserStorage(): KeyValueStore | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export const session = createSession({
  fetch: (input, init) => window.fetch(input, init),
  storage: browserStorage(),
  language: currentLocale,
  lock: (task) =>
    typeof navigator !== 'undefined' && navigator.locks
      ? navigator.locks.request('aw.session.refresh', task)
      : task(),
});

let navigate: (to: string) => void = (to) => window.location.assign(to);

/** Lets the router take over navigation once it exists. */
export function setNavigator(fn: (to: string) => void): void {
  navigate = fn;
}

function logoutMessage(reason: LogoutReason): string | null {
  switch (reason) {
    case 'expired':
    case 'refresh-failed':
      return t`Login status has expired, please log in again`;
    case 'elsewhere':
      return t`This account has been logged in elsewhere`;
    case 'user':
      return null;
  }
}

session.subscribe((event) => {
  if (event.type === 'logout') {
    const message = logoutMessage(event.reason);
    if (message) toast.error(message);
    navigate('/login');
  } else if (event.type === 'redirect') {
    navigate(event.to);
  }
});

// Another tab logged in, refreshed or logged out.
window.addEventListener('storage', (e) => {
  if (e.key === SESSION_STORAGE_KEY || e.key === null) session.reload();
});

/** The user-facing text of a failed call. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    const status = err.status ?? 0;
    switch (err.kind) {
      case 'api':
        return err.message;
      case 'timeout':
        return t`The request timed out, please try again`;
      case 'network':
        return t`Network error, please check your connection`;
      case 'http':
        return status === 403 ? t`You do not have permission for this` : t`Request failed (HTTP ${status})`;
      default:
        return err.message;
    }
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * One API call. Resolves to the envelope's `data`; a failure shows an error toast with its message
 * (unless `silent`, or already reported as a logout message or error page) and rejects.
 */
export async function request<T>(opts: RequestOptions): Promise<T> {
  try {
    return await progress.track(opts.url, () => session.request<T>(opts));
  } catch (err) {
    if (!opts.silent && !(err instanceof ApiError && err.handled)) toast.error(errorMessage(err));
    throw err;
  }
}

/**
 * The same call as `request`, resolving to the reply instead of its data: the transport of the
 * typed client (api/api.ts), which unwraps it (api/typed.ts). A failure, or a reply that will
 * unwrap to an error, shows its toast here exactly as `request` would (unless `silent`).
 */
export async function exchange(opts: RequestOptions): Promise<Reply> {
  try {
    const reply = await progress.track(opts.url, () => session.exchange(opts));
    if (!opts.silent) {
      try {
        unwrap(reply);
      } catch (err) {
        toast.error(errorMessage(err));
      }
    }
    return reply;
  } catch (err) {
    if (!opts.silent && !(err instanceof ApiError && err.handled)) toast.error(errorMessage(err));
    throw err;
  }
}
