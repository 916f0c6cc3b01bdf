/**
 * Transport for the admin API: one fetch with the envelope `{ code, message, data }`, the
 * product's single request timeout, `Accept-Language` and the raw token in `Authorization`.
 * It knows nothing about sessions; `session.ts` decides which token to send and what a status means.
 */
import { CODE_OK } from '../../common/codes.ts';

/** One timeout applies to all calls (specification, section 9). */
export const REQUEST_TIMEOUT_MS = 3_600_000;
/** Envelope code of a successful reply (common/codes.ts, the server's too). */
export { CODE_OK };

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
}

export type Method = 'GET' | 'POST';
export type Params = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  url: string;
  method?: Method;
  /** Query parameters (GET calls send params). */
  params?: Params;
  /** JSON body (POST calls send a body). */
  data?: unknown;
  /** Send the session token; by default every call except `/open/` ones and `/version.json`. */
  auth?: boolean;
  /** Do not show an error toast when the call fails (the caller handles it). */
  silent?: boolean;
  /**
   * What an HTTP 403 does. `'page'`: the whole window goes to /403 (the spec's rule), for the call
   * that loads what the page is about (a list screen's page/list). `'toast'` (the default): the
   * call rejects with the server's message as an error toast (none if `silent`) and the user stays
   * on the page: dictionaries, option lists, dashboard cards, button actions.
   */
  onForbidden?: 'page' | 'toast';
  timeout?: number;
  signal?: AbortSignal;
}

export type ApiErrorKind =
  /** The server answered with an envelope whose code is not CODE_OK (or an error status with an envelope). */
  | 'api'
  /** An HTTP error status without a readable envelope. */
  | 'http'
  | 'network'
  | 'timeout'
  | 'aborted'
  /** The call could not be made because the session ended. */
  | 'session';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly code: number | undefined;
  readonly status: number | undefined;
  /** The failure was already reported to the user (message or redirect); do not toast it again. */
  readonly handled: boolean;

  constructor(
    message: string,
    init: { kind: ApiErrorKind; code?: number; status?: number; handled?: boolean; cause?: unknown },
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.code = init.code;
    this.status = init.status;
    this.handled = init.handled ?? false;
  }
}

export function needsAuth(url: string): boolean {
  return !/\/open\//.test(url) && !url.startsWith('/version.json');
}

function buildUrl(url: string, params?: Params): string {
  if (!params) return url;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const qs = query.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

export interface Reply {
  status: number;
  /** Parsed JSON body, or null when the body is empty or not JSON. */
  body: unknown;
}

export interface SendOptions extends RequestOptions {
  token?: string | undefined;
  language?: string | undefined;
}

/** Performs one HTTP call; rejects only for network failures, time-outs and aborts. */
export async function send(fetchFn: typeof fetch, opts: SendOptions): Promise<Reply> {
  const method = opts.method ?? (opts.data === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.language) headers['Accept-Language'] = opts.language;
  if (opts.token) headers.Authorization = opts.token;
  let body: string | undefined;
  if (method === 'POST') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.data ?? {});
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeout ?? REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const res = await fetchFn(buildUrl(opts.url, opts.params), {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: controller.signal,
    });
    const text = await res.text();
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    return { status: res.status, body: parsed };
  } catch (err) {
    if (timedOut) throw new ApiError('Request timed out', { kind: 'timeout', cause: err });
    if (opts.signal?.aborted) throw new ApiError('Request aborted', { kind: 'aborted', cause: err, handled: true });
    throw new ApiError(err instanceof Error ? err.message : String(err), { kind: 'network', cause: err });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

export function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && typeof (body as Envelope).code === 'number';
}

/** Turns a reply into data or an `ApiError` (statuses with special meaning are handled before). */
export function unwrap<T>(reply: Reply): T {
  const { status, body } = reply;
  if (isEnvelope(body)) {
    if (body.code === CODE_OK && status < 400) return body.data as T;
    throw new ApiError(body.message || `HTTP ${status}`, { kind: 'api', code: body.code, status });
  }
  throw new ApiError(`HTTP ${status}`, { kind: 'http', status });
}
