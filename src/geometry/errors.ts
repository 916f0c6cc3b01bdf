import type { WorkerErrorCode, WorkerFailure } from '../../workers/geometry.worker.ts';

/** Every error code the geometry path can report (the worker's, plus the client's). */
export type GeometryErrorCode = WorkerErrorCode | 'WORKER_FAILED';

/** A failed geometry job. `code` is stable; the UI translates it. */
export class GeometryError extends Error {
  override readonly name = 'GeometryError';
  readonly code: GeometryErrorCode;
  /** ASCII STL: 1-based line of the problem. */
  readonly line: number | undefined;
  /** Binary STL: 0-based index of the offending triangle. */
  readonly triangle: number | undefined;
  /** DOWNLOAD_FAILED (a file the worker downloads): the HTTP status, 0 for the network. */
  readonly status: number | undefined;

  constructor(
    code: GeometryErrorCode,
    detail: string,
    where: { line?: number | undefined; triangle?: number | undefined; status?: number | undefined } = {},
  ) {
    super(`${code}: ${detail}`);
    this.code = code;
    this.line = where.line;
    this.triangle = where.triangle;
    this.status = where.status;
  }

  /** The rejection for a worker's { ok: false, error }. */
  static from(failure: WorkerFailure): GeometryError {
    return new GeometryError(failure.code, failure.detail, failure);
  }
}

export function isAbortError(e: unknown): boolean {
  return e instanceof DOMException ? e.name === 'AbortError' : e instanceof Error && e.name === 'AbortError';
}
