// An order's requests started as soon as /bend?orderId=N is entered: its info and design, and
// its models downloaded and opened by the editor's geometry worker, while the editor's 3D chunk
// loads and its engine starts (about 0.4 s on the bench machine), instead of after.
// Free of Babylon and React; openOrder takes what is here.
import { editorGeometryClient, type GeometryClient, type OpenedMesh, type StlStage } from '../../geometry/client.ts';
import type { ModelSource } from '../engine/modelSource.ts';
import { CODE_OK } from '../../../common/codes.ts';
import { loadDesign, MAX_MODEL_BYTES, orderInfo, orderModels, remoteStl, type OrderFile, type OrderInfo, type SavedDesign } from './orderSource.ts';

/** A prefetch nobody took (the page was left before the editor opened) is dropped after this. */
const UNCLAIMED_MS = 60_000;

type Progress = (fraction: number, stage?: StlStage) => void;

/** One model opened early in the editor's worker; it goes to one consumer. */
class EarlyOpen {
  private last: { fraction: number; stage: StlStage } = { fraction: 0, stage: 'download' };
  private readonly listeners = new Set<Progress>();
  private readonly abort = new AbortController();
  readonly mesh: Promise<OpenedMesh>;

  constructor(
    readonly client: GeometryClient,
    file: OrderFile,
  ) {
    const onProgress = (fraction: number, stage: StlStage): void => {
      this.last = { fraction, stage };
      for (const listener of this.listeners) listener(fraction, stage);
    };
    this.mesh = remoteStl(file).then((remote) => client.openStl(remote, { signal: this.abort.signal, onProgress }));
    this.mesh.catch(() => {}); // a consumer sees the failure; none may come
  }

  /** As a ModelSource: progress so far at once, then as it comes; aborting it stops the job. */
  source(): ModelSource {
    return (signal, onProgress) => {
      const onAbort = (): void => this.cancel();
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      onProgress(this.last.fraction, this.last.stage);
      this.listeners.add(onProgress);
      return this.mesh.finally(() => {
        this.listeners.delete(onProgress);
        signal.removeEventListener('abort', onAbort);
      });
    };
  }

  /** Stops the job, or frees the mesh it opened (a late one is freed by the client). */
  cancel(): void {
    this.abort.abort();
    void this.mesh.then((m) => this.client.release(m.handle)).catch(() => {});
  }
}

interface Prefetch {
  orderId: number;
  info: Promise<OrderInfo>;
  design: Promise<SavedDesign | null>;
  /** By file id; an early open leaves the map when it is taken. */
  opens: Map<number, EarlyOpen>;
  timer: ReturnType<typeof setTimeout>;
}

let current: Prefetch | null = null;

function drop(prefetch: Prefetch): void {
  clearTimeout(prefetch.timer);
  for (const open of prefetch.opens.values()) open.cancel();
  prefetch.opens.clear();
  if (current === prefetch) current = null;
}

/** The order info index.html asked for before the app's scripts ran, if it is this order's. */
function earlyInfo(orderId: number): Promise<OrderInfo> | null {
  const w = window as { __archwrightEarlyOrder?: { orderId: number; response: Promise<Response> } };
  const early = w.__archwrightEarlyOrder;
  delete w.__archwrightEarlyOrder;
  if (early?.orderId !== orderId) return null;
  return early.response.then(async (r) => {
    const body = (await r.json()) as { code?: number; data?: OrderInfo };
    if (!r.ok || body.code !== CODE_OK || !body.data) throw new Error('not usable');
    return body.data;
  });
}

/** Starts the order's info, design and model opens (once per order; a different order replaces it). */
function prefetchOrder(orderId: number, client: GeometryClient): void {
  if (current?.orderId === orderId) return;
  if (current) drop(current);
  // Any failure of the early request is left to the app's own, which reports it properly.
  const info = earlyInfo(orderId)?.catch(() => orderInfo(orderId)) ?? orderInfo(orderId);
  const design = loadDesign(orderId);
  const prefetch: Prefetch = { orderId, info, design, opens: new Map(), timer: setTimeout(() => drop(prefetch), UNCLAIMED_MS) };
  current = prefetch;
  info.then(
    (order) => {
      if (current !== prefetch) return;
      for (const { file } of orderModels(order)) {
        if (file && file.size <= MAX_MODEL_BYTES) prefetch.opens.set(file.id, new EarlyOpen(client, file));
      }
    },
    () => {},
  );
  design.catch(() => {});
}

/** Entering the editor: its geometry workers start, and the order's requests if it has one. */
export function prefetchEditor(orderId: number | null): void {
  const client = editorGeometryClient({ parallel: orderId !== null });
  if (orderId !== null) prefetchOrder(orderId, client);
}

/** What was prefetched for this order, if anything: openOrder's requests, already under way. */
export function prefetched(orderId: number): {
  info: Promise<OrderInfo>;
  design: Promise<SavedDesign | null>;
  /** The early open of this file (once) if it runs in `client`'s worker, else null: the caller opens it. */
  takeModel(file: OrderFile, client: (candidate: GeometryClient) => boolean): ModelSource | null;
} | null {
  const prefetch = current;
  if (prefetch?.orderId !== orderId) return null;
  return {
    info: prefetch.info,
    design: prefetch.design,
    takeModel(file, sameWorker) {
      const open = prefetch.opens.get(file.id);
      if (!open || !sameWorker(open.client)) return null;
      prefetch.opens.delete(file.id);
      return open.source();
    },
  };
}

/**
 * Forgets the prefetch (opens not taken stop): once the editor has taken what it needs, so that
 * opening the order again (after edits) asks the server again.
 */
export function forgetPrefetch(orderId: number): void {
  if (current?.orderId === orderId) drop(current);
}
