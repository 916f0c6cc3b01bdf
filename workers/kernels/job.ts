// How a long kernel runs without freezing its thread's event loop: the work is
// cut into chunks (ranges of items, one wasm call each); between time slices
// the loop yields so cancel messages arrive, checks for cancellation and
// reports progress. Every long kernel wrapper takes JobOptions.

export interface JobOptions {
  /** Fraction 0..1 of this job, at most every `progressIntervalMs`, and once with 1 at the end. */
  onProgress?: (fraction: number) => void;
  /** Polled between slices; true stops the job with KernelError('ABORTED'). */
  shouldCancel?: () => boolean;
  /** How a slice gives the event loop a turn. Default: setTimeout 0. */
  yieldToEventLoop?: () => Promise<void>;
  /** Longest stretch of kernel work between yields. Default 30 ms. */
  sliceMs?: number;
  /** Minimum time between progress reports. Default 50 ms. */
  progressIntervalMs?: number;
  /**
   * Slice timing shared by the runChunked calls of one job (jobClock()). A job made of many short
   * calls (a search that scores a hundred directions, a few milliseconds each) must pass one, or
   * each call starts a fresh slice, none reaches sliceMs, and the job never yields: no cancel
   * gets through.
   */
  clock?: JobClock;
}

/** When the current slice of a job began and when it last reported progress. */
export interface JobClock {
  sliceStart: number;
  lastReport: number;
}

export function jobClock(): JobClock {
  return { sliceStart: performance.now(), lastReport: -Infinity };
}

export type KernelErrorCode = 'ABORTED' | 'OUT_OF_MEMORY' | 'BAD_INPUT' | 'KERNEL_FAILED';

/** A kernel failure the caller can act on; `code` survives as the start of `message` through Comlink. */
export class KernelError extends Error {
  override name = 'KernelError';
  constructor(
    readonly code: KernelErrorCode,
    detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
  }
}

const defaultYield = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Calls `step()` until it returns false (a resumable kernel's step: more work
 * remains), yielding to the event loop every `sliceMs`; at a yield, reports
 * `progress()` (at most every `progressIntervalMs`). Throws
 * KernelError('ABORTED') when cancelled (checked before the first step too).
 * Reports neither 0 nor 1: the caller knows its job's ends.
 */
export async function runSteps(step: () => boolean, progress: () => number, options: JobOptions = {}): Promise<void> {
  const { onProgress, shouldCancel, yieldToEventLoop = defaultYield, sliceMs = 30, progressIntervalMs = 50 } = options;
  if (shouldCancel?.()) throw new KernelError('ABORTED');
  const clock = options.clock ?? jobClock();
  while (step()) {
    const now = performance.now();
    if (now - clock.sliceStart < sliceMs) continue;
    if (onProgress && now - clock.lastReport >= progressIntervalMs) {
      onProgress(Math.min(1, progress()));
      clock.lastReport = now;
    }
    await yieldToEventLoop();
    if (shouldCancel?.()) throw new KernelError('ABORTED');
    clock.sliceStart = performance.now();
  }
}

/**
 * Calls `step(start, end)` over [0, total) in chunks of at most `chunk` items,
 * yielding to the event loop every `sliceMs` (runSteps). Throws
 * KernelError('ABORTED') when cancelled (checked before the first chunk too).
 */
export async function runChunked(
  total: number,
  chunk: number,
  step: (start: number, end: number) => void,
  options: JobOptions = {},
): Promise<void> {
  let start = 0;
  await runSteps(
    () => {
      if (start >= total) return false;
      step(start, Math.min(total, start + chunk));
      start += chunk;
      return true;
    },
    () => start / total,
    options,
  );
  options.onProgress?.(1);
}

// ---------------------------------------------------------------- results across the worker boundary
//
// Comlink keeps only `message` of a thrown error, so the worker never lets a
// job throw: every job call resolves a JobResult, and the page's client
// (src/editor/geometry/client.ts) turns a failure into a rejected promise
// whose error carries the same `code`.

/** A failed job as it crosses the worker boundary. `code` is stable; `detail` is English for logs. */
export interface JobFailure<C extends string = string> {
  code: C;
  detail: string;
  /** ASCII STL: 1-based line of the problem. */
  line?: number;
  /** Binary STL: 0-based index of the offending triangle. */
  triangle?: number;
  /** DOWNLOAD_FAILED: the HTTP status (0: the network). */
  status?: number;
}

export type JobResult<T, C extends string = string> = { ok: true; value: T } | { ok: false; error: JobFailure<C> };

/** A KernelError keeps its code; anything else is a bug: KERNEL_FAILED. */
export function toJobFailure(e: unknown): JobFailure<KernelErrorCode> {
  if (e instanceof KernelError) {
    const detail = e.message.startsWith(`${e.code}: `) ? e.message.slice(e.code.length + 2) : e.message;
    return { code: e.code, detail };
  }
  if (e instanceof RangeError && /memory|allocation/i.test(e.message)) return { code: 'OUT_OF_MEMORY', detail: e.message };
  return { code: 'KERNEL_FAILED', detail: e instanceof Error ? e.message : String(e) };
}
