// Signing a request (common/signature.ts's text, HMAC-SHA256 hex), and checking one: the four
// headers present and well formed, the
// timestamp within SIGNATURE_WINDOW_MS of the server's clock, the key known (the caller says how
// to find its secret), the HMAC equal in constant time, and the nonce not used before by that
// key. The nonce is recorded by an insert against a unique (configId, nonce): of two copies that
// arrive together exactly one gets in. Nonces older than twice the window can no longer be
// replayed (their timestamps are refused) and are purged. Every refusal is 401; an unknown key and
// a wrong signature answer alike. Secrets are never logged.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { canonicalRequest, NONCE_PATTERN, SIGNATURE_HEADERS, SIGNATURE_WINDOW_MS } from '../../common/signature.ts';
import type { AppContext } from '../context.ts';
import type { AppEnv } from './env.ts';
import { Code } from './envelope.ts';
import { ApiError, unauthorized } from './errors.ts';

export interface SignedRequest {
  method: string;
  /** Path with its query, exactly as sent. */
  path: string;
  /** Unix seconds. */
  timestamp: string;
  nonce: string;
  body: Uint8Array | string;
}

export const sha256Hex = (body: Uint8Array | string) => createHash('sha256').update(body).digest('hex');

/** The signature (lower-case hex) of a request under `secret`. */
export function signature(secret: string, r: SignedRequest): string {
  return signatureOfDigest(secret, { method: r.method, path: r.path, timestamp: r.timestamp, nonce: r.nonce, bodySha256: sha256Hex(r.body) });
}

/** The signature of a request whose body's digest is known. */
export function signatureOfDigest(secret: string, r: Omit<SignedRequest, 'body'> & { bodySha256: string }): string {
  return createHmac('sha256', secret).update(canonicalRequest(r)).digest('hex');
}

/** A fresh nonce (22 characters). */
export const newNonce = () => randomBytes(16).toString('base64url');

/** The four headers of a request signed at `nowMs` by key `keyId`. */
export function signedHeaders(
  keyId: string,
  secret: string,
  req: { method: string; path: string; body: Uint8Array | string },
  nowMs = Date.now(),
  nonce = newNonce(),
): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    [SIGNATURE_HEADERS.key]: keyId,
    [SIGNATURE_HEADERS.timestamp]: timestamp,
    [SIGNATURE_HEADERS.nonce]: nonce,
    [SIGNATURE_HEADERS.signature]: signature(secret, { ...req, timestamp, nonce }),
  };
}

export interface SignedKey {
  configId: number;
  secret: string;
}

const TIMESTAMP = /^[0-9]{1,12}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The body's bytes as the body reader kept them (empty when there is none). */
async function bodyBytes(c: Context<AppEnv>): Promise<Uint8Array> {
  if (!c.req.raw.body && !(c.req.bodyCache as { arrayBuffer?: unknown }).arrayBuffer) return new Uint8Array();
  return new Uint8Array(await c.req.arrayBuffer());
}

/**
 * The key the request is signed with, once everything holds; throws 401 otherwise. `keyOf`
 * answers the secret of a key id (null: unknown or not allowed here). `bodySha256`: the body's
 * digest when the caller streamed the body itself (a large upload); else the body is read here.
 */
export async function verifySigned(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  c: Context<AppEnv>,
  keyOf: (keyId: string) => Promise<SignedKey | null>,
  bodySha256?: string,
): Promise<SignedKey> {
  const keyId = c.req.header(SIGNATURE_HEADERS.key) ?? '';
  const timestamp = c.req.header(SIGNATURE_HEADERS.timestamp) ?? '';
  const nonce = c.req.header(SIGNATURE_HEADERS.nonce) ?? '';
  const given = (c.req.header(SIGNATURE_HEADERS.signature) ?? '').toLowerCase();
  if (!KEY_ID.test(keyId) || !TIMESTAMP.test(timestamp) || !NONCE_PATTERN.test(nonce) || !HEX64.test(given)) throw unauthorized('signatureInvalid');
  const now = ctx.clock.now();
  if (Math.abs(now - Number(timestamp) * 1000) > SIGNATURE_WINDOW_MS) throw new ApiError(Code.fail, 'signatureStale', 401, { minutes: SIGNATURE_WINDOW_MS / 60_000 });
  const key = await keyOf(keyId);
  const url = new URL(c.req.url);
  const signed = { method: c.req.method, path: url.pathname + url.search, timestamp, nonce };
  const expected = !key ? '0'.repeat(64) : bodySha256 !== undefined ? signatureOfDigest(key.secret, { ...signed, bodySha256 }) : signature(key.secret, { ...signed, body: await bodyBytes(c) });
  const same = timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'));
  if (!key || !same) throw unauthorized('signatureInvalid');
  await ctx.db.deleteFrom('api_nonce').where('at', '<', now - 2 * SIGNATURE_WINDOW_MS).execute();
  const res = await ctx.db
    .insertInto('api_nonce')
    .values({ configId: key.configId, nonce, at: now })
    .onConflict((oc) => oc.columns(['configId', 'nonce']).doNothing())
    .executeTakeFirst();
  if (Number(res.numInsertedOrUpdatedRows ?? 0) !== 1) throw unauthorized('signatureReplayed');
  return key;
}
