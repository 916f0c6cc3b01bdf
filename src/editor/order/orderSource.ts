// The back-end side of an order in the editor: its info, its model files (downloaded by the
// geometry worker with the session token) and its design document (design/getDesignData, design/save).
import { request, session } from '../../api/client.ts';
import type { DesignPort } from '../engine/autosave.ts';
import type { DesignDocument, ModelRole } from '../engine/document.ts';
import type { RemoteStl } from '../geometry/client.ts';

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

/** Where the editor's worker downloads a model file itself, with the session token. */
export async function remoteStl(file: OrderFile): Promise<RemoteStl> {
  return { url: file.url, headers: { Authorization: await session.validToken() }, size: file.size };
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
