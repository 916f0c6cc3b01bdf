// The order form's simplification (src/modules/order/simplify.ts) over the page's geometry client and
// the real worker in a Node thread: a model over the upload limit comes back as binary STL under it,
// the shape kept; a file that is no model, or a cancel, rejects with what the slot shows; the worker
// is terminated every time.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GeometryError } from '../../src/geometry/errors.ts';
import { convertToBinaryStl, simplifiedName, simplifyErrorMessage, simplifyModel, targetTriangles, type SimplifyStage } from '../../src/modules/order/simplify.ts';
import { stlKind, triangleCount } from '../../src/geometry/stlMerge.ts';
import { asciiStl, pngLike, sphereCounts, sphereStl, sphereTriangles, stlBytes } from '../fixtures/stl.ts';
import { rejection, useWorkerShim } from '../kernels/client-harness.ts';
import { GeometryWorkerShim } from '../kernels/stl-worker-thread.ts';

const LIMIT = 1024 * 1024;
const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures');
const studyPath = resolve(fixtures, 'study-models/upper-model.stl');
const studyPresent = existsSync(studyPath);
const studyTitle = studyPresent
  ? `a real study model (${studyPath})`
  : `a real study model: SKIPPED, ${studyPath} not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;
if (!studyPresent) console.warn(studyTitle);

/** Counts the workers the client ends, to see that none outlives a simplification. */
class CountingWorker extends GeometryWorkerShim {
  static ended = 0;
  override terminate(): void {
    CountingWorker.ended++;
    super.terminate();
  }
}

useWorkerShim(CountingWorker);


/** Bounding box of binary STL bytes. */
function stlBounds(bytes: Uint8Array): { min: number[]; max: number[] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  const triangles = view.getUint32(80, true);
  for (let i = 0; i < triangles * 3; i++) {
    const o = 84 + Math.floor(i / 3) * 50 + 12 + (i % 3) * 12;
    for (let a = 0; a < 3; a++) {
      const v = view.getFloat32(o + 4 * a, true);
      min[a] = Math.min(min[a]!, v);
      max[a] = Math.max(max[a]!, v);
    }
  }
  return { min, max };
}

/** Triangles and the largest distance of a vertex from `radius`, read back from binary STL bytes. */
function readSphere(bytes: Uint8Array, radius: number): { triangles: number; worst: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const triangles = view.getUint32(80, true);
  let worst = 0;
  for (let i = 0; i < triangles * 3; i++) {
    const o = 84 + Math.floor(i / 3) * 50 + 12 + (i % 3) * 12;
    worst = Math.max(worst, Math.abs(Math.hypot(view.getFloat32(o, true), view.getFloat32(o + 4, true), view.getFloat32(o + 8, true)) - radius));
  }
  return { triangles, worst };
}

describe('the simplification target', () => {
  it('keeps the binary STL within 90 % of the limit', () => {
    for (const max of [LIMIT, 100 * LIMIT, 3_000_000]) {
      const n = targetTriangles(max);
      expect(stlBytes(n)).toBeLessThanOrEqual(0.9 * max);
      expect(stlBytes(n + 1)).toBeGreaterThan(0.9 * max);
    }
    // The default server limit: about 1.9M triangles.
    expect(targetTriangles(100 * LIMIT)).toBe(1_887_435);
  });

  it('names the copy after the original', () => {
    expect(simplifiedName('upper.stl')).toBe('upper-simplified.stl');
    expect(simplifiedName('Oberkiefer Scan.STL')).toBe('Oberkiefer Scan-simplified.stl');
    expect(simplifiedName('.stl')).toBe('model-simplified.stl');
  });
});

describe('simplifying a model over the upload limit', () => {
  it('decimates a 3 MB sphere to binary STL under 1 MB that is still the sphere, reporting each stage', async () => {
    const started = CountingWorker.started;
    const ended = CountingWorker.ended;
    const original = sphereCounts(256, 128).triangles;
    const big = new File([sphereStl({ radius: 20, segments: 256, rings: 128 })], 'upper.stl');
    expect(big.size).toBeGreaterThan(3 * LIMIT);
    const stages: SimplifyStage[] = [];
    const result = await simplifyModel(big, LIMIT, { onProgress: (stage) => void (stages.at(-1) !== stage && stages.push(stage)) });

    expect(result.file.name).toBe('upper-simplified.stl');
    expect(result.trianglesBefore).toBe(original);
    expect(result.file.size).toBe(stlBytes(result.trianglesAfter));
    expect(result.file.size).toBeLessThanOrEqual(LIMIT);
    expect(result.trianglesAfter).toBeGreaterThan(targetTriangles(LIMIT) * 0.95);
    const back = readSphere(new Uint8Array(await result.file.arrayBuffer()), 20);
    expect(back.triangles).toBe(result.trianglesAfter);
    expect(back.worst).toBeLessThan(0.1);
    expect(stages).toEqual(['open', 'simplify', 'export']);
    expect(CountingWorker.started).toBeGreaterThan(started);
    expect(CountingWorker.ended - ended).toBe(CountingWorker.started - started);
  });

  it('an ASCII file whose triangles fit as binary STL is only converted', async () => {
    const tris = sphereTriangles(10, 96, 48);
    const ascii = new File([asciiStl(tris)], 'scan.stl');
    const n = sphereCounts(96, 48).triangles;
    expect(ascii.size).toBeGreaterThan(stlBytes(n));
    const limit = Math.ceil(ascii.size / 2);
    expect(stlBytes(n)).toBeLessThan(limit * 0.9);
    const stages: SimplifyStage[] = [];
    const result = await simplifyModel(ascii, limit, { onProgress: (stage) => void (stages.at(-1) !== stage && stages.push(stage)) });
    expect(result.trianglesAfter).toBe(n);
    expect(result.file.size).toBe(stlBytes(n));
    expect(stages).toEqual(['open', 'export']);
  });

  it('an ASCII bite scan is converted to binary STL for the merge (convertToBinaryStl), the worker ended; a file that is no STL rejects', async () => {
    const tris = sphereTriangles(10, 32, 16);
    const ended = CountingWorker.ended;
    const bytes = await convertToBinaryStl(new File([asciiStl(tris)], 'bite-right.stl'));
    expect(stlKind(bytes)).toBe('binary');
    expect(triangleCount(bytes)).toBe(sphereCounts(32, 16).triangles);
    expect(readSphere(bytes, 10).worst).toBeLessThan(1e-3);
    expect(CountingWorker.ended).toBeGreaterThan(ended);
    const e = await rejection(convertToBinaryStl(new File([pngLike(4096)], 'photo.stl')));
    expect((e as GeometryError).code).toBe('STL_NOT_STL');
  });

  it('a file that is no STL rejects with the code the slot turns into "not an STL file"', async () => {
    const ended = CountingWorker.ended;
    const e = await rejection(simplifyModel(new File([pngLike(1.5 * LIMIT)], 'photo.stl'), LIMIT));
    expect(e).toBeInstanceOf(GeometryError);
    expect((e as GeometryError).code).toBe('STL_NOT_STL');
    expect(simplifyErrorMessage(e)?.message).toBe('This file is not an STL file.');
    expect(CountingWorker.ended).toBeGreaterThan(ended);
  });

  it('a cancel rejects with an AbortError (no error message) and ends the worker', async () => {
    const ended = CountingWorker.ended;
    const controller = new AbortController();
    const big = new File([sphereStl({ radius: 20, segments: 256, rings: 128 })], 'upper.stl');
    const job = simplifyModel(big, LIMIT, {
      signal: controller.signal,
      onProgress: (stage) => {
        if (stage === 'simplify') controller.abort();
      },
    });
    const e = await rejection(job);
    expect((e as Error).name).toBe('AbortError');
    expect(simplifyErrorMessage(e)).toBeNull();
    expect(CountingWorker.ended).toBeGreaterThan(ended);
  });
});

describe.skipIf(!studyPresent)(studyTitle, () => {
  it('an 18 MB scan under a 4 MB limit keeps its outline to a tenth of a millimetre', async () => {
    const bytes = readFileSync(studyPath);
    const scan = new File([bytes], 'upper-model.stl');
    const limit = 4 * LIMIT;
    expect(scan.size).toBeGreaterThan(4 * limit);
    const result = await simplifyModel(scan, limit);
    expect(result.trianglesBefore).toBe(358_578);
    expect(result.file.size).toBeLessThanOrEqual(limit);
    expect(result.trianglesAfter).toBeLessThan(result.trianglesBefore / 4);
    const before = stlBounds(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const after = stlBounds(new Uint8Array(await result.file.arrayBuffer()));
    for (let a = 0; a < 3; a++) {
      expect(Math.abs(after.min[a]! - before.min[a]!)).toBeLessThan(0.1);
      expect(Math.abs(after.max[a]! - before.max[a]!)).toBeLessThan(0.1);
    }
  });
});
