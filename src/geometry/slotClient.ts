// Main-thread client of workers/slot.worker.ts (slotting with manifold-3d).
// Framework-free; the generic bridge of ./workerConnection.ts, same conventions as ./client.ts:
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

import type { SlotApi, SlotProgressCallback, SlotWorkerErrorCode, SlotWorkerFailure, SlotWorkerStats } from '../../workers/slot.worker.ts';
import type { SlotBase, SlotResult, SlotWire } from '../../workers/kernels/slot.ts';
import { WorkerConnection, type CallOptions } from './workerConnection.ts';

export type { SlotBase, SlotResult, SlotWire } from '../../workers/kernels/slot.ts';
export type { SlotErrorCode, WireType } from '../../workers/kernels/slot-messages.ts';
export { SLOT_MESSAGES, SLOTTABLE_WIRE_TYPES } from '../../common/wires.ts';
export type { SlotWorkerStats } from '../../workers/slot.worker.ts';

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

/** `onProgress`: fraction 0..1 (throttled by the worker to about every 50 ms). */
export type SlotCallOptions = CallOptions<SlotProgressCallback>;

export class SlotClient {
  private readonly connection = new WorkerConnection<SlotApi>(
    () => new Worker(new URL('../../workers/slot.worker.ts', import.meta.url), { type: 'module', name: 'slot' }),
    (detail) => new SlotClientError('WORKER_FAILED', detail),
    'slot',
    (failure) => SlotClientError.from(failure as SlotWorkerFailure),
  );

  /** Starts the worker and instantiates manifold.wasm ahead of the first cut. */
  warmUp(): Promise<void> {
    return this.connection.calls.warmUp().then(() => undefined);
  }

  /**
   * The base minus the slot for the wire's tag. `base` is null when no base
   * was generated (rejects NO_BASE). The base's arrays are copied, not
   * transferred.
   */
  cutSlot(base: SlotBase | null, wire: SlotWire, options: SlotCallOptions = {}): Promise<SlotResult> {
    return this.connection.jobs.cutSlot(base, wire, options);
  }

  /** What the worker did (diagnostics). */
  stats(): Promise<SlotWorkerStats> {
    return this.connection.run((api) => api.stats());
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
