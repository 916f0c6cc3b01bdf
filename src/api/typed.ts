/**
 * The typed client of the back end, without the session (usable in tests and workers): Hono's
 * `hc` over the server's `AppType`, and `unwrap()`, which turns a reply into its envelope's
 * `data`, typed by the route, or throws the `ApiError` that `request()` throws for it.
 *
 * Only the *type* of the server is imported (`import type`): no server code reaches the bundle.
 * The page's client, sent through the session (token, refresh, language, toasts), is `api()`
 * in api.ts.
 */
import { hc, type ClientRequestOptions, type ClientResponse } from 'hono/client';
import type { AppType } from '../../server/app.ts';
import { unwrap as unwrapReply, type Reply } from './http.ts';

export type Api = ReturnType<typeof hc<AppType>>;

/** Replies whose body was already parsed by the transport (api.ts), so it is not parsed twice. */
const PARSED = new WeakMap<object, Reply>();

/** A Response carrying `reply` for `unwrap()` (and a JSON body for anyone else). */
export function replyResponse(reply: Reply): Response {
  const res = new Response(reply.body === null ? null : JSON.stringify(reply.body), {
    status: reply.status,
    headers: { 'Content-Type': 'application/json' },
  });
  PARSED.set(res, reply);
  return res;
}

/** The client of the API at `base` (an origin, or '/' for the page's own); `options.fetch` may
 * also be an app's `request` (tests). */
export function createApi(base: string, options?: ClientRequestOptions): Api {
  return hc<AppType>(base, options);
}

/** The envelope's `data` of a route's successful reply. */
export type DataOf<R> = R extends ClientResponse<infer T, infer _Status, infer _Format> ? (T extends { data?: infer D } ? D : never) : never;

async function readReply(res: ClientResponse<unknown, any, any>): Promise<Reply> {
  const parsed = PARSED.get(res);
  if (parsed) return parsed;
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: res.status, body };
}

/**
 * The data of a call's reply: `await unwrap(api.admin.design.save.$post({ json }))`. An envelope
 * whose code is not CODE_OK (or an error status) throws `ApiError` (kind 'api', with the server's
 * code and message); a reply without an envelope throws kind 'http'.
 */
export async function unwrap<R extends ClientResponse<unknown, any, any>>(call: R | Promise<R>): Promise<DataOf<R>> {
  return unwrapReply<DataOf<R>>(await readReply(await call));
}
