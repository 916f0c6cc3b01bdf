/**
 * Simplifying a model that is over the upload limit, in the browser, before it is uploaded: the
 * file is opened in a geometry worker, decimated (quadric-error edge collapse) to as many triangles
 * as fit as binary STL into 90 % of the limit, and written back as a new binary STL file.
 *
 * The geometry client (and its worker and wasm) is imported only when a model is simplified, so the
 * back office bundle does not carry it, as /bend loads the editor.
 */
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { GeometryError, isAbortError } from '../../geometry/errors.ts';
import { errorMessage } from '../../editor/ui/errors.ts';

/** The part of the limit a simplified model aims at: room for a kernel that stops a little above its target. */
const TARGET_SHARE = 0.9;

/** How many triangles a simplified model may keep so that its binary STL (84-byte header and count, 50 bytes a triangle) takes `share` of `maxBytes`. */
export function targetTriangles(maxBytes: number, share = TARGET_SHARE): number {
  return Math.max(4, Math.floor((maxBytes * share - 84) / 50));
}

/** `upper.stl` → `upper-simplified.stl`. */
export function simplifiedName(name: string): string {
  const base = name.replace(/\.stl$/i, '');
  return `${base || 'model'}-simplified.stl`;
}

/** 'open': reading and parsing the file; 'simplify': the decimation; 'export': writing the STL. */
export type SimplifyStage = 'open' | 'simplify' | 'export';

export interface SimplifyOptions {
  signal?: AbortSignal | undefined;
  /** Fraction 0..1 of the stage, or null when the stage reports none. */
  onProgress?: ((stage: SimplifyStage, fraction: number | null) => void) | undefined;
}

export interface SimplifiedModel {
  file: File;
  trianglesBefore: number;
  trianglesAfter: number;
}

/** The simplified model still does not fit (a damaged mesh whose borders refuse collapses). */
export class NotSmallEnoughError extends Error {
  override readonly name = 'NotSmallEnoughError';
  constructor(readonly bytes: number) {
    super(`the simplified model takes ${bytes} bytes`);
  }
}

/**
 * Simplifies an STL file so that it fits under `maxBytes` as binary STL. A model that already fits
 * in binary form (a large ASCII file) is only converted. Rejects with a GeometryError (not STL,
 * worker failure), an AbortError, or NotSmallEnoughError. The worker's meshes are released and the
 * worker terminated whatever happens.
 */
export async function simplifyModel(file: File, maxBytes: number, options: SimplifyOptions = {}): Promise<SimplifiedModel> {
  const { signal, onProgress } = options;
  onProgress?.('open', 0);
  const { GeometryClient } = await import('../../geometry/client.ts');
  signal?.throwIfAborted();
  const client = new GeometryClient();
  const held: number[] = [];
  try {
    const opened = await client.openStl(file, { signal, onProgress: (fraction) => onProgress?.('open', fraction) });
    held.push(opened.handle);
    const target = targetTriangles(maxBytes);
    let handle = opened.handle;
    let trianglesAfter = opened.triangleCount;
    if (opened.triangleCount > target) {
      onProgress?.('simplify', 0);
      const simplified = await client.simplify(opened.handle, target, { signal, onProgress: (fraction) => onProgress?.('simplify', fraction) });
      held.push(simplified.handle);
      handle = simplified.handle;
      trianglesAfter = simplified.triangleCount;
      // The source is no longer needed: free it before the export copies the result out.
      await client.release(opened.handle);
      held.shift();
    }
    onProgress?.('export', null);
    const bytes = await client.exportStl(handle);
    signal?.throwIfAborted();
    if (bytes.byteLength > maxBytes) throw new NotSmallEnoughError(bytes.byteLength);
    const out = new File([bytes as Uint8Array<ArrayBuffer>], simplifiedName(file.name), { type: 'model/stl' });
    return { file: out, trianglesBefore: opened.triangleCount, trianglesAfter };
  } finally {
    await Promise.all(held.map((h) => client.release(h).catch(() => false)));
    client.dispose();
  }
}

/**
 * An ASCII STL file as binary STL, through the geometry worker (openStl, then exportStl): two bite
 * scans are merged record-wise (src/geometry/stlMerge.ts), which needs binary ones. Rejects with a GeometryError
 * (not STL, worker failure) or an AbortError; the worker is terminated whatever happens.
 */
export async function convertToBinaryStl(file: File, options: { signal?: AbortSignal | undefined } = {}): Promise<Uint8Array> {
  const { signal } = options;
  const { GeometryClient } = await import('../../geometry/client.ts');
  signal?.throwIfAborted();
  const client = new GeometryClient();
  let handle: number | null = null;
  try {
    const opened = await client.openStl(file, { signal });
    handle = opened.handle;
    const bytes = await client.exportStl(opened.handle);
    signal?.throwIfAborted();
    return bytes;
  } finally {
    if (handle !== null) await client.release(handle).catch(() => false);
    client.dispose();
  }
}

/** A sentence for a failed simplification (translated where it is shown); null for a cancel. */
export function simplifyErrorMessage(error: unknown): MessageDescriptor | null {
  if (isAbortError(error) || (error instanceof GeometryError && error.code === 'ABORTED')) return null;
  if (error instanceof NotSmallEnoughError) return msg`The model could not be simplified enough to fit under the upload limit.`;
  // A file that cannot be read or opened: the editor's sentence for the same code.
  if (error instanceof GeometryError && (error.code.startsWith('STL_') || error.code === 'OUT_OF_MEMORY')) {
    return errorMessage({ code: error.code, ...(error.line ? { line: error.line } : {}) });
  }
  return msg`The model could not be simplified because of an internal error. Please try again.`;
}
