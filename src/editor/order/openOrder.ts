// Opening an order in the editor: its info, then its models (in parallel, each with its own
// progress and error) and its saved design, then the autosave that keeps it on the server. What
// prefetchOrder started when the route was entered is used rather than asked for again.
import { Autosave } from '../engine/autosave.ts';
import { parseDocument } from '../engine/document.ts';
import type { EditorEngine } from '../engine/EditorEngine.ts';
import { forgetPrefetch, prefetched } from './prefetch.ts';
import { designPort, loadDesign, remoteStl, MAX_MODEL_BYTES, orderInfo, orderModels, type OrderInfo } from './orderSource.ts';

export interface OpenedOrder {
  order: OrderInfo;
  autosave: Autosave;
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
  const autosave = new Autosave(engine, designPort(orderId), saved?.version ?? 0);
  void engine.openModels(loads);
  return { order, autosave };
}
