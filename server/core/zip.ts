// A small, strict reader of ZIP archives (xlsx workbooks and plugin packages are ZIPs): the
// central directory is read first, so that names and uncompressed sizes are checked before
// anything is inflated (a "zip bomb" is refused by its declared sizes, and inflation stops at
// the declared size in case the declaration lies).
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** Declared sizes, in bytes. */
  compressedSize: number;
  size: number;
  method: number;
  /** Offset of the local header. */
  offset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Whether the bytes start like a ZIP archive (local file header). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** The entries of the central directory; null when the bytes are not a readable ZIP. */
export function listZip(bytes: Uint8Array, maxEntries = 10_000): ZipEntry[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record sits in the last 22 + 65535 (comment) bytes.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count > maxEntries) return null;
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) return null;
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const offset = view.getUint32(at + 42, true);
    if (at + 46 + nameLength > bytes.length) return null;
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    entries.push({ name, compressedSize, size, method, offset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The sum of the declared uncompressed sizes. */
export function unzippedSize(entries: readonly ZipEntry[]): number {
  return entries.reduce((sum, e) => sum + e.size, 0);
}

/** The bytes of one entry (stored or deflated), at most its declared size; null if unreadable. */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.offset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) return null;
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) return null;
  if (entry.method === 0) return data.length === entry.size ? data : null;
  if (entry.method !== 8) return null;
  try {
    const out = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
    return out.length === entry.size ? new Uint8Array(out.buffer, out.byteOffset, out.byteLength) : null;
  } catch {
    return null;
  }
}
