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
// (src/geometry/client.ts) turns a failure into a rejected promise
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

// ---------------------------------------------------------------- the job runner of a worker
//
// Both workers (geometry, slot) run their calls through one runner: it registers the call's jobId
// synchronously (so a cancel() sent right after the call finds it), bridges cancellation and
// progress into JobOptions, turns every outcome into a JobResult, transfers the result's typed
// arrays and keeps the last outcomes for stats(). Comlink stays out of this file (the kernels and
// the server share it): the worker passes its channel's `transfer` and `release`.

/** Progress of a long call: fraction 0..1 and, for some calls, a stage name ('read', 'parse'...). */
export type ProgressCallback = (fraction: number, stage?: string) => void;

/** The worker's message channel as the runner uses it (Comlink.transfer, the proxy's releaseProxy). */
export interface JobChannel {
  /** Marks `buffers` to be transferred (not copied) with `value`. */
  transfer<T>(value: T, buffers: ArrayBuffer[]): T;
  /** Closes a progress callback's channel now rather than when it is collected. */
  release(callback: ProgressCallback): void;
}

export interface JobRunnerOptions<C extends string> {
  /** The failure for a thrown error (the worker's own error classes first, then toJobFailure). */
  failureOf(e: unknown): JobFailure<C>;
  channel: JobChannel;
}

export interface JobRun<C extends string> {
  jobId: number;
  call: string;
  outcome: 'ok' | C;
}

/** What a job's work receives: JobOptions for the kernel, and progress with a stage. */
export type JobWork<T> = (options: JobOptions, progress: ProgressCallback) => Promise<T> | T;

export interface JobRunner<C extends string> {
  /**
   * Runs one call: `jobId` is the caller's (long calls, cancellable) or undefined (short calls get
   * an internal negative id). Never throws: a failure resolves { ok: false, error }.
   */
  run<T>(call: string, jobId: number | undefined, onProgress: ProgressCallback | undefined, work: JobWork<T>): Promise<JobResult<T, C>>;
  /** Stops a running call at its next yield; unknown or finished ids are ignored. */
  cancel(jobId: number): void;
  /** Calls running now. */
  readonly runningJobs: number;
  /** The last RECENT_JOBS calls that ended, newest last. */
  recentJobs(): JobRun<C>[];
}

const RECENT_JOBS = 20;

/** ArrayBuffers of the typed arrays in a result (plain objects and arrays, walked deeply), each once. */
function transferables(value: unknown, found = new Set<ArrayBuffer>()): ArrayBuffer[] {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) found.add(value.buffer);
  } else if (Array.isArray(value)) {
    for (const v of value) transferables(v, found);
  } else if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const v of Object.values(value)) transferables(v, found);
  }
  return [...found];
}

export function jobRunner<C extends string>({ failureOf, channel }: JobRunnerOptions<C>): JobRunner<C> {
  const running = new Map<number, { cancelled: boolean }>();
  const recent: JobRun<C>[] = [];
  /** Ids for short calls that take no jobId (they cannot be cancelled): negative, so they never meet a caller's. */
  let internalJobs = -1;

  async function run<T>(call: string, jobId: number | undefined, onProgress: ProgressCallback | undefined, work: JobWork<T>): Promise<JobResult<T, C>> {
    const state = { cancelled: false };
    const id = jobId ?? internalJobs--;
    running.set(id, state);
    // Reports go out without waiting (a proxy call returns a promise), but the last one is awaited
    // before the result: they travel on their own port, and one that arrived after the result
    // would be dropped by the caller, which stops listening once the call has settled.
    let lastReport: Promise<unknown> = Promise.resolve();
    const progress = (fraction: number, stage?: string): void => {
      if (onProgress) lastReport = Promise.resolve(onProgress(fraction, stage)).catch(() => {});
    };
    let result: JobResult<T, C>;
    try {
      const value = await work({ shouldCancel: () => state.cancelled, onProgress: onProgress ? (f) => progress(f) : undefined }, progress);
      await lastReport;
      result = channel.transfer({ ok: true, value }, transferables(value));
    } catch (e) {
      result = { ok: false, error: failureOf(e) };
    } finally {
      running.delete(id);
      if (onProgress) channel.release(onProgress);
    }
    recent.push({ jobId: id, call, outcome: result.ok ? 'ok' : result.error.code });
    if (recent.length > RECENT_JOBS) recent.shift();
    return result;
  }

  return {
    run,
    cancel(jobId) {
      const state = running.get(jobId);
      if (state) state.cancelled = true;
    },
    get runningJobs() {
      return running.size;
    },
    recentJobs: () => [...recent],
  };
}
