// Main-thread client of workers/geometry.worker.ts. Framework-free.
//
// Cancellation: each call gets a job id; aborting its AbortSignal rejects the
// call at once with the signal's reason (an AbortError) and sends
// cancel(jobId) to the worker, which stops at its next time slice (within
// ~30 ms) and frees the arena for the next job. The worker is not
// terminated, so meshes it keeps in wasm memory survive a cancelled load.
// If the worker itself dies (script or wasm failed to load), pending calls
// reject with WORKER_FAILED and the next call starts a fresh worker.

import * as Comlink from 'comlink';
import type { GeometryApi } from '../../../workers/geometry.worker.ts';
import type { StlMesh, StlStage } from '../../../workers/kernels/stl.ts';
import { GeometryError } from './errors.ts';

export type { StlMesh, StlStage, Vec3 } from '../../../workers/kernels/stl.ts';

export interface LoadOptions {
  signal?: AbortSignal;
  /** Overall fraction 0..1 (reading, then parsing), throttled by the worker. */
  onProgress?: (fraction: number, stage: StlStage) => void;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

export class GeometryClient {
  private worker: Worker | undefined;
  private remote: Comlink.Remote<GeometryApi> | undefined;
  private nextJob = 1;
  private readonly pending = new Set<(e: unknown) => void>();

  private api(): Comlink.Remote<GeometryApi> {
    if (!this.remote) {
      const worker = new Worker(new URL('../../../workers/geometry.worker.ts', import.meta.url), { type: 'module', name: 'geometry' });
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        this.fail(new GeometryError('WORKER_FAILED', event.message || 'the geometry worker failed to start'));
      });
      this.worker = worker;
      this.remote = Comlink.wrap<GeometryApi>(worker);
    }
    return this.remote;
  }

  /** Starts the worker and compiles kernels.wasm ahead of the first file. */
  warmUp(): Promise<void> {
    return this.api().warmUp();
  }

  /**
   * Parses an STL file in the worker. The File is read there, not here.
   * Resolves with the mesh; rejects with a GeometryError (bad file, worker
   * failure) or the signal's AbortError.
   */
  loadStl(source: Blob | ArrayBuffer, options: LoadOptions = {}): Promise<StlMesh> {
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const api = this.api();
    const jobId = this.nextJob++;
    return new Promise<StlMesh>((resolve, reject) => {
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        this.pending.delete(onWorkerFailure);
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const onWorkerFailure = (e: unknown): void => {
        if (settle()) reject(e);
      };
      const onAbort = (): void => {
        if (!settle()) return;
        api.cancel(jobId).catch(() => {});
        reject(abortReason(signal!));
      };
      this.pending.add(onWorkerFailure);
      signal?.addEventListener('abort', onAbort, { once: true });

      const progress = onProgress
        ? Comlink.proxy((fraction: number, stage: StlStage) => {
            if (!settled) onProgress(fraction, stage);
          })
        : undefined;
      const transfer = source instanceof ArrayBuffer ? [source] : [];
      api
        .parseStl(Comlink.transfer(source, transfer), jobId, progress)
        .then(
          (result) => {
            if (!settle()) return;
            if (result.ok) resolve(result.mesh);
            else reject(new GeometryError(result.error.code, result.error.detail, result.error));
          },
          (e: unknown) => {
            if (settle()) reject(new GeometryError('WORKER_FAILED', e instanceof Error ? e.message : String(e)));
          },
        );
    });
  }

  private fail(error: GeometryError): void {
    for (const reject of [...this.pending]) reject(error);
    this.pending.clear();
    this.dispose();
  }

  /** Terminates the worker; the next call starts a fresh one. */
  dispose(): void {
    this.remote?.[Comlink.releaseProxy]();
    this.worker?.terminate();
    this.remote = undefined;
    this.worker = undefined;
  }
}

let shared: GeometryClient | undefined;

/** The page-wide geometry client (one worker). */
export function getGeometryClient(): GeometryClient {
  shared ??= new GeometryClient();
  return shared;
}
