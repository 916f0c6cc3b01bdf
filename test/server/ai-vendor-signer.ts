// The example signer of docs/ai-vendor.md: how an AI service signs its callback and checks the
// server's job. Runnable:
//   npx tsx test/server/ai-vendor-signer.ts <keyId> <secret> <METHOD> <path-with-query> [body-file] [timestamp] [nonce]
// prints the four headers (by default the timestamp now and a fresh nonce) and the text signed. The fake
// vendor of the tests (fake-ai-vendor.ts) and the tests' own forged callbacks use these functions.
import fs from 'node:fs';
import { timingSafeEqual } from 'node:crypto';
import { canonicalRequest, SIGNATURE_HEADERS, SIGNATURE_WINDOW_MS } from '../../common/signature.ts';
import { sha256Hex, signature, signedHeaders } from '../../server/core/signature.ts';

export { signedHeaders };

/** Posts `body` (JSON text) to `url`, signed; `at`/`nonce` override the fresh ones (tests). */
export async function signedPost(url: string, keyId: string, secret: string, body: string, o: { at?: number; nonce?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const u = new URL(url);
  const headers = signedHeaders(keyId, secret, { method: 'POST', path: u.pathname + u.search, body }, o.at ?? Date.now(), o.nonce);
  return fetch(u, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers, ...o.headers }, body });
}

/** Whether a request the server sent (its job) is signed with `secret` and recent. */
export async function verifyIncoming(secret: string, req: { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: string }, now = Date.now()): Promise<boolean> {
  const h = (name: string) => String(req.headers[name.toLowerCase()] ?? '');
  const timestamp = h(SIGNATURE_HEADERS.timestamp);
  if (!/^[0-9]+$/.test(timestamp) || Math.abs(now - Number(timestamp) * 1000) > SIGNATURE_WINDOW_MS) return false;
  const expected = Buffer.from(signature(secret, { method: req.method, path: req.path, timestamp, nonce: h(SIGNATURE_HEADERS.nonce), body: req.body }));
  const given = Buffer.from(h(SIGNATURE_HEADERS.signature));
  // (a real service also remembers the nonces it saw, and refuses one seen again)
  return given.length === expected.length && timingSafeEqual(given, expected);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [keyId, secret, method, path, bodyFile, timestamp, nonce] = process.argv.slice(2);
  if (!keyId || !secret || !method || !path) {
    console.error('usage: ai-vendor-signer.ts <keyId> <secret> <METHOD> <path-with-query> [body-file] [timestamp] [nonce]');
    process.exit(2);
  }
  const body = bodyFile && bodyFile !== '-' ? fs.readFileSync(bodyFile) : new Uint8Array();
  const headers = signedHeaders(keyId, secret, { method, path, body }, timestamp ? Number(timestamp) * 1000 : Date.now(), nonce);
  for (const [k, v] of Object.entries(headers)) console.log(`${k}: ${v}`);
  const text = canonicalRequest({ method, path, bodySha256: sha256Hex(body), timestamp: headers[SIGNATURE_HEADERS.timestamp]!, nonce: headers[SIGNATURE_HEADERS.nonce]! });
  console.log(`\nsigned text:\n${text}`);
}
