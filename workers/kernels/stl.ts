// STL loading on top of the assembly/ kernel: writes the file's bytes once
// into wasm memory, drives the kernel in time slices (progress, cancellation)
// and copies the welded mesh out into fresh typed arrays that can be
// transferred. The worker and the Node tests both run exactly this code.

import type { KernelExports } from './abi.ts';

/** Kernel status codes (assembly/stl.ts) to stable error codes. */
const KERNEL_CODES: Readonly<Record<number, StlErrorCode>> = {
  [-1]: 'STL_EMPTY',
  [-2]: 'STL_TOO_SHORT',
  [-3]: 'STL_NOT_STL',
  [-4]: 'STL_TRUNCATED',
  [-5]: 'STL_COUNT_MISMATCH',
  [-6]: 'STL_MALFORMED',
  [-7]: 'STL_NO_TRIANGLES',
  [-8]: 'STL_NON_FINITE',
  [-9]: 'STL_TOO_LARGE',
  [-10]: 'KERNEL_FAILED',
};

/**
 * Every way loading an STL can fail. Stable: the UI maps them to translated
 * messages, tests assert them.
 */
export type StlErrorCode =
  /** 0 bytes. */
  | 'STL_EMPTY'
  /** Shorter than the 84-byte binary header and not ASCII STL. */
  | 'STL_TOO_SHORT'
  /** Neither ASCII STL nor plausible binary STL (text, an image, an archive...). */
  | 'STL_NOT_STL'
  /** Binary: the file ends in the middle of a triangle record. */
  | 'STL_TRUNCATED'
  /** Binary: the header's triangle count disagrees with the whole records in the file. */
  | 'STL_COUNT_MISMATCH'
  /** ASCII: a syntax error; `line` tells where. */
  | 'STL_MALFORMED'
  /** A well-formed file with no triangles. */
  | 'STL_NO_TRIANGLES'
  /** A vertex coordinate is NaN or infinite (`triangle` or `line` tells where). */
  | 'STL_NON_FINITE'
  /** The mesh does not fit in wasm memory. */
  | 'STL_TOO_LARGE'
  /** The file could not be read. */
  | 'STL_READ_FAILED'
  /** The job was cancelled. */
  | 'ABORTED'
  /** A bug or a broken kernels.wasm: not the file's fault. */
  | 'KERNEL_FAILED';

export const STL_ERROR_CODES: readonly StlErrorCode[] = [
  'STL_EMPTY',
  'STL_TOO_SHORT',
  'STL_NOT_STL',
  'STL_TRUNCATED',
  'STL_COUNT_MISMATCH',
  'STL_MALFORMED',
  'STL_NO_TRIANGLES',
  'STL_NON_FINITE',
  'STL_TOO_LARGE',
  'STL_READ_FAILED',
  'ABORTED',
  'KERNEL_FAILED',
];

export interface StlError {
  code: StlErrorCode;
  /** ASCII: 1-based line of the problem. */
  line?: number;
  /** Binary: 0-based index of the offending triangle. */
  triangle?: number;
  /** English detail for logs; the UI translates `code` instead. */
  detail: string;
}

export type Vec3 = [number, number, number];

export interface StlMesh {
  /** xyz per vertex; identical positions are welded. */
  positions: Float32Array;
  /** Unit normal per vertex: area-weighted average of the face normals. */
  normals: Float32Array;
  /** Three vertex indices per triangle, counter-clockwise seen from outside (as in the file). */
  indices: Uint32Array;
  bounds: { min: Vec3; max: Vec3 };
  vertexCount: number;
  triangleCount: number;
  /** Triangles with zero area or repeated vertices (kept, but without weight in the normals). */
  degenerateTriangles: number;
  format: 'binary' | 'ascii';
  byteLength: number;
  /**
   * readMs: the bytes into wasm memory (a Blob's read included); parseMs: the
   * kernel steps and copying the arrays out, of which copyOutMs the copying.
   */
  timings: { readMs: number; parseMs: number; copyOutMs: number };
}

export type StlResult = { ok: true; mesh: StlMesh } | { ok: false; error: StlError };

/** 'download': a stream from the network (its own 0..1); 'read': a Blob (the first 20 %); 'parse'. */
export type StlStage = 'download' | 'read' | 'parse';

export interface ParseStlOptions {
  /** Called with an overall fraction 0..1, at most every `progressIntervalMs`, and once with 1 at the end. */
  onProgress?: (fraction: number, stage: StlStage) => void;
  /** Polled between slices; true stops the job with ABORTED. */
  shouldCancel?: () => boolean;
  /** How a slice gives the event loop a turn (so cancel messages arrive). Default: setTimeout 0. */
  yieldToEventLoop?: () => Promise<void>;
  /** Longest stretch of kernel work between yields. Default 30 ms. */
  sliceMs?: number;
  /** Minimum time between progress reports. Default 50 ms. */
  progressIntervalMs?: number;
  /**
   * Also merge vertices closer than this (model units) after the exact weld:
   * each vertex joins the first earlier kept vertex within the tolerance.
   * Default 0: exact float32 matches only.
   */
  weldTolerance?: number;
}

/** A download's body read straight into wasm memory: `size` bytes are expected. */
export interface StlStream {
  stream: ReadableStream<Uint8Array>;
  size: number;
}

export type StlSource = Blob | ArrayBuffer | Uint8Array | StlStream;

function isStream(source: StlSource): source is StlStream {
  return typeof (source as Partial<StlStream>).stream === 'object' && typeof (source as Partial<StlStream>).size === 'number';
}

/** Share of the progress bar for reading a Blob (parsing gets the rest). */
const READ_SHARE = 0.2;
/** Work units (triangles or vertices) per kernel call. */
const STEP_BUDGET = 16384;

const defaultYield = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** One job at a time per instance: a job owns the arena until it settles. */
const queues = new WeakMap<KernelExports, Promise<unknown>>();

/**
 * Parses an STL file into an indexed mesh. Never throws for bad input or
 * cancellation: those come back as `{ ok: false, error }`. Jobs on the same
 * kernel instance run one after another; each resets the arena, so the last
 * mesh stays in wasm memory until the next job starts.
 */
export function parseStl(k: KernelExports, source: StlSource, options: ParseStlOptions = {}): Promise<StlResult> {
  const previous = queues.get(k) ?? Promise.resolve();
  const job = previous.then(
    () => runJob(k, source, options),
    () => runJob(k, source, options),
  );
  queues.set(k, job);
  return job;
}

/**
 * Distance tests made by the last job's tolerance merge on this instance (0
 * without a tolerance): the merge's cost, which stays proportional to the
 * vertices whatever the tolerance. For tests; a kernels.wasm without the
 * export gives NaN.
 */
export function stlMergeTests(k: KernelExports): number {
  const raw = k as KernelExports & { stlMergeTests?: () => number };
  return raw.stlMergeTests ? raw.stlMergeTests() : NaN;
}

function failure(code: StlErrorCode, detail: string, extra: Partial<StlError> = {}): StlResult {
  return { ok: false, error: { code, detail, ...extra } };
}

async function runJob(k: KernelExports, source: StlSource, options: ParseStlOptions): Promise<StlResult> {
  try {
    return await parseUnqueued(k, source, options);
  } catch (e) {
    return failure('KERNEL_FAILED', e instanceof Error ? e.message : String(e));
  }
}

async function parseUnqueued(k: KernelExports, source: StlSource, options: ParseStlOptions): Promise<StlResult> {
  const shouldCancel = options.shouldCancel ?? (() => false);
  const yieldToEventLoop = options.yieldToEventLoop ?? defaultYield;
  const sliceMs = options.sliceMs ?? 30;
  const progressIntervalMs = options.progressIntervalMs ?? 50;
  const onProgress = options.onProgress;
  const blob = typeof Blob !== 'undefined' && source instanceof Blob ? source : undefined;
  const download = blob ? undefined : isStream(source) ? source : undefined;
  const bytes = blob || download ? undefined : source instanceof Uint8Array ? source : new Uint8Array(source as ArrayBuffer);
  const isBlob = blob !== undefined;
  // A Blob's read is the first part of one bar; a download has a bar of its own, then parsing.
  const readShare = isBlob ? READ_SHARE : 0;
  const readStage: StlStage = isBlob ? 'read' : 'download';

  let lastReport = -Infinity;
  const report = (fraction: number, stage: StlStage, force = false): void => {
    if (!onProgress) return;
    const now = performance.now();
    if (!force && now - lastReport < progressIntervalMs) return;
    lastReport = now;
    onProgress(Math.min(1, Math.max(0, fraction)), stage);
  };
  const aborted = (): StlResult => failure('ABORTED', 'cancelled');

  if (shouldCancel()) return aborted();

  // ---- bytes into wasm memory, once
  const t0 = performance.now();
  const byteLength = blob ? blob.size : download ? download.size : bytes!.byteLength;
  k.arenaReset();
  const inPtr = k.arenaAlloc(byteLength) >>> 0;
  if (inPtr === 0) {
    if (download) void download.stream.cancel().catch(() => {});
    return failure('STL_TOO_LARGE', `cannot hold ${byteLength} bytes in wasm memory`);
  }
  const stream = blob ? blob.stream() : download?.stream;
  report(0, stream ? readStage : 'parse', true);

  if (stream) {
    let offset = 0;
    try {
      const reader = stream.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (offset + value.byteLength > byteLength) throw new Error('the file grew while it was read');
          new Uint8Array(k.memory.buffer, inPtr + offset, value.byteLength).set(value);
          offset += value.byteLength;
          if (shouldCancel()) {
            await reader.cancel().catch(() => {});
            return aborted();
          }
          const read = offset / Math.max(1, byteLength);
          report(isBlob ? readShare * read : read, readStage);
        }
      } finally {
        reader.releaseLock();
      }
    } catch (e) {
      return failure('STL_READ_FAILED', e instanceof Error ? e.message : String(e));
    }
    if (offset !== byteLength) return failure('STL_READ_FAILED', `read ${offset} of ${byteLength} bytes`);
  } else {
    new Uint8Array(k.memory.buffer, inPtr, byteLength).set(bytes!);
  }
  const t1 = performance.now();
  report(readShare, 'parse', true);

  // ---- parse in slices
  k.stlSetWeldTolerance(options.weldTolerance ?? 0);
  let status = k.stlBegin(inPtr, byteLength);
  if (status < 0) return kernelFailure(k, status);
  let sliceStart = performance.now();
  for (;;) {
    status = k.stlStep(STEP_BUDGET);
    if (status <= 0) break;
    if (performance.now() - sliceStart >= sliceMs) {
      report(readShare + (1 - readShare) * k.stlProgress(), 'parse');
      await yieldToEventLoop();
      if (shouldCancel()) return aborted();
      sliceStart = performance.now();
    }
  }
  if (status < 0) return kernelFailure(k, status);

  // ---- copy out (fresh buffers, so they can be transferred)
  const vertexCount = k.stlVertexCount() >>> 0;
  const triangleCount = k.stlTriangleCount() >>> 0;
  const buffer = k.memory.buffer;
  const posPtr = k.stlPositionsPtr() >>> 0;
  const nrmPtr = k.stlNormalsPtr() >>> 0;
  const idxPtr = k.stlIndicesPtr() >>> 0;
  const b = new Float32Array(buffer, k.stlBoundsPtr() >>> 0, 6);
  const t2 = performance.now();
  const positions = new Float32Array(buffer.slice(posPtr, posPtr + vertexCount * 12));
  const normals = new Float32Array(buffer.slice(nrmPtr, nrmPtr + vertexCount * 12));
  const indices = new Uint32Array(buffer.slice(idxPtr, idxPtr + triangleCount * 12));
  const t3 = performance.now();
  const mesh: StlMesh = {
    positions,
    normals,
    indices,
    bounds: { min: [b[0]!, b[1]!, b[2]!], max: [b[3]!, b[4]!, b[5]!] },
    vertexCount,
    triangleCount,
    degenerateTriangles: k.stlDegenerateCount() >>> 0,
    format: k.stlFormat() === 2 ? 'ascii' : 'binary',
    byteLength,
    timings: { readMs: t1 - t0, parseMs: t3 - t1, copyOutMs: t3 - t2 },
  };
  report(1, 'parse', true);
  return { ok: true, mesh };
}

function kernelFailure(k: KernelExports, status: number): StlResult {
  const code = KERNEL_CODES[status] ?? 'KERNEL_FAILED';
  const line = k.stlErrorLine();
  const triangle = k.stlErrorTriangle();
  const extra: Partial<StlError> = {};
  let where = '';
  if (line > 0) {
    extra.line = line;
    where = ` at line ${line}`;
  } else if (triangle >= 0) {
    extra.triangle = triangle;
    where = ` in triangle ${triangle}`;
  }
  return failure(code, `${DETAILS[code]}${where}`, extra);
}

const DETAILS: Readonly<Record<StlErrorCode, string>> = {
  STL_EMPTY: 'the file is empty',
  STL_TOO_SHORT: 'the file is shorter than a binary STL header',
  STL_NOT_STL: 'the file is not an STL file',
  STL_TRUNCATED: 'the file ends in the middle of a triangle',
  STL_COUNT_MISMATCH: 'the header triangle count does not match the file size',
  STL_MALFORMED: 'ASCII STL syntax error',
  STL_NO_TRIANGLES: 'the file has no triangles',
  STL_NON_FINITE: 'a coordinate is not a finite number',
  STL_TOO_LARGE: 'the mesh does not fit in memory',
  STL_READ_FAILED: 'the file could not be read',
  ABORTED: 'cancelled',
  KERNEL_FAILED: 'internal kernel error',
};
