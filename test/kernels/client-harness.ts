// Shared set-up of the tests that run the page's GeometryClient, unchanged, over the real worker
// in a Node thread (GeometryWorkerShim or a subclass standing in for the browser's Worker).
import { afterAll, beforeAll } from 'vitest';
import { GeometryWorkerShim } from './stl-worker-thread.ts';

/** Installs `shim` as globalThis.Worker for this file's tests and puts the real one back after. */
export function useWorkerShim(shim: new (url: URL | string) => unknown = GeometryWorkerShim): void {
  const real = globalThis.Worker;
  beforeAll(() => {
    (globalThis as { Worker: unknown }).Worker = shim;
  });
  afterAll(() => {
    (globalThis as { Worker: unknown }).Worker = real;
  });
}

/** What `p` rejects with; fails the test when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}
