// The page's geometry client (src/geometry/client.ts), unchanged,
// over the real worker in a Node thread (GeometryWorkerShim stands in for the
// browser's Worker class; TransportShim below can hold its messages back):
// promises that resolve values or reject with a GeometryError carrying the
// worker's code, AbortSignal bridged to cancel(), progress callbacks.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GeometryClient } from '../../src/geometry/client.ts';
import { GeometryError, isAbortError } from '../../src/geometry/errors.ts';
import { cubeStl, sphereCounts, sphereStl } from '../fixtures/stl.ts';
import { rejection, useWorkerShim } from './client-harness.ts';
import { GeometryWorkerShim } from './stl-worker-thread.ts';

let client: GeometryClient;

/** Messages from the worker still to hold back, and the delivery of those held. */
let toHold = 0;
const held: (() => void)[] = [];

/**
 * The worker shim whose transport can hold messages back on their way to the page, as a busy
 * main thread or a slow message queue would: the client and the worker run unchanged.
 */
class TransportShim extends GeometryWorkerShim {
  private readonly listeners = new Map<EventListenerOrEventListenerObject, EventListener>();

  override addEventListener(type: string, handler: EventListenerOrEventListenerObject): void {
    if (type !== 'message') return super.addEventListener(type, handler);
    const listener = (event: Event): void => {
      const deliver = (): void => (typeof handler === 'function' ? handler(event) : handler.handleEvent(event));
      if (toHold > 0) {
        toHold--;
        held.push(deliver);
      } else {
        deliver();
      }
    };
    this.listeners.set(handler, listener);
    super.addEventListener(type, listener);
  }

  override removeEventListener(type: string, handler: EventListenerOrEventListenerObject): void {
    super.removeEventListener(type, (type === 'message' && this.listeners.get(handler)) || handler);
  }
}

useWorkerShim(TransportShim);

beforeAll(() => {
  client = new GeometryClient();
});

afterAll(() => {
  client.dispose();
});


describe('GeometryClient over the real worker', () => {
  it('openStl resolves the arrays and a handle, with progress; meshInfo and release use the handle', async () => {
    const reports: [number, string][] = [];
    const mesh = await client.openStl(new Blob([sphereStl({ segments: 200, rings: 101, radius: 5 })]), {
      onProgress: (fraction, stage) => reports.push([fraction, stage]),
    });
    expect(mesh.triangleCount).toBe(sphereCounts(200, 101).triangles);
    expect(mesh.positions).toBeInstanceOf(Float32Array);
    // Progress travels on its own port; the worker waits for its last report before it answers.
    expect(reports.some(([, stage]) => stage === 'parse')).toBe(true);
    expect(reports[0]).toEqual([0, 'read']);
    expect(await client.meshInfo(mesh.handle)).toMatchObject({ triangleCount: mesh.triangleCount });
    expect(await client.release(mesh.handle)).toBe(true);
    const gone = await rejection(client.meshInfo(mesh.handle));
    expect(gone).toBeInstanceOf(GeometryError);
    expect((gone as GeometryError).code).toBe('NO_SUCH_MESH');
  });

  it('a bad file rejects with a GeometryError carrying the STL code and line', async () => {
    const text = new TextDecoder().decode(cubeStl({ binary: false })).replace('endloop', 'endlop');
    const e = await rejection(client.loadStl(new TextEncoder().encode(text).buffer));
    expect(e).toBeInstanceOf(GeometryError);
    expect(e).toMatchObject({ code: 'STL_MALFORMED', line: 7 });
  });

  it('aborting rejects at once with the AbortError; the worker stops with ABORTED, keeps nothing, and opens the next file', async () => {
    const before = await client.stats();
    const abort = new AbortController();
    const big = client.openStl(new Blob([sphereStl({ segments: 1000, rings: 501, radius: 40 })]), {
      signal: abort.signal,
      // Abort as the parse starts: a 1M-triangle parse outlasts the worker's first time slice.
      onProgress: (_fraction, stage) => {
        if (stage === 'parse') abort.abort();
      },
    });
    const e = await rejection(big);
    expect(isAbortError(e)).toBe(true);
    await expect.poll(async () => (await client.stats()).runningJobs, { timeout: 10_000 }).toBe(0);
    const after = await client.stats();
    expect(after.recentJobs.at(-1)).toMatchObject({ call: 'openStl', outcome: 'ABORTED' });
    expect(after.meshes).toBe(before.meshes);

    const next = await client.openStl(cubeStl().buffer);
    expect(next.triangleCount).toBe(12);
    await client.release(next.handle);
    expect(GeometryWorkerShim.started).toBe(1); // the same worker all along
  });

  it('a mesh opened by a call aborted too late to stop is released by the client', async () => {
    const before = await client.stats();
    const abort = new AbortController();
    // The worker's answer to the open is held back on its way: the open ends in the worker (its
    // mesh kept) before the call is aborted, and the mesh reaches the page only after the abort.
    toHold = 1;
    const small = client.openStl(cubeStl().buffer, { signal: abort.signal });
    await vi.waitFor(() => expect(held).toHaveLength(1), { timeout: 10_000 });
    const ended = await client.stats();
    expect(ended.runningJobs).toBe(0);
    expect(ended.recentJobs.at(-1)).toMatchObject({ call: 'openStl', outcome: 'ok' });
    const opened = ended.handles.filter((h) => !before.handles.includes(h));
    expect(opened).toHaveLength(1);

    abort.abort();
    expect(isAbortError(await rejection(small))).toBe(true);
    held.shift()!();
    // The client releases the mesh nobody will receive.
    await expect.poll(async () => (await client.stats()).handles, { timeout: 10_000 }).not.toContain(opened[0]);
    expect((await client.stats()).meshes).toBe(before.meshes);
  });

  it('an already aborted signal rejects without starting a job', async () => {
    const abort = new AbortController();
    abort.abort();
    const jobsBefore = (await client.stats()).recentJobs.length;
    expect(isAbortError(await rejection(client.openStl(cubeStl().buffer, { signal: abort.signal })))).toBe(true);
    expect((await client.stats()).recentJobs.length).toBe(jobsBefore);
  });

  it('kernel calls on a handle: healthReport and simplify (whose result is a new handle)', async () => {
    const mesh = await client.openStl(sphereStl({ segments: 48, rings: 24, radius: 10 }).buffer);
    expect(await client.healthReport(mesh.handle)).toMatchObject({ closed: true, shellCount: 1 });
    const simplified = await client.simplify(mesh.handle, 400);
    expect(simplified.triangleCount).toBeLessThanOrEqual(400);
    expect((await client.stats()).handles).toEqual(expect.arrayContaining([mesh.handle, simplified.handle]));
    await client.release(simplified.handle);
    await client.release(mesh.handle);
  });
});
