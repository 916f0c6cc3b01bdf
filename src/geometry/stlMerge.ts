/**
 * Several binary STL files as one with several shells: the occlusion model of an order that came
 * as two bite scans (left and right), made before the upload, and the denture bases of both jaws
 * stored as the order's one base file. Binary
 * STL files concatenate record-wise (80-byte header, triangle count, 50 bytes per triangle), so
 * merging is a copy, not a parse. An ASCII part is refused here: parsing megabytes of text on the
 * form's thread is what the geometry worker is for, so the occlusion slot (modules/order/ModelUpload.tsx) has the
 * worker convert an ASCII scan to binary first (simplify.ts, convertToBinaryStl). Pure: no DOM.
 */

export type StlKind = 'binary' | 'ascii' | 'invalid';

const HEADER = 80;
const RECORD = 50;

/** Whether bytes are a binary STL (its size matches its triangle count), an ASCII one, or neither. */
export function stlKind(bytes: Uint8Array): StlKind {
  if (bytes.byteLength >= HEADER + 4) {
    const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(HEADER, true);
    if (bytes.byteLength === HEADER + 4 + count * RECORD) return 'binary';
  }
  const head = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.byteLength, 512))).trimStart();
  if (/^solid\b/i.test(head) && /facet|endsolid/i.test(new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.byteLength, 4096))))) return 'ascii';
  return 'invalid';
}

export type MergeError = { code: 'STL_MERGE_ASCII'; name: string } | { code: 'STL_MERGE_INVALID'; name: string } | { code: 'STL_MERGE_EMPTY' };

export class StlMergeError extends Error {
  constructor(readonly detail: MergeError) {
    super(detail.code);
    this.name = 'StlMergeError';
  }
}

/** Triangles of a binary STL. */
export function triangleCount(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(HEADER, true);
}

/**
 * One binary STL holding every triangle of `parts` (binary STL files), in order: each part stays a
 * shell of its own. Throws StlMergeError for an ASCII or unreadable part.
 */
export function mergeBinaryStl(parts: { name: string; bytes: Uint8Array }[], label = 'occlusion'): Uint8Array {
  if (parts.length === 0) throw new StlMergeError({ code: 'STL_MERGE_EMPTY' });
  for (const p of parts) {
    const kind = stlKind(p.bytes);
    if (kind === 'ascii') throw new StlMergeError({ code: 'STL_MERGE_ASCII', name: p.name });
    if (kind === 'invalid') throw new StlMergeError({ code: 'STL_MERGE_INVALID', name: p.name });
  }
  const total = parts.reduce((n, p) => n + triangleCount(p.bytes), 0);
  const out = new Uint8Array(HEADER + 4 + total * RECORD);
  const header = `archwright ${label}: ${parts.map((p) => p.name).join(' + ')}`.slice(0, HEADER);
  // Never "solid" first: some readers take such a header for ASCII.
  out.set(new TextEncoder().encode(header.startsWith('solid') ? `_${header}`.slice(0, HEADER) : header).subarray(0, HEADER));
  new DataView(out.buffer).setUint32(HEADER, total, true);
  let at = HEADER + 4;
  for (const p of parts) {
    const records = p.bytes.subarray(HEADER + 4);
    out.set(records, at);
    at += records.byteLength;
  }
  return out;
}

/** The merged file's name: the first scan's name with "+bite" (the order form shows it). */
export function mergedName(names: string[]): string {
  if (names.length === 1) return names[0]!;
  const stem = (n: string): string => n.replace(/\.stl$/i, '');
  return `${names.map(stem).join('+')}.stl`;
}
