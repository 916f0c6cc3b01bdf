// A streaming multipart/form-data reader: file parts go chunk by chunk to a sink (disk), so an
// upload is never held in memory whole. Limits are enforced while reading (the caller's sinks
// throw), and the reader stops at the first error.

export interface PartInfo {
  field: string;
  /** null for a plain field. */
  filename: string | null;
  mime: string | null;
}

export interface FileSink {
  write(chunk: Uint8Array): Promise<void>;
  end(): Promise<void>;
}

export interface MultipartHandlers {
  field(name: string, value: string): void;
  /** Called when a file part starts; throw to refuse it (e.g. too many files). */
  file(part: PartInfo): FileSink;
}

export class MultipartError extends Error {
  override name = 'MultipartError';
}

/** A limit of `readMultipart` was passed: too many parts, or too many bytes in all. */
export class MultipartLimitError extends MultipartError {
  override name = 'MultipartLimitError';
  constructor(readonly limit: 'parts' | 'bytes') {
    super(`the body has too many ${limit}`);
  }
}

export interface MultipartLimits {
  /** Most parts (fields and files together). */
  parts?: number;
  /** Most bytes of the whole body, boundaries and preamble included. */
  bytes?: number;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;

export function boundaryOf(contentType: string | undefined | null): string | null {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return null;
  const m = /boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

function unquote(v: string): string {
  // Browsers percent-encode quotes and line breaks in names (WHATWG multipart encoding).
  return v.replace(/\\(.)/g, '$1').replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}

function parseHeaders(block: string): PartInfo {
  let field: string | null = null;
  let filename: string | null = null;
  let mime: string | null = null;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') {
      const n = /(?:^|;)\s*name="((?:[^"\\]|\\.)*)"/i.exec(value) ?? /(?:^|;)\s*name=([^;]+)/i.exec(value);
      if (n?.[1] !== undefined) field = unquote(n[1]);
      const star = /(?:^|;)\s*filename\*=(?:UTF-8|utf-8)''([^;]+)/.exec(value);
      const f = /(?:^|;)\s*filename="((?:[^"\\]|\\.)*)"/i.exec(value) ?? /(?:^|;)\s*filename=([^;]+)/i.exec(value);
      if (star?.[1]) {
        try {
          filename = decodeURIComponent(star[1]);
        } catch {
          filename = star[1];
        }
      } else if (f?.[1] !== undefined) {
        filename = unquote(f[1]);
      }
    } else if (name === 'content-type') {
      mime = value;
    }
  }
  if (field === null) throw new MultipartError('a part without a name');
  return { field, filename, mime };
}

export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  handlers: MultipartHandlers,
  limits: MultipartLimits = {},
): Promise<void> {
  const maxParts = limits.parts ?? Infinity;
  const maxBytes = limits.bytes ?? Infinity;
  let parts = 0;
  let bytes = 0;
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // A leading CRLF lets the first boundary match the same delimiter as the others.
  let buf: Buffer = Buffer.from(CRLF);
  let state: 'preamble' | 'after' | 'headers' | 'body' | 'done' = 'preamble';
  let sink: FileSink | null = null;
  let field: { name: string; chunks: Buffer[]; size: number } | null = null;

  const emit = async (data: Buffer) => {
    if (!data.length) return;
    if (sink) {
      await sink.write(data);
    } else if (field) {
      field.size += data.length;
      if (field.size > MAX_FIELD_BYTES) throw new MultipartError(`field ${field.name} is too long`);
      field.chunks.push(Buffer.from(data));
    }
  };
  const endPart = async () => {
    if (sink) await sink.end();
    else if (field) handlers.field(field.name, Buffer.concat(field.chunks).toString('utf8'));
    sink = null;
    field = null;
  };

  const step = async (final: boolean): Promise<void> => {
    for (;;) {
      if (state === 'done') return;
      if (state === 'preamble') {
        const i = buf.indexOf(delimiter);
        if (i < 0) {
          if (buf.length > MAX_HEADER_BYTES) buf = Buffer.from(buf.subarray(buf.length - delimiter.length));
          return;
        }
        buf = buf.subarray(i + delimiter.length);
        state = 'after';
      } else if (state === 'after') {
        // After a boundary: "--" ends the body, CRLF starts a part (ignoring transport padding).
        const lineEnd = buf.indexOf(CRLF);
        if (buf.length >= 2 && buf[0] === 0x2d && buf[1] === 0x2d) {
          state = 'done';
          return;
        }
        if (lineEnd < 0) {
          if (buf.length > 256 || final) throw new MultipartError('a boundary line is malformed');
          return;
        }
        if (buf.subarray(0, lineEnd).toString('latin1').trim() !== '') throw new MultipartError('a boundary line is malformed');
        buf = buf.subarray(lineEnd + 2);
        state = 'headers';
      } else if (state === 'headers') {
        const i = buf.indexOf(HEADER_END);
        if (i < 0) {
          if (buf.length > MAX_HEADER_BYTES) throw new MultipartError('part headers are too long');
          return;
        }
        if (++parts > maxParts) throw new MultipartLimitError('parts');
        const part = parseHeaders(buf.subarray(0, i).toString('utf8'));
        buf = buf.subarray(i + HEADER_END.length);
        if (part.filename !== null) sink = handlers.file(part);
        else field = { name: part.field, chunks: [], size: 0 };
        state = 'body';
      } else {
        const i = buf.indexOf(delimiter);
        if (i >= 0) {
          await emit(buf.subarray(0, i));
          await endPart();
          buf = buf.subarray(i + delimiter.length);
          state = 'after';
          continue;
        }
        // Keep what could be the start of a delimiter split across chunks.
        const keep = delimiter.length - 1;
        if (buf.length > keep) {
          await emit(buf.subarray(0, buf.length - keep));
          buf = Buffer.from(buf.subarray(buf.length - keep));
        }
        return;
      }
    }
  };

  const finished = () => state === 'done';
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) throw new MultipartLimitError('bytes');
      buf = buf.length ? Buffer.concat([buf, value]) : Buffer.from(value);
      await step(false);
      if (finished()) break;
    }
    await step(true);
    if (!finished()) throw new MultipartError('the body ended before the closing boundary');
  } catch (err) {
    await reader.cancel().catch(() => {});
    throw err;
  } finally {
    reader.releaseLock();
  }
}
