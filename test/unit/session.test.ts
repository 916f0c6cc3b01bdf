import { describe, expect, it } from 'vitest';
import {
  createSession,
  EXPIRY_MARGIN_MS,
  REFRESH_URL,
  SESSION_STORAGE_KEY,
  type KeyValueStore,
  type SessionEvent,
} from '../../src/api/session.ts';
import { ApiError, REQUEST_TIMEOUT_MS } from '../../src/api/http.ts';

class MemoryStore implements KeyValueStore {
  map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
}

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = (call: Call) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;

function fakeFetch(handler: Handler) {
  const calls: Call[] = [];
  const fn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const { status = 200, body } = await handler(call);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
  return { fn, calls };
}

const ok = (data: unknown) => ({ body: { code: 1000, message: 'success', data } });
const tokens = (n: number, expire = 7200, refreshExpire = 1_296_000) => ({
  token: `access-${n}`,
  expire,
  refreshToken: `refresh-${n}`,
  refreshExpire,
});

function setup(handler: Handler, start = 1_000_000) {
  let clock = start;
  const storage = new MemoryStore();
  const { fn, calls } = fakeFetch(handler);
  const events: SessionEvent[] = [];
  const session = createSession({ fetch: fn, storage, now: () => clock, language: () => 'de' });
  session.subscribe((e) => events.push(e));
  return {
    session,
    storage,
    calls,
    events,
    advance(ms: number) {
      clock += ms;
    },
    logouts: () => events.filter((e) => e.type === 'logout'),
  };
}

describe('session: expiry', () => {
  it('counts a token as expired when less than 2 s remain', () => {
    const t = setup(() => ok(null));
    t.session.login(tokens(1, 10, 100));
    expect(t.session.isTokenExpired()).toBe(false);
    t.advance(10_000 - EXPIRY_MARGIN_MS - 1);
    expect(t.session.isTokenExpired()).toBe(false);
    t.advance(2);
    expect(t.session.isTokenExpired()).toBe(true);
    expect(t.session.isRefreshExpired()).toBe(false);
  });

  it('persists the session in storage and reads it back', () => {
    const t = setup(() => ok(null));
    t.session.login(tokens(1));
    const stored = JSON.parse(t.storage.getItem(SESSION_STORAGE_KEY) ?? 'null');
    expect(stored).toMatchObject({ token: 'access-1', refreshToken: 'refresh-1', expiresAt: 1_000_000 + 7_200_000 });
    const again = createSession({ fetch: fetch, storage: t.storage, now: () => 1_000_000 });
    expect(again.get()?.token).toBe('access-1');
    t.session.logout();
    expect(t.storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('ignores a corrupt stored session', () => {
    const storage = new MemoryStore();
    storage.setItem(SESSION_STORAGE_KEY, '{"token":1');
    const s = createSession({ fetch: fetch, storage });
    expect(s.hasToken()).toBe(false);
  });
});

describe('session: requests', () => {
  it('sends the raw token, the language and unwraps the envelope', async () => {
    const t = setup(() => ok({ hello: 'world' }));
    t.session.login(tokens(1));
    await expect(t.session.request({ url: '/admin/base/comm/person' })).resolves.toEqual({ hello: 'world' });
    expect(t.calls[0]?.headers.Authorization).toBe('access-1');
    expect(t.calls[0]?.headers['Accept-Language']).toBe('de');
  });

  it('sends no token to open endpoints and passes params and bodies', async () => {
    const t = setup(() => ok(1));
    t.session.login(tokens(1));
    await t.session.request({ url: '/admin/base/open/captcha', params: { w: 120, skip: undefined } });
    await t.session.request({ url: '/admin/base/open/login', method: 'POST', data: { username: 'a' } });
    expect(t.calls[0]?.url).toBe('/admin/base/open/captcha?w=120');
    expect(t.calls[0]?.headers.Authorization).toBeUndefined();
    expect(t.calls[1]?.body).toEqual({ username: 'a' });
  });

  it('rejects a non-1000 code with the server message', async () => {
    const t = setup(() => ({ body: { code: 1001, message: 'Account or Password incorrect' } }));
    const err = await t.session.request({ url: '/admin/base/open/login', data: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ message: 'Account or Password incorrect', code: 1001, kind: 'api', handled: false });
  });

  it('uses the envelope message of a 429', async () => {
    const t = setup(() => ({ status: 429, body: { code: 1001, message: 'Too many requests' } }));
    await expect(t.session.request({ url: '/admin/base/open/login', data: {} })).rejects.toMatchObject({
      message: 'Too many requests',
      status: 429,
    });
  });

  it('applies the 3,600,000 ms timeout by default', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(3_600_000);
  });

  it('times out', async () => {
    const hanging = ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      })) as typeof fetch;
    const s = createSession({ fetch: hanging, timeoutMs: 20 });
    await expect(s.request({ url: '/admin/base/open/captcha' })).rejects.toMatchObject({ kind: 'timeout' });
  });
});

describe('session: refresh', () => {
  it('refreshes once while concurrent calls wait and retry with the new token', async () => {
    let refreshes = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const t = setup(async (call) => {
      if (call.url === REFRESH_URL) {
        refreshes++;
        expect(call.body).toEqual({ refreshToken: 'refresh-1' });
        await gate;
        return ok(tokens(2));
      }
      return ok(call.headers.Authorization);
    });
    t.session.login(tokens(1, 60));
    t.advance(59_000); // 1 s left: expired under the 2 s margin
    const pending = [1, 2, 3, 4].map(() => t.session.request<string>({ url: '/admin/base/comm/person' }));
    await new Promise((r) => setTimeout(r, 5));
    expect(refreshes).toBe(1);
    expect(t.calls.filter((c) => c.url !== REFRESH_URL)).toHaveLength(0); // all wait for the refresh
    release();
    await expect(Promise.all(pending)).resolves.toEqual(['access-2', 'access-2', 'access-2', 'access-2']);
    expect(refreshes).toBe(1);
    expect(t.session.get()?.refreshToken).toBe('refresh-2'); // rotated
    expect(t.session.isTokenExpired()).toBe(false);
    // A later call uses the new token without refreshing again.
    await expect(t.session.request({ url: '/admin/base/comm/person' })).resolves.toBe('access-2');
    expect(refreshes).toBe(1);
    expect(t.logouts()).toEqual([]);
  });

  it('clears the session and logs out when the refresh fails', async () => {
    const t = setup((call) =>
      call.url === REFRESH_URL ? { status: 401, body: { code: 1001, message: 'bad refresh' } } : ok('x'),
    );
    t.session.login(tokens(1, 10));
    t.advance(9_000);
    const results = await Promise.allSettled([
      t.session.request({ url: '/admin/base/comm/person' }),
      t.session.request({ url: '/admin/base/comm/permmenu' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (const r of results) expect((r as PromiseRejectedResult).reason).toMatchObject({ handled: true });
    expect(t.session.hasToken()).toBe(false);
    expect(t.storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(t.logouts()).toEqual([{ type: 'logout', reason: 'refresh-failed' }]);
    expect(t.calls.filter((c) => c.url === REFRESH_URL)).toHaveLength(1);
  });

  it('logs out with "expired" when both tokens have expired, without calling the server', async () => {
    const t = setup(() => ok('x'));
    t.session.login(tokens(1, 10, 20));
    t.advance(19_000);
    await expect(t.session.request({ url: '/admin/base/comm/person' })).rejects.toMatchObject({ handled: true });
    expect(t.calls).toHaveLength(0);
    expect(t.logouts()).toEqual([{ type: 'logout', reason: 'expired' }]);
    expect(t.session.hasToken()).toBe(false);
  });

  it('adopts a token another tab refreshed instead of spending the old refresh token', async () => {
    const t = setup((call) => (call.url === REFRESH_URL ? ok(tokens(9)) : ok(call.headers.Authorization)));
    t.session.login(tokens(1, 10));
    t.advance(9_000);
    // The other tab wrote a fresh session.
    t.storage.setItem(
      SESSION_STORAGE_KEY,
      JSON.stringify({ token: 'access-2', refreshToken: 'refresh-2', expiresAt: 1_009_000 + 60_000, refreshExpiresAt: 2e12 }),
    );
    await expect(t.session.request({ url: '/admin/base/comm/person' })).resolves.toBe('access-2');
    expect(t.calls.filter((c) => c.url === REFRESH_URL)).toHaveLength(0);
  });

  it('runs the refresh under the injected lock', async () => {
    let locked = 0;
    const lock = <T>(task: () => Promise<T>): Promise<T> => {
      locked++;
      return task();
    };
    const { fn } = fakeFetch((call) => (call.url === REFRESH_URL ? ok(tokens(2)) : ok(1)));
    let clock = 0;
    const s = createSession({ fetch: fn, now: () => clock, lock });
    s.login(tokens(1, 10));
    clock = 9_500;
    await s.request({ url: '/admin/x/y' });
    expect(locked).toBe(1);
  });
});

describe('session: status codes', () => {
  it('401 logs out with "elsewhere" once, even for concurrent calls', async () => {
    const t = setup(() => ({ status: 401, body: { code: 1001, message: 'Unauthorized' } }));
    t.session.login(tokens(1));
    const results = await Promise.allSettled([
      t.session.request({ url: '/admin/base/comm/person' }),
      t.session.request({ url: '/admin/base/comm/permmenu' }),
    ]);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).handled)).toBe(true);
    expect(t.logouts()).toEqual([{ type: 'logout', reason: 'elsewhere' }]);
    expect(t.session.hasToken()).toBe(false);
  });

  it('a 401 while a revoking call of the user (a password change) is under way logs out as "user", not "elsewhere"', async () => {
    const gate: { open?: () => void } = {};
    const t = setup((call) =>
      call.url.endsWith('/personUpdate') ? new Promise((resolve) => (gate.open = () => resolve(ok(null)))) : { status: 401, body: { code: 1001, message: 'Unauthorized' } },
    );
    t.session.login(tokens(1));
    const change = t.session.revoking(() => t.session.request({ url: '/admin/base/comm/personUpdate', method: 'POST', data: { password: 'x' } }));
    await expect(t.session.request({ url: '/admin/base/comm/person' })).rejects.toMatchObject({ handled: true });
    expect(t.logouts()).toEqual([{ type: 'logout', reason: 'user' }]);
    while (!gate.open) await new Promise((r) => setTimeout(r, 1));
    gate.open();
    await change;
    // Afterwards a 401 is somebody else's doing again.
    t.session.login(tokens(2));
    await expect(t.session.request({ url: '/admin/base/comm/person' })).rejects.toMatchObject({ handled: true });
    expect(t.logouts().at(-1)).toEqual({ type: 'logout', reason: 'elsewhere' });
  });

  it.each([
    [403, '/403'],
    [500, '/500'],
    [502, '/502'],
  ])('HTTP %i redirects to %s', async (status, to) => {
    const t = setup(() => ({ status, body: { code: 1001, message: 'x' } }));
    t.session.login(tokens(1));
    await expect(t.session.request({ url: '/admin/base/sys/user/page', data: {}, onForbidden: 'page' })).rejects.toMatchObject({
      status,
      handled: true,
    });
    expect(t.events).toContainEqual({ type: 'redirect', to });
    expect(t.session.hasToken()).toBe(true);
  });

  it('HTTP 403 of a side call (no onForbidden, or toast) rejects with the server message and stays on the page', async () => {
    const t = setup(() => ({ status: 403, body: { code: 1001, message: 'Keine Berechtigung' } }));
    t.session.login(tokens(1));
    for (const onForbidden of [undefined, 'toast'] as const) {
      const call = t.session.request({ url: '/admin/base/sys/role/list', data: {}, ...(onForbidden ? { onForbidden } : {}) });
      await expect(call).rejects.toMatchObject({ kind: 'api', status: 403, message: 'Keine Berechtigung', handled: false });
    }
    expect(t.events.filter((e) => e.type === 'redirect')).toEqual([]);
    expect(t.session.hasToken()).toBe(true);
  });

  it('HTTP 403 without an envelope on a side call is an unhandled http error; 500 still goes to its page', async () => {
    let status = 403;
    const t = setup(() => ({ status, body: null }));
    t.session.login(tokens(1));
    await expect(t.session.request({ url: '/admin/dict/info/data', data: {} })).rejects.toMatchObject({ kind: 'http', status: 403, handled: false });
    status = 500;
    await expect(t.session.request({ url: '/admin/dict/info/data', data: {} })).rejects.toMatchObject({ status: 500, handled: true });
    expect(t.events).toContainEqual({ type: 'redirect', to: '/500' });
    expect(t.events).not.toContainEqual({ type: 'redirect', to: '/403' });
  });

  it('a user logout always emits, and clears', () => {
    const t = setup(() => ok(null));
    t.session.logout();
    expect(t.logouts()).toEqual([{ type: 'logout', reason: 'user' }]);
  });

  it('reload() picks up a logout from another tab', () => {
    const t = setup(() => ok(null));
    t.session.login(tokens(1));
    t.storage.removeItem(SESSION_STORAGE_KEY);
    t.session.reload();
    expect(t.session.hasToken()).toBe(false);
    expect(t.logouts()).toEqual([{ type: 'logout', reason: 'user' }]);
  });
});
