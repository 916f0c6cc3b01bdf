import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { parseStl, stlMergeTests, type StlMesh, type StlResult, type StlSource } from '../../workers/kernels/stl.ts';
import {
  binaryStl,
  cubeStl,
  cubeTriangles,
  garbage,
  pngLike,
  replaceText,
  sphereCounts,
  sphereStl,
  toStl,
  truncated,
  withHeaderCount,
  withNaNVertex,
  withTrailingBytes,
} from '../fixtures/stl.ts';
import { loadKernels } from './kernels.ts';

let k: KernelExports;
beforeAll(async () => {
  k = await loadKernels();
});

async function parseOk(source: StlSource): Promise<StlMesh> {
  const r = await parseStl(k, source);
  if (!r.ok) throw new Error(`expected a mesh, got ${r.error.code}: ${r.error.detail}`);
  return r.mesh;
}

async function parseErr(source: StlSource): Promise<Extract<StlResult, { ok: false }>['error']> {
  const r = await parseStl(k, source);
  if (r.ok) throw new Error(`expected an error, got a mesh of ${r.mesh.triangleCount} triangles`);
  return r.error;
}

function expectWellFormed(m: StlMesh): void {
  expect(m.positions.length).toBe(m.vertexCount * 3);
  expect(m.normals.length).toBe(m.vertexCount * 3);
  expect(m.indices.length).toBe(m.triangleCount * 3);
  let maxIndex = 0;
  for (const i of m.indices) maxIndex = Math.max(maxIndex, i);
  expect(maxIndex).toBeLessThan(m.vertexCount);
  for (let v = 0; v < m.vertexCount; v++) {
    const len = Math.hypot(m.normals[v * 3]!, m.normals[v * 3 + 1]!, m.normals[v * 3 + 2]!);
    expect(len).toBeCloseTo(1, 5);
  }
  // Every position lies inside the bounds, and the bounds are tight.
  for (let a = 0; a < 3; a++) {
    let lo = Infinity, hi = -Infinity;
    for (let v = 0; v < m.vertexCount; v++) {
      lo = Math.min(lo, m.positions[v * 3 + a]!);
      hi = Math.max(hi, m.positions[v * 3 + a]!);
    }
    expect(m.bounds.min[a]).toBe(lo);
    expect(m.bounds.max[a]).toBe(hi);
  }
}

function expectBounds(m: StlMesh, min: number[], max: number[], tol = 1e-5): void {
  for (let a = 0; a < 3; a++) {
    expect(Math.abs(m.bounds.min[a]! - min[a]!)).toBeLessThan(tol);
    expect(Math.abs(m.bounds.max[a]! - max[a]!)).toBeLessThan(tol);
  }
}

/** Smallest dot product between a vertex normal and the direction from `center` to the vertex. */
function minOutwardDot(m: StlMesh, center: readonly number[]): number {
  let min = Infinity;
  for (let v = 0; v < m.vertexCount; v++) {
    const dx = m.positions[v * 3]! - center[0]!, dy = m.positions[v * 3 + 1]! - center[1]!, dz = m.positions[v * 3 + 2]! - center[2]!;
    const len = Math.hypot(dx, dy, dz);
    const dot = (m.normals[v * 3]! * dx + m.normals[v * 3 + 1]! * dy + m.normals[v * 3 + 2]! * dz) / len;
    min = Math.min(min, dot);
  }
  return min;
}

describe('STL kernel: cube', () => {
  for (const binary of [true, false]) {
    it(`${binary ? 'binary' : 'ASCII'} cube welds to 8 vertices, 12 triangles`, async () => {
      const m = await parseOk(cubeStl({ size: 10, binary }));
      expect(m.format).toBe(binary ? 'binary' : 'ascii');
      expect(m.vertexCount).toBe(8);
      expect(m.triangleCount).toBe(12);
      expect(m.degenerateTriangles).toBe(0);
      expectWellFormed(m);
      expectBounds(m, [-5, -5, -5], [5, 5, 5]);
      // Corner normals point away from the centre.
      expect(minOutwardDot(m, [0, 0, 0])).toBeGreaterThan(0.5);
    });
  }

  it('an off-centre cube has shifted bounds', async () => {
    const m = await parseOk(cubeStl({ size: 2.5, center: [100, -20, 0.125] }));
    expectBounds(m, [98.75, -21.25, -1.125], [101.25, -18.75, 1.375]);
  });

  it('ASCII tolerates CRLF, scientific notation, upper-case keywords', async () => {
    const m = await parseOk(cubeStl({ binary: false, crlf: true, numbers: 'exponential', upperCase: true }));
    expect(m.vertexCount).toBe(8);
    expect(m.triangleCount).toBe(12);
    expectBounds(m, [-5, -5, -5], [5, 5, 5]);
  });

  it('ASCII tolerates tabs, blank lines, missing endsolid and several solids', async () => {
    const text = new TextDecoder().decode(cubeStl({ binary: false }));
    const body = text.replace(/endsolid.*\n$/, '').replaceAll('  ', '\t').replaceAll('\n', '\n\n');
    const two = `${text}${text}`; // two solids in one file
    expect((await parseOk(new TextEncoder().encode(body))).triangleCount).toBe(12);
    const m = await parseOk(new TextEncoder().encode(two));
    expect(m.triangleCount).toBe(24);
    expect(m.vertexCount).toBe(8);
  });

  it('a binary file whose header starts with "solid" is still binary', async () => {
    const m = await parseOk(cubeStl({ header: 'solid cube exported by a careless tool' }));
    expect(m.format).toBe('binary');
    expect(m.vertexCount).toBe(8);
  });

  it('a UTF-8 byte order mark before "solid" is skipped', async () => {
    const text = cubeStl({ binary: false });
    const withBom = new Uint8Array(text.length + 3);
    withBom.set([0xef, 0xbb, 0xbf]);
    withBom.set(text, 3);
    const m = await parseOk(withBom);
    expect(m.format).toBe('ascii');
    expect(m.vertexCount).toBe(8);
  });

  it('a binary file with a few trailing bytes is accepted', async () => {
    const m = await parseOk(withTrailingBytes(cubeStl(), 7));
    expect(m.triangleCount).toBe(12);
  });

  it('-0 and +0 weld together', async () => {
    const tris = cubeTriangles(2, [1, 1, 1]); // corners at 0 and 2
    for (let i = 0; i < tris.length; i += 2) if (tris[i] === 0) tris[i] = -0;
    const m = await parseOk(binaryStl(tris));
    expect(m.vertexCount).toBe(8);
  });

  it('degenerate triangles are kept but carry no weight', async () => {
    const cube = cubeTriangles(10);
    const tris = new Float32Array(cube.length + 9);
    tris.set(cube);
    tris.set([5, 5, 5, 5, 5, 5, -5, -5, -5], cube.length); // two equal corners
    const m = await parseOk(binaryStl(tris));
    expect(m.triangleCount).toBe(13);
    expect(m.vertexCount).toBe(8);
    expect(m.degenerateTriangles).toBe(1);
    expectWellFormed(m);
  });
});

describe('STL kernel: UV sphere', () => {
  const cases = [
    { segments: 32, rings: 16 },
    { segments: 7, rings: 3 },
    { segments: 96, rings: 48 },
  ];
  for (const { segments, rings } of cases) {
    for (const binary of [true, false]) {
      it(`${binary ? 'binary' : 'ASCII'} sphere ${segments}x${rings} has the analytic counts`, async () => {
        const radius = 12.5;
        const m = await parseOk(sphereStl({ radius, segments, rings, binary }));
        const expected = sphereCounts(segments, rings);
        expect(m.vertexCount).toBe(expected.vertices);
        expect(m.triangleCount).toBe(expected.triangles);
        expectWellFormed(m);
        // The poles are exact; the equator is sampled only when the counts allow it.
        expect(m.bounds.min[2]).toBeCloseTo(-radius, 5);
        expect(m.bounds.max[2]).toBeCloseTo(radius, 5);
        for (let a = 0; a < 2; a++) {
          expect(m.bounds.max[a]!).toBeLessThanOrEqual(radius + 1e-4);
          expect(m.bounds.min[a]!).toBeGreaterThanOrEqual(-radius - 1e-4);
        }
        // Smooth outward normals: close to the radial direction.
        expect(minOutwardDot(m, [0, 0, 0])).toBeGreaterThan(segments >= 32 ? 0.99 : 0.7);
      });
    }
  }

  it('binary and ASCII give bit-identical meshes', async () => {
    const b = await parseOk(sphereStl({ segments: 40, rings: 20, radius: 3.3 }));
    const a = await parseOk(sphereStl({ segments: 40, rings: 20, radius: 3.3, binary: false, numbers: 'exponential' }));
    expect(a.positions).toEqual(b.positions);
    expect(a.indices).toEqual(b.indices);
    expect(a.normals).toEqual(b.normals);
  });

  it('a large sphere (130k triangles) parses across many slices and memory growth', async () => {
    const { vertices, triangles } = sphereCounts(512, 128);
    const m = await parseOk(sphereStl({ segments: 512, rings: 128, radius: 40 }));
    expect(m.vertexCount).toBe(vertices);
    expect(m.triangleCount).toBe(triangles);
    expectBounds(m, [-40, -40, -40], [40, 40, 40], 1e-3);
  });

  it('a soup with no shared vertices (the weld table grows several times) keeps every vertex, in file order', async () => {
    // 20,000 triangles, every corner distinct: 60,000 vertices against a table sized for a closed mesh.
    const soup = new Float32Array(20_000 * 9);
    for (let i = 0; i < soup.length; i++) soup[i] = Math.fround(i * 0.25 - 7);
    for (const binary of [true, false]) {
      const m = await parseOk(toStl(soup, { binary, numbers: 'exponential' }));
      expect(m.vertexCount).toBe(60_000);
      expect(m.positions).toEqual(soup);
      expect(m.indices).toEqual(Uint32Array.from({ length: 60_000 }, (_, i) => i));
      expectWellFormed(m);
    }
    // And a file that repeats each triangle far apart (beyond the recent-vertex cache) still welds exactly.
    const twice = new Float32Array(soup.length * 2);
    twice.set(soup);
    twice.set(soup, soup.length);
    const w = await parseOk(toStl(twice));
    expect(w.vertexCount).toBe(60_000);
    expect(w.indices.subarray(60_000)).toEqual(w.indices.subarray(0, 60_000));
  });
});

describe('STL kernel: welding with a tolerance', () => {
  /** The cube's triangles with every corner moved by up to `jitter` (seeded), so exact welding keeps them apart. */
  function jitteredCube(jitter: number): Float32Array {
    const tris = cubeTriangles(10);
    let seed = 12345;
    const random = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32 - 0.5;
    };
    for (let i = 0; i < tris.length; i++) tris[i] = Math.fround(tris[i]! + random() * 2 * jitter);
    return tris;
  }

  it('merges corners within the tolerance into one vertex, in both formats', async () => {
    const soup = jitteredCube(1e-5);
    const exact = await parseOk(toStl(soup));
    expect(exact.vertexCount).toBe(36);
    for (const binary of [true, false]) {
      const r = await parseStl(k, toStl(soup, { binary, numbers: 'exponential' }), { weldTolerance: 1e-4 });
      if (!r.ok) throw new Error(r.error.detail);
      expect(r.mesh.vertexCount).toBe(8);
      expect(r.mesh.triangleCount).toBe(12);
      expect(r.mesh.degenerateTriangles).toBe(0);
      expectWellFormed(r.mesh);
      // Each kept vertex is the first corner seen of its cluster, and the normals point outwards.
      for (let v = 0; v < 8; v++) {
        const p = [r.mesh.positions[v * 3]!, r.mesh.positions[v * 3 + 1]!, r.mesh.positions[v * 3 + 2]!];
        const n = [r.mesh.normals[v * 3]!, r.mesh.normals[v * 3 + 1]!, r.mesh.normals[v * 3 + 2]!];
        for (const c of p) expect(Math.abs(Math.abs(c) - 5)).toBeLessThan(2e-5);
        expect(p[0]! * n[0]! + p[1]! * n[1]! + p[2]! * n[2]!).toBeGreaterThan(0);
      }
    }
  });

  it('keeps vertices farther apart than the tolerance, and the next job without one welds exactly again', async () => {
    const sphere = sphereStl({ segments: 40, rings: 20, radius: 10 });
    const r = await parseStl(k, sphere, { weldTolerance: 0.01 }); // spacing is about 1.5
    if (!r.ok) throw new Error(r.error.detail);
    expect(r.mesh.vertexCount).toBe(sphereCounts(40, 20).vertices);
    expect(r.mesh.degenerateTriangles).toBe(0);
    const soup = jitteredCube(1e-5);
    expect((await parseOk(toStl(soup))).vertexCount).toBe(36);
  });

  /** Bit-for-bit equality of two typed arrays (toEqual is slow on arrays of this size). */
  function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
    return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  }

  /**
   * Drives the kernel by hand at a fixed budget per stlStep (as parseStl does) and returns the
   * most distance tests the merge made in any one step: its work per step, independent of the
   * machine's speed.
   */
  function mostTestsPerStep(bytes: Uint8Array, tolerance: number, budget: number): number {
    k.arenaReset();
    const ptr = k.arenaAlloc(bytes.byteLength) >>> 0;
    new Uint8Array(k.memory.buffer, ptr, bytes.byteLength).set(bytes);
    k.stlSetWeldTolerance(tolerance);
    try {
      expect(k.stlBegin(ptr, bytes.byteLength)).toBe(0);
      let most = 0;
      let last = stlMergeTests(k); // the previous job's; the merge starts again from 0
      for (let status = 1; status > 0; ) {
        status = k.stlStep(budget);
        expect(status).toBeGreaterThanOrEqual(0);
        const now = stlMergeTests(k);
        most = Math.max(most, now - last);
        last = now;
      }
      return most;
    } finally {
      k.stlSetWeldTolerance(0);
    }
  }

  it('a tolerance far below the float spacing gives the exact weld, with work per step proportional to the budget', async () => {
    // About 80,000 vertices around 10 units from the origin (float32 spacing there: about 1e-6),
    // and the same sphere a million units away with a radius of a million.
    const budget = 16384;
    for (const options of [
      { segments: 400, rings: 200, radius: 10 },
      { segments: 400, rings: 200, radius: 1e6, center: [3e6, -2e6, 5e5] as const },
    ]) {
      const sphere = sphereStl(options);
      const exact = await parseOk(sphere);
      expect(exact.vertexCount).toBe(sphereCounts(400, 200).vertices);
      for (const tolerance of [1e-12, 1e-30]) {
        const r = await parseStl(k, sphere, { weldTolerance: tolerance });
        if (!r.ok) throw new Error(r.error.detail);
        expect(r.mesh.vertexCount).toBe(exact.vertexCount);
        expect(sameBytes(r.mesh.indices, exact.indices)).toBe(true);
        expect(sameBytes(r.mesh.positions, exact.positions)).toBe(true);
        expect(sameBytes(r.mesh.normals, exact.normals)).toBe(true);
        // Each vertex is compared with the few kept ones in the cells around it, never with all
        // earlier ones (which took seconds per step when every vertex fell into a few cells).
        expect(stlMergeTests(k)).toBeLessThanOrEqual(exact.vertexCount);
        expect(mostTestsPerStep(sphere, tolerance, budget)).toBeLessThanOrEqual(budget);
      }
    }
  });

  it('a tiny tolerance still merges tiny distances: a cube of 1e-25 with corners moved by up to 1e-31', async () => {
    const tris = cubeTriangles(1e-25);
    let seed = 99;
    for (let i = 0; i < tris.length; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      tris[i] = Math.fround(tris[i]! * (1 + (seed / 2 ** 32 - 0.5) * 4e-6)); // moves of up to 1e-31
    }
    expect((await parseOk(toStl(tris))).vertexCount).toBe(36);
    const r = await parseStl(k, toStl(tris), { weldTolerance: 1e-30 });
    if (!r.ok) throw new Error(r.error.detail);
    expect(r.mesh.vertexCount).toBe(8); // (its triangles' areas underflow float32: counted as degenerate)
    const apart = await parseStl(k, toStl(tris), { weldTolerance: 1e-35 });
    expect(apart.ok && apart.mesh.vertexCount).toBe(36);
  });

  it('a tolerance larger than a triangle collapses it: it is kept and counted as degenerate', async () => {
    // The cube plus a tiny triangle (0.01 across) floating near one corner.
    const tiny = new Float32Array([6, 6, 6, 6.01, 6, 6, 6, 6.01, 6]);
    const tris = new Float32Array(cubeTriangles(10).length + 9);
    tris.set(cubeTriangles(10));
    tris.set(tiny, cubeTriangles(10).length);
    const r = await parseStl(k, toStl(tris), { weldTolerance: 0.05 });
    if (!r.ok) throw new Error(r.error.detail);
    expect(r.mesh.vertexCount).toBe(9);
    expect(r.mesh.triangleCount).toBe(13);
    expect(r.mesh.degenerateTriangles).toBe(1);
    expectWellFormed(r.mesh);
  });
});

describe('STL kernel: broken and foreign files give a clear error', () => {
  const cube = cubeStl(); // 84 + 12 * 50 = 684 bytes
  const cubeText = cubeStl({ binary: false });

  it('empty file: STL_EMPTY', async () => {
    expect((await parseErr(new Uint8Array(0))).code).toBe('STL_EMPTY');
  });

  it('shorter than a binary header: STL_TOO_SHORT', async () => {
    expect((await parseErr(truncated(cube, 50))).code).toBe('STL_TOO_SHORT');
    expect((await parseErr(truncated(cube, 83))).code).toBe('STL_TOO_SHORT');
  });

  it('header only, zero triangles: STL_NO_TRIANGLES', async () => {
    expect((await parseErr(withHeaderCount(truncated(cube, 84), 0))).code).toBe('STL_NO_TRIANGLES');
  });

  it('ASCII solid without facets: STL_NO_TRIANGLES', async () => {
    expect((await parseErr(new TextEncoder().encode('solid empty\nendsolid empty\n'))).code).toBe('STL_NO_TRIANGLES');
  });

  it('binary cut in the middle of a triangle: STL_TRUNCATED', async () => {
    for (const length of [85, 300, 683]) {
      expect((await parseErr(truncated(cube, length))).code).toBe('STL_TRUNCATED');
    }
  });

  it('binary header claims more triangles than the file holds: STL_COUNT_MISMATCH', async () => {
    expect((await parseErr(withHeaderCount(cube, 13))).code).toBe('STL_COUNT_MISMATCH');
    expect((await parseErr(withHeaderCount(cube, 100_000_000))).code).toBe('STL_COUNT_MISMATCH');
    expect((await parseErr(withHeaderCount(cube, 0xffffffff))).code).toBe('STL_COUNT_MISMATCH');
    // cut at a record boundary: the header no longer matches
    expect((await parseErr(truncated(cube, 84 + 5 * 50))).code).toBe('STL_COUNT_MISMATCH');
  });

  it('binary header claims fewer triangles than the file holds: STL_COUNT_MISMATCH', async () => {
    expect((await parseErr(withHeaderCount(cube, 5))).code).toBe('STL_COUNT_MISMATCH');
    expect((await parseErr(withHeaderCount(cube, 0))).code).toBe('STL_COUNT_MISMATCH');
  });

  it('a truncated binary file whose header starts with "solid" is still binary: STL_TRUNCATED', async () => {
    const solidHeader = cubeStl({ header: 'solid cube exported by a careless tool' });
    expect((await parseErr(truncated(solidHeader, 300))).code).toBe('STL_TRUNCATED');
  });

  it('header lies and the file is cut mid-record: STL_TRUNCATED', async () => {
    expect((await parseErr(truncated(withHeaderCount(cube, 1000), 500))).code).toBe('STL_TRUNCATED');
  });

  it('NaN coordinate in a binary file: STL_NON_FINITE with the triangle', async () => {
    const e = await parseErr(withNaNVertex(cube, 7));
    expect(e.code).toBe('STL_NON_FINITE');
    expect(e.triangle).toBe(7);
  });

  it('infinite or NaN coordinate in an ASCII file: STL_NON_FINITE with the line', async () => {
    const inf = await parseErr(replaceText(cubeText, 'vertex -5 -5 5', 'vertex -5 1e39 5'));
    expect(inf.code).toBe('STL_NON_FINITE');
    expect(inf.line).toBe(4);
    const nan = await parseErr(replaceText(cubeText, 'vertex -5 -5 5', 'vertex -5 nan 5'));
    expect(nan.code).toBe('STL_NON_FINITE');
    expect(nan.line).toBe(4);
  });

  it('a NaN facet normal in ASCII is tolerated (normals are recomputed)', async () => {
    const m = await parseOk(replaceText(cubeText, 'facet normal 0 0 1', 'facet normal nan nan nan'));
    expect(m.triangleCount).toBe(12);
  });

  it('ASCII syntax errors: STL_MALFORMED with the line number', async () => {
    const typo = await parseErr(replaceText(cubeText, 'vertex 5 -5 5', 'vertx 5 -5 5'));
    expect(typo).toMatchObject({ code: 'STL_MALFORMED', line: 5 });
    const badNumber = await parseErr(replaceText(cubeText, 'vertex 5 -5 5', 'vertex 5 -5x 5'));
    expect(badNumber).toMatchObject({ code: 'STL_MALFORMED', line: 5 });
    const missing = await parseErr(replaceText(cubeText, 'vertex 5 -5 5', 'vertex 5 -5'));
    expect(missing).toMatchObject({ code: 'STL_MALFORMED', line: 6 });
    const quad = await parseErr(replaceText(cubeText, 'endloop', 'vertex 1 2 3\n    endloop'));
    expect(quad).toMatchObject({ code: 'STL_MALFORMED', line: 7 });
    const noSolid = await parseErr(replaceText(cubeText, 'solid cube\n', 'solid cube\nhello\n'));
    expect(noSolid).toMatchObject({ code: 'STL_MALFORMED', line: 2 });
  });

  it('ASCII with lone CR line ends (old Mac files) parses, and errors count CR lines', async () => {
    const text = new TextDecoder().decode(cubeText);
    const m = await parseOk(new TextEncoder().encode(text.replaceAll('\n', '\r')));
    expect(m.triangleCount).toBe(12);
    const typo = await parseErr(new TextEncoder().encode(text.replace('vertex 5 -5 5', 'vertx 5 -5 5').replaceAll('\n', '\r')));
    expect(typo).toMatchObject({ code: 'STL_MALFORMED', line: 5 });
    const crlf = await parseErr(new TextEncoder().encode(text.replace('vertex 5 -5 5', 'vertx 5 -5 5').replaceAll('\n', '\r\n')));
    expect(crlf).toMatchObject({ code: 'STL_MALFORMED', line: 5 });
  });

  it('ASCII file cut in the middle: STL_MALFORMED at the last line', async () => {
    const text = new TextDecoder().decode(cubeText);
    const cut = text.slice(0, text.indexOf('endloop', text.length / 2));
    const e = await parseErr(new TextEncoder().encode(cut));
    expect(e.code).toBe('STL_MALFORMED');
    expect(e.line).toBe(cut.split('\n').length);
  });

  it('random bytes, an image, a text file: STL_NOT_STL', async () => {
    expect((await parseErr(garbage(10_000))).code).toBe('STL_NOT_STL');
    expect((await parseErr(garbage(684, 99))).code).toBe('STL_NOT_STL');
    expect((await parseErr(pngLike())).code).toBe('STL_NOT_STL');
    const text = new TextEncoder().encode('These are my notes about the patient, not a 3D model.\n'.repeat(20));
    expect((await parseErr(text)).code).toBe('STL_NOT_STL');
  });

  it('after an error the next file parses normally', async () => {
    await parseErr(truncated(cube, 300));
    expect((await parseOk(cube)).vertexCount).toBe(8);
  });
});

describe('STL driver: sources, progress, cancellation', () => {
  it('reads a Blob and reports monotonic progress ending at 1', async () => {
    const bytes = sphereStl({ segments: 256, rings: 128 });
    const seen: [number, string][] = [];
    const r = await parseStl(k, new Blob([bytes]), {
      onProgress: (f, stage) => seen.push([f, stage]),
      progressIntervalMs: 0,
      sliceMs: 0,
    });
    expect(r.ok).toBe(true);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen[0]).toEqual([0, 'read']);
    expect(seen.at(-1)).toEqual([1, 'parse']);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBeGreaterThanOrEqual(seen[i - 1]![0]);
    for (const [f] of seen) expect(f >= 0 && f <= 1).toBe(true);
  });

  it('accepts an ArrayBuffer', async () => {
    const bytes = cubeStl();
    expect((await parseOk(bytes.buffer.slice(0) as ArrayBuffer)).vertexCount).toBe(8);
  });

  it('stops with ABORTED when cancelled, and the next job works', async () => {
    let calls = 0;
    const r = await parseStl(k, sphereStl({ segments: 256, rings: 128 }), {
      sliceMs: 0,
      shouldCancel: () => ++calls > 2,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('ABORTED');
    expect((await parseOk(cubeStl())).vertexCount).toBe(8);
  });

  it('concurrent jobs on one instance run one after the other', async () => {
    const [a, b, c] = await Promise.all([
      parseStl(k, sphereStl({ segments: 64, rings: 32 }), { sliceMs: 0 }),
      parseStl(k, cubeStl({ binary: false }), { sliceMs: 0 }),
      parseStl(k, truncated(cubeStl(), 100), { sliceMs: 0 }),
    ]);
    expect(a.ok && a.mesh.vertexCount).toBe(sphereCounts(64, 32).vertices);
    expect(b.ok && b.mesh.vertexCount).toBe(8);
    expect(!c.ok && c.error.code).toBe('STL_TRUNCATED');
  });

  it('returned arrays are independent of wasm memory', async () => {
    const m = await parseOk(cubeStl());
    const before = Array.from(m.positions);
    await parseOk(sphereStl({ segments: 128, rings: 64 }));
    expect(Array.from(m.positions)).toEqual(before);
    expect(m.positions.buffer).not.toBe(k.memory.buffer);
  });

  it('toStl round-trips an arbitrary soup through both formats', async () => {
    const tris = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
    for (const binary of [true, false]) {
      const m = await parseOk(toStl(tris, { binary }));
      expect(m.vertexCount).toBe(4);
      expect(m.triangleCount).toBe(2);
      for (let v = 0; v < 4; v++) expect(m.normals[v * 3 + 2]).toBeCloseTo(1, 6);
    }
  });
});
