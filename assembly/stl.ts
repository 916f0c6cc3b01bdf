// STL parser: binary and ASCII STL into a welded, indexed mesh with
// per-vertex normals and bounds, all in linear memory.
//
// Protocol (driven by workers/kernels/stl.ts):
//   1. the caller puts the file's bytes into the arena (arenaAlloc + write)
//   2. stlBegin(ptr, len)     detects the format, validates, allocates outputs
//   3. stlStep(budget) > 0    repeated: parses/welds, accumulates normals,
//                             normalises; returns 1 while work remains, 0 when
//                             done, a negative STL_* status on error
//   4. stlVertexCount() ... getters describe the result in linear memory
//
// No managed objects are used; every table is a flat region of the arena.

import { arenaAlloc } from './arena';
import { addToCorners, faceCross, isDegenerate, storeUnitNormal } from './vertex-normals';

// Status codes. Keep in sync with STL_ERROR_CODES in workers/kernels/stl.ts.
export const STL_OK: i32 = 0;
export const STL_EMPTY: i32 = -1;
export const STL_TOO_SHORT: i32 = -2;
export const STL_NOT_STL: i32 = -3;
export const STL_TRUNCATED: i32 = -4;
export const STL_COUNT_MISMATCH: i32 = -5;
export const STL_MALFORMED: i32 = -6;
export const STL_NO_TRIANGLES: i32 = -7;
export const STL_NON_FINITE: i32 = -8;
export const STL_TOO_LARGE: i32 = -9;
export const STL_BAD_STATE: i32 = -10;

const FORMAT_BINARY: i32 = 1;
const FORMAT_ASCII: i32 = 2;

const PHASE_IDLE: i32 = 0;
const PHASE_PARSE: i32 = 1;
const PHASE_NORMALS: i32 = 2;
const PHASE_FINISH: i32 = 3;
const PHASE_DONE: i32 = 4;
const PHASE_ERROR: i32 = 5;
const PHASE_MERGE: i32 = 6; // optional: vertices within the weld tolerance
const PHASE_REMAP: i32 = 7; // optional: indices through the merge's map

// Share of the progress fraction per phase.
const PARSE_SHARE: f64 = 0.85;
const NORMALS_SHARE: f64 = 0.1;

// ASCII parser states between facets.
const ASCII_EXPECT_SOLID: i32 = 0;
const ASCII_IN_SOLID: i32 = 1;
const ASCII_AFTER_SOLID: i32 = 2;

// Keywords, lower case.
const KW_SOLID = memory.data<u8>([0x73, 0x6f, 0x6c, 0x69, 0x64]);
const KW_ENDSOLID = memory.data<u8>([0x65, 0x6e, 0x64, 0x73, 0x6f, 0x6c, 0x69, 0x64]);
const KW_FACET = memory.data<u8>([0x66, 0x61, 0x63, 0x65, 0x74]);
const KW_NORMAL = memory.data<u8>([0x6e, 0x6f, 0x72, 0x6d, 0x61, 0x6c]);
const KW_OUTER = memory.data<u8>([0x6f, 0x75, 0x74, 0x65, 0x72]);
const KW_LOOP = memory.data<u8>([0x6c, 0x6f, 0x6f, 0x70]);
const KW_VERTEX = memory.data<u8>([0x76, 0x65, 0x72, 0x74, 0x65, 0x78]);
const KW_ENDLOOP = memory.data<u8>([0x65, 0x6e, 0x64, 0x6c, 0x6f, 0x6f, 0x70]);
const KW_ENDFACET = memory.data<u8>([0x65, 0x6e, 0x64, 0x66, 0x61, 0x63, 0x65, 0x74]);

const POW10 = memory.data<f64>([
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]);

// ---- state of the current job ----
let inPtr: usize = 0;
let inLen: usize = 0;
let format: i32 = 0;
let phase: i32 = PHASE_IDLE;
let status: i32 = STL_OK;
let errLine: i32 = 0;
let errTriangle: i32 = -1;

let maxTris: u32 = 0; // capacity of the index buffer, in triangles
let triCount: u32 = 0; // triangles parsed so far
let binCount: u32 = 0; // binary: triangles announced by the header
let cursor: usize = 0; // ascii: byte offset
let line: i32 = 1; // ascii: current line, 1-based
let asciiState: i32 = ASCII_EXPECT_SOLID;
let numValue: f64 = 0;

let idxPtr: usize = 0;
let posPtr: usize = 0;
let nrmPtr: usize = 0;
let accPtr: usize = 0; // normal sums, 16 bytes per vertex
let boundsPtr: usize = 0;
let hashPtr: usize = 0;
let hashMask: u32 = 0;
let vertCount: u32 = 0;
let degenerate: u32 = 0;
let workCursor: u32 = 0; // merge / remap / normals / finish phases

// Weld tolerance (model units). Set before stlBegin, kept between jobs; 0:
// exact welding only. With a tolerance, the exactly welded vertices are then
// merged greedily in their order: a vertex within the tolerance of an earlier
// kept vertex becomes that vertex (a grid of tolerance-sized cells, the 27
// around a vertex searched; see cellOf for coordinates far larger than the
// tolerance).
let weldTol: f32 = 0;
let mergedCount: u32 = 0;
let remapPtr: usize = 0; // old vertex -> new vertex
let repNextPtr: usize = 0; // new vertex -> next kept vertex in its cell (+1), 0 ends
let cellPtr: usize = 0; // cells: cx, cy, cz (u32), head word (see HEAD_MASK)
let cellMask: u32 = 0;
let mergeTests: u64 = 0; // distance tests of the merge (its cost, for tests)

// ---------------------------------------------------------------- helpers

@inline function byteAt(p: usize): u32 {
  return <u32>load<u8>(p);
}

@inline function isSpace(c: u32): bool {
  return c == 32 || (c - 9) < 5; // space, \t \n \v \f \r
}

@inline function isDigit(c: u32): bool {
  return (c - 48) < 10;
}

function fail(code: i32): i32 {
  status = code;
  phase = PHASE_ERROR;
  return code;
}

/** Case-insensitive match of a lower-case keyword at `p`, followed by whitespace or the end. */
function keywordAt(p: usize, end: usize, kw: usize, n: usize): bool {
  if (p + n > end) return false;
  for (let i: usize = 0; i < n; i++) {
    if ((byteAt(p + i) | 0x20) != byteAt(kw + i)) return false;
  }
  return p + n == end || isSpace(byteAt(p + n));
}

/** Same as keywordAt, but the keyword may be followed by anything (for "solidname"). */
function prefixAt(p: usize, end: usize, kw: usize, n: usize): bool {
  if (p + n > end) return false;
  for (let i: usize = 0; i < n; i++) {
    if ((byteAt(p + i) | 0x20) != byteAt(kw + i)) return false;
  }
  return true;
}

@inline function nextPow2(v: u32): u32 {
  return v <= 1 ? 1 : (<u32>1) << (32 - clz<u32>(v - 1));
}

@inline function isNonFinite(bits: u32): bool {
  return (bits & 0x7F80_0000) == 0x7F80_0000;
}

@inline function hash3(x: u32, y: u32, z: u32): u32 {
  let h = x * 0x9E37_79B1;
  h ^= rotl<u32>(y * 0x85EB_CA77, 13);
  h ^= rotl<u32>(z * 0xC2B2_AE3D, 7);
  h ^= h >>> 15;
  h *= 0x2C1B_3C6D;
  h ^= h >>> 12;
  return h;
}

// Welding. Scanner meshes list triangles in an order where a vertex comes
// back soon after it first appears (its fan of about six triangles is close
// together in the file). So a small direct-mapped cache of recent vertices
// (key and index, 256 KiB: stays in L2; 4x the 64 KiB it had, which cut
// the misses of the 1M sphere by two thirds) answers most lookups; only its
// misses go to the big open-addressing table, whose slots hold the vertex
// index plus 4 bits of the hash (a tag that skips most foreign entries
// without reading their positions). The table starts at a quarter of the
// corners (a closed mesh has about one vertex per six corners) and doubles
// when half full, so it stays small enough for the caches too.

const CACHE_BITS: u32 = 14;
const CACHE_SHIFT: u32 = 32 - CACHE_BITS;
const TAG_SHIFT: u32 = 28;
const INDEX_MASK: u32 = (1 << TAG_SHIFT) - 1;

let cachePtr: usize = 0;
const BLOCK_TRIS: u32 = 64;
let keyPtr: usize = 0; // binary: keys and hashes of one block's corners
let hashCap: u32 = 0;

/** Inserts vertex `vi` (already in the positions) into the big table. */
@inline function tableInsert(h: u32, vi: u32): void {
  let slot = h & hashMask;
  while (load<u32>(hashPtr + ((<usize>slot) << 2)) != 0) slot = (slot + 1) & hashMask;
  store<u32>(hashPtr + ((<usize>slot) << 2), (vi + 1) | (h >>> TAG_SHIFT << TAG_SHIFT));
}

/** Doubles the big table when it is half full; false when memory runs out. */
function ensureTableRoom(extra: u32): bool {
  if ((<u64>vertCount + <u64>extra) * 2 <= <u64>hashCap) return true;
  let cap = hashCap;
  while ((<u64>vertCount + <u64>extra) * 2 > <u64>cap) cap <<= 1;
  const table = arenaAlloc((<usize>cap) << 2);
  if (table == 0) return false;
  memory.fill(table, 0, (<usize>cap) << 2);
  hashPtr = table;
  hashCap = cap;
  hashMask = cap - 1;
  for (let v: u32 = 0; v < vertCount; v++) {
    const p = posPtr + (<usize>v) * 12;
    tableInsert(hash3(load<u32>(p), load<u32>(p, 4), load<u32>(p, 8)), v);
  }
  return true;
}

/**
 * Finds or inserts the vertex whose exact float bits (-0 already made +0)
 * are lanes 0-2 of `key`, lane 3 its hash; returns its index. The caller
 * has made room for it (ensureTableRoom).
 */
@inline function weldKey(key: v128): u32 {
  const h = <u32>i32x4.extract_lane(key, 3);
  const c = cachePtr + ((<usize>(h >>> CACHE_SHIFT)) << 4);
  const cached = v128.load(c);
  // Empty entries hold NaN keys, which no vertex has.
  if ((i32x4.bitmask(i32x4.eq(cached, key)) & 7) == 7) return <u32>i32x4.extract_lane(cached, 3);
  const tag = h >>> TAG_SHIFT << TAG_SHIFT;
  let slot = h & hashMask;
  let vi: u32 = 0;
  while (true) {
    const sp = hashPtr + ((<usize>slot) << 2);
    const e = load<u32>(sp);
    if (e == 0) {
      vi = vertCount++;
      // Lane 3 lands on the next vertex's x, written later (positions have 4 spare bytes).
      v128.store(posPtr + (<usize>vi) * 12, key);
      store<u32>(sp, (vi + 1) | tag);
      break;
    }
    if ((e & ~INDEX_MASK) == tag) {
      const q = posPtr + (<usize>((e & INDEX_MASK) - 1)) * 12;
      if ((i32x4.bitmask(i32x4.eq(v128.load(q), key)) & 7) == 7) {
        vi = (e & INDEX_MASK) - 1;
        break;
      }
    }
    slot = (slot + 1) & hashMask;
  }
  v128.store(c, i32x4.replace_lane(key, 3, vi));
  return vi;
}

/** weldKey for one vertex given as float bits (the ASCII path). */
@inline function weld(x: u32, y: u32, z: u32): u32 {
  // -0 and +0 are the same point.
  if (x == 0x8000_0000) x = 0;
  if (y == 0x8000_0000) y = 0;
  if (z == 0x8000_0000) z = 0;
  return weldKey(i32x4(x, y, z, hash3(x, y, z)));
}

/** Empties the recent-vertex cache: NaN keys, which no vertex has. */
function clearCache(): void {
  const empty = i32x4(0x7FC0_0000, 0x7FC0_0000, 0x7FC0_0000, 0);
  const n = (<usize>1) << CACHE_BITS;
  for (let i: usize = 0; i < n; i++) v128.store(cachePtr + (i << 4), empty);
}

/** Allocates index, position and hash buffers for up to `tris` triangles. */
function allocateMesh(tris: u32): i32 {
  maxTris = tris;
  const corners = <u64>tris * 3;
  // Vertex indices (plus one) must fit below the tag bits.
  if (corners >= <u64>INDEX_MASK) return STL_TOO_LARGE;
  idxPtr = arenaAlloc(<usize>(corners * 4));
  if (idxPtr == 0) return STL_TOO_LARGE;
  posPtr = arenaAlloc(<usize>(corners * 12 + 4)); // 4 spare bytes: weldKey stores 16
  if (posPtr == 0) return STL_TOO_LARGE;
  let cap = nextPow2(<u32>(corners >> 2));
  if (cap < 1024) cap = 1024;
  hashCap = cap;
  hashMask = cap - 1;
  hashPtr = arenaAlloc((<usize>cap) << 2);
  if (hashPtr == 0) return STL_TOO_LARGE;
  memory.fill(hashPtr, 0, (<usize>cap) << 2);
  cachePtr = arenaAlloc((<usize>1 << CACHE_BITS) << 4);
  if (cachePtr == 0) return STL_TOO_LARGE;
  clearCache();
  keyPtr = arenaAlloc((<usize>BLOCK_TRIS * 3) << 4);
  if (keyPtr == 0) return STL_TOO_LARGE;
  boundsPtr = arenaAlloc(24);
  if (boundsPtr == 0) return STL_TOO_LARGE;
  return STL_OK;
}

// ---------------------------------------------------------------- detection

/** Length of a UTF-8 byte order mark at `p` (some Windows tools write one), else 0. */
function bomLength(p: usize, len: usize): usize {
  return len >= 3 && byteAt(p) == 0xEF && byteAt(p + 1) == 0xBB && byteAt(p + 2) == 0xBF ? 3 : 0;
}

/** True when the file starts (after an optional BOM and whitespace) with "solid". */
function startsWithSolid(p: usize, len: usize): bool {
  const end = p + len;
  let q = p + bomLength(p, len);
  while (q < end && q - p < 256 && isSpace(byteAt(q))) q++;
  return prefixAt(q, end, KW_SOLID, 5);
}

/** True when the first `n` bytes contain no control bytes that text never has (NUL and friends). */
function isTextWindow(p: usize, n: usize): bool {
  for (let i: usize = 0; i < n; i++) {
    const c = byteAt(p + i);
    if (c < 32 && !isSpace(c)) return false;
    if (c == 127) return false;
  }
  return true;
}

/** True when `kw` occurs (case-insensitive) within the first `n` bytes. */
function containsKeyword(p: usize, n: usize, kw: usize, kwLen: usize): bool {
  if (n < kwLen) return false;
  const first = byteAt(kw);
  const last = p + n - kwLen;
  for (let q = p; q <= last; q++) {
    if ((byteAt(q) | 0x20) == first && prefixAt(q, p + n, kw, kwLen)) return true;
  }
  return false;
}

/** A float that could be a coordinate in a real STL: zero, or a magnitude in 1e-18..1e18, or non-finite (reported later). */
@inline function plausibleFloat(bits: u32): bool {
  const a = bits & 0x7FFF_FFFF;
  if (a == 0) return true;
  const e = a >>> 23;
  return e == 0xFF || (e >= 127 - 60 && e <= 127 + 60);
}

/** Looks at the first whole records: random bytes (an image, an archive) fail quickly. */
function plausibleBinary(p: usize, len: usize, count: u32): bool {
  let records = (len - 84) / 50;
  if (records > <usize>count) records = <usize>count;
  if (records > 32) records = 32;
  for (let r: usize = 0; r < records; r++) {
    const rec = p + 84 + r * 50;
    for (let k: usize = 0; k < 9; k++) {
      if (!plausibleFloat(load<u32>(rec + 12 + k * 4))) return false;
    }
  }
  return true;
}

/** Counts "endfacet" (case-insensitive) in the ASCII body: an upper bound on facets. */
function countEndfacet(p: usize, len: usize): u32 {
  let n: u32 = 0;
  const end = p + len;
  let q = p;
  const lowerE = i8x16.splat(0x65);
  const bit = i8x16.splat(0x20);
  // SIMD scan for 'e'/'E'; confirm candidates with a scalar compare.
  while (q + 16 <= end) {
    const v = v128.or(v128.load(q), bit);
    let mask = i8x16.bitmask(i8x16.eq(v, lowerE));
    while (mask != 0) {
      const i = ctz<u32>(mask);
      if (prefixAt(q + i, end, KW_ENDFACET, 8)) n++;
      mask &= mask - 1;
    }
    q += 16;
  }
  while (q < end) {
    if ((byteAt(q) | 0x20) == 0x65 && prefixAt(q, end, KW_ENDFACET, 8)) n++;
    q++;
  }
  return n;
}

// ---------------------------------------------------------------- API

/**
 * Starts parsing `len` bytes at `ptr` (already in the arena). Returns STL_OK
 * or a negative status. Output buffers are allocated after the input.
 */
export function stlBegin(ptr: usize, len: usize): i32 {
  inPtr = ptr;
  inLen = len;
  format = 0;
  phase = PHASE_PARSE;
  status = STL_OK;
  errLine = 0;
  errTriangle = -1;
  maxTris = 0;
  triCount = 0;
  binCount = 0;
  cursor = 0;
  line = 1;
  asciiState = ASCII_EXPECT_SOLID;
  idxPtr = 0;
  posPtr = 0;
  nrmPtr = 0;
  accPtr = 0;
  boundsPtr = 0;
  hashPtr = 0;
  hashMask = 0;
  hashCap = 0;
  cachePtr = 0;
  vertCount = 0;
  degenerate = 0;
  workCursor = 0;
  mergeTests = 0;

  if (len == 0) return fail(STL_EMPTY);

  const solid = startsWithSolid(ptr, len);
  if (len >= 84) {
    const count = load<u32>(ptr + 80);
    const expected = <u64>84 + <u64>50 * <u64>count;
    if (expected == <u64>len && !(solid && isTextWindow(ptr, len < 4096 ? len : 4096))) {
      return beginBinary(count);
    }
  }
  if (solid) {
    const window = len < 4096 ? len : 4096;
    // A binary file may start with "solid" too: a text window (no NUL or
    // control bytes) or the word "facet" in a text header decides.
    if (isTextWindow(ptr, window) || (containsKeyword(ptr, window, KW_FACET, 5) && isTextWindow(ptr, len < 84 ? len : 84))) {
      return beginAscii();
    }
  }
  if (len < 84) return fail(STL_TOO_SHORT);

  // Binary, but the size does not match the header: decide what kind of wrong it is.
  const textLen = len < 512 ? len : 512;
  if (isTextWindow(ptr, textLen)) return fail(STL_NOT_STL);
  const count = load<u32>(ptr + 80);
  if (!plausibleBinary(ptr, len, count)) return fail(STL_NOT_STL);
  const body = <u64>(len - 84);
  const expected = <u64>50 * <u64>count;
  if (count == 0) {
    return fail(body >= 50 ? STL_COUNT_MISMATCH : STL_NO_TRIANGLES);
  }
  if (expected > body) {
    return fail(body % 50 == 0 ? STL_COUNT_MISMATCH : STL_TRUNCATED);
  }
  // expected < body: trailing bytes. Whole extra records mean the header
  // undercounts; anything else is tolerated as padding.
  if (body - expected >= 50 && body % 50 == 0) return fail(STL_COUNT_MISMATCH);
  return beginBinary(count);
}

function beginBinary(count: u32): i32 {
  format = FORMAT_BINARY;
  if (count == 0) return fail(STL_NO_TRIANGLES);
  binCount = count;
  const r = allocateMesh(count);
  if (r != STL_OK) return fail(r);
  return STL_OK;
}

function beginAscii(): i32 {
  format = FORMAT_ASCII;
  cursor = bomLength(inPtr, inLen);
  const n = countEndfacet(inPtr, inLen);
  // One spare slot: a facet without its "endfacet" fails before it completes.
  const r = allocateMesh(n + 1);
  if (r != STL_OK) return fail(r);
  return STL_OK;
}

/** End of the next chunk of work: `budget` items after `cursor`, clamped to `total` (and to overflow). */
@inline function chunkEnd(cursor: u32, budget: u32, total: u32): u32 {
  const end = cursor + budget;
  return end > total || end < cursor ? total : end;
}

/**
 * Allocates the normals and starts summing them. The sums go to a scratch of
 * 16 bytes per vertex (whole-vector loads and stores that never straddle two
 * vertices), over the file's bytes when they are large enough: they are no
 * longer needed. Returns 1 (work remains) or a negative status.
 */
function beginNormals(): i32 {
  nrmPtr = arenaAlloc((<usize>vertCount) * 12);
  if (nrmPtr == 0) return fail(STL_TOO_LARGE);
  const accBytes = (<usize>vertCount) << 4;
  accPtr = accBytes <= inLen && (inPtr & 15) == 0 ? inPtr : arenaAlloc(accBytes);
  if (accPtr == 0) return fail(STL_TOO_LARGE);
  memory.fill(accPtr, 0, accBytes);
  phase = PHASE_NORMALS;
  workCursor = 0;
  return 1;
}

/** Sets the weld tolerance for the next jobs (model units; 0, the default, welds exact matches only). */
export function stlSetWeldTolerance(tolerance: f32): void {
  weldTol = tolerance > 0 && tolerance < Infinity ? tolerance : 0;
}

function beginMerge(): i32 {
  mergedCount = 0;
  mergeTests = 0;
  remapPtr = arenaAlloc((<usize>vertCount) << 2);
  if (remapPtr == 0) return STL_TOO_LARGE;
  repNextPtr = arenaAlloc((<usize>vertCount) << 2);
  if (repNextPtr == 0) return STL_TOO_LARGE;
  let cap = nextPow2(vertCount * 2);
  if (cap < 64) cap = 64;
  cellMask = cap - 1;
  cellPtr = arenaAlloc((<usize>cap) << 4);
  if (cellPtr == 0) return STL_TOO_LARGE;
  memory.fill(cellPtr, 0, (<usize>cap) << 4);
  return STL_OK;
}

/** |coordinate / tolerance| from which a coordinate is its own cell (see cellOf). */
const EXACT_RATIO: f64 = 536870912.0; // 2^29: grid cells and their neighbours fit an i32
/** Exact cells are EXACT + the coordinate's float bits: beyond every grid cell. */
const EXACT: i64 = 0x1_0000_0000;
/** A cell's head word: new vertex + 1 (below 2^28: see allocateMesh), and which coordinates are exact (bits 28-30). */
const HEAD_MASK: u32 = (1 << 28) - 1;

/**
 * Cell coordinate of `v` along one axis: floor(v / weldTol) while that is
 * below 2^29 in magnitude. Beyond, the float32 values next to `v` are at
 * least 2^28 × 2^-24 = 16 tolerances away from it, so only `v` itself can be
 * within the tolerance: the cell is then `v`'s exact value. Every cell thus
 * spans at most one tolerance on each axis, and holds few kept vertices
 * (they are more than a tolerance apart), so the merge's cost follows the
 * vertices for any tolerance. (Clamping the grid instead put a whole model
 * into a few cells when the tolerance was far below its coordinates, and each
 * vertex was compared with all earlier ones: seconds per step.)
 */
@inline function cellOf(v: f32): i64 {
  const r = <f64>v / <f64>weldTol;
  if (Math.abs(r) < EXACT_RATIO) return <i64>Math.floor(r);
  return EXACT + <i64>reinterpret<u32>(v);
}

@inline function isExactCell(c: i64): bool {
  return c >= EXACT;
}

/**
 * The slot of a cell (x, y, z: its coordinates' low 32 bits; flags: which are exact, as in the
 * head word): its entry, or the empty slot where it would go. Inlined: as a call the merge took
 * a quarter longer.
 */
@inline function cellSlot(x: u32, y: u32, z: u32, flags: u32): usize {
  let slot = hash3(x, y ^ flags, z) & cellMask;
  while (true) {
    const e = cellPtr + ((<usize>slot) << 4);
    const head = load<u32>(e, 12);
    if (head == 0) return e;
    if ((head & ~HEAD_MASK) == flags && load<u32>(e) == x && load<u32>(e, 4) == y && load<u32>(e, 8) == z) return e;
    slot = (slot + 1) & cellMask;
  }
}

/** Keeps vertex `v` (at x, y, z) as the next merged vertex; returns its new index. */
@inline function keepVertex(v: u32, x: f32, y: f32, z: f32): u32 {
  const n = mergedCount++;
  const q = posPtr + (<usize>n) * 12;
  store<f32>(q, x);
  store<f32>(q, y, 4);
  store<f32>(q, z, 8);
  store<u32>(remapPtr + ((<usize>v) << 2), n);
  return n;
}

/** Merges vertices [from, to) into the kept ones (compacting positions in place: new index <= old). */
function mergeVertices(from: u32, to: u32): void {
  const tol2 = <f64>weldTol * <f64>weldTol;
  for (let v = from; v < to; v++) {
    const p = posPtr + (<usize>v) * 12;
    const x = load<f32>(p), y = load<f32>(p, 4), z = load<f32>(p, 8);
    const cx = cellOf(x), cy = cellOf(y), cz = cellOf(z);
    // Along an axis where the cell is the exact value, no other cell can hold a vertex within
    // the tolerance; exact on all three, only the same point could, which the exact weld has
    // already made this vertex: it is kept without a search (nor a cell: no later vertex can
    // find it either).
    const ex = isExactCell(cx), ey = isExactCell(cy), ez = isExactCell(cz);
    if (ex && ey && ez) {
      keepVertex(v, x, y, z);
      continue;
    }
    const flags = (<u32>ex | (<u32>ey << 1) | (<u32>ez << 2)) << 28;
    const ux = <u32>cx, uy = <u32>cy, uz = <u32>cz;
    let found: u32 = 0; // kept vertex + 1
    for (let dz = -1; dz <= 1 && found == 0; dz++) {
      if (ez && dz != 0) continue;
      for (let dy = -1; dy <= 1 && found == 0; dy++) {
        if (ey && dy != 0) continue;
        for (let dx = -1; dx <= 1 && found == 0; dx++) {
          if (ex && dx != 0) continue;
          const e = cellSlot(ux + <u32>dx, uy + <u32>dy, uz + <u32>dz, flags);
          let r = load<u32>(e, 12) & HEAD_MASK;
          while (r != 0) {
            const q = posPtr + (<usize>(r - 1)) * 12;
            mergeTests++;
            const qx = <f64>load<f32>(q) - <f64>x, qy = <f64>load<f32>(q, 4) - <f64>y, qz = <f64>load<f32>(q, 8) - <f64>z;
            if (qx * qx + qy * qy + qz * qz <= tol2) {
              found = r;
              break;
            }
            r = load<u32>(repNextPtr + ((<usize>(r - 1)) << 2));
          }
        }
      }
    }
    if (found != 0) {
      store<u32>(remapPtr + ((<usize>v) << 2), found - 1);
      continue;
    }
    const n = keepVertex(v, x, y, z);
    const e = cellSlot(ux, uy, uz, flags);
    const head = load<u32>(e, 12);
    if (head == 0) {
      store<u32>(e, ux);
      store<u32>(e, uy, 4);
      store<u32>(e, uz, 8);
    }
    store<u32>(repNextPtr + ((<usize>n) << 2), head & HEAD_MASK);
    store<u32>(e, (n + 1) | flags, 12);
  }
}

/**
 * Does up to `budget` units of work (triangles or vertices). Returns 1 while
 * work remains, 0 when the mesh is complete, or a negative status.
 */
export function stlStep(budget: u32): i32 {
  if (budget == 0) budget = 1;
  if (phase == PHASE_PARSE) {
    const r = format == FORMAT_BINARY ? stepBinary(budget) : stepAscii(budget);
    if (r < 0) return fail(r);
    if (r == 0) {
      if (triCount == 0) return fail(STL_NO_TRIANGLES);
      if (weldTol > 0) {
        const r2 = beginMerge();
        if (r2 != STL_OK) return fail(r2);
        phase = PHASE_MERGE;
        workCursor = 0;
        return 1;
      }
      return beginNormals();
    }
    return 1;
  }
  if (phase == PHASE_MERGE) {
    const end = chunkEnd(workCursor, budget, vertCount);
    mergeVertices(workCursor, end);
    workCursor = end;
    if (end == vertCount) {
      phase = PHASE_REMAP;
      workCursor = 0;
    }
    return 1;
  }
  if (phase == PHASE_REMAP) {
    const corners = triCount * 3;
    const end = chunkEnd(workCursor, budget, corners);
    for (let i = workCursor; i < end; i++) {
      const ip = idxPtr + (<usize>i << 2);
      store<u32>(ip, load<u32>(remapPtr + ((<usize>load<u32>(ip)) << 2)));
    }
    workCursor = end;
    if (end == corners) {
      vertCount = mergedCount;
      return beginNormals();
    }
    return 1;
  }
  if (phase == PHASE_NORMALS) {
    const end = chunkEnd(workCursor, budget, triCount);
    accumulateNormals(workCursor, end);
    workCursor = end;
    if (end == triCount) {
      phase = PHASE_FINISH;
      workCursor = 0;
    }
    return 1;
  }
  if (phase == PHASE_FINISH) {
    const end = chunkEnd(workCursor, budget, vertCount);
    if (workCursor == 0) initBounds();
    finishVertices(workCursor, end);
    workCursor = end;
    if (end == vertCount) {
      phase = PHASE_DONE;
      return 0;
    }
    return 1;
  }
  if (phase == PHASE_DONE) return 0;
  if (phase == PHASE_ERROR) return status;
  return STL_BAD_STATE;
}

// ---------------------------------------------------------------- binary

/**
 * Binary records, one triangle per iteration with SIMD: the nine vertex
 * floats are loaded as three vectors (the last load reads 12 bytes past the
 * record: the next record, or the arena's padding after the file), checked
 * for NaN/infinity and -0 at once, transposed into x, y and z of the three
 * corners, and hashed together (hash3, lane by lane). This runs over a
 * block of BLOCK_TRIS triangles, storing each corner's key and hash; then
 * the block's corners are welded in a second, tight loop (measured: 10-35 %
 * less time than welding inside the first loop, as more table misses are in
 * flight at once). The table's room is checked per block, not per chunk:
 * reserving a whole chunk's corners made a closed mesh's table double and
 * rehash near the end of the parse for nothing.
 */
function stepBinary(budget: u32): i32 {
  const end = chunkEnd(triCount, budget, binCount);
  const expMask = i32x4.splat(0x7F80_0000);
  const negZero = i32x4.splat(0x8000_0000);
  const firstLane = i32x4(-1, 0, 0, 0);
  const k1 = i32x4.splat(0x9E37_79B1);
  const k2 = i32x4.splat(0x85EB_CA77);
  const k3 = i32x4.splat(0xC2B2_AE3D);
  const k4 = i32x4.splat(0x2C1B_3C6D);
  let t = triCount;
  let out = idxPtr + (<usize>t) * 12;
  while (t < end) {
    const blockEnd = chunkEnd(t, BLOCK_TRIS, end);
    if (!ensureTableRoom((blockEnd - t) * 3)) {
      triCount = t;
      return STL_TOO_LARGE;
    }
    // Pass 1: keys and hashes of the block's corners.
    let rec = inPtr + 84 + (<usize>t) * 50;
    let kp = keyPtr;
    for (let u = t; u < blockEnd; u++) {
      // ax ay az bx | by bz cx cy | cz ...
      let v0 = v128.load(rec, 12);
      let v1 = v128.load(rec, 28);
      let v2 = v128.load(rec, 44);
      const bad = v128.or(
        v128.or(i32x4.eq(v128.and(v0, expMask), expMask), i32x4.eq(v128.and(v1, expMask), expMask)),
        v128.and(i32x4.eq(v128.and(v2, expMask), expMask), firstLane),
      );
      if (v128.any_true(bad)) {
        triCount = u;
        errTriangle = <i32>u;
        return STL_NON_FINITE;
      }
      // -0 and +0 are the same point.
      v0 = v128.andnot(v0, i32x4.eq(v0, negZero));
      v1 = v128.andnot(v1, i32x4.eq(v1, negZero));
      v2 = v128.andnot(v2, i32x4.eq(v2, negZero));
      const X = i32x4.shuffle(v0, v1, 0, 3, 6, 6);
      const Y = i32x4.shuffle(v0, v1, 1, 4, 7, 7);
      const Z = i32x4.shuffle(i32x4.shuffle(v0, v1, 2, 5, 5, 5), v2, 0, 1, 4, 4);
      // hash3 on the three corners at once.
      let h = i32x4.mul(X, k1);
      const hy = i32x4.mul(Y, k2);
      const hz = i32x4.mul(Z, k3);
      h = v128.xor(h, v128.or(i32x4.shl(hy, 13), i32x4.shr_u(hy, 19)));
      h = v128.xor(h, v128.or(i32x4.shl(hz, 7), i32x4.shr_u(hz, 25)));
      h = v128.xor(h, i32x4.shr_u(h, 15));
      h = i32x4.mul(h, k4);
      h = v128.xor(h, i32x4.shr_u(h, 12));
      const ka = i32x4.shuffle(v0, h, 0, 1, 2, 4);
      const kb = i32x4.shuffle(i32x4.shuffle(v0, v1, 3, 4, 5, 5), h, 0, 1, 2, 5);
      const kc = i32x4.shuffle(i32x4.shuffle(v1, v2, 2, 3, 4, 4), h, 0, 1, 2, 6);
      v128.store(kp, ka);
      v128.store(kp, kb, 16);
      v128.store(kp, kc, 32);
      rec += 50;
      kp += 48;
    }
    // Pass 2: weld.
    kp = keyPtr;
    for (let u = t; u < blockEnd; u++) {
      store<u32>(out, weldKey(v128.load(kp)));
      store<u32>(out, weldKey(v128.load(kp, 16)), 4);
      store<u32>(out, weldKey(v128.load(kp, 32)), 8);
      kp += 48;
      out += 12;
    }
    t = blockEnd;
  }
  triCount = end;
  return end == binCount ? 0 : 1;
}

// ---------------------------------------------------------------- ascii

/** A line ends with LF, CRLF or a lone CR (old Mac files); true at the byte that ends one. */
@inline function endsLine(c: u32, p: usize, end: usize): bool {
  return c == 10 || (c == 13 && (p + 1 >= end || byteAt(p + 1) != 10));
}

function skipSpace(): void {
  const end = inPtr + inLen;
  let p = inPtr + cursor;
  while (p < end) {
    const c = byteAt(p);
    if (!isSpace(c)) break;
    if (endsLine(c, p, end)) line++;
    p++;
  }
  cursor = p - inPtr;
}

/** Skips the rest of the line ("solid name"). */
function skipLine(): void {
  const end = inPtr + inLen;
  let p = inPtr + cursor;
  while (p < end) {
    const c = byteAt(p);
    p++;
    if (endsLine(c, p - 1, end)) {
      line++;
      break;
    }
  }
  cursor = p - inPtr;
}

/** Skips whitespace, then consumes `kw` or reports the line. */
function expectKeyword(kw: usize, n: usize): bool {
  skipSpace();
  const p = inPtr + cursor;
  if (!keywordAt(p, inPtr + inLen, kw, n)) {
    errLine = line;
    return false;
  }
  cursor += n;
  return true;
}

/**
 * Skips whitespace and parses one decimal number into numValue. Returns
 * STL_OK, STL_MALFORMED or STL_NON_FINITE (for "nan", "inf" and overflows).
 */
function parseNumber(): i32 {
  skipSpace();
  errLine = line;
  const end = inPtr + inLen;
  let p = inPtr + cursor;
  if (p >= end) return STL_MALFORMED;
  let neg = false;
  let c = byteAt(p);
  if (c == 0x2D || c == 0x2B) {
    neg = c == 0x2D;
    p++;
    if (p >= end) return STL_MALFORMED;
    c = byteAt(p);
  }
  const lc = c | 0x20;
  if (lc == 0x6E || lc == 0x69) {
    // nan, inf, infinity: skip the token so a tolerated facet normal can be passed over.
    while (p < end && !isSpace(byteAt(p))) p++;
    cursor = p - inPtr;
    return STL_NON_FINITE;
  }
  let mant: u64 = 0;
  let digits: i32 = 0;
  let exp10: i32 = 0;
  let any = false;
  while (p < end) {
    c = byteAt(p);
    if (!isDigit(c)) break;
    any = true;
    if (digits < 19) {
      mant = mant * 10 + <u64>(c - 48);
      if (mant != 0) digits++;
    } else {
      exp10++;
    }
    p++;
  }
  if (p < end && byteAt(p) == 0x2E) {
    p++;
    while (p < end) {
      c = byteAt(p);
      if (!isDigit(c)) break;
      any = true;
      if (digits < 19) {
        mant = mant * 10 + <u64>(c - 48);
        if (mant != 0) digits++;
        exp10--;
      }
      p++;
    }
  }
  if (!any) return STL_MALFORMED;
  if (p < end && (byteAt(p) | 0x20) == 0x65) {
    p++;
    let eneg = false;
    if (p < end && (byteAt(p) == 0x2D || byteAt(p) == 0x2B)) {
      eneg = byteAt(p) == 0x2D;
      p++;
    }
    let e: i32 = 0;
    let eany = false;
    while (p < end) {
      c = byteAt(p);
      if (!isDigit(c)) break;
      eany = true;
      if (e < 100000) e = e * 10 + <i32>(c - 48);
      p++;
    }
    if (!eany) return STL_MALFORMED;
    exp10 += eneg ? -e : e;
  }
  if (p < end && !isSpace(byteAt(p))) return STL_MALFORMED;
  cursor = p - inPtr;

  let v = <f64>mant;
  if (mant != 0) {
    if (exp10 > 0) {
      while (exp10 > 22) {
        v *= 1e22;
        exp10 -= 22;
      }
      v *= load<f64>(POW10 + (<usize>exp10 << 3));
    } else if (exp10 < 0) {
      let e = -exp10;
      while (e > 22) {
        v /= 1e22;
        e -= 22;
      }
      v /= load<f64>(POW10 + (<usize>e << 3));
    }
  }
  numValue = neg ? -v : v;
  return STL_OK;
}

/** Parses "vertex x y z" and welds it; returns the vertex index, or a negative status. */
function parseVertex(): i64 {
  if (!expectKeyword(KW_VERTEX, 6)) return STL_MALFORMED;
  let r = parseNumber();
  if (r != STL_OK) return r;
  const x = reinterpret<u32>(<f32>numValue);
  r = parseNumber();
  if (r != STL_OK) return r;
  const y = reinterpret<u32>(<f32>numValue);
  r = parseNumber();
  if (r != STL_OK) return r;
  const z = reinterpret<u32>(<f32>numValue);
  if (isNonFinite(x) || isNonFinite(y) || isNonFinite(z)) return STL_NON_FINITE;
  if (!ensureTableRoom(1)) return STL_TOO_LARGE;
  return <i64>weld(x, y, z);
}

function parseFacet(): i32 {
  // "facet" has been consumed.
  if (!expectKeyword(KW_NORMAL, 6)) return STL_MALFORMED;
  for (let i = 0; i < 3; i++) {
    const r = parseNumber();
    // A broken facet normal is tolerated: normals are recomputed.
    if (r == STL_MALFORMED) return r;
  }
  if (!expectKeyword(KW_OUTER, 5)) return STL_MALFORMED;
  if (!expectKeyword(KW_LOOP, 4)) return STL_MALFORMED;
  const a = parseVertex();
  if (a < 0) return <i32>a;
  const b = parseVertex();
  if (b < 0) return <i32>b;
  const c = parseVertex();
  if (c < 0) return <i32>c;
  if (!expectKeyword(KW_ENDLOOP, 7)) return STL_MALFORMED;
  if (!expectKeyword(KW_ENDFACET, 8)) return STL_MALFORMED;
  if (triCount >= maxTris) {
    errLine = line;
    return STL_MALFORMED;
  }
  const out = idxPtr + (<usize>triCount) * 12;
  store<u32>(out, <u32>a);
  store<u32>(out, <u32>b, 4);
  store<u32>(out, <u32>c, 8);
  triCount++;
  return STL_OK;
}

function stepAscii(budget: u32): i32 {
  const end = inPtr + inLen;
  let done: u32 = 0;
  while (done < budget) {
    skipSpace();
    const p = inPtr + cursor;
    if (p >= end) {
      if (asciiState == ASCII_EXPECT_SOLID) {
        errLine = line;
        return STL_MALFORMED;
      }
      return 0; // a missing "endsolid" is tolerated
    }
    if (asciiState == ASCII_IN_SOLID) {
      if (keywordAt(p, end, KW_FACET, 5)) {
        cursor += 5;
        const r = parseFacet();
        if (r != STL_OK) {
          if (errLine == 0) errLine = line;
          return r;
        }
        done++;
        continue;
      }
      if (prefixAt(p, end, KW_ENDSOLID, 8)) {
        skipLine(); // "endsolid name"
        asciiState = ASCII_AFTER_SOLID;
        continue;
      }
      errLine = line;
      return STL_MALFORMED;
    }
    // Expecting "solid": at the start, or another solid after "endsolid".
    if (prefixAt(p, end, KW_SOLID, 5)) {
      skipLine(); // "solid name"
      asciiState = ASCII_IN_SOLID;
      continue;
    }
    if (asciiState == ASCII_AFTER_SOLID) return 0; // trailing bytes after the last solid
    errLine = line;
    return STL_MALFORMED;
  }
  return 1;
}

// ---------------------------------------------------------------- normals, bounds

function accumulateNormals(from: u32, to: u32): void {
  for (let t = from; t < to; t++) {
    const tp = idxPtr + (<usize>t) * 12;
    const ia = load<u32>(tp), ib = load<u32>(tp, 4), ic = load<u32>(tp, 8);
    // Lane 3 of each load reads the next vertex's x (positions have 4 spare bytes); faceCross drops it.
    const n = faceCross(v128.load(posPtr + (<usize>ia) * 12), v128.load(posPtr + (<usize>ib) * 12), v128.load(posPtr + (<usize>ic) * 12));
    if (isDegenerate(ia, ib, ic, n)) {
      degenerate++;
      continue;
    }
    addToCorners(accPtr, ia, ib, ic, n);
  }
}

function initBounds(): void {
  const inf = <f32>Infinity;
  store<f32>(boundsPtr, inf);
  store<f32>(boundsPtr, inf, 4);
  store<f32>(boundsPtr, inf, 8);
  store<f32>(boundsPtr, -inf, 12);
  store<f32>(boundsPtr, -inf, 16);
  store<f32>(boundsPtr, -inf, 20);
}

/** Normalises vertex normals and extends the bounds over vertices [from, to). */
function finishVertices(from: u32, to: u32): void {
  // Bounds as two f32x4 lanes (x, y, z, unused); positions may be over-read by 4 bytes (arena padding).
  // lo lanes: min x, y, z (lane 3 unused); hi lanes: max x, y, z (lane 3 unused).
  let lo = v128.load(boundsPtr);
  let hi = v128.load(boundsPtr, 12);
  for (let v = from; v < to; v++) {
    const pp = posPtr + (<usize>v) * 12;
    const p = v128.load(pp);
    lo = f32x4.min(lo, p);
    hi = f32x4.max(hi, p);

    storeUnitNormal(accPtr + ((<usize>v) << 4), nrmPtr + (<usize>v) * 12);
  }
  store<f32>(boundsPtr, f32x4.extract_lane(lo, 0));
  store<f32>(boundsPtr, f32x4.extract_lane(lo, 1), 4);
  store<f32>(boundsPtr, f32x4.extract_lane(lo, 2), 8);
  store<f32>(boundsPtr, f32x4.extract_lane(hi, 0), 12);
  store<f32>(boundsPtr, f32x4.extract_lane(hi, 1), 16);
  store<f32>(boundsPtr, f32x4.extract_lane(hi, 2), 20);
}

// ---------------------------------------------------------------- getters

/** Fraction of the job done, 0..1. */
export function stlProgress(): f64 {
  if (phase == PHASE_PARSE) {
    let f: f64 = 0;
    if (format == FORMAT_BINARY && binCount > 0) f = <f64>triCount / <f64>binCount;
    else if (format == FORMAT_ASCII && inLen > 0) f = <f64>cursor / <f64>inLen;
    return f * PARSE_SHARE;
  }
  if (phase == PHASE_MERGE || phase == PHASE_REMAP) return PARSE_SHARE;
  if (phase == PHASE_NORMALS) {
    return PARSE_SHARE + (triCount > 0 ? <f64>workCursor / <f64>triCount : 1) * NORMALS_SHARE;
  }
  if (phase == PHASE_FINISH) {
    const rest = 1 - PARSE_SHARE - NORMALS_SHARE;
    return PARSE_SHARE + NORMALS_SHARE + (vertCount > 0 ? <f64>workCursor / <f64>vertCount : 1) * rest;
  }
  if (phase == PHASE_DONE) return 1;
  return 0;
}

export function stlStatus(): i32 { return status; }
/** 1 binary, 2 ASCII, 0 undecided. */
export function stlFormat(): i32 { return format; }
export function stlTriangleCount(): u32 { return triCount; }
export function stlVertexCount(): u32 { return vertCount; }
export function stlDegenerateCount(): u32 { return degenerate; }
/** Uint32 x 3 per triangle. */
export function stlIndicesPtr(): usize { return idxPtr; }
/** Float32 x 3 per vertex. */
export function stlPositionsPtr(): usize { return posPtr; }
/** Float32 x 3 per vertex, unit length. */
export function stlNormalsPtr(): usize { return nrmPtr; }
/** Float32 min x, y, z, max x, y, z. */
export function stlBoundsPtr(): usize { return boundsPtr; }
/** ASCII: the 1-based line of a syntax error, else 0. */
export function stlErrorLine(): i32 { return errLine; }
/** Distance tests made by the last job's tolerance merge (its cost: tests assert it stays proportional to the vertices). */
export function stlMergeTests(): f64 { return <f64>mergeTests; }
/** Binary: the 0-based triangle of a non-finite coordinate, else -1. */
export function stlErrorTriangle(): i32 { return errTriangle; }
