import type { Context } from 'hono';
import type { AppEnv } from './env.ts';

/** The caller's address. X-Forwarded-For is believed only when TRUST_PROXY is on. */
export function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  const remote = (c.env as AppEnv['Bindings'] | undefined)?.incoming?.socket?.remoteAddress;
  if (!remote) return 'unknown';
  return remote.startsWith('::ffff:') ? remote.slice(7) : remote;
}
