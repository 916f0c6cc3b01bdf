import type { Context } from 'hono';
import type { AppEnv } from './env.ts';

/**
 * The caller's address. X-Forwarded-For is believed only when TRUST_PROXY is on, and then its
 * last entry: the one our reverse proxy appended, which a client cannot forge.
 */
export function clientIp(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  const remote = (c.env as AppEnv['Bindings'] | undefined)?.incoming?.socket?.remoteAddress;
  if (!remote) return 'unknown';
  return remote.startsWith('::ffff:') ? remote.slice(7) : remote;
}
