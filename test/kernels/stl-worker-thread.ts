// Runs the real workers/geometry.worker.ts in a Node worker thread, for the
// worker API tests and the bench's round-trip figure.
//
// The worker is written for a browser Web Worker: Comlink.expose listens on
// globalThis, and kernels.wasm is fetched from a URL. The thread's bootstrap
// gives globalThis that shape (addEventListener/postMessage over parentPort,
// as Comlink's node adapter does) and lets fetch() read file: URLs; the
// worker's own code runs unchanged, through tsx.

import { Worker as ThreadWorker } from 'node:worker_threads';
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
function endpoint(worker: ThreadWorker): Comlink.Endpoint {
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

function startThread(): ThreadWorker {
  return new ThreadWorker(new URL(`data:text/javascript,${encodeURIComponent(BOOTSTRAP)}`), { execArgv: [] });
}

/** Starts geometry.worker.ts in a worker thread (through tsx). */
export function startGeometryWorker(): WorkerThread {
  const worker = startThread();
  const api = Comlink.wrap<GeometryApi>(endpoint(worker));
  return {
    api,
    async terminate() {
      api[Comlink.releaseProxy]();
      await worker.terminate();
    },
  };
}

/**
 * The part of the browser's Worker that GeometryClient and Comlink use
 * (postMessage, message and error listeners, terminate), over a thread
 * running geometry.worker.ts. Install it as globalThis.Worker to run the
 * page's client (src/geometry/client.ts) unchanged in Node.
 */
export class GeometryWorkerShim {
  private readonly thread: ThreadWorker;
  private readonly ep: Comlink.Endpoint;
  private readonly errorListeners = new Set<(event: ErrorEvent) => void>();
  /** Workers started so far (the client starts a new one after a failure). */
  static started = 0;

  constructor(url: URL | string) {
    if (!String(url).includes('geometry.worker')) throw new Error(`GeometryWorkerShim runs geometry.worker.ts only, not ${String(url)}`);
    GeometryWorkerShim.started++;
    this.thread = startThread();
    this.ep = endpoint(this.thread);
    this.thread.on('error', (e: Error) => {
      const event = { message: e.message, preventDefault() {} } as ErrorEvent;
      for (const l of this.errorListeners) l(event);
    });
  }

  postMessage(message: unknown, transfer?: Transferable[]): void {
    this.ep.postMessage(message, transfer);
  }

  addEventListener(type: string, handler: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.ep.addEventListener('message', handler);
    else if (type === 'error' && typeof handler === 'function') this.errorListeners.add(handler as (event: ErrorEvent) => void);
  }

  removeEventListener(type: string, handler: EventListenerOrEventListenerObject): void {
    if (type === 'message') this.ep.removeEventListener('message', handler);
    else this.errorListeners.delete(handler as (event: ErrorEvent) => void);
  }

  terminate(): void {
    void this.thread.terminate();
  }
}
