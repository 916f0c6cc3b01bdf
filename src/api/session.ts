/**
 * The session state machine of the specification (section 4), framework-free so that it can be
 * tested with a fake clock, storage and fetch.
 *
 *   no token ──login()──▶ token present
 *   token expired (less than 2 s left), refresh token valid ──▶ one refresh; other calls wait for
 *     it and go on with the new token
 *   both expired ──▶ logout('expired')        (message "Login status has expired...")
 *   refresh fails ──▶ logout('refresh-failed') (session cleared, back to login)
 *   HTTP 401 ──▶ logout('elsewhere')           (message "This account has been logged in elsewhere")
 *   HTTP 403 / 500 / 502 ──▶ redirect to /403, /500, /502 (403 only for calls that load the
 *     page's own content, `onForbidden: 'page'`; other calls reject with the server's message)
 *
 * The module emits events; the application turns them into messages and navigation.
 */
import { ApiError, needsAuth, REQUEST_TIMEOUT_MS, send, unwrap, type Reply, type RequestOptions } from './http.ts';

/** A token counts as expired when less than this remains (specification, section 9). */
export const EXPIRY_MARGIN_MS = 2_000;
export const SESSION_STORAGE_KEY = 'aw.session';
export const REFRESH_URL = '/admin/base/open/refreshToken';

/** Reply of login and refreshToken; lifetimes in seconds. */
export interface LoginReply {
  token: string;
  expire: number;
  refreshToken: string;
  refreshExpire: number;
}

/** What is persisted: the tokens and their absolute expiry times (ms since the epoch). */
export interface SessionData {
  token: string;
  refreshToken: string;
  expiresAt: number;
  refreshExpiresAt: number;
}

export type LogoutReason =
  /** The user logged out. */
  | 'user'
  /** Token and refresh token had both expired. */
  | 'expired'
  /** The refresh call failed. */
  | 'refresh-failed'
  /** The server answered 401: the session was revoked, e.g. by a login elsewhere. */
  | 'elsewhere';

export type ErrorPagePath = '/403' | '/500' | '/502';

export type SessionEvent =
  | { type: 'change'; session: SessionData | null }
  | { type: 'logout'; reason: LogoutReason }
  | { type: 'redirect'; to: ErrorPagePath };

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface SessionDeps {
  fetch: typeof fetch;
  /** Where the session persists (localStorage in the browser); none keeps it in memory only. */
  storage?: KeyValueStore | null;
  storageKey?: string;
  now?: () => number;
  /** Current UI language, sent as `Accept-Language`. */
  language?: () => string;
  timeoutMs?: number;
  /**
   * Runs the refresh under a lock shared by all tabs (the Web Locks API in the browser), so that
   * two tabs never spend the same rotating refresh token.
   */
  lock?: <T>(task: () => Promise<T>) => Promise<T>;
}

export interface Session {
  /** The current session, or null. */
  get(): SessionData | null;
  hasToken(): boolean;
  isTokenExpired(): boolean;
  isRefreshExpired(): boolean;
  /** Stores the tokens of a login (or refresh) reply. */
  login(reply: LoginReply): void;
  /** Clears the session and emits `logout` (always for 'user'; otherwise only if there was one). */
  logout(reason?: LogoutReason): void;
  /**
   * Runs a call of the user's that ends every session of theirs on the server (a password
   * change): a 401 of another call meanwhile logs out as 'user', not 'elsewhere'.
   */
  revoking<T>(call: () => Promise<T>): Promise<T>;
  /** Re-reads the persisted session (another tab changed it). */
  reload(): void;
  /** A valid token: the current one, or a refreshed one. Rejects (handled) when the session ends. */
  validToken(): Promise<string>;
  /** One API call with the session's token and the status rules above. Resolves to `data`. */
  request<T>(opts: RequestOptions): Promise<T>;
  /**
   * The same call, resolving to the reply (status and parsed body) where `request` would unwrap
   * it: for the typed client (api/typed.ts), which unwraps it itself.
   */
  exchange(opts: RequestOptions): Promise<Reply>;
  subscribe(listener: (event: SessionEvent) => void): () => void;
}

const ERROR_PAGES: Record<number, ErrorPagePath> = { 403: '/403', 500: '/500', 502: '/502' };

function isSessionData(value: unknown): value is SessionData {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.token === 'string' &&
    typeof v.refreshToken === 'string' &&
    typeof v.expiresAt === 'number' &&
    typeof v.refreshExpiresAt === 'number'
  );
}

function isLoginReply(value: unknown): value is LoginReply {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.token === 'string' &&
    v.token !== '' &&
    typeof v.refreshToken === 'string' &&
    typeof v.expire === 'number' &&
    typeof v.refreshExpire === 'number'
  );
}

function ended(reason: string): ApiError {
  return new ApiError(reason, { kind: 'session', handled: true });
}

export function createSession(deps: SessionDeps): Session {
  const storage = deps.storage ?? null;
  const key = deps.storageKey ?? SESSION_STORAGE_KEY;
  const now = deps.now ?? Date.now;
  const language = deps.language ?? (() => 'zh');
  const timeout = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const listeners = new Set<(event: SessionEvent) => void>();

  let data: SessionData | null = load();
  let refreshing: Promise<string> | null = null;
  /** Calls under way that end this session on the server when they succeed (revoking()). */
  let revokingCalls = 0;

  function load(): SessionData | null {
    try {
      const raw = storage?.getItem(key);
      if (!raw) return null;
      const parsed: unknown = JSON.parse(raw);
      return isSessionData(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }

  function save(next: SessionData | null): void {
    data = next;
    try {
      if (next) storage?.setItem(key, JSON.stringify(next));
      else storage?.removeItem(key);
    } catch {
      // Storage full or denied: the session lives in memory only.
    }
    emit({ type: 'change', session: next });
  }

  function emit(event: SessionEvent): void {
    for (const listener of [...listeners]) listener(event);
  }

  const expired = (at: number) => at - now() < EXPIRY_MARGIN_MS;

  function end(reason: LogoutReason): void {
    const had = data !== null;
    refreshing = null;
    if (had) save(null);
    if (had || reason === 'user') emit({ type: 'logout', reason });
  }

  function login(reply: LoginReply): void {
    if (!isLoginReply(reply)) throw new Error('Invalid login reply');
    const t = now();
    save({
      token: reply.token,
      refreshToken: reply.refreshToken,
      expiresAt: t + reply.expire * 1000,
      refreshExpiresAt: t + reply.refreshExpire * 1000,
    });
  }

  async function refresh(seen: SessionData): Promise<string> {
    const run = async (): Promise<string> => {
      let basis = seen;
      if (storage) {
        // Another tab may have refreshed (or logged out) while this one waited for the lock.
        const latest = load();
        if (!latest) {
          end('user');
          throw ended('no-session');
        }
        if (latest.refreshToken !== seen.refreshToken) {
          data = latest;
          emit({ type: 'change', session: latest });
          if (!expired(latest.expiresAt)) return latest.token;
          if (expired(latest.refreshExpiresAt)) {
            end('expired');
            throw ended('expired');
          }
          basis = latest;
        }
      }
      try {
        const reply = unwrap<LoginReply>(
          await send(deps.fetch, {
            url: REFRESH_URL,
            method: 'POST',
            data: { refreshToken: basis.refreshToken },
            language: language(),
            timeout,
          }),
        );
        login(reply);
        return reply.token;
      } catch {
        if (data?.refreshToken === basis.refreshToken) end('refresh-failed');
        throw ended('refresh-failed');
      }
    };
    return deps.lock ? deps.lock(run) : run();
  }

  async function validToken(): Promise<string> {
    if (refreshing) return refreshing;
    const current = data;
    if (!current) throw ended('no-session');
    if (!expired(current.expiresAt)) return current.token;
    if (expired(current.refreshExpiresAt)) {
      end('expired');
      throw ended('expired');
    }
    const pending = refresh(current).finally(() => {
      if (refreshing === pending) refreshing = null;
    });
    refreshing = pending;
    return pending;
  }

  async function request<T>(opts: RequestOptions): Promise<T> {
    return unwrap<T>(await exchange(opts));
  }

  async function exchange(opts: RequestOptions): Promise<Reply> {
    const auth = opts.auth ?? needsAuth(opts.url);
    const token = auth ? await validToken() : undefined;
    const reply = await send(deps.fetch, { ...opts, token, language: language(), timeout: opts.timeout ?? timeout });

    if (reply.status === 401 && auth) {
      // Only the call that still carries the current token ends the session; later ones fail quietly.
      // While a call of the user's own that revokes it is under way, the 401 is that call's doing.
      if (data?.token === token) end(revokingCalls > 0 ? 'user' : 'elsewhere');
      throw new ApiError('Unauthorized', { kind: 'http', status: 401, handled: true });
    }
    // A side call the user may not make (an option list, a card) must not take the page away:
    // its reply unwraps to the server's message.
    if (reply.status === 403 && opts.onForbidden !== 'page') return reply;
    const errorPage = ERROR_PAGES[reply.status];
    if (errorPage) {
      emit({ type: 'redirect', to: errorPage });
      throw new ApiError(`HTTP ${reply.status}`, { kind: 'http', status: reply.status, handled: true });
    }
    return reply;
  }

  return {
    get: () => data,
    hasToken: () => data !== null,
    isTokenExpired: () => data === null || expired(data.expiresAt),
    isRefreshExpired: () => data === null || expired(data.refreshExpiresAt),
    login,
    logout: (reason: LogoutReason = 'user') => end(reason),
    async revoking<T>(call: () => Promise<T>): Promise<T> {
      revokingCalls++;
      try {
        return await call();
      } finally {
        revokingCalls--;
      }
    },
    reload() {
      const next = load();
      if (JSON.stringify(next) === JSON.stringify(data)) return;
      const had = data !== null;
      data = next;
      refreshing = null;
      emit({ type: 'change', session: next });
      if (had && !next) emit({ type: 'logout', reason: 'user' });
    },
    validToken,
    request,
    exchange,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
