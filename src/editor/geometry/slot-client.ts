// Main-thread client of workers/slot.worker.ts (slotting with manifold-3d).
// Framework-free; same conventions as ./client.ts:
// - cutSlot resolves with the slotted base or rejects with a SlotClientError
//   whose `code` is the worker's stable code (NO_BASE, SLOT_WIRE_TYPE,
//   SLOT_BASE_NOT_MANIFOLD, SLOTTING_FAILED, BAD_INPUT, ABORTED...);
//   SLOT_MESSAGES holds the specification's message for the slot codes.
// - `{ signal, onProgress }`: aborting rejects at once with the signal's
//   reason and sends cancel(jobId) to the worker.
// - A dead worker rejects pending calls with WORKER_FAILED; the next call
//   starts a fresh one.
// The base is copied to the worker, never detached: the editor keeps it for
// undo and reset.

import * as Comlink from 'comlink';
import type { SlotApi, SlotWorkerErrorCode, SlotWorkerFailure, SlotWorkerResult, SlotWorkerStats } from '../../../workers/slot.worker.ts';
import type { SlotBase, SlotResult, SlotWire } from '../../../workers/kernels/slot.ts';
import { abortReason, WorkerConnection } from './worker-connection.ts';

export type { SlotBase, SlotResult, SlotWire } from '../../../workers/kernels/slot.ts';
export type { SlotErrorCode, WireType } from '../../../workers/kernels/slot-messages.ts';
export { SLOT_MESSAGES, SLOTTABLE_WIRE_TYPES } from '../../../workers/kernels/slot-messages.ts';
export type { SlotWorkerStats } from '../../../workers/slot.worker.ts';

export type SlotClientErrorCode = SlotWorkerErrorCode | 'WORKER_FAILED';

/** A failed slotting call. `code` is stable; the UI translates it. */
export class SlotClientError extends Error {
  override readonly name = 'SlotClientError';
  constructor(
    readonly code: SlotClientErrorCode,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
  }

  static from(failure: SlotWorkerFailure): SlotClientError {
    return new SlotClientError(failure.code, failure.detail);
  }
}

export interface SlotCallOptions {
  signal?: AbortSignal | undefined;
  /** Fraction 0..1 (throttled by the worker to about every 50 ms). */
  onProgress?: ((fraction: number) => void) | undefined;
}

type Remote = Comlink.Remote<SlotApi>;

export class SlotClient {
  private readonly connection = new WorkerConnection<SlotApi>(
    () => new Worker(new URL('../../../workers/slot.worker.ts', import.meta.url), { type: 'module', name: 'slot' }),
    (detail) => new SlotClientError('WORKER_FAILED', detail),
    'slot',
  );
  private nextJob = 1;

  /** Starts the worker and instantiates manifold.wasm ahead of the first cut. */
  warmUp(): Promise<void> {
    return this.run((api) => api.warmUp()).then(() => undefined);
  }

  /**
   * The base minus the slot for the wire's tag. `base` is null when no base
   * was generated (rejects NO_BASE). The base's arrays are copied, not
   * transferred.
   */
  cutSlot(base: SlotBase | null, wire: SlotWire, options: SlotCallOptions = {}): Promise<SlotResult> {
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const jobId = this.nextJob++;
    let settled = false;
    const progress = onProgress
      ? Comlink.proxy((fraction: number) => {
          if (!settled) onProgress(fraction);
        })
      : undefined;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = (): void => {
        settled = true;
        this.connection.current()?.cancel(jobId).catch(() => {});
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const call = this.run((api) => api.cutSlot(base, wire, jobId, progress));
    const done = signal ? Promise.race([call, aborted]) : call;
    return done.finally(() => {
      settled = true;
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    });
  }

  /** What the worker did (diagnostics). */
  stats(): Promise<SlotWorkerStats> {
    return this.run(async (api) => ({ ok: true, value: await api.stats() }) as SlotWorkerResult<SlotWorkerStats>);
  }

  /** Runs a call that resolves a SlotWorkerResult; rejects with its failure or WORKER_FAILED. */
  private run<T>(start: (api: Comlink.Remote<SlotApi>) => Promise<SlotWorkerResult<T>>): Promise<T> {
    return this.connection.run(start).then((result) => {
      if (result.ok) return result.value;
      throw SlotClientError.from(result.error);
    });
  }

  /** Terminates the worker; the next call starts a fresh one. */
  dispose(): void {
    this.connection.dispose();
  }
}

let shared: SlotClient | undefined;

/** The page-wide slot client (one worker, started on first use). */
export function getSlotClient(): SlotClient {
  shared ??= new SlotClient();
  return shared;
}
