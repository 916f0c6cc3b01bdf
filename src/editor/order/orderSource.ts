// The back-end side of an order in the editor: its info, its model files (downloaded with the
// session token, with progress) and its design document (design/getDesignData, design/save).
import { request, session } from '../../api/client.ts';
import type { DesignPort } from '../engine/autosave.ts';
import type { DesignDocument, ModelRole } from '../engine/document.ts';
import { DownloadError, type ModelSource } from '../engine/EditorEngine.ts';

export interface OrderFile {
  id: number;
  name: string;
  size: number;
  url: string;
}

export interface OrderInfo {
  id: number;
  caseNo: string;
  patientName: string;
  upperFile: OrderFile | null;
  lowerFile: OrderFile | null;
  occlusionFile: OrderFile | null;
}

export interface SavedDesign {
  version: number;
  schemaVersion: number;
  data: unknown;
  updateTime: string;
}

/** Larger model files are refused before downloading (the worker could not hold them anyway). */
export const MAX_MODEL_BYTES = 512 * 1024 * 1024;

export function orderInfo(id: number, signal?: AbortSignal): Promise<OrderInfo> {
  // The editor's own content: a refusal leaves for /403 like a list screen's.
  return request<OrderInfo>({ url: '/admin/order/info/info', params: { id }, silent: true, onForbidden: 'page', ...(signal ? { signal } : {}) });
}

export function orderModels(order: OrderInfo): { role: ModelRole; file: OrderFile | null }[] {
  return [
    { role: 'upper', file: order.upperFile },
    { role: 'lower', file: order.lowerFile },
    { role: 'occlusion', file: order.occlusionFile },
  ];
}

/** Downloads a model file with the session token, reporting the fraction received. */
export function downloadModel(file: OrderFile): ModelSource {
  return async (signal, onProgress) => {
    const token = await session.validToken();
    let response: Response;
    try {
      response = await fetch(file.url, { headers: { Authorization: token }, signal });
    } catch (e) {
      if (signal.aborted) throw e;
      throw new DownloadError(0);
    }
    if (!response.ok || !response.body) throw new DownloadError(response.status);
    const total = Number(response.headers.get('content-length')) || file.size || 0;
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let received = 0;
    for (;;) {
      let part: ReadableStreamReadResult<Uint8Array>;
      try {
        part = await reader.read();
      } catch (e) {
        if (signal.aborted) throw e;
        throw new DownloadError(0);
      }
      if (part.done) break;
      chunks.push(part.value);
      received += part.value.length;
      if (total) onProgress(Math.min(1, received / total));
    }
    onProgress(1);
    const bytes = new Uint8Array(received);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return bytes.buffer;
  };
}

export function loadDesign(orderId: number): Promise<SavedDesign | null> {
  return request<SavedDesign | null>({ url: '/admin/design/getDesignData', params: { orderId }, silent: true });
}

export function designPort(orderId: number): DesignPort {
  return {
    save: (data: DesignDocument, baseVersion: number) =>
      request<{ version: number }>({ url: '/admin/design/save', method: 'POST', data: { orderId, data, baseVersion }, silent: true }),
    storedVersion: async () => (await loadDesign(orderId))?.version ?? 0,
  };
}
