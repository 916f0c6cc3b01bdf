/**
 * The order lifecycle's calls (common/order-lifecycle.ts): status history, the bite registration's
 * data, submit and reopen, the design rule check, the order switcher and the patient's other
 * designs.
 *
 * These go through the plain `request()` helper rather than the typed `api()` client: the routes
 * are written in parallel (server/modules/design, server/modules/order) and are not in this
 * branch's `AppType` yet, so `api().admin.design.submit` would not compile here. Once they are,
 * each function can switch to `unwrap(api().admin.design.<call>.$post(...))` without its callers
 * changing. Request bodies are typed from the shared zod schemas, replies from the shared reply
 * shapes, so a contract change breaks the compile here too.
 */
import type { z } from 'zod';
import { request } from './client.ts';
import type {
  designReopenSchema,
  designSubmitSchema,
  DrcResult,
  GeoJobView,
  OcclusalModelData,
  OrderStatusChange,
  otherDesignSchema,
  updateDrcSchema,
} from '../../common/order-lifecycle.ts';
import type { OrderStatus } from '../../common/orders.ts';

export type { DrcResult, GeoJobView, OcclusalModelData, OrderStatusChange } from '../../common/order-lifecycle.ts';

type Body<S extends z.ZodType> = z.input<S>;

/** Rows of a reply that is a bare list or a `{ list }` page. */
export function rowsOf<T>(reply: unknown): T[] {
  if (Array.isArray(reply)) return reply as T[];
  const list = (reply as { list?: unknown } | null)?.list;
  return Array.isArray(list) ? (list as T[]) : [];
}

/** GET /admin/order/info/history?id=: the order's status changes, oldest first. */
export async function orderHistory(id: number, signal?: AbortSignal): Promise<OrderStatusChange[]> {
  const reply = await request<unknown>({ url: '/admin/order/info/history', params: { id }, silent: true, ...(signal ? { signal } : {}) });
  return rowsOf<OrderStatusChange>(reply);
}

/** GET /admin/design/getOcclusalModelData?orderId= */
export function occlusalModelData(orderId: number): Promise<OcclusalModelData> {
  return request<OcclusalModelData>({ url: '/admin/design/getOcclusalModelData', params: { orderId }, silent: true });
}

/** POST /admin/design/updateDRC: the check result of a saved design version. */
export function updateDrc(body: Body<typeof updateDrcSchema>): Promise<DrcResult | null> {
  return request<DrcResult | null>({ url: '/admin/design/updateDRC', method: 'POST', data: body, silent: true });
}

/** POST /admin/design/submit */
export function submitDesign(body: Body<typeof designSubmitSchema>): Promise<unknown> {
  return request({ url: '/admin/design/submit', method: 'POST', data: body, silent: true });
}

/** POST /admin/design/reopen */
export function reopenDesign(body: Body<typeof designReopenSchema>): Promise<unknown> {
  return request({ url: '/admin/design/reopen', method: 'POST', data: body, silent: true });
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
  return rowsOf<Record<string, unknown>>(await request<unknown>({ url: '/admin/design/changeOrderList', silent: true })).map(brief);
}

/** POST /admin/design/otherDesign: the patient's other orders with designs. */
export async function otherDesigns(body: Body<typeof otherDesignSchema>): Promise<OrderBrief[]> {
  return rowsOf<Record<string, unknown>>(await request<unknown>({ url: '/admin/design/otherDesign', method: 'POST', data: body, silent: true })).map(brief);
}

/** The bite job an order row carries (`biteJob`, common/order-lifecycle.ts OrderLifecycleFields; `job` in the first draft of the contract), if any. */
export function jobOf(row: Record<string, unknown>): GeoJobView | null {
  const job = (row.biteJob ?? row.job) as GeoJobView | null | undefined;
  return job && typeof job === 'object' && typeof job.state === 'string' ? job : null;
}
