// The reply shape every JSON answer shares: { code, message, data? }.
import type { Context } from 'hono';
import { Code } from '../../common/codes.ts';

// The codes are the client's too (common/codes.ts).
export { Code };

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
}

export function envelope<T>(code: number, message: string, data?: T): Envelope<T> {
  return data === undefined ? { code, message } : { code, message, data };
}

/** The data of a reply as sent: `undefined` (none given) becomes null. */
export type Sent<T> = T extends undefined ? null : T;

/** A 1000 reply; `undefined` data is sent as null. Typed with its data, so that AppType (and the
 * browser's typed client) know what a call answers. */
export function ok<T = undefined>(c: Context, data?: T) {
  return c.json({ code: Code.ok, message: 'success', data: (data ?? null) as Sent<T> });
}
