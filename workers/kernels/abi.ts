// The raw exports of build/kernels.wasm (compiled from assembly/), typed.
// Pointers and u32 counts come back from wasm as i32: always read them with
// `>>> 0`. Views into `memory.buffer` go stale whenever the memory grows (any
// call that allocates), so create them right before use.

/** Bump when assembly/index.ts kernelsAbiVersion() changes. */
const KERNELS_ABI_VERSION = 1;

import type { BendExports } from './bend-abi.ts';
import type { BiteExports } from './bite-abi.ts';
import type { BvhExports } from './bvh-abi.ts';
import type { MeshOpsExports } from './mesh-ops-abi.ts';
import type { ShapeExports } from './shape-abi.ts';
import type { TeethExports } from './teeth-abi.ts';
import type { TopologyExports } from './topology-abi.ts';

/** Exports of every area: one interface per assembly/<area>.ts, merged here. */
export interface KernelExports extends BvhExports, TopologyExports, ShapeExports, BendExports, MeshOpsExports, BiteExports, TeethExports {
  readonly memory: WebAssembly.Memory;
  kernelsAbiVersion(): number;

  arenaAlloc(size: number): number;
  arenaReset(): void;
  arenaMark(): number;
  arenaRelease(mark: number): void;
  arenaUsed(): number;

  stlBegin(ptr: number, len: number): number;
  stlStep(budget: number): number;
  stlProgress(): number;
  stlStatus(): number;
  stlFormat(): number;
  stlTriangleCount(): number;
  stlVertexCount(): number;
  stlDegenerateCount(): number;
  stlIndicesPtr(): number;
  stlPositionsPtr(): number;
  stlNormalsPtr(): number;
  stlBoundsPtr(): number;
  stlErrorLine(): number;
  stlErrorTriangle(): number;
  stlSetWeldTolerance(tolerance: number): void;
}

const REQUIRED: readonly (keyof KernelExports)[] = [
  'memory',
  'kernelsAbiVersion',
  'arenaAlloc',
  'arenaReset',
  'stlBegin',
  'stlStep',
  'stlProgress',
  'stlTriangleCount',
  'stlVertexCount',
  'stlIndicesPtr',
  'stlPositionsPtr',
  'stlNormalsPtr',
  'stlBoundsPtr',
];

/** Checks that an instance is a kernels.wasm of the ABI this code speaks. */
export function kernelExports(instance: WebAssembly.Instance): KernelExports {
  const exports = instance.exports as unknown as Partial<KernelExports>;
  for (const name of REQUIRED) {
    if (!(name in exports)) throw new Error(`kernels.wasm lacks the export "${name}": rebuild it with npm run build:wasm`);
  }
  const k = exports as KernelExports;
  const abi = k.kernelsAbiVersion();
  if (abi !== KERNELS_ABI_VERSION) {
    throw new Error(`kernels.wasm speaks ABI ${abi}, this code expects ${KERNELS_ABI_VERSION}: rebuild it with npm run build:wasm`);
  }
  return k;
}

/** The kernels need no imports. */
const IMPORTS: WebAssembly.Imports = {};

/** Compiles kernels.wasm once; instantiate it per mesh with instantiateModule(). */
export function compileKernels(bytes: BufferSource): Promise<WebAssembly.Module> {
  return WebAssembly.compile(bytes);
}

/**
 * Compiles from a URL (the worker). Streams when the server sends
 * `application/wasm`, else falls back to compiling from bytes.
 */
export async function compileKernelsFromUrl(url: URL | string): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`kernels.wasm: HTTP ${response.status} for ${String(url)}`);
  if (typeof WebAssembly.compileStreaming === 'function') {
    try {
      return await WebAssembly.compileStreaming(response.clone());
    } catch {
      // Usually a wrong Content-Type; compile from bytes below.
    }
  }
  return compileKernels(await response.arrayBuffer());
}

/**
 * A fresh instance of a compiled kernels module: its own linear memory
 * (starting small) and arena. Synchronous and cheap (well under a
 * millisecond), so the worker makes one per mesh.
 */
export function instantiateModule(module: WebAssembly.Module): KernelExports {
  return kernelExports(new WebAssembly.Instance(module, IMPORTS));
}

/** Instantiates from bytes (Node tests read build/kernels.wasm with fs). */
export async function instantiateKernels(bytes: BufferSource): Promise<KernelExports> {
  const { instance } = await WebAssembly.instantiate(bytes, IMPORTS);
  return kernelExports(instance);
}
