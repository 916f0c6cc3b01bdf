// The back-end side of an order in the editor: its info, its model files (downloaded by the
// geometry worker with the session token) and its design document (design/getDesignData, design/save),
// which carries the automatic design's report.
import { api, unwrap } from '../../api/api.ts';
import { session } from '../../api/client.ts';
import type { DesignPort } from '../engine/autosave.ts';
import type { DesignDocument, ModelRole } from '../engine/document.ts';
import type { RemoteStl } from '../../geometry/client.ts';
import type { OrderStatus } from '../../../common/orders.ts';
import type { AiReportRecord } from '../../../common/ai-report.ts';
import { modelVersions, modifyModel, reopenDesign, saveDentureBase, submitDesign, updateDrc } from '../../api/lifecycle.ts';
import { uploadFiles } from '../../modules/order/upload.ts';
import type { BaseStoragePort, ModelVersionPort } from './orderFiles.ts';
import type { LifecyclePort } from './lifecycle.ts';

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
  /** The stored denture base (saveDentureBase), or null. */
  baseFile?: OrderFile | null;
  status?: OrderStatus;
}

export interface SavedDesign {
  version: number;
  schemaVersion: number;
  data: unknown;
  updateTime: string;
  /** The automatic design's report kept with the design (its AI review), or null. */
  aiReport: AiReportRecord | null;
}

/** Larger model files are refused before downloading (the worker could not hold them anyway). */
export const MAX_MODEL_BYTES = 512 * 1024 * 1024;

export async function orderInfo(id: number, signal?: AbortSignal): Promise<OrderInfo> {
  // The editor's own content: a refusal leaves for /403 like a list screen's.
  const info = api({ silent: true, onForbidden: 'page' }).admin.order.info.info;
  const row = await unwrap(info.$get({ query: { id } }, signal ? { init: { signal } } : undefined));
  // The model files are added to the row by the order resource's decorate hook: the CRUD row
  // type knows the table's columns only.
  return row as typeof row & OrderInfo;
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
  return unwrap(api({ silent: true }).admin.design.getDesignData.$get({ query: { orderId: String(orderId) } }));
}

export function designPort(orderId: number): DesignPort {
  return {
    save: (data: DesignDocument, baseVersion: number) =>
      // Copies of the top level and of each wire: the route's schema takes open objects (a
      // schemaVersion, wires of known types), which an interface is not assignable to.
      unwrap(
        api({ silent: true }).admin.design.save.$post({
          json: { orderId, data: { ...data, wires: data.wires?.map((wire) => ({ ...wire })) }, baseVersion },
        }),
      ),
    storedVersion: async () => (await loadDesign(orderId))?.version ?? 0,
  };
}

/** The lifecycle's calls for the open order (order/lifecycle.ts). */
export function lifecyclePort(): LifecyclePort {
  return {
    updateDrc: (body) => updateDrc(body),
    submit: (orderId) => submitDesign({ orderId }),
    reopen: (orderId) => reopenDesign({ orderId }),
    status: async (orderId) => (await orderInfo(orderId)).status ?? null,
    design: (orderId) => loadDesign(orderId),
  };
}

/** The stored base's call for the open order (order/orderFiles.ts). */
export function baseStoragePort(): BaseStoragePort {
  return { saveBase: (orderId, stl) => saveDentureBase(orderId, stl) };
}

/** The model versions' calls (order/orderFiles.ts): the order form's upload, modifyModel, modelVersions. */
export function modelVersionPort(): ModelVersionPort {
  return {
    upload: async (stl, name) => {
      const [file] = await uploadFiles([new File([stl as Uint8Array<ArrayBuffer>], name, { type: 'model/stl' })], { kind: 'model' });
      if (!file) throw new Error('upload');
      return file;
    },
    modify: (body) => modifyModel(body),
    versions: (orderId) => modelVersions(orderId),
    source: (version) => () => remoteStl({ id: version.fileId, name: version.name ?? '', size: 0, url: version.url }),
  };
}
