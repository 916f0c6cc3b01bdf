// One Comlink worker, started on first use, shared by a page-side client (geometry, slot).
// What the clients had each written again: a dead worker rejects every call still waiting with
// the client's own WORKER_FAILED error and is dropped, so the next call starts a fresh one.
import * as Comlink from 'comlink';

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

export class WorkerConnection<Api> {
  private worker: Worker | undefined;
  private remote: Comlink.Remote<Api> | undefined;
  private readonly pending = new Set<(e: unknown) => void>();

  /**
   * @param start creates the Worker (a `new Worker(new URL(...))` literal, so Vite bundles it)
   * @param failed the client's error for a dead worker or a call that threw in transit
   */
  constructor(
    private readonly start: () => Worker,
    private readonly failed: (detail: string) => Error,
    private readonly what: string,
  ) {}

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

  /** Terminates the worker (and everything it keeps); the next call starts a fresh one. */
  dispose(): void {
    this.remote?.[Comlink.releaseProxy]();
    this.worker?.terminate();
    this.remote = undefined;
    this.worker = undefined;
  }
}
