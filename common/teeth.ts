// The teeth of one jaw as the server stores them with an order's model and the
// editor reads them: per-vertex labels (Universal numbers 1-32, 0 for gum,
// palate and plinth; one byte per welded vertex, in the weld order of the
// geometry worker and of the fixtures' *.labels.bin) and one record per tooth.
// Labels travel run-length encoded in base64 (encodeLabels).

export type Jaw = 'upper' | 'lower';
export type ToothType = 'incisor' | 'canine' | 'premolar' | 'molar';
export type Xyz = [number, number, number];

/** What the server and the command line write per tooth (model coordinates, mm). */
export interface ToothRecord extends ToothLandmarkFields {
  /** Universal number 1-32. */
  number: number;
  /** FDI (ISO 3950) number. */
  fdi: number;
  type: ToothType;
  vertexCount: number;
  centroid: Xyz;
  tip: Xyz;
  mesioDistalWidth: number;
}

/** A cusp tip (premolars, molars): a local height maximum of the smoothed crown. */
export interface CuspTip {
  point: Xyz;
  /** Height above the highest saddle to a higher tip (the highest: above the crown's lowest point), mm. */
  prominence: number;
  /** On the buccal (true) or lingual (false) half of the crown; null within 0.25 mm of the middle. */
  buccal: boolean | null;
  /** On the mesial (true) or distal (false) half; null within 0.25 mm of the middle. */
  mesial: boolean | null;
}

/** Landmarks per tooth (workers/kernels/teeth-landmarks.ts), model coordinates; optional: older results lack them. */
export interface ToothLandmarkFields {
  /** The main gum line (closed; the last point joins the first), flat xyz. */
  gumLine?: number[];
  /** Unit long axis, crown towards root. */
  axis?: Xyz;
  /** Facial-axis point (Andrews): middle of the facial surface's vertical midline, on the surface. */
  faPoint?: Xyz;
  /** Premolars and molars, most prominent first. */
  cusps?: CuspTip[];
  /** Horizontal unit directions of the tooth: out of the arch, and along it towards the midline. */
  buccal?: Xyz;
  mesial?: Xyz;
}

export interface StoredTeeth {
  jaw: Jaw;
  /** Welded vertex count of the model the labels belong to. */
  vertexCount: number;
  /** One byte per welded vertex, run-length encoded in base64 (encodeLabels). */
  labels: string;
  teeth: ToothRecord[];
  /** The arch curve through the crowns, model coordinates (empty with fewer than 5 crowns). */
  arch: Xyz[];
}

/** Universal (1-32) to FDI: 1-8 upper right (18..11), 9-16 upper left (21..28), 17-24 lower left (38..31), 25-32 lower right (41..48). */
export function universalToFdi(n: number): number {
  if (n >= 1 && n <= 8) return 19 - n;
  if (n >= 9 && n <= 16) return 12 + n;
  if (n >= 17 && n <= 24) return 55 - n;
  if (n >= 25 && n <= 32) return 16 + n;
  throw new RangeError(`not a Universal tooth number: ${n}`);
}

export function fdiToUniversal(fdi: number): number {
  const q = Math.floor(fdi / 10), k = fdi % 10;
  if (k < 1 || k > 8) throw new RangeError(`not an FDI tooth number: ${fdi}`);
  if (q === 1) return 9 - k;
  if (q === 2) return 8 + k;
  if (q === 3) return 25 - k;
  if (q === 4) return 24 + k;
  throw new RangeError(`not an FDI tooth number: ${fdi}`);
}

/** Upper numbers are 1-16, lower 17-32. */
export function jawOf(n: number): Jaw {
  return n <= 16 ? 'upper' : 'lower';
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!, b = bytes[i + 1] ?? 0, c = bytes[i + 2] ?? 0;
    s += B64[a >> 2]! + B64[((a & 3) << 4) | (b >> 4)]!;
    s += i + 1 < bytes.length ? B64[((b & 15) << 2) | (c >> 6)]! : '=';
    s += i + 2 < bytes.length ? B64[c & 63]! : '=';
  }
  return s;
}

function fromBase64(s: string): Uint8Array {
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) throw new RangeError('labels are not base64');
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((s.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < s.length; i += 4) {
    const q = [0, 1, 2, 3].map((k) => Math.max(0, B64.indexOf(s[i + k]!)));
    const t = (q[0]! << 18) | (q[1]! << 12) | (q[2]! << 6) | q[3]!;
    for (const byte of [t >> 16, (t >> 8) & 255, t & 255]) if (o < out.length) out[o++] = byte;
  }
  return out;
}

/**
 * Run-length encoding (label byte, run length as LEB128) in base64: the weld order follows the scan's
 * triangles, so labels come in runs (the study models: ~3k runs for 180k vertices, ~10 kB).
 */
export function encodeLabels(labels: Uint8Array): string {
  const out: number[] = [];
  for (let i = 0; i < labels.length; ) {
    const v = labels[i]!;
    let j = i + 1;
    while (j < labels.length && labels[j] === v) j++;
    out.push(v);
    for (let n = j - i; ; ) { const b = n & 127; n = Math.floor(n / 128); if (n) out.push(b | 128); else { out.push(b); break; } }
    i = j;
  }
  return toBase64(Uint8Array.from(out));
}

/** Decodes labels and checks their count against the model's welded vertex count (a stale result fails here). */
export function decodeLabels(encoded: string, vertexCount: number): Uint8Array {
  const bytes = fromBase64(encoded);
  const labels = new Uint8Array(vertexCount);
  let o = 0;
  for (let i = 0; i < bytes.length; ) {
    const v = bytes[i++]!;
    if (v > 32) throw new RangeError(`label ${v} is no tooth number`);
    let n = 0, scale = 1, b: number;
    do {
      if (i >= bytes.length) throw new RangeError('labels end inside a run');
      b = bytes[i++]!;
      n += (b & 127) * scale;
      scale *= 128;
    } while (b & 128 && scale < 2 ** 35);
    if (o + n > vertexCount) throw new RangeError(`labels for more than ${vertexCount} vertices`);
    labels.fill(v, o, o + n);
    o += n;
  }
  if (o !== vertexCount) throw new RangeError(`labels for ${o} vertices, the model has ${vertexCount}`);
  return labels;
}

/** The next tooth away from the midline (Universal), or null past the third molar. */
export function distalOf(n: number): number | null {
  if (n >= 2 && n <= 8) return n - 1;
  if (n >= 9 && n <= 15) return n + 1;
  if (n >= 18 && n <= 24) return n - 1;
  if (n >= 25 && n <= 31) return n + 1;
  return null;
}

/** A jaw's canines, patient's right first (Universal). */
export function caninesOf(jaw: Jaw): [number, number] {
  return jaw === 'upper' ? [6, 11] : [27, 22];
}

/** The last molar present on each side, patient's right first (Universal), from the numbers present; null on a side without molars. */
export function lastMolarsOf(jaw: Jaw, present: readonly number[]): [number | null, number | null] {
  const has = new Set(present);
  // per side, molars from the third towards the first
  const right = jaw === 'upper' ? [1, 2, 3] : [32, 31, 30];
  const left = jaw === 'upper' ? [16, 15, 14] : [17, 18, 19];
  return [right.find((n) => has.has(n)) ?? null, left.find((n) => has.has(n)) ?? null];
}
