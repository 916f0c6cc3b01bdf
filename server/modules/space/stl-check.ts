// Is this really an STL file? The same wasm kernel the editor's worker runs reads it (so the
// server accepts exactly what the editor can open), and the same mesh analysis as the editor's
// reports its health (open and non-manifold edges, degenerate triangles, shells). Without
// build/kernels.wasm (a server run without `npm run build:wasm`), a structural check stands in,
// without health, and a warning is logged once.
//
// The HTTP loop stays free: a file over 1 MiB is checked in a worker thread (stl-check.worker.ts;
// a 1M-triangle scan takes a few seconds there, and the main thread only reads the file and hands
// its bytes over), one file at a time; smaller ones, a few milliseconds of work, are checked at once
// here. Each check runs in a fresh kernel instance that is dropped afterwards (a big scan's memory
// goes back at once, and no other job shares its arena). The thread ends when idle. Where it
// cannot start, the same check runs here, in slices of 30 ms with turns of the event loop.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MessageKey } from '../../core/i18n.ts';
import type { Logger } from '../../core/logger.ts';
import type { StlHealth } from '../../../workers/kernels/stl-health.ts';

export type { StlHealth };

// The kernel wrappers are worker code (WebAssembly and DOM types the server project does not
// load), so they are imported by URL and typed here by the little the server uses.
/** An opaque kernel instance. */
type Kernels = object;
interface MeshRef {
  vertexCount: number;
  triangleCount: number;
}
/** A compiled kernels.wasm (WebAssembly.Module, whose type the server project does not load). */
type Compiled = object;
interface KernelModules {
  compileKernels(bytes: Uint8Array): Promise<Compiled>;
  instantiateModule(module: Compiled): Kernels;
  parseStl(k: Kernels, source: Blob | Uint8Array): Promise<
    | { ok: true; mesh: { triangleCount: number; positions: Float32Array; indices: Uint32Array } }
    | { ok: false; error: { code: string; detail: string } }
  >;
  meshFromArrays(k: Kernels, positions: Float32Array, indices: Uint32Array): MeshRef;
  analyzeMesh(m: MeshRef): Promise<{
    vertices: number;
    triangles: number;
    degenerateTriangles: number;
    openEdges: number;
    boundaryLoops: number;
    nonManifoldEdges: number;
    inconsistentEdges: number;
    shellCount: number;
  }>;
}
const moduleUrl = (file: string) => new URL(`../../../workers/kernels/${file}`, import.meta.url).href;

const WASM_PATH = fileURLToPath(new URL('../../../build/kernels.wasm', import.meta.url));

export type StlCheck = { ok: true; triangles: number; health: StlHealth | null } | { ok: false; code: string; detail: string };

/** The catalog message of a kernel error code (a reason users can read in their language). */
export const STL_REASON: Readonly<Record<string, MessageKey>> = {
  STL_EMPTY: 'stlEmpty',
  STL_TOO_SHORT: 'stlTooShort',
  STL_NOT_STL: 'stlNotStl',
  STL_TRUNCATED: 'stlTruncated',
  STL_COUNT_MISMATCH: 'stlCountMismatch',
  STL_MALFORMED: 'stlMalformed',
  STL_NO_TRIANGLES: 'stlNoTriangles',
  STL_NON_FINITE: 'stlNonFinite',
  STL_TOO_LARGE: 'stlTooLarge',
};

type Loaded = { compiled: Compiled; m: Pick<KernelModules, 'instantiateModule' | 'parseStl' | 'meshFromArrays' | 'analyzeMesh'> };
let kernels: Promise<Loaded | null> | undefined;

function loadKernels(logger: Logger) {
  kernels ??= (async () => {
    if (!fs.existsSync(WASM_PATH)) {
      logger.warn(`${WASM_PATH} is missing (npm run build:wasm): STL uploads get a structural check only`);
      return null;
    }
    const abi = (await import(moduleUrl('abi.ts'))) as Pick<KernelModules, 'compileKernels' | 'instantiateModule'>;
    const stl = (await import(moduleUrl('stl.ts'))) as Pick<KernelModules, 'parseStl'>;
    const mesh = (await import(moduleUrl('mesh.ts'))) as Pick<KernelModules, 'meshFromArrays'>;
    const topology = (await import(moduleUrl('topology.ts'))) as Pick<KernelModules, 'analyzeMesh'>;
    // Compiled once; each check gets a fresh instance of it (well under a millisecond).
    return { compiled: await abi.compileKernels(fs.readFileSync(WASM_PATH)), m: { ...abi, ...stl, ...mesh, ...topology } };
  })();
  return kernels;
}

/** One big check at a time: a second waits (each holds a whole mesh in memory). */
let queue: Promise<unknown> = Promise.resolve();
/**
 * Files up to this size (about 20,000 triangles) are checked at once in this thread: a few
 * milliseconds of work, in slices, and many uploads at a time must not queue behind each other.
 */
export const SMALL_STL_BYTES = 1024 * 1024;

export function checkStl(file: Blob, logger: Logger): Promise<StlCheck> {
  if (file.size <= SMALL_STL_BYTES) return checkStlHere(file, logger);
  const job = queue.then(async () => {
    const bytes = new Uint8Array(await file.arrayBuffer());
    // (The bytes went to the thread: a fallback reads the file again.)
    return (await inThread(bytes, logger)) ?? checkStlHere(file, logger);
  });
  queue = job.catch(() => undefined);
  return job;
}

// ---------------------------------------------------------------- the worker thread

const WORKER_URL = new URL('./stl-check.worker.mjs', import.meta.url);
/** The thread ends after this long without a check (its wasm memory goes with it). */
const IDLE_MS = 30_000;

type Reply = { id: number; result: StlCheck | null } | { id: number; warn: string };
let thread: { worker: Worker; idle?: ReturnType<typeof setTimeout> } | null = null;
let threadFailed = false;
let nextId = 0;

function startThread(logger: Logger): Worker | null {
  if (threadFailed) return null;
  if (thread) {
    clearTimeout(thread.idle);
    return thread.worker;
  }
  try {
    // A plain module that loads the thread's TypeScript through tsx, as the server's own.
    const worker = new Worker(WORKER_URL);
    worker.unref();
    const mine = { worker };
    thread = mine;
    worker.on('error', (err) => {
      logger.warn(`STL check thread failed (${err.message}): checking in the main thread`);
      threadFailed = true;
    });
    worker.on('exit', () => {
      if (thread === mine) thread = null;
    });
    return worker;
  } catch (err) {
    logger.warn(`STL check thread could not start (${err instanceof Error ? err.message : String(err)}): checking in the main thread`);
    threadFailed = true;
    return null;
  }
}

/** The check in the worker thread; null when the thread is not there (then the caller checks here). */
function inThread(bytes: Uint8Array, logger: Logger): Promise<StlCheck | null> {
  const worker = startThread(logger);
  if (!worker) return Promise.resolve(null);
  const id = ++nextId;
  return new Promise<StlCheck | null>((resolve) => {
    const done = (result: StlCheck | null) => {
      worker.off('message', onMessage);
      worker.off('error', onGone);
      worker.off('exit', onGone);
      if (thread?.worker === worker) thread.idle = setTimeout(() => void worker.terminate(), IDLE_MS).unref();
      resolve(result);
    };
    const onMessage = (reply: Reply) => {
      if (reply.id !== id) return;
      if ('warn' in reply) logger.warn(reply.warn);
      else done(reply.result);
    };
    const onGone = () => done(null);
    worker.on('message', onMessage);
    worker.on('error', onGone);
    worker.on('exit', onGone);
    // The bytes move to the thread (no copy); the main thread keeps nothing of them.
    worker.postMessage({ id, bytes }, [bytes.buffer as ArrayBuffer]);
  });
}

/** The check itself, in this thread (the worker thread runs this too). */
export async function checkStlHere(file: Blob | Uint8Array, logger: Logger): Promise<StlCheck> {
  const loaded = await loadKernels(logger);
  if (!loaded) {
    return structuralCheck(file instanceof Uint8Array ? file : new Uint8Array(await file.arrayBuffer()));
  }
  const { m } = loaded;
  const k = m.instantiateModule(loaded.compiled);
  const result = await m.parseStl(k, file);
  if (!result.ok) return { ok: false, code: result.error.code, detail: result.error.detail };
  const { positions, indices, triangleCount } = result.mesh;
  try {
    const h = await m.analyzeMesh(m.meshFromArrays(k, positions, indices));
    const health: StlHealth = {
      triangles: h.triangles,
      vertices: h.vertices,
      degenerateTriangles: h.degenerateTriangles,
      openEdges: h.openEdges,
      boundaryLoops: h.boundaryLoops,
      nonManifoldEdges: h.nonManifoldEdges,
      flippedEdges: h.inconsistentEdges,
      shells: h.shellCount,
    };
    return { ok: true, triangles: triangleCount, health };
  } catch (err) {
    // The file is a readable STL; only the report failed (out of memory, say).
    logger.warn(`STL health check failed: ${err instanceof Error ? err.message : String(err)}`);
    return { ok: true, triangles: triangleCount, health: null };
  }
}

/** Binary: 84-byte header, then exactly 50 bytes per counted triangle; ASCII: solid ... facet. */
export function structuralCheck(bytes: Uint8Array): StlCheck {
  if (bytes.byteLength >= 84) {
    const count = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(80, true);
    if (count > 0 && bytes.byteLength === 84 + 50 * count) return { ok: true, triangles: count, health: null };
  }
  const head = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.byteLength, 4096))).replace(/^\uFEFF/, '');
  if (/^\s*solid\b/i.test(head) && /\bfacet\s+normal\b/i.test(head)) {
    const text = new TextDecoder().decode(bytes);
    const facets = text.match(/\bfacet\s+normal\b/gi)?.length ?? 0;
    if (facets > 0 && /\bendsolid\b/i.test(text)) return { ok: true, triangles: facets, health: null };
  }
  return { ok: false, code: 'STL_NOT_STL', detail: 'the file is not an STL file' };
}
