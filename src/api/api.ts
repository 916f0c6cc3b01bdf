/**
 * The page's typed client: `api(options).admin.design.save.$post({ json })`, sent through the
 * session like every `request()` (the token, its refresh, Accept-Language, the 401/403/5xx rules,
 * the progress bar and error toasts; `options` as request()'s). Unwrap replies with `unwrap()`.
 */
import { exchange } from './client.ts';
import type { Method, RequestOptions } from './http.ts';
import { createApi, replyResponse, type Api } from './typed.ts';

export { unwrap, type Api, type DataOf } from './typed.ts';

export type CallOptions = Pick<RequestOptions, 'silent' | 'onForbidden' | 'timeout'>;

/** hc's fetch: one call of the session (api/client.ts), answered as a Response for hc. */
function sessionFetch(options: CallOptions): typeof fetch {
  return async (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(href, window.location.origin);
    // hc sends JSON bodies as text; the session sends `data` as JSON again.
    const body = init?.body;
    const reply = await exchange({
      ...options,
      url: `${url.pathname}${url.search}`,
      method: (init?.method ?? 'GET').toUpperCase() as Method,
      ...(typeof body === 'string' ? { data: JSON.parse(body) as unknown } : {}),
      ...(init?.signal ? { signal: init.signal } : {}),
    });
    return replyResponse(reply);
  };
}

/** The typed client of the page's own back end. */
export function api(options: CallOptions = {}): Api {
  return createApi('/', { fetch: sessionFetch(options) });
}
