// The BVH build through the real worker (workers/geometry.worker.ts in a Node
// worker thread) and the page's client, unchanged: buildBvh reports progress
// and an AbortSignal stops it mid-build (the worker's job ends ABORTED and the
// mesh's arena is as it was); a long job's lazy build stops the same way.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeometryClient } from '../../src/geometry/client.ts';
import { isAbortError } from '../../src/geometry/errors.ts';
import { sphereStl } from '../fixtures/stl.ts';
import { rejection, useWorkerShim } from './client-harness.ts';

let client: GeometryClient;
useWorkerShim();

beforeAll(() => {
  client = new GeometryClient();
});

afterAll(() => {
  client.dispose();
});


/** Waits until the worker has no job running (it takes messages in order), then its last job. */
async function lastJob(): Promise<{ call: string; outcome: string } | undefined> {
  await expect.poll(async () => (await client.stats()).runningJobs, { timeout: 10_000 }).toBe(0);
  return (await client.stats()).recentJobs.at(-1);
}

describe('buildBvh through the worker', () => {
  it('an AbortSignal stops a build mid-way (ABORTED, arena as it was); the next build reports progress to 1 and answers picks', async () => {
    // 1M triangles: the build outlasts the worker's first 30 ms time slice many times over.
    const mesh = await client.openStl(sphereStl({ segments: 1000, rings: 501, radius: 40 }).buffer);
    const before = await client.meshInfo(mesh.handle);

    const abort = new AbortController();
    const reports: number[] = [];
    const cancelled = client.buildBvh(
      mesh.handle,
      {},
      {
        signal: abort.signal,
        // The first report (0) comes as the build starts.
        onProgress: (f) => {
          reports.push(f);
          abort.abort();
        },
      },
    );
    expect(isAbortError(await rejection(cancelled))).toBe(true);
    expect(await lastJob()).toMatchObject({ call: 'buildBvh', outcome: 'ABORTED' });
    expect(reports[0]).toBe(0);
    expect(reports).not.toContain(1);
    expect((await client.meshInfo(mesh.handle)).arenaBytes).toBe(before.arenaBytes);

    const progress: number[] = [];
    const info = await client.buildBvh(mesh.handle, {}, { onProgress: (f) => progress.push(f) });
    expect(info.triangleCount).toBe(mesh.triangleCount);
    expect((await client.meshInfo(mesh.handle)).arenaBytes).toBeGreaterThanOrEqual(before.arenaBytes + info.byteLength);
    // Progress travels on its own port; the worker waits for its last report before it answers.
    expect(progress.at(-1)).toBe(1);
    expect(progress[0]).toBe(0);
    for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThanOrEqual(progress[i - 1]!);

    const hit = await client.pick(mesh.handle, [0, 0, 100], [0, 0, -1]);
    expect(hit?.point[2]).toBeCloseTo(40, 1);
    await client.release(mesh.handle);
  });

  it('a long job that builds the BVH first (undercut) stops mid-build when aborted and keeps no BVH', async () => {
    const mesh = await client.openStl(sphereStl({ segments: 1000, rings: 501, radius: 40 }).buffer);
    const before = await client.meshInfo(mesh.handle);
    const abort = new AbortController();
    const cancelled = client.undercut(mesh.handle, [0, 0, 1], {}, { signal: abort.signal });
    // The cancel reaches the worker while the lazy build's first time slice runs.
    abort.abort();
    expect(isAbortError(await rejection(cancelled))).toBe(true);
    expect(await lastJob()).toMatchObject({ call: 'undercut', outcome: 'ABORTED' });
    expect((await client.meshInfo(mesh.handle)).arenaBytes).toBe(before.arenaBytes);

    // Not aborted: the build and the map both run.
    const r = await client.undercut(mesh.handle, [0, 0, 1]);
    expect(r.count / mesh.vertexCount).toBeGreaterThan(0.4);
    expect(r.count / mesh.vertexCount).toBeLessThan(0.6);
    expect((await client.meshInfo(mesh.handle)).arenaBytes).toBeGreaterThan(before.arenaBytes);
    await client.release(mesh.handle);
  });
});
