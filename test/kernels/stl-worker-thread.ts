// Runs the real workers/geometry.worker.ts in a Node worker thread, for the
// worker API tests and the bench's round-trip figure.
//
// The worker is written for a browser Web Worker: Comlink.expose listens on
// globalThis, and kernels.wasm is fetched from a URL. The thread's bootstrap
// gives globalThis that shape (addEventListener/postMessage over parentPort,
// as Comlink's node adapter does) and lets fetch() read file: URLs; the
// worker's own code runs unchanged, through tsx.

import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import type { GeometryApi } from '../../workers/geometry.worker.ts';

const WORKER_URL = new URL('../../workers/geometry.worker.ts', import.meta.url).href;

// tsx registers its loader in the main thread only (on Node 20): register it here by hand.
const TSX_API_URL = import.meta.resolve('tsx/esm/api');

const BOOTSTRAP = `
import { parentPort } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
const listeners = new WeakMap();
globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);
globalThis.addEventListener = (type, handler) => {
  if (type !== 'message') return;
  const l = (data) => handler({ data });
  listeners.set(handler, l);
  parentPort.on('message', l);
};
globalThis.removeEventListener = (type, handler) => {
  const l = listeners.get(handler);
  if (l) parentPort.off('message', l);
};
const webFetch = globalThis.fetch;
globalThis.fetch = async (url, init) => {
  const href = String(url);
  if (!href.startsWith('file:')) return webFetch(url, init);
  return new Response(readFileSync(new URL(href)), { headers: { 'content-type': 'application/wasm' } });
};
const { register } = await import(${JSON.stringify(TSX_API_URL)});
register();
await import(${JSON.stringify(WORKER_URL)});
`;

export interface WorkerThread {
  api: Comlink.Remote<GeometryApi>;
  terminate(): Promise<void>;
}

/** The main side of the thread as a Comlink endpoint (what comlink's node-adapter does). */
function endpoint(worker: Worker): Comlink.Endpoint {
  const listeners = new WeakMap<object, (data: unknown) => void>();
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => worker.postMessage(message, transfer as never),
    addEventListener(_type: string, handler: EventListenerOrEventListenerObject) {
      const l = (data: unknown): void => {
        const event = { data } as MessageEvent;
        if ('handleEvent' in handler) handler.handleEvent(event);
        else handler(event);
      };
      listeners.set(handler, l);
      worker.on('message', l);
    },
    removeEventListener(_type: string, handler: EventListenerOrEventListenerObject) {
      const l = listeners.get(handler);
      if (l) worker.off('message', l);
    },
  };
}

/** Starts geometry.worker.ts in a worker thread (through tsx). */
export function startGeometryWorker(): WorkerThread {
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(BOOTSTRAP)}`), { execArgv: [] });
  const api = Comlink.wrap<GeometryApi>(endpoint(worker));
  return {
    api,
    async terminate() {
      api[Comlink.releaseProxy]();
      await worker.terminate();
    },
  };
}
