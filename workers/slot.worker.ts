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
import { comlinkChannel } from './comlink-channel.ts';
import { jobRunner, toJobFailure, type JobFailure, type JobResult, type KernelErrorCode } from './kernels/job.ts';
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

let loaded = false;

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

/** The worker's job runner (workers/kernels/job.ts): results' arrays transferred, cancel, recent jobs. */
const jobs = jobRunner<SlotWorkerErrorCode>({ failureOf, channel: comlinkChannel });

const api = {
  /** Instantiates manifold.wasm now instead of on the first cut. */
  warmUp(): Promise<SlotWorkerResult<null>> {
    return jobs.run('warmUp', undefined, undefined, async () => {
      await manifold();
      return null;
    });
  },

  /**
   * The base minus the slot for the wire's tag (workers/kernels/slot.ts
   * cutSlot). The base's arrays are copied in (the caller keeps them for
   * undo); the result's are transferred out.
   */
  cutSlot(base: SlotBase | null, wire: SlotWire, jobId: number, onProgress?: SlotProgressCallback): Promise<SlotWorkerResult<SlotResult>> {
    return jobs.run('cutSlot', jobId, onProgress, async (options) => cutSlot(await manifold(), base, wire, options));
  },

  /** Stops a running cutSlot; it resolves ABORTED. */
  cancel(jobId: number): void {
    jobs.cancel(jobId);
  },

  /** What the worker did (diagnostics and tests). */
  stats(): SlotWorkerStats {
    return { loaded, runningJobs: jobs.runningJobs, recentJobs: jobs.recentJobs() };
  },
};

export type SlotApi = typeof api;

// For the browser test, through Playwright's handle on the worker.
(globalThis as { archwrightSlotStats?: () => SlotWorkerStats }).archwrightSlotStats = api.stats;

Comlink.expose(api);
