// The BVH build in steps (bvhBuildBegin/bvhBuildStep in assembly/bvh-build.ts,
// buildBvhAsync in workers/kernels/bvh.ts): the same bytes as the one-call
// build whatever the budgets, progress from 0 to 1, and a cancel that leaves
// the arena as it was.

import { describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { buildBvh, buildBvhAsync, bvhToBytes, raycastOne, type BvhBuildOptions } from '../../workers/kernels/bvh.ts';
import { KernelError } from '../../workers/kernels/job.ts';
import { meshFromArrays, type MeshRef } from '../../workers/kernels/mesh.ts';
import { bumpySphereMesh, jawLikeMesh, type IndexedMesh } from '../fixtures/meshes.ts';
import { loadKernels } from './kernels.ts';

// About 12,000 triangles, lobed; and a grid of tooth-like bumps on an arch.
const blob = bumpySphereMesh(80, 76, 20);
const jaw = jawLikeMesh({ resolution: 60 });
// About 200,000 triangles: enough steps for a progress bar.
const big = bumpySphereMesh(400, 251, 20);

async function loaded(m: IndexedMesh): Promise<{ k: KernelExports; mesh: MeshRef }> {
  const k = await loadKernels();
  return { k, mesh: meshFromArrays(k, m.positions, m.indices) };
}

/** The kernel driven by hand with a fixed budget per step; the BVH's bytes and the number of steps. */
function stepped(k: KernelExports, mesh: MeshRef, budget: number, options: BvhBuildOptions = {}): { bytes: Buffer; steps: number } {
  let status = k.bvhBuildBegin(mesh.positionsPtr, mesh.indicesPtr, mesh.vertexCount, mesh.triangleCount, options.maxLeafSize ?? 8, options.bins ?? 16);
  let steps = 0;
  while (status > 0) {
    status = k.bvhBuildStep(budget);
    steps++;
  }
  expect(status).toBe(0);
  const ptr = k.bvhBuildResult() >>> 0;
  return { bytes: Buffer.from(k.memory.buffer.slice(ptr, ptr + (k.bvhByteLength(ptr) >>> 0))), steps };
}

const noWait = (): Promise<void> => Promise.resolve();

describe('stepped BVH build', () => {
  for (const [name, model] of [
    ['bumpy sphere', blob],
    ['jaw-like mesh', jaw],
  ] as const) {
    it(`gives the one-call build's bytes on the ${name}, whatever the step budget`, async () => {
      const { k, mesh } = await loaded(model);
      for (const options of [{}, { maxLeafSize: 4, bins: 8 }, { maxLeafSize: 1, bins: 32 }] satisfies BvhBuildOptions[]) {
        const oneCall = Buffer.from(bvhToBytes(buildBvh(mesh, options)));
        let previousSteps = Infinity;
        for (const budget of [1, 7, 1000, 1 << 16]) {
          const r = stepped(k, mesh, budget, options);
          expect(r.bytes.equals(oneCall), `budget ${budget}, ${JSON.stringify(options)}`).toBe(true);
          // Smaller budgets, more steps: the work really is cut up.
          expect(r.steps).toBeLessThan(previousSteps);
          previousSteps = r.steps;
        }
        const sliced = await buildBvhAsync(mesh, options, { sliceMs: 0, yieldToEventLoop: noWait });
        expect(Buffer.from(bvhToBytes(sliced)).equals(oneCall)).toBe(true);
      }
    });
  }

  it('reports progress rising from 0 to 1 through many intermediate values', async () => {
    const { mesh } = await loaded(big);
    const reports: number[] = [];
    const bvh = await buildBvhAsync(mesh, {}, { sliceMs: 0, progressIntervalMs: 0, yieldToEventLoop: noWait, onProgress: (f) => reports.push(f) });
    expect(bvh.triangleCount).toBe(big.indices.length / 3);
    expect(reports[0]).toBe(0);
    expect(reports.at(-1)).toBe(1);
    for (let i = 1; i < reports.length; i++) expect(reports[i]!).toBeGreaterThanOrEqual(reports[i - 1]!);
    const between = new Set(reports.filter((f) => f > 0 && f < 1));
    expect(between.size).toBeGreaterThan(10);
    // Every phase shows: records (below 10 %), splits, triangle copies (above 90 %).
    expect(reports.some((f) => f > 0 && f < 0.1)).toBe(true);
    expect(reports.some((f) => f > 0.3 && f < 0.7)).toBe(true);
    expect(reports.some((f) => f > 0.9 && f < 1)).toBe(true);
  });

  it('a cancel mid-build rejects with ABORTED, leaves the arena as it was, and the next build gives the same bytes', async () => {
    const { k, mesh } = await loaded(big);
    const expected = Buffer.from(bvhToBytes(buildBvh(mesh)));
    const used = k.arenaUsed();
    const reports: number[] = [];
    let polls = 0;
    const cancelled = buildBvhAsync(
      mesh,
      {},
      {
        sliceMs: 0,
        progressIntervalMs: 0,
        yieldToEventLoop: noWait,
        onProgress: (f) => reports.push(f),
        // The first poll is before the build; stop after a few slices.
        shouldCancel: () => ++polls > 4,
      },
    );
    const e: unknown = await cancelled.then(
      () => null,
      (error: unknown) => error,
    );
    expect(e).toBeInstanceOf(KernelError);
    expect((e as KernelError).code).toBe('ABORTED');
    expect(reports.some((f) => f > 0 && f < 1)).toBe(true); // it had started
    expect(reports).not.toContain(1);
    expect(k.arenaUsed()).toBe(used);

    const again = await buildBvhAsync(mesh, {}, { sliceMs: 0, yieldToEventLoop: noWait });
    expect(Buffer.from(bvhToBytes(again)).equals(expected)).toBe(true);
    expect(raycastOne(again, [0, 0, -60], [0, 0, 1])?.point[2]).toBeLessThan(0);
  });

  it('an already cancelled build does not start', async () => {
    const { k, mesh } = await loaded(blob);
    const used = k.arenaUsed();
    await expect(buildBvhAsync(mesh, {}, { shouldCancel: () => true })).rejects.toThrow(/^ABORTED/);
    expect(k.arenaUsed()).toBe(used);
  });

  it('a triangle with a missing vertex rejects with BAD_INPUT and leaves the arena as it was', async () => {
    const k = await loadKernels();
    const indices = new Uint32Array(3000).map((_, i) => i % 9);
    indices[2500] = 9; // past the last vertex
    const mesh = meshFromArrays(k, new Float32Array(27).map((_, i) => i * 0.37), indices);
    const used = k.arenaUsed();
    await expect(buildBvhAsync(mesh, {}, { sliceMs: 0, yieldToEventLoop: noWait })).rejects.toThrow(/^BAD_INPUT/);
    expect(k.arenaUsed()).toBe(used);
    expect(k.bvhBuildStep(100)).toBeLessThan(0); // the failed build stays failed
  });

  it('an empty mesh builds in steps too', async () => {
    const { k, mesh } = await loaded({ positions: new Float32Array(0), indices: new Uint32Array(0) });
    const oneCall = Buffer.from(bvhToBytes(buildBvh(mesh)));
    expect(stepped(k, mesh, 1).bytes.equals(oneCall)).toBe(true);
    const bvh = await buildBvhAsync(mesh);
    expect(bvh.triangleCount).toBe(0);
  });
});
