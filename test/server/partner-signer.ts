// The example client of docs/partner-api.md: how a partner signs its calls. Runnable:
//   npx tsx test/server/partner-signer.ts <base-url> <keyId> <secret> <METHOD> <path-with-query> [json-body | @file.json]
// sends the call signed (timestamp now, a fresh nonce) and prints the reply. The tests' partner
// client (partner-api.test.ts) signs with these same functions, through the app or over HTTP.
import fs from 'node:fs';
import { createHash, createHmac, randomBytes } from 'node:crypto';

/** The four signature headers (common/signature.ts), spelled out so the example stands alone. */
export const HEADERS = { key: 'X-Archwright-Key', timestamp: 'X-Archwright-Timestamp', nonce: 'X-Archwright-Nonce', signature: 'X-Archwright-Signature' } as const;

export interface PartnerKey {
  id: number | string;
  secret: string;
}

/** The headers of a request: HMAC-SHA256 (hex) of METHOD, path with query, timestamp, nonce and the body's SHA-256 (hex), one per line. */
export function signRequest(key: PartnerKey, method: string, pathWithQuery: string, body: Uint8Array | string, o: { at?: number; nonce?: string } = {}): Record<string, string> {
  const timestamp = String(Math.floor((o.at ?? Date.now()) / 1000));
  const nonce = o.nonce ?? randomBytes(16).toString('base64url');
  const bodySha256 = createHash('sha256').update(body).digest('hex');
  const text = [method.toUpperCase(), pathWithQuery, timestamp, nonce, bodySha256].join('\n');
  return {
    [HEADERS.key]: String(key.id),
    [HEADERS.timestamp]: timestamp,
    [HEADERS.nonce]: nonce,
    [HEADERS.signature]: createHmac('sha256', key.secret).update(text).digest('hex'),
  };
}

/** A multipart body as bytes (what is signed is exactly what is sent), with its content type. */
export async function multipart(fields: Record<string, string>, files: Record<string, { name: string; bytes: Uint8Array }> = {}): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, f] of Object.entries(files)) form.append(k, new Blob([f.bytes as Uint8Array<ArrayBuffer>]), f.name);
  const res = new Response(form);
  return { body: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}

export type Send = (url: string, init: RequestInit) => Promise<Response>;

export interface CallOptions {
  at?: number;
  nonce?: string;
  lang?: string;
  contentType?: string;
  /** Headers that replace the signed ones (a tampered request). */
  override?: Record<string, string>;
}

/** Sends a signed call; `body` is JSON (an object) or bytes already made (multipart). */
export async function partnerCall(send: Send, base: string, key: PartnerKey, method: 'GET' | 'POST', pathWithQuery: string, body?: unknown, o: CallOptions = {}): Promise<Response> {
  const bytes = body === undefined ? '' : body instanceof Uint8Array ? body : JSON.stringify(body);
  const headers: Record<string, string> = { ...signRequest(key, method, pathWithQuery, bytes, o), ...o.override };
  if (body !== undefined) headers['Content-Type'] = o.contentType ?? 'application/json';
  if (o.lang) headers['Accept-Language'] = o.lang;
  return send(base + pathWithQuery, { method, headers, ...(method === 'POST' ? { body: bytes as BodyInit } : {}) });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [base, keyId, secret, method, path, raw] = process.argv.slice(2);
  if (!base || !keyId || !secret || (method !== 'GET' && method !== 'POST') || !path) {
    console.error('usage: partner-signer.ts <base-url> <keyId> <secret> GET|POST <path-with-query> [json-body | @file.json]');
    process.exit(2);
  }
  const body = raw === undefined ? undefined : JSON.parse(raw.startsWith('@') ? fs.readFileSync(raw.slice(1), 'utf8') : raw);
  const res = await partnerCall((u, i) => fetch(u, i), base.replace(/\/+$/, ''), { id: keyId, secret }, method, path, body);
  console.log(res.status, await res.text());
}
