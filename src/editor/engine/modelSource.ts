// Where a model comes from, kept free of Babylon so that an order's models can start opening
// before the editor's engine (and its 3D chunk) has loaded (src/editor/order/prefetch.ts).
import type { OpenedMesh, RemoteStl, StlStage } from '../../geometry/client.ts';

/** What the engine's worker opens: a File/Blob or bytes, or a file it downloads itself. */
export type ModelBytes = ArrayBuffer | Blob | RemoteStl;

/**
 * One model: its bytes (or where the worker fetches them), or the mesh already opened in the
 * engine's own worker (handle included). Progress without a stage is the download's.
 */
export type ModelSource = (signal: AbortSignal, onProgress: (fraction: number, stage?: StlStage) => void) => Promise<ModelBytes | OpenedMesh>;

export function isOpenedMesh(value: ModelBytes | OpenedMesh): value is OpenedMesh {
  return typeof (value as Partial<OpenedMesh>).handle === 'number';
}
