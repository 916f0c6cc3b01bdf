// Signed requests between the server and an outside party holding a shared secret (an AI service
// now, partners later; docs/ai-vendor.md): HMAC-SHA256, hex, of five lines
//   METHOD \n path-with-query \n timestamp \n nonce \n sha256-hex-of-the-body
// sent in the headers below. The timestamp is Unix seconds; the nonce is fresh per request.
// Pure, Web Crypto only: the server (server/core/signature.ts, which also checks the clock and
// the nonces) and the example signer (test/server/ai-vendor-signer.ts) both use it.

export const SIGNATURE_HEADERS = {
  key: 'X-Archwright-Key',
  timestamp: 'X-Archwright-Timestamp',
  nonce: 'X-Archwright-Nonce',
  signature: 'X-Archwright-Signature',
} as const;

/** How far a request's timestamp may be from the receiver's clock (either way). */
export const SIGNATURE_WINDOW_MS = 5 * 60 * 1000;
/** A nonce: 16 to 64 characters of letters, digits, '-' and '_'. */
export const NONCE_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export interface SignedParts {
  method: string;
  /** Path with its query, exactly as sent ("/admin/base/open/aiCallBack/7/design/upper"). */
  path: string;
  /** Unix seconds, as sent. */
  timestamp: string;
  nonce: string;
  /** The body's bytes (empty for none). */
  body: Uint8Array | string;
}

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
const bytesOf = (v: Uint8Array | string) => (typeof v === 'string' ? new TextEncoder().encode(v) : v);

export async function sha256HexOf(body: Uint8Array | string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', bytesOf(body) as Uint8Array<ArrayBuffer>));
}

/** The text that is signed. */
export async function canonicalRequest(p: SignedParts): Promise<string> {
  return [p.method.toUpperCase(), p.path, p.timestamp, p.nonce, await sha256HexOf(p.body)].join('\n');
}

/** The signature (lower-case hex) of a request under `secret`. */
export async function signature(secret: string, p: SignedParts): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(await canonicalRequest(p))));
}

/** A fresh nonce (22 characters). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The four headers of a request signed now (`nowMs`) by key `keyId`. */
export async function signedHeaders(
  keyId: string,
  secret: string,
  req: { method: string; path: string; body: Uint8Array | string },
  nowMs = Date.now(),
  nonce = newNonce(),
): Promise<Record<string, string>> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    [SIGNATURE_HEADERS.key]: keyId,
    [SIGNATURE_HEADERS.timestamp]: timestamp,
    [SIGNATURE_HEADERS.nonce]: nonce,
    [SIGNATURE_HEADERS.signature]: await signature(secret, { ...req, timestamp, nonce }),
  };
}
