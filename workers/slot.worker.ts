// Slotting worker: manifold-3d's booleans in a thread of their own, so a cut
// (tens to hundreds of ms on a real base) never blocks the geometry worker's
// brush or picking. Same conventions as workers/geometry.worker.ts
// (docs/geometry.md "Worker API" and "Slotting"):
// - Comlink.expose runs synchronously at the top level; manifold.wasm is
//   instantiated lazily, once, on the first call (loadManifold).
// - Calls resolve { ok: true, value } or { ok: false, error: { code, detail } }
//   and never throw.
// - cutSlot takes (..., jobId, onProgress) last; cancel(jobId) stops it at its
//   next yield (between stages and chunks of segments: a single boolean is
//   one wasm call and runs to its end).
// - The result's arrays are fresh and transferred.
//
// The worker keeps nothing between calls: the editor holds the base before
// and after each cut (undo/reset) and sends the one to cut.

import * as Comlink from 'comlink';
import manifoldWasmUrl from 'manifold-3d/manifold.wasm?url';
import { toJobFailure, type JobFailure, type JobResult, type KernelErrorCode } from './kernels/job.ts';
import { cutSlot, loadManifold, SlotError, type SlotBase, type SlotErrorCode, type SlotResult, type SlotWire } from './kernels/slot.ts';

export type SlotWorkerErrorCode = SlotErrorCode | KernelErrorCode;
export type SlotWorkerFailure = JobFailure<SlotWorkerErrorCode>;
export type SlotWorkerResult<T> = JobResult<T, SlotWorkerErrorCode>;
/** Fraction 0..1; pass it wrapped in Comlink.proxy. */
export type SlotProgressCallback = (fraction: number) => void;

export interface SlotWorkerStats {
  /** manifold.wasm is instantiated. */
  loaded: boolean;
  runningJobs: number;
  /** The last jobs that ended, newest last. */
  recentJobs: { jobId: number; call: string; outcome: 'ok' | SlotWorkerErrorCode }[];
}

const running = new Map<number, { cancelled: boolean }>();
const recentJobs: SlotWorkerStats['recentJobs'] = [];
let loaded = false;
let internalJobs = -1;

function manifold(): ReturnType<typeof loadManifold> {
  return loadManifold(manifoldWasmUrl).then((wasm) => {
    loaded = true;
    return wasm;
  });
}

function failureOf(e: unknown): SlotWorkerFailure {
  if (e instanceof SlotError) return { code: e.code, detail: e.detail };
  return toJobFailure(e);
}

async function job<T>(call: string, jobId: number | undefined, onProgress: SlotProgressCallback | undefined, work: (shouldCancel: () => boolean, progress?: (f: number) => void) => Promise<T>): Promise<SlotWorkerResult<T>> {
  const state = { cancelled: false };
  const id = jobId ?? internalJobs--;
  running.set(id, state);
  const progress = onProgress
    ? (fraction: number): void => {
        Promise.resolve(onProgress(fraction)).catch(() => {});
      }
    : undefined;
  let result: SlotWorkerResult<T>;
  try {
    result = { ok: true, value: await work(() => state.cancelled, progress) };
  } catch (e) {
    result = { ok: false, error: failureOf(e) };
  } finally {
    running.delete(id);
    if (onProgress) (onProgress as Partial<Record<typeof Comlink.releaseProxy, () => void>>)[Comlink.releaseProxy]?.();
  }
  recentJobs.push({ jobId: id, call, outcome: result.ok ? 'ok' : result.error.code });
  if (recentJobs.length > 20) recentJobs.shift();
  return result;
}

const api = {
  /** Instantiates manifold.wasm now instead of on the first cut. */
  warmUp(): Promise<SlotWorkerResult<null>> {
    return job('warmUp', undefined, undefined, async () => {
      await manifold();
      return null;
    });
  },

  /**
   * The base minus the slot for the wire's tag (workers/kernels/slot.ts
   * cutSlot). The base's arrays are copied in (the caller keeps them for
   * undo); the result's are transferred out.
   */
  async cutSlot(base: SlotBase | null, wire: SlotWire, jobId: number, onProgress?: SlotProgressCallback): Promise<SlotWorkerResult<SlotResult>> {
    const result = await job('cutSlot', jobId, onProgress, async (shouldCancel, progress) => cutSlot(await manifold(), base, wire, { shouldCancel, onProgress: progress }));
    if (!result.ok) return result;
    const v = result.value;
    return Comlink.transfer(result, [v.positions.buffer, v.indices.buffer, v.normals.buffer] as ArrayBuffer[]);
  },

  /** Stops a running cutSlot; it resolves ABORTED. */
  cancel(jobId: number): void {
    const state = running.get(jobId);
    if (state) state.cancelled = true;
  },

  /** What the worker did (diagnostics and tests). */
  stats(): SlotWorkerStats {
    return { loaded, runningJobs: running.size, recentJobs: [...recentJobs] };
  },
};

export type SlotApi = typeof api;

// For the browser test, through Playwright's handle on the worker.
(globalThis as { archwrightSlotStats?: () => SlotWorkerStats }).archwrightSlotStats = api.stats;

Comlink.expose(api);
