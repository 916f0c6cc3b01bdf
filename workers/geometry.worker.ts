// Geometry worker: the only place where the page's meshes meet wasm memory.
//
// Rules (docs/geometry.md, TOOLCHAIN "WASM in workers"):
// - Comlink.expose runs synchronously at the top level: no top-level await,
//   or a module worker drops the first messages.
// - kernels.wasm is instantiated lazily, once, on the first call.
// - Long calls report progress through a Comlink.proxy callback and stop
//   when cancel(jobId) arrives; the loop yields to the event loop between
//   time slices so that the cancel message gets through.
// - Results leave as transferred typed arrays.

import * as Comlink from 'comlink';
import { instantiateKernelsFromUrl, type KernelExports } from './kernels/abi.ts';
import { parseStl, type StlResult, type StlSource, type StlStage } from './kernels/stl.ts';

let kernels: Promise<KernelExports> | undefined;

function getKernels(): Promise<KernelExports> {
  kernels ??= instantiateKernelsFromUrl(new URL('../build/kernels.wasm', import.meta.url)).catch((e: unknown) => {
    kernels = undefined; // let a later call try again
    throw e;
  });
  return kernels;
}

const cancelled = new Set<number>();

/** Progress callback: overall fraction 0..1 and the stage. Pass it wrapped in Comlink.proxy. */
export type ProgressCallback = (fraction: number, stage: StlStage) => void;

const api = {
  /** Loads kernels.wasm now instead of on the first parse. */
  async warmUp(): Promise<void> {
    await getKernels();
  },

  /**
   * Parses an STL file (a File/Blob is read here, in the worker) into an
   * indexed mesh. Bad input and cancellation resolve to `{ ok: false }`.
   * `jobId` is chosen by the caller for cancel(). The callback must be a
   * top-level argument: Comlink only proxies top-level arguments.
   */
  async parseStl(source: StlSource, jobId: number, onProgress?: ProgressCallback): Promise<StlResult> {
    let k: KernelExports;
    try {
      k = await getKernels();
    } catch (e) {
      cancelled.delete(jobId);
      return { ok: false, error: { code: 'KERNEL_FAILED', detail: `kernels.wasm did not load: ${e instanceof Error ? e.message : String(e)}` } };
    }
    const result = await parseStl(k, source, {
      shouldCancel: () => cancelled.has(jobId),
      onProgress: onProgress
        ? (fraction, stage) => {
            // Fire and forget: a proxy call returns a promise.
            Promise.resolve(onProgress(fraction, stage)).catch(() => {});
          }
        : undefined,
    });
    cancelled.delete(jobId);
    if (!result.ok) return result;
    const { positions, normals, indices } = result.mesh;
    return Comlink.transfer(result, [positions.buffer, normals.buffer, indices.buffer]);
  },

  /** Stops a running or queued parseStl call; it then resolves with ABORTED. */
  cancel(jobId: number): void {
    cancelled.add(jobId);
  },
};

export type GeometryApi = typeof api;

Comlink.expose(api);
