// One row per /admin call: who, route, method, status, time, IP and params, with secrets
// replaced before anything is stored.
import type { MiddlewareHandler } from 'hono';
import type { AppContext } from '../context.ts';
import type { AppEnv } from './env.ts';
import { clientIp } from './client-ip.ts';
import { formatTime } from './clock.ts';

const SECRET_KEY = /pass(word)?|pwd|token|secret|authorization|cookie/i;
const MAX_PARAMS = 4000;
export const REDACTED = '***';

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = SECRET_KEY.test(key) ? REDACTED : redact(v, depth + 1);
    }
    return out;
  }
  return value;
}

async function collectParams(c: Parameters<MiddlewareHandler<AppEnv>>[0]): Promise<string | null> {
  const params: Record<string, unknown> = { ...c.req.queries() };
  for (const [k, v] of Object.entries(params)) if (Array.isArray(v) && v.length === 1) params[k] = v[0];
  const type = c.req.header('content-type') ?? '';
  if (c.req.method !== 'GET' && c.res.status !== 413 && /^application\/([\w.-]+\+)?json/i.test(type)) {
    try {
      const body: unknown = await c.req.json();
      if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(params, body);
      else params.body = body;
    } catch {
      params.body = '(unreadable)';
    }
  }
  if (Object.keys(params).length === 0) return null;
  const text = JSON.stringify(redact(params));
  return text.length > MAX_PARAMS ? text.slice(0, MAX_PARAMS) + '…' : text;
}

export function requestLog(ctx: AppContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    try {
      const auth = c.get('auth');
      await ctx.db
        .insertInto('base_sys_log')
        .values({
          userId: auth?.userId ?? null,
          username: auth?.username ?? null,
          action: c.req.path.slice(0, 255),
          method: c.req.method,
          status: c.res.status,
          timeMs: Math.round(performance.now() - started),
          ip: clientIp(c, ctx.config.trustProxy),
          params: await collectParams(c),
          createTime: formatTime(ctx.clock.now()),
        })
        .execute();
    } catch (err) {
      // The log must never break the call it describes.
      ctx.logger.error('request log write failed', err);
    }
  };
}
