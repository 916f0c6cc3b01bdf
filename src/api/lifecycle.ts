/**
 * The order lifecycle's calls (common/order-lifecycle.ts): status history, the bite registration's
 * data, submit and reopen, the design rule check, the order switcher and the patient's other
 * designs; through the typed client (hc<AppType>), so the server's routes type the bodies and a
 * contract change breaks the compile here.
 */
import type { z } from 'zod';
import { api } from './api.ts';
import { unwrap } from './typed.ts';
import { session } from './client.ts';
import { ApiError, unwrap as unwrapReply } from './http.ts';
import { currentLocale } from '../i18n/index.ts';
import type {
  copyOrderSchema,
  designerSchema,
  designReopenSchema,
  modifyModelSchema,
  OrderDeviceInfo,
  OrderModelVersion,
  StoredDentureBase,
  designSubmitSchema,
  DrcResult,
  GeoJobView,
  OcclusalModelData,
  OrderStatusChange,
  otherDesignSchema,
  updateDrcSchema,
} from '../../common/order-lifecycle.ts';
import type { OrderStatus } from '../../common/orders.ts';

export type { DrcResult, GeoJobView, OcclusalModelData, OrderDeviceInfo, OrderModelVersion, OrderStatusChange, StoredDentureBase } from '../../common/order-lifecycle.ts';

type Body<S extends z.ZodType> = z.input<S>;

/** Rows of a reply that is a bare list or a `{ list }` page. */
export function rowsOf<T>(reply: unknown): T[] {
  if (Array.isArray(reply)) return reply as T[];
  const list = (reply as { list?: unknown } | null)?.list;
  return Array.isArray(list) ? (list as T[]) : [];
}

/** GET /admin/order/info/history?id=: the order's status changes, oldest first. */
export async function orderHistory(id: number, signal?: AbortSignal): Promise<OrderStatusChange[]> {
  const reply = await unwrap(api({ silent: true }).admin.order.info.history.$get({ query: { id: String(id) } }, signal ? { init: { signal } } : undefined));
  return rowsOf<OrderStatusChange>(reply);
}

/** GET /admin/design/getOcclusalModelData?orderId= */
export function occlusalModelData(orderId: number): Promise<OcclusalModelData> {
  return unwrap(api({ silent: true }).admin.design.getOcclusalModelData.$get({ query: { orderId: String(orderId) } })) as Promise<OcclusalModelData>;
}

/** POST /admin/design/updateDRC: the check result of a saved design version. */
export function updateDrc(body: Body<typeof updateDrcSchema>): Promise<DrcResult | null> {
  return unwrap(api({ silent: true }).admin.design.updateDRC.$post({ json: body })) as Promise<DrcResult | null>;
}

/** POST /admin/design/submit */
export function submitDesign(body: Body<typeof designSubmitSchema>): Promise<unknown> {
  return unwrap(api({ silent: true }).admin.design.submit.$post({ json: body }));
}

/** POST /admin/design/reopen */
export function reopenDesign(body: Body<typeof designReopenSchema>): Promise<unknown> {
  return unwrap(api({ silent: true }).admin.design.reopen.$post({ json: body }));
}

/** One order as the switcher and the other-designs list show it (fields the server may leave out are optional). */
export interface OrderBrief {
  id: number;
  caseNo: string;
  patientName: string;
  status?: OrderStatus;
  createTime?: string;
  updateTime?: string;
  designVersion?: number;
}

/** Accepts `orderId` for `id` (the design calls name orders so). */
function brief(row: Record<string, unknown>): OrderBrief {
  return { ...(row as unknown as OrderBrief), id: Number(row.id ?? row.orderId) };
}

/** GET /admin/design/changeOrderList: the designer's orders to switch to. */
export async function changeOrderList(): Promise<OrderBrief[]> {
  return rowsOf<Record<string, unknown>>(await unwrap(api({ silent: true }).admin.design.changeOrderList.$get({ query: {} }))).map(brief);
}

/** POST /admin/design/otherDesign: the patient's other orders with designs. */
export async function otherDesigns(body: Body<typeof otherDesignSchema>): Promise<OrderBrief[]> {
  return rowsOf<Record<string, unknown>>(await unwrap(api({ silent: true }).admin.design.otherDesign.$post({ json: body }))).map(brief);
}

/** The bite job an order row carries (`biteJob`, common/order-lifecycle.ts OrderLifecycleFields; `job` in the first draft of the contract), if any. */
export function jobOf(row: Record<string, unknown>): GeoJobView | null {
  const job = (row.biteJob ?? row.job) as GeoJobView | null | undefined;
  return job && typeof job === 'object' && typeof job.state === 'string' ? job : null;
}

/** What POST /admin/design/copyOrder answers: the remake. */
export interface CopiedOrder {
  id: number;
  caseNo: string;
  status: OrderStatus;
  designerId: number;
}

/** POST /admin/design/copyOrder: a remake (same models, the design copied as version 1); the caller shows the error. */
export function copyOrder(body: Body<typeof copyOrderSchema>): Promise<CopiedOrder> {
  return unwrap(api({ silent: true }).admin.design.copyOrder.$post({ json: body })) as Promise<CopiedOrder>;
}

/** POST /admin/design/designer: assign or change an order's designer; the caller shows the error. */
export function assignDesigner(body: Body<typeof designerSchema>): Promise<unknown> {
  return unwrap(api({ silent: true }).admin.design.designer.$post({ json: body }));
}

/** A manufacturer (department) an order may be sent to. */
export interface Factory {
  id: number;
  name: string;
  parentId: number | null;
}

/** POST /admin/design/factories: the manufacturers the caller may send an order to. */
export async function factories(): Promise<Factory[]> {
  return rowsOf<Factory>(await unwrap(api({ silent: true }).admin.design.factories.$post()));
}

/**
 * POST /admin/design/saveDentureBase?orderId=: the generated base's STL as the raw body (the route
 * reads its own body: the typed client sends JSON only). Rejects with the server's message
 * (ApiError kind 'api': a submitted order, a bad STL) or a transport failure.
 */
export async function saveDentureBase(orderId: number, stl: Uint8Array, signal?: AbortSignal): Promise<StoredDentureBase> {
  const token = await session.validToken();
  let res: Response;
  try {
    res = await window.fetch(`/admin/design/saveDentureBase?orderId=${encodeURIComponent(String(orderId))}`, {
      method: 'POST',
      headers: { Authorization: token, 'Accept-Language': currentLocale(), Accept: 'application/json', 'Content-Type': 'application/octet-stream' },
      body: stl as Uint8Array<ArrayBuffer>,
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    throw new ApiError('Network error', { kind: 'network', cause: err });
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return unwrapReply<StoredDentureBase>({ status: res.status, body });
}

/** POST /admin/design/modifyModel: a new version of a jaw (an uploaded file) or back to an earlier one. */
export async function modifyModel(body: Body<typeof modifyModelSchema>): Promise<{ jaw: 'upper' | 'lower'; version: number; fileId: number; versions: OrderModelVersion[] }> {
  const reply = await unwrap(api({ silent: true }).admin.design.modifyModel.$post({ json: body }));
  return reply as unknown as { jaw: 'upper' | 'lower'; version: number; fileId: number; versions: OrderModelVersion[] };
}

/** GET /admin/design/modelVersions?orderId= */
export async function modelVersions(orderId: number): Promise<OrderModelVersion[]> {
  return rowsOf<OrderModelVersion>(await unwrap(api({ silent: true }).admin.design.modelVersions.$get({ query: { orderId: String(orderId) } })));
}

/** GET /admin/design/getDeviceInfo?orderId=: the machine the order's wires went to and their jobs. */
export function orderDeviceInfo(orderId: number): Promise<OrderDeviceInfo> {
  return unwrap(api({ silent: true }).admin.design.getDeviceInfo.$get({ query: { orderId: String(orderId) } })) as Promise<OrderDeviceInfo>;
}
