// Opening an order in the editor: its info, then its models (in parallel, each with its own
// progress and error) and its saved design with the automatic design's report (for the wires
// panel's review), then the autosave that keeps it on the server. What prefetchOrder started when
// the route was entered is used rather than asked for again.
import { Autosave } from '../engine/autosave.ts';
import { parseDocument } from '../engine/document.ts';
import type { EditorEngine } from '../engine/EditorEngine.ts';
import { forgetPrefetch, prefetched } from './prefetch.ts';
import { baseStoragePort, designPort, lifecyclePort, modelVersionPort, loadDesign, remoteStl, MAX_MODEL_BYTES, orderInfo, orderModels, type OrderInfo } from './orderSource.ts';
import { occlusalModelData, orderHistory } from '../../api/lifecycle.ts';
import { orderTeeth } from '../../api/teeth.ts';
import { ORDER_STATUS } from '../../../common/orders.ts';

/** How often the open order asks again while the server's bite job runs, or while it waits for a machine. */
export const WATCH_MS = 2000;

export interface OpenedOrder {
  order: OrderInfo;
  autosave: Autosave;
  /** Stops watching the order (its bite job, its status) and detaches it from the engine. */
  close(): void;
}

/** Rejects (with the server's message) when the order cannot be read; model errors stay per model. */
export async function openOrder(engine: EditorEngine, orderId: number, signal?: AbortSignal): Promise<OpenedOrder> {
  const early = prefetched(orderId);
  const [order, saved] = await Promise.all([early?.info ?? orderInfo(orderId), early?.design ?? loadDesign(orderId)]).catch((e: unknown) => {
    forgetPrefetch(orderId); // the next try asks again
    throw e;
  });
  // Given up meanwhile (the page closed, or React re-ran its effect): leave the engine alone.
  signal?.throwIfAborted();
  const models = orderModels(order);
  engine.clearModels();
  for (const { role, file } of models) {
    if (!file && role !== 'occlusion') engine.markMissing(role, '', { code: 'MODEL_MISSING' });
  }
  const loads = models.flatMap(({ role, file }) => {
    if (!file) return [];
    if (file.size > MAX_MODEL_BYTES) {
      engine.markMissing(role, file.name, { code: 'STL_TOO_LARGE', fileName: file.name });
      return [];
    }
    return [{ role, name: file.name, source: early?.takeModel(file, (client) => engine.usesGeometry(client)) ?? (() => remoteStl(file)) }];
  });
  forgetPrefetch(orderId);
  engine.loadDocument(parseDocument(saved?.data));
  engine.wires.setReview(saved?.aiReport ?? null);
  // Saves store the bite the jaws are shown in: the server's, when the document has none yet.
  const port = designPort(orderId);
  const autosave = new Autosave(engine, { ...port, save: (data, version) => port.save(engine.bite.forSave(data), version) }, saved?.version ?? 0);
  engine.order.attach(orderId, order.status ?? null, autosave, lifecyclePort());
  engine.baseFile.attach(order, baseStoragePort());
  engine.modelVersions.attach(order, modelVersionPort());
  // The server's teeth of each jaw model when its job is done; else the editor's worker finds them.
  engine.teeth.setPort({ loadStored: async (jaw) => {
    const stored = await orderTeeth(orderId, jaw);
    return stored.state === 'done' ? stored.teeth : null;
  } });
  void engine.openModels(loads);
  const watch = watchOrder(engine, orderId, order.occlusionFile !== null);
  return {
    order,
    autosave,
    close: () => {
      engine.wires.setReview(null);
      watch();
      engine.order.detach();
      engine.baseFile.detach();
      engine.modelVersions.detach();
      engine.teeth.setPort(null);
      engine.bite.setServer(null);
    },
  };
}

/** The reason the last bite job gave no bite (the order's history), or null. */
async function biteFailure(orderId: number): Promise<string | null> {
  const rows = await orderHistory(orderId).catch(() => []);
  return rows.filter((r) => r.reason === 'bite').at(-1)?.detail ?? null;
}

/**
 * Reads the order's bite registration, again every WATCH_MS while its job is queued or running;
 * and the order's status while it waits for a machine (to be processed → processed).
 */
function watchOrder(engine: EditorEngine, orderId: number, hasScan: boolean): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const tick = async (): Promise<void> => {
    let again = false;
    if (hasScan) {
      try {
        const data = await occlusalModelData(orderId);
        if (stopped) return;
        again = !!data.job && (data.job.state === 'queued' || data.job.state === 'running');
        // A job that ended without a bite: the history's last bite row says why.
        const failure = !data.bite && data.job && !again && !data.job.error ? await biteFailure(orderId) : null;
        if (stopped) return;
        engine.bite.setServer(data, null, failure);
        if (!again && engine.order.getState().status === ORDER_STATUS.biteRegistration) await engine.order.refreshStatus();
      } catch (e) {
        if (stopped) return;
        engine.bite.setServer(null, e instanceof Error ? e.message : String(e));
      }
    }
    const status = engine.order.getState().status;
    if (status === ORDER_STATUS.pending || status === ORDER_STATUS.biteRegistration) {
      await engine.order.refreshStatus();
      again = true;
    }
    if (!stopped) timer = setTimeout(() => void tick(), again ? WATCH_MS : WATCH_MS * 5);
  };
  void tick();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
