// Signed requests between the server and an outside party holding a shared secret (an AI service
// now, partners later; docs/ai-vendor.md): HMAC-SHA256, lower-case hex, of five lines
//   METHOD \n path-with-query \n timestamp \n nonce \n sha256-hex-of-the-body
// sent in the headers below. The timestamp is Unix seconds; the nonce is fresh per request. This
// is the pure part (names, limits, the signed text); the hashing is server/core/signature.ts's.

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

export interface SignedText {
  method: string;
  /** Path with its query, exactly as sent ("/admin/base/open/aiCallBack/7/design/upper"). */
  path: string;
  /** Unix seconds, as sent. */
  timestamp: string;
  nonce: string;
  /** Lower-case hex SHA-256 of the body's bytes (of none: of the empty string). */
  bodySha256: string;
}

/** The text that is signed. */
export function canonicalRequest(p: SignedText): string {
  return [p.method.toUpperCase(), p.path, p.timestamp, p.nonce, p.bodySha256].join('\n');
}
