// Headless editor for unit tests: a Babylon NullEngine (no GPU, no DOM) and the real geometry
// worker module running in this process. Only the platform is stood in for: the worker's
// global message endpoint is one side of a MessageChannel, `Worker` hands out the other side,
// and fetch() of a file: URL reads the file (the worker loads build/kernels.wasm by URL).
import { afterEach, beforeEach } from 'vitest';
import { readFile } from 'node:fs/promises';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { EditorEngine, type EditorEngineOptions } from '../../src/editor/engine/EditorEngine.ts';
import { GeometryClient } from '../../src/geometry/client.ts';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';
import { palateJaw } from '../fixtures/base-models.ts';
import { teethJaw, type TeethJaw } from '../fixtures/teeth-jaws.ts';

type Listener = (event: MessageEvent) => void;
const g = globalThis as unknown as Record<string, unknown>;

let installed: Promise<void> | null = null;

/** Loads workers/geometry.worker.ts in this process behind a MessageChannel (once per test file). */
function installWorker(): Promise<void> {
  installed ??= (async () => {
    const realFetch = globalThis.fetch;
    g.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.protocol === 'file:') return new Response(await readFile(url), { headers: { 'Content-Type': 'application/wasm' } });
      return realFetch(input, init);
    };
    const channel = new MessageChannel();
    const workerSide = channel.port1;
    const pageSide = channel.port2;
    g.addEventListener = (type: string, fn: Listener) => workerSide.addEventListener(type as 'message', fn);
    g.removeEventListener = (type: string, fn: Listener) => workerSide.removeEventListener(type as 'message', fn);
    g.postMessage = (data: unknown, transfer?: Transferable[]) => workerSide.postMessage(data, transfer ?? []);
    workerSide.start();
    await import('../../workers/geometry.worker.ts');
    g.Worker = class {
      addEventListener(type: string, fn: Listener): void {
        if (type === 'message') pageSide.addEventListener('message', fn);
      }
      removeEventListener(type: string, fn: Listener): void {
        if (type === 'message') pageSide.removeEventListener('message', fn);
      }
      postMessage(data: unknown, transfer?: Transferable[]): void {
        pageSide.postMessage(data, transfer ?? []);
      }
      start(): void {
        pageSide.start();
      }
      terminate(): void {}
    };
  })();
  return installed;
}

export interface Headless {
  editor: EditorEngine;
  geometry: GeometryClient;
  dispose(): void;
}

// One client for the whole file: Comlink releases the worker side when a client's proxy is
// garbage collected, which would stop the one in-process worker under the next test.
let client: GeometryClient | null = null;

/** `options`: more engine options (a slot worker stand-in, editor-slot.test.ts). */
export async function headlessEditor(options: Omit<EditorEngineOptions, 'engine' | 'geometry'> = {}): Promise<Headless> {
  await installWorker();
  const geometry = (client ??= new GeometryClient());
  const engine = new NullEngine({ renderWidth: 800, renderHeight: 600, textureSize: 256, deterministicLockstep: false, lockstepMaxSteps: 1 });
  const editor = new EditorEngine(null, { ...options, engine, geometry });
  return {
    editor,
    geometry,
    dispose() {
      editor.dispose();
    },
  };
}


/** A fresh headless editor for every test of the calling file, made before it and disposed after it. */
export function headlessEditorEach(use: (made: Headless) => void): void {
  let made: Headless | null = null;
  beforeEach(async () => {
    made = await headlessEditor();
    use(made);
  });
  afterEach(() => made?.dispose());
}

/** Generated jaws as STL bytes: the lower one and the upper one (turned over, cusps meeting). */
export function jawStls(detail = 0.5): { upper: ArrayBuffer; lower: ArrayBuffer } {
  const lower = jawMesh({ detail });
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  return { upper: binaryStl(soupOf(upper)).buffer, lower: binaryStl(soupOf(lower)).buffer };
}

/** Opens both jaws as an order's models (the bytes are the "download"). */
export async function openJaws(editor: EditorEngine): Promise<void> {
  const { upper, lower } = jawStls();
  await editor.openModels([
    { role: 'upper', name: 'upper.stl', source: async (_signal, onProgress) => (onProgress(1), upper) },
    { role: 'lower', name: 'lower.stl', source: async (_signal, onProgress) => (onProgress(1), lower) },
  ]);
}

let palateStl: ArrayBuffer | undefined;

/** Opens the generated palate jaw (test/fixtures/base-models.ts) as the lower model, seen from the top and rendered (clicks are aimed through that projection). */
export async function openPalateJaw(editor: EditorEngine): Promise<void> {
  palateStl ??= binaryStl(soupOf(palateJaw())).buffer as ArrayBuffer;
  const bytes = palateStl.slice(0);
  await editor.openModels([{ role: 'lower', name: 'lower.stl', source: async (_signal, onProgress) => (onProgress(1), bytes) }]);
  editor.setView('top');
  editor.renderNow();
}

let palateStls: { upper: ArrayBuffer; lower: ArrayBuffer } | undefined;

/** Opens the generated palate jaw as the lower model and the same turned over (palateJaw's `upper`) as the upper one, seen from the top. */
export async function openPalateJaws(editor: EditorEngine): Promise<void> {
  palateStls ??= { upper: binaryStl(soupOf(palateJaw({ upper: true }))).buffer as ArrayBuffer, lower: binaryStl(soupOf(palateJaw())).buffer as ArrayBuffer };
  const { upper, lower } = { upper: palateStls.upper.slice(0), lower: palateStls.lower.slice(0) };
  await editor.openModels([
    { role: 'upper', name: 'upper.stl', source: async (_signal, onProgress) => (onProgress(1), upper) },
    { role: 'lower', name: 'lower.stl', source: async (_signal, onProgress) => (onProgress(1), lower) },
  ]);
  editor.setView('top');
  editor.renderNow();
}

/** The realistic generated jaws of the teeth tests (test/fixtures/teeth-jaws.ts) with their truth. */
export interface TeethJaws {
  upper: TeethJaw;
  lower: TeethJaw;
}

const TEETH_JAWS = { lower: { jaw: 'lower', seed: 1 }, upper: { jaw: 'upper', seed: 2 } } as const;
/** Grid step, mm: ~23k vertices a jaw, small enough to stay fast; the kernel numbers both jaws right at it (mean IoU ~0.98). */
const TEETH_EDGE = 0.4;
let teethJawsMade: (TeethJaws & { stl: { upper: ArrayBuffer; lower: ArrayBuffer } }) | undefined;

/**
 * The generated scan-like jaws (one welded surface each, truth labels by construction), made once per test
 * file. Both are in the canonical frame as teethJaw builds them: the lower's crowns face +z, the upper's -z,
 * cusps meeting at the occlusal plane z = 0, the patient's left at +x (no turning over, unlike jawStls).
 */
export function teethJaws(): TeethJaws {
  if (!teethJawsMade) {
    const lower = teethJaw({ ...TEETH_JAWS.lower, edge: TEETH_EDGE });
    const upper = teethJaw({ ...TEETH_JAWS.upper, edge: TEETH_EDGE });
    teethJawsMade = { lower, upper, stl: { lower: binaryStl(soupOf(lower)).buffer as ArrayBuffer, upper: binaryStl(soupOf(upper)).buffer as ArrayBuffer } };
  }
  return { lower: teethJawsMade.lower, upper: teethJawsMade.upper };
}

/** Opens the generated teeth jaws (teethJaws) as an order's models, both or the lower alone; returns their truth. */
export async function openTeethJaws(editor: EditorEngine, options: { upper?: boolean } = {}): Promise<TeethJaws> {
  const truth = teethJaws();
  const { stl } = teethJawsMade!;
  const model = (role: 'upper' | 'lower') => {
    const bytes = stl[role].slice(0); // a copy each time: the worker may take the buffer
    return { role, name: `${role}.stl`, source: async (_signal: AbortSignal, onProgress: (fraction: number) => void) => (onProgress(1), bytes) };
  };
  await editor.openModels(options.upper === false ? [model('lower')] : [model('upper'), model('lower')]);
  return truth;
}
