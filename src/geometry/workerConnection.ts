// The one generic page-side client of a Comlink worker (geometry, slot). The worker's API type
// is inferred from its code (`export type GeometryApi = typeof api`), and everything a page
// client does with it is typed from that:
// - a long call, `(...args, jobId, onProgress) => Promise<JobResult<T>>` in the worker, becomes
//   `(...args, { signal, onProgress }) => Promise<T>` here (JobCalls): the bridge picks the job
//   id, turns an abort into cancel(jobId) and an at-once rejection with the signal's reason,
//   wraps the progress callback in a Comlink proxy and unwraps the result;
// - a short call, `(...args) => Promise<JobResult<T>>`, becomes `(...args) => Promise<T>`
//   (ShortCalls);
// - a failure rejects with the client's own error (`fromFailure`, e.g. GeometryError with the
//   worker's stable code); a dead worker rejects every call still waiting with the client's
//   WORKER_FAILED error and is dropped, so the next call starts a fresh one.
// So a new worker call is usable from the page as `bridge.jobs.name(...args, options)` without a
// hand-written wrapper; a client method exists only to give a call defaults or its own handling.
import * as Comlink from 'comlink';
import type { JobFailure, JobResult } from '../../workers/kernels/job.ts';

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

// ---------------------------------------------------------------- types from the worker's API

type AnyFunction = (...args: any[]) => unknown;
type Callback = (...args: never[]) => unknown;

/** The arguments before (jobId, onProgress) of a long worker call; never for other members. */
export type JobArgs<F> = F extends (...args: infer P) => Promise<JobResult<unknown>>
  ? Required<P> extends [...infer A, number, infer _Progress extends Callback]
    ? A
    : never
  : never;

/** The progress callback a long worker call takes. */
export type JobProgress<F> = F extends (...args: infer P) => unknown ? (Required<P> extends [...unknown[], number, infer C extends Callback] ? C : never) : never;

/** What a worker call's JobResult carries when it succeeds. */
export type ResultValue<F> = F extends (...args: never[]) => Promise<JobResult<infer T>> ? T : never;

/** The options of every long call on the page: an AbortSignal and the worker's progress callback. */
export interface CallOptions<P extends Callback = (fraction: number, stage?: string) => void> {
  signal?: AbortSignal | undefined;
  onProgress?: P | undefined;
}

/** Names of the worker's long calls (`..., jobId, onProgress`). */
export type JobName<Api> = { [K in keyof Api]: [JobArgs<Api[K]>] extends [never] ? never : K }[keyof Api] & string;
/** Names of the worker's other calls that resolve a JobResult. */
export type ShortName<Api> = {
  [K in keyof Api]: [JobArgs<Api[K]>] extends [never] ? (Api[K] extends (...args: never[]) => Promise<JobResult<unknown>> ? K : never) : never;
}[keyof Api] &
  string;

/** The long calls as the page makes them: the same arguments, then `{ signal, onProgress }` (pass `{}` for none). */
export type JobCalls<Api> = {
  [K in JobName<Api>]: (...args: [...JobArgs<Api[K]>, CallOptions<JobProgress<Api[K]>>]) => Promise<ResultValue<Api[K]>>;
};

/** The short calls as the page makes them: the same arguments, the value unwrapped. */
export type ShortCalls<Api> = {
  [K in ShortName<Api>]: Api[K] extends (...args: infer A) => unknown ? (...args: A) => Promise<ResultValue<Api[K]>> : never;
};

/** A worker that can stop a long call. */
interface Cancellable {
  cancel(jobId: number): void;
}

// ---------------------------------------------------------------- the connection

export class WorkerConnection<Api> {
  private worker: Worker | undefined;
  private remote: Comlink.Remote<Api> | undefined;
  private readonly pending = new Set<(e: unknown) => void>();
  private nextJob = 1;
  /** Every long call of the worker, typed from its API: `jobs.buildBvh(handle, build, { signal, onProgress })`. */
  readonly jobs: JobCalls<Api>;
  /** Every short call that resolves a JobResult: `calls.meshInfo(handle)`. */
  readonly calls: ShortCalls<Api>;

  /**
   * @param start creates the Worker (a `new Worker(new URL(...))` literal, so Vite bundles it)
   * @param failed the client's error for a dead worker or a call that threw in transit
   * @param what the worker's name in messages
   * @param fromFailure the client's error for a worker's { ok: false, error } (default: `failed(detail)`)
   */
  constructor(
    private readonly start: () => Worker,
    private readonly failed: (detail: string) => Error,
    private readonly what: string,
    private readonly fromFailure: (failure: JobFailure) => Error = (f) => failed(f.detail),
  ) {
    this.jobs = new Proxy({} as JobCalls<Api>, {
      get: (_, name) =>
        typeof name === 'string'
          ? (...args: unknown[]) => {
              const options = (args.pop() ?? {}) as never;
              return this.job(name as JobName<Api>, args as never, options);
            }
          : undefined,
    });
    this.calls = new Proxy({} as ShortCalls<Api>, {
      get: (_, name) => (typeof name === 'string' ? (...args: unknown[]) => this.call(name as ShortName<Api>, ...(args as never)) : undefined),
    });
  }

  /** The worker's API, starting the worker if none runs. */
  api(): Comlink.Remote<Api> {
    if (!this.remote) {
      const worker = this.start();
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        const error = this.failed(event.message || `the ${this.what} worker failed to start`);
        for (const reject of [...this.pending]) reject(error);
        this.pending.clear();
        this.dispose();
      });
      this.worker = worker;
      this.remote = Comlink.wrap<Api>(worker);
    }
    return this.remote;
  }

  /** The live API if a worker runs (to cancel a job without starting one). */
  current(): Comlink.Remote<Api> | undefined {
    return this.remote;
  }

  /** Calls `reject` if the worker dies before the returned function is called. */
  watch(reject: (e: unknown) => void): () => void {
    this.pending.add(reject);
    return () => this.pending.delete(reject);
  }

  /** A call whose promise settles with the worker's answer; a dead worker or a transfer failure rejects it with the client's error. */
  run<T>(call: (api: Comlink.Remote<Api>) => Promise<T>): Promise<T> {
    const api = this.api();
    return new Promise<T>((resolve, reject) => {
      const unwatch = this.watch(reject);
      call(api).then(
        (value) => {
          unwatch();
          resolve(value);
        },
        (e: unknown) => {
          unwatch();
          reject(this.failed(e instanceof Error ? e.message : String(e)));
        },
      );
    });
  }

  /** A short call by name: resolves the JobResult's value or rejects with the client's error. */
  call<K extends ShortName<Api>>(name: K, ...args: Api[K] extends (...a: infer A) => unknown ? A : never): Promise<ResultValue<Api[K]>> {
    return this.run((api) => (api as unknown as Record<string, AnyFunction>)[name]!(...args) as Promise<JobResult<ResultValue<Api[K]>>>).then((result) => {
      if (result.ok) return result.value;
      throw this.fromFailure(result.error);
    });
  }

  /**
   * A long call by name: picks its job id, bridges the AbortSignal to cancel(jobId) and the
   * progress callback to a Comlink proxy, and unwraps the JobResult. `onLate` receives a value
   * that arrives after an abort (to release what it holds). `args` may hold Comlink.transfer'd values.
   */
  job<K extends JobName<Api>>(
    name: K,
    args: JobArgs<Api[K]>,
    options: CallOptions<JobProgress<Api[K]>> = {},
    onLate?: (value: ResultValue<Api[K]>) => void,
  ): Promise<ResultValue<Api[K]>> {
    type T = ResultValue<Api[K]>;
    const { signal } = options;
    const onProgress = options.onProgress as ((...a: unknown[]) => void) | undefined;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const api = this.api();
    const jobId = this.nextJob++;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let unwatch = (): void => {};
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        unwatch();
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const onWorkerFailure = (e: unknown): void => {
        if (settle()) reject(e);
      };
      const onAbort = (): void => {
        if (!settle()) return;
        (api as unknown as Comlink.Remote<Cancellable>).cancel(jobId).catch(() => {});
        reject(abortReason(signal!));
      };
      unwatch = this.watch(onWorkerFailure);
      signal?.addEventListener('abort', onAbort, { once: true });

      const progress = onProgress
        ? Comlink.proxy((fraction: number, stage?: string) => {
            if (!settled) onProgress(fraction, stage);
          })
        : undefined;
      const call = (api as unknown as Record<string, AnyFunction>)[name]!(...(args as unknown[]), jobId, progress) as Promise<JobResult<T>>;
      call.then(
        (result) => {
          if (!settle()) {
            if (result.ok) onLate?.(result.value);
            return;
          }
          if (result.ok) resolve(result.value);
          else reject(this.fromFailure(result.error));
        },
        (e: unknown) => {
          if (settle()) reject(this.failed(e instanceof Error ? e.message : String(e)));
        },
      );
    });
  }

  /** Terminates the worker (and everything it keeps); the next call starts a fresh one. */
  dispose(): void {
    this.remote?.[Comlink.releaseProxy]();
    this.worker?.terminate();
    this.remote = undefined;
    this.worker = undefined;
  }
}
