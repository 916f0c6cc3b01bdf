// The geometry worker's API (workers/geometry.worker.ts), the real worker
// code in a real thread (a Node worker thread standing in for the browser's
// Web Worker; test/e2e/geometry-worker.spec.ts drives it in Chromium):
// meshes kept by handle, typed failures, progress, cancellation.

import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asciiStl, cubeStl, cubeTriangles, sphereCounts, sphereStl } from '../fixtures/stl.ts';
import { startGeometryWorker, type WorkerThread } from './stl-worker-thread.ts';

let w: WorkerThread;
let nextJob = 1;

beforeAll(() => {
  w = startGeometryWorker();
});

afterAll(async () => {
  await w.terminate();
});

function copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

describe('geometry worker', () => {
  it('opens an STL, keeps it under a handle and describes it with meshInfo', async () => {
    const r = await w.api.openStl(cubeStl({ size: 10 }), nextJob++);
    if (!r.ok) throw new Error(r.error.detail);
    const mesh = r.value;
    expect(mesh.vertexCount).toBe(8);
    expect(mesh.triangleCount).toBe(12);
    expect(mesh.positions).toBeInstanceOf(Float32Array);
    expect(mesh.positions.length).toBe(24);
    expect(mesh.normals.length).toBe(24);
    expect(mesh.indices.length).toBe(36);
    expect(mesh.bounds).toEqual({ min: [-5, -5, -5], max: [5, 5, 5] });

    const info = await w.api.meshInfo(mesh.handle);
    if (!info.ok) throw new Error(info.error.detail);
    expect(info.value).toMatchObject({ handle: mesh.handle, vertexCount: 8, triangleCount: 12, bounds: mesh.bounds });
    // The kept copy lives in an instance of its own size, not in the parser's grown memory.
    expect(info.value.arenaBytes).toBeGreaterThanOrEqual(8 * 12 * 2 + 36 * 4);
    expect(info.value.wasmBytes).toBeLessThan(1 << 20);

    expect((await w.api.stats()).handles).toContain(mesh.handle);
    expect(await w.api.release(mesh.handle)).toBe(true);
    expect(await w.api.release(mesh.handle)).toBe(false);
    const gone = await w.api.meshInfo(mesh.handle);
    expect(gone).toMatchObject({ ok: false, error: { code: 'NO_SUCH_MESH' } });
    expect((await w.api.stats()).handles).not.toContain(mesh.handle);
  });

  it('gives each opened mesh its own handle, also when opened at the same time', async () => {
    const small = sphereStl({ segments: 16, rings: 8, radius: 3, binary: true });
    const [a, b] = await Promise.all([w.api.openStl(copy(small), nextJob++), w.api.openStl(cubeStl(), nextJob++)]);
    if (!a.ok || !b.ok) throw new Error('expected two meshes');
    expect(a.value.handle).not.toBe(b.value.handle);
    expect(a.value.triangleCount).toBe(sphereCounts(16, 8).triangles);
    expect(b.value.triangleCount).toBe(12);
    const [ia, ib] = await Promise.all([w.api.meshInfo(a.value.handle), w.api.meshInfo(b.value.handle)]);
    expect(ia).toMatchObject({ ok: true, value: { triangleCount: a.value.triangleCount } });
    expect(ib).toMatchObject({ ok: true, value: { triangleCount: 12 } });
    await w.api.release(a.value.handle);
    await w.api.release(b.value.handle);
  });

  it('reports parse errors as { ok: false, error: { code } } with the line of an ASCII error', async () => {
    const notStl = await w.api.openStl(new TextEncoder().encode('just some text, not a mesh at all. '.repeat(20)), nextJob++);
    expect(notStl).toMatchObject({ ok: false, error: { code: 'STL_NOT_STL' } });

    const text = new TextDecoder().decode(asciiStl(cubeTriangles(), { name: 'cube' })).replace('outer loop', 'outer lop');
    const broken = await w.api.openStl(new TextEncoder().encode(text), nextJob++);
    expect(broken).toMatchObject({ ok: false, error: { code: 'STL_MALFORMED', line: 3 } });

    const empty = await w.api.parseStl(new Uint8Array(0), nextJob++);
    expect(empty).toMatchObject({ ok: false, error: { code: 'STL_EMPTY' } });
    expect((await w.api.stats()).meshes).toBe(0);
  });

  it('reads a Blob with progress: read, then parse, rising to 1', async () => {
    const bytes = sphereStl({ segments: 300, rings: 151, radius: 20, binary: true });
    const reports: [number, string | undefined][] = [];
    const r = await w.api.openStl(
      new Blob([bytes]),
      nextJob++,
      Comlink.proxy((fraction: number, stage?: string) => {
        reports.push([fraction, stage]);
      }),
    );
    if (!r.ok) throw new Error(r.error.detail);
    // Progress calls are posted before the result, so all have arrived.
    expect(reports[0]).toEqual([0, 'read']);
    expect(reports.at(-1)).toEqual([1, 'parse']);
    expect(reports.some(([, stage]) => stage === 'parse')).toBe(true);
    for (let i = 1; i < reports.length; i++) expect(reports[i]![0]).toBeGreaterThanOrEqual(reports[i - 1]![0]);
    await w.api.release(r.value.handle);
  });

  it('stops a cancelled parse with ABORTED, keeps nothing, and parses the next file', async () => {
    const big = sphereStl({ segments: 1000, rings: 501, radius: 40, binary: true }); // 1M triangles
    const before = (await w.api.stats()).meshes;
    const jobId = nextJob++;
    const pending = w.api.openStl(new Blob([big]), jobId);
    await w.api.cancel(jobId);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    const stats = await w.api.stats();
    expect(stats.meshes).toBe(before);
    expect(stats.runningJobs).toBe(0);
    expect(stats.recentJobs.at(-1)).toEqual({ jobId, call: 'openStl', outcome: 'ABORTED' });

    // Cancelling an id that is not running is a no-op.
    await w.api.cancel(jobId);
    const after = await w.api.openStl(cubeStl(), nextJob++);
    expect(after).toMatchObject({ ok: true, value: { triangleCount: 12 } });
    if (after.ok) await w.api.release(after.value.handle);
  });

  it('keeps a mesh made in JS (createMesh) and refuses out-of-range indices with BAD_INPUT', async () => {
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 0, 2, 0]);
    const made = await w.api.createMesh(positions, new Uint32Array([0, 1, 2]));
    if (!made.ok) throw new Error(made.error.detail);
    expect(await w.api.meshInfo(made.value)).toMatchObject({
      ok: true,
      value: { vertexCount: 3, triangleCount: 1, bounds: { min: [0, 0, 0], max: [1, 2, 0] } },
    });
    await w.api.release(made.value);
    expect(await w.api.createMesh(positions, new Uint32Array([0, 1, 3]))).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
  });
});
