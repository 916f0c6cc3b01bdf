// The one reader of request bodies under /admin (uploads excepted: they stream through their own
// multipart reader with their own limits). It runs before authentication and before any other
// work: the body is read up to BODY_LIMIT bytes (more answers 413 at once, without reading on),
// its JSON nesting is measured by a linear scan without recursion (deeper than MAX_JSON_DEPTH
// answers 1002), and only then is it handed on. Every later reader (zod validators, handlers,
// the request log) gets these checked bytes through Hono's body cache.
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';
import { Code, envelope } from './envelope.ts';
import { t } from './i18n.ts';

export const MAX_JSON_DEPTH = 64;

/**
 * Whether the nesting of arrays and objects in `text` goes deeper than `max`. Brackets inside
 * strings do not count. Linear, constant memory: never recurses, never builds anything.
 */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c /* \ */) i++;
      else if (ch === 0x22 /* " */) inString = false;
    } else if (ch === 0x22) {
      inString = true;
    } else if (ch === 0x5b /* [ */ || ch === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (ch === 0x5d /* ] */ || ch === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** Reads at most `limit` bytes; null when the body is longer (the rest is not read). */
async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks, size);
}

/** Bodies no handler reads as text (a spreadsheet import): kept as bytes, not scanned. Every
 * other body is scanned, whatever it claims to be, since handlers may parse any text as JSON. */
const isBinary = (type: string | null) => /^(multipart\/form-data|application\/octet-stream)\b/i.test(type ?? '');

const tooLarge = (c: Context<AppEnv>) => c.json(envelope(Code.fail, t(c.get('lang'), 'bodyTooLarge')), 413);

export interface BodyReaderOptions {
  limit: number;
  /** Paths that read their own body (streamed uploads). */
  skip?: (path: string) => boolean;
}

export function bodyReader({ limit, skip }: BodyReaderOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body || skip?.(c.req.path)) return next();
    const declared = Number(raw.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > limit) return tooLarge(c);
    const bytes = await readCapped(raw.body, limit);
    if (!bytes) return tooLarge(c);
    // Hono's c.req.json()/text()/formData() read from this cache from now on, never from the
    // stream. (The cache holds promises, though Hono types it as the values.)
    const cache = c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer>; text?: Promise<string> };
    cache.arrayBuffer = Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    if (isBinary(raw.headers.get('content-type'))) return next();
    const text = new TextDecoder().decode(bytes);
    if (nestingExceeds(text, MAX_JSON_DEPTH)) {
      return c.json(envelope(Code.validation, t(c.get('lang'), 'bodyTooDeep', { max: MAX_JSON_DEPTH })));
    }
    cache.text = Promise.resolve(text);
    c.set('body', text);
    return next();
  };
}
