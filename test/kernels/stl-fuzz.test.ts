// A generated fuzz corpus for the STL kernel: seeded random mutations of
// valid binary and ASCII files. Every case must come back as a well-formed
// mesh or a clear STL error code; never an exception, a trap (which the
// driver would report as KERNEL_FAILED) or a hang (the test's timeout), and
// the same kernel instance must parse a good file correctly right after.
// The seed is fixed so that a failure names a case that can be replayed.

import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { parseStl, STL_ERROR_CODES, type StlErrorCode, type StlMesh, type StlResult } from '../../workers/kernels/stl.ts';
import { asciiStl, binaryStl, cubeStl, cubeTriangles, garbage, sphereTriangles } from '../fixtures/stl.ts';
import { loadKernels } from './kernels.ts';
import { random } from '../fixtures/random.ts';

let k: KernelExports;
let reference: StlMesh;

beforeAll(async () => {
  k = await loadKernels();
  const r = await parseStl(k, cubeStl());
  if (!r.ok) throw new Error('the reference cube does not parse');
  reference = r.mesh;
});

const rng = random;

interface Case {
  name: string;
  bytes: Uint8Array;
  /** When the outcome is certain: the code (or 'ok') it must be. */
  expect?: readonly (StlErrorCode | 'ok')[];
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A mesh that anything downstream can trust. */
function checkMesh(m: StlMesh, name: string): void {
  const fail = (why: string): never => {
    throw new Error(`${name}: ${why}`);
  };
  if (m.positions.length !== m.vertexCount * 3) fail('positions length');
  if (m.normals.length !== m.vertexCount * 3) fail('normals length');
  if (m.indices.length !== m.triangleCount * 3) fail('indices length');
  if (m.triangleCount === 0) fail('ok without triangles');
  for (const i of m.indices) if (i >= m.vertexCount) fail(`index ${i} out of range`);
  for (const v of m.positions) if (!Number.isFinite(v)) fail('non-finite position');
  for (let v = 0; v < m.vertexCount; v++) {
    const len = Math.hypot(m.normals[v * 3]!, m.normals[v * 3 + 1]!, m.normals[v * 3 + 2]!);
    if (!(Math.abs(len - 1) < 1e-4)) fail(`normal ${v} has length ${len}`);
  }
  for (let a = 0; a < 3; a++) {
    if (!Number.isFinite(m.bounds.min[a]) || !Number.isFinite(m.bounds.max[a])) fail('non-finite bounds');
    for (let v = 0; v < m.vertexCount; v++) {
      const p = m.positions[v * 3 + a]!;
      if (p < m.bounds.min[a]! || p > m.bounds.max[a]!) fail('a position outside the bounds');
    }
  }
}

async function runCases(cases: Case[], weldTolerance = 0): Promise<Map<string, number>> {
  const outcomes = new Map<string, number>();
  for (const c of cases) {
    let r: StlResult;
    try {
      r = await parseStl(k, c.bytes, { weldTolerance });
    } catch (e) {
      throw new Error(`${c.name}: parseStl threw ${String(e)}`);
    }
    const outcome = r.ok ? 'ok' : r.error.code;
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    if (!r.ok) {
      if (r.error.code === 'KERNEL_FAILED') throw new Error(`${c.name}: KERNEL_FAILED (${r.error.detail})`);
      if (!STL_ERROR_CODES.includes(r.error.code)) throw new Error(`${c.name}: unknown code ${r.error.code}`);
      if (typeof r.error.detail !== 'string' || r.error.detail === '') throw new Error(`${c.name}: no detail`);
      if (r.error.code === 'STL_MALFORMED' && !(r.error.line! >= 1)) throw new Error(`${c.name}: STL_MALFORMED without a line`);
    } else {
      checkMesh(r.mesh, c.name);
    }
    if (c.expect && !c.expect.includes(outcome)) {
      throw new Error(`${c.name}: got ${outcome}${r.ok ? '' : ` (${r.error.detail})`}, expected ${c.expect.join(' or ')}`);
    }
    // The instance still works: the next good file gives exactly the reference mesh.
    const again = await parseStl(k, cubeStl());
    if (!again.ok) throw new Error(`${c.name}: the next good file failed with ${again.error.code}`);
    expect(again.mesh.positions).toEqual(reference.positions);
    expect(again.mesh.indices).toEqual(reference.indices);
  }
  return outcomes;
}

function setU32(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint32(offset, value >>> 0, true);
  return copy;
}

// ---------------------------------------------------------------- binary

const sphereBin = binaryStl(sphereTriangles(5, 12, 6)); // 120 triangles
const cubeBin = binaryStl(cubeTriangles());
const TRIS = 120;

function binaryCases(random: () => number): Case[] {
  const cases: Case[] = [];
  const len = sphereBin.length;
  // Truncation at every boundary class: empty, inside the header, at the
  // count, inside and at the end of each of the first records, and a few
  // random places; plus every length up to three records.
  const lengths = new Set<number>([0, 1, 2, 79, 80, 81, 83, 84, 85, 133, 134, 135, len - 50, len - 49, len - 2, len - 1]);
  for (let n = 0; n <= 84 + 150; n++) lengths.add(n);
  for (let i = 0; i < 40; i++) lengths.add(Math.floor(random() * len));
  for (const n of lengths) {
    const body = n - 84;
    let expected: (StlErrorCode | 'ok')[] | undefined;
    if (n === 0) expected = ['STL_EMPTY'];
    else if (n < 84) expected = ['STL_TOO_SHORT'];
    else if (n === len) expected = ['ok'];
    else if (body % 50 === 0) expected = ['STL_COUNT_MISMATCH'];
    else expected = ['STL_TRUNCATED'];
    cases.push({ name: `binary truncated to ${n} bytes`, bytes: sphereBin.slice(0, n), expect: expected });
  }
  // Every single-bit flip of the header's triangle count.
  for (let bit = 0; bit < 32; bit++) {
    const count = (TRIS ^ (1 << bit)) >>> 0;
    cases.push({
      name: `binary count bit ${bit} flipped (${count})`,
      bytes: setU32(sphereBin, 80, count),
      expect: count < TRIS ? ['STL_COUNT_MISMATCH'] : ['STL_COUNT_MISMATCH', 'STL_TRUNCATED'],
    });
  }
  // Huge and edge declared counts.
  for (const count of [0, 1, TRIS - 1, TRIS + 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x10000000, 0x05555555, 85_899_345]) {
    cases.push({ name: `binary declares ${count} triangles`, bytes: setU32(sphereBin, 80, count) });
  }
  cases.push({ name: 'binary header only, count 0', bytes: setU32(sphereBin.slice(0, 84), 80, 0), expect: ['STL_NO_TRIANGLES'] });
  cases.push({ name: 'binary header only, count huge', bytes: setU32(sphereBin.slice(0, 84), 80, 0xffffffff) });
  // NaN and infinities in vertex coordinates (an error) and in facet normals (ignored).
  const specials = [Number.NaN, Infinity, -Infinity];
  for (let i = 0; i < 60; i++) {
    const tri = Math.floor(random() * TRIS);
    const field = Math.floor(random() * 12); // 0-2 normal, 3-11 vertices
    const value = specials[Math.floor(random() * specials.length)]!;
    const copy = sphereBin.slice();
    new DataView(copy.buffer).setFloat32(84 + tri * 50 + field * 4, value, true);
    cases.push({ name: `binary ${value} in triangle ${tri} float ${field}`, bytes: copy, expect: field < 3 ? ['ok'] : ['STL_NON_FINITE'] });
  }
  // NaN with payload bits and negative zero (welds with +0).
  {
    const copy = cubeBin.slice();
    new DataView(copy.buffer).setUint32(84 + 12, 0x7fc00001, true);
    cases.push({ name: 'binary NaN with payload', bytes: copy, expect: ['STL_NON_FINITE'] });
  }
  // Random bit flips and byte overwrites anywhere (header, count, records, attribute bytes).
  for (let i = 0; i < 300; i++) {
    const copy = sphereBin.slice();
    const flips = 1 + Math.floor(random() * 8);
    for (let f = 0; f < flips; f++) {
      const at = Math.floor(random() * copy.length);
      if (random() < 0.5) copy[at]! ^= 1 << Math.floor(random() * 8);
      else copy[at] = Math.floor(random() * 256);
    }
    cases.push({ name: `binary random mutation ${i}`, bytes: copy });
  }
  // Trailing bytes and a text-looking header ("solid ..." binary files exist).
  for (const extra of [1, 2, 49, 50, 51, 100, 1000]) {
    const out = new Uint8Array(len + extra);
    out.set(sphereBin);
    for (let j = len; j < out.length; j++) out[j] = Math.floor(random() * 256);
    cases.push({ name: `binary with ${extra} trailing bytes`, bytes: out, expect: extra < 50 ? ['ok'] : undefined });
  }
  cases.push({ name: 'binary with a "solid" header', bytes: binaryStl(sphereTriangles(5, 12, 6), { header: 'solid ascii? no, binary' }), expect: ['ok'] });
  return cases;
}

// ---------------------------------------------------------------- garbage

function garbageCases(random: () => number): Case[] {
  const cases: Case[] = [];
  for (let i = 0; i < 150; i++) {
    const length = Math.floor(random() ** 2 * 6000);
    const bytes = garbage(length, 1 + Math.floor(random() * 0xfffffffe));
    const prefix = random();
    if (prefix < 0.3 && length >= 6) bytes.set(enc.encode('solid '), 0);
    else if (prefix < 0.4 && length >= 84) new DataView(bytes.buffer).setUint32(80, Math.floor((length - 84) / 50), true);
    cases.push({ name: `garbage ${i} (${length} bytes)`, bytes, expect: length === 0 ? ['STL_EMPTY'] : undefined });
  }
  // Printable text that is not STL, of every small length.
  for (const n of [1, 5, 83, 84, 85, 500, 5000]) {
    cases.push({ name: `text ${n} bytes`, bytes: enc.encode('lorem ipsum dolor sit amet '.repeat(200).slice(0, n)) });
  }
  return cases;
}

// ---------------------------------------------------------------- ASCII

const asciiText = dec.decode(asciiStl(sphereTriangles(5, 8, 5), { name: 'fuzz' })); // 64 triangles
const KEYWORDS = ['solid', 'facet', 'normal', 'outer', 'loop', 'vertex', 'endloop', 'endfacet', 'endsolid'];
const TOKENS = ['facet', 'vertex', 'endloop', 'loop', 'solid', 'endsolid', '1', '-2.5', '1e3', 'nan', 'inf', '-inf', '1e999', '1e-999', '.', '-', '+', 'e5', '1e', '1.2.3', '--1', '0x10', '\u00e9', '\u0000', '\t', '\r\n', 'x'];

/** Positions of every occurrence of a word in the text. */
function occurrences(text: string, word: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) out.push(i);
  return out;
}

function asciiCases(random: () => number): Case[] {
  const cases: Case[] = [];
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const text = asciiText;
  // A missing keyword, anywhere.
  for (let i = 0; i < 120; i++) {
    const word = pick(KEYWORDS);
    const at = pick(occurrences(text, word));
    cases.push({ name: `ascii without "${word}" at ${at}`, bytes: enc.encode(text.slice(0, at) + text.slice(at + word.length)) });
  }
  // Extra tokens, anywhere.
  for (let i = 0; i < 150; i++) {
    const at = Math.floor(random() * text.length);
    const token = pick(TOKENS);
    cases.push({ name: `ascii with "${JSON.stringify(token)}" inserted at ${at}`, bytes: enc.encode(`${text.slice(0, at)} ${token} ${text.slice(at)}`) });
  }
  // Numbers replaced with odd ones.
  const numbers = [...text.matchAll(/-?\d[\d.e+-]*/g)].map((m) => m.index);
  for (let i = 0; i < 120; i++) {
    const at = pick(numbers);
    const end = text.indexOf(' ', at) < 0 ? text.length : Math.min(text.indexOf(' ', at), text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at));
    const token = pick(['nan', 'NaN', 'inf', '-Infinity', '1e39', '1e999', '-1e-999', '1e-45', '0e0', '1.', '.5', '+.5e+1', '00000000000000000000000000001', '1'.repeat(400), `0.${'0'.repeat(300)}1`, '1e2147483648', '1e-2147483649', '9'.repeat(30), 'e', '1e+', '--', '1,5']);
    cases.push({ name: `ascii number at ${at} replaced with ${token.slice(0, 24)}`, bytes: enc.encode(text.slice(0, at) + token + text.slice(end)) });
  }
  // Truncation anywhere, and at every byte of the first facet.
  const firstFacetEnd = text.indexOf('endfacet') + 9;
  for (let n = 0; n <= firstFacetEnd; n++) cases.push({ name: `ascii truncated to ${n} bytes`, bytes: enc.encode(text.slice(0, n)) });
  for (let i = 0; i < 60; i++) {
    const n = Math.floor(random() * text.length);
    cases.push({
      name: `ascii truncated to ${n} bytes`,
      bytes: enc.encode(text.slice(0, n)),
      expect: ['ok', 'STL_MALFORMED', 'STL_NO_TRIANGLES', 'STL_TOO_SHORT', 'STL_NOT_STL', 'STL_EMPTY'],
    });
  }
  // Random byte flips in the text.
  for (let i = 0; i < 200; i++) {
    const bytes = enc.encode(text);
    const flips = 1 + Math.floor(random() * 6);
    for (let f = 0; f < flips; f++) bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
    cases.push({ name: `ascii random byte mutation ${i}`, bytes });
  }
  // Very long lines: a name, whitespace, digits, and one endless token.
  const longName = `solid ${'n'.repeat(2_000_000)}\n${text.slice(text.indexOf('\n') + 1)}`;
  cases.push({ name: 'ascii with a 2 MB solid name', bytes: enc.encode(longName), expect: ['ok'] });
  const v = text.indexOf('vertex') + 6;
  cases.push({ name: 'ascii with 1 MB of spaces inside a vertex line', bytes: enc.encode(text.slice(0, v) + ' '.repeat(1_000_000) + text.slice(v)), expect: ['ok'] });
  cases.push({ name: 'ascii with a 1 MB number', bytes: enc.encode(`${text.slice(0, v)} ${'7'.repeat(1_000_000)}${text.slice(v)}`) });
  cases.push({ name: 'ascii with a 1 MB fraction', bytes: enc.encode(`${text.slice(0, v)} 0.${'0'.repeat(1_000_000)}1${text.slice(v)}`) });
  cases.push({ name: 'ascii with a 1 MB token', bytes: enc.encode(`${text.slice(0, v)} ${'x'.repeat(1_000_000)}${text.slice(v)}`), expect: ['STL_MALFORMED'] });
  cases.push({ name: 'ascii: 100k empty solids', bytes: enc.encode('solid a\nendsolid a\n'.repeat(100_000)), expect: ['STL_NO_TRIANGLES'] });
  cases.push({ name: 'ascii: "endfacet" 100k times in a name', bytes: enc.encode(`solid ${'endfacet'.repeat(100_000)}\n${text.slice(text.indexOf('\n') + 1)}`), expect: ['ok'] });
  cases.push({ name: 'ascii: only "solid"', bytes: enc.encode('solid'), expect: ['STL_NO_TRIANGLES', 'STL_TOO_SHORT'] });
  cases.push({ name: 'ascii: four vertices in a loop', bytes: enc.encode(text.replace(/(      vertex [^\n]*\n)(    endloop)/, '$1$1$2')), expect: ['STL_MALFORMED'] });
  cases.push({ name: 'ascii: CR only line ends', bytes: enc.encode(text.replaceAll('\n', '\r')), expect: ['ok'] });
  cases.push({ name: 'ascii: tabs and upper case', bytes: enc.encode(text.replaceAll(' ', '\t').toUpperCase()), expect: ['ok'] });
  cases.push({ name: 'ascii: NUL bytes after the first 4 KiB', bytes: enc.encode(text.replaceAll('endloop', 'endloop\u0000').slice(0)) });
  return cases;
}

describe('STL fuzz corpus', () => {
  it('binary: truncations, count bit flips, huge counts, NaN/Inf, random mutations', async () => {
    const outcomes = await runCases(binaryCases(rng(0xb1a5)));
    // The corpus reaches the paths it is meant to reach.
    for (const code of ['ok', 'STL_EMPTY', 'STL_TOO_SHORT', 'STL_TRUNCATED', 'STL_COUNT_MISMATCH', 'STL_NON_FINITE', 'STL_NO_TRIANGLES']) {
      expect(outcomes.get(code), code).toBeGreaterThan(0);
    }
  }, 60_000);

  it('garbage: random bytes, with and without an STL-looking start', async () => {
    const outcomes = await runCases(garbageCases(rng(0x6a7b)));
    expect(outcomes.get('STL_NOT_STL')).toBeGreaterThan(0);
  }, 60_000);

  it('the binary and ASCII corpora again, welding with a tolerance that merges vertices', async () => {
    // The corpus spheres have about 2.6 units between vertices: 1.5 merges many of them.
    const outcomes = await runCases([...binaryCases(rng(0xb1a6)), ...asciiCases(rng(0xa5c2))], 1.5);
    expect(outcomes.get('ok')).toBeGreaterThan(0);
  }, 60_000);

  it('ASCII: missing keywords, extra tokens, odd numbers, truncations, mutations, very long lines', async () => {
    const outcomes = await runCases(asciiCases(rng(0xa5c1)));
    for (const code of ['ok', 'STL_MALFORMED', 'STL_NON_FINITE', 'STL_NO_TRIANGLES']) expect(outcomes.get(code), code).toBeGreaterThan(0);
  }, 60_000);
});
