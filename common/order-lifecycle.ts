// The order's lifecycle and the editor's order calls (/admin/design/*, /admin/order/info/*):
// request schemas (the server validates with them, the back office types its bodies from them)
// and the shapes of the replies. Pure: no DOM, worker or Node imports.
import { z } from 'zod';
import type { BiteResult } from './bite.ts';
import { ORDER_STATUS, type OrderStatus } from './orders.ts';
import type { Jaw, StoredTeeth } from './teeth.ts';

const id = z.coerce.number().int().positive();

/** Who may move an order from one status to another, and why: the server's one table. */
export const ORDER_TRANSITIONS = [
  // A model was saved or replaced with an occlusion model present: the bite job starts.
  { from: ORDER_STATUS.design, to: ORDER_STATUS.biteRegistration, reason: 'models' },
  { from: ORDER_STATUS.biteRegistration, to: ORDER_STATUS.biteRegistration, reason: 'models' },
  // The bite job ended (done or failed): designing goes on.
  { from: ORDER_STATUS.biteRegistration, to: ORDER_STATUS.design, reason: 'bite' },
  // The designer submitted a design that passes its checks.
  { from: ORDER_STATUS.design, to: ORDER_STATUS.pending, reason: 'submit' },
  // Reopened for changes.
  { from: ORDER_STATUS.pending, to: ORDER_STATUS.design, reason: 'reopen' },
  // Every wire of the design was bent on a machine.
  { from: ORDER_STATUS.pending, to: ORDER_STATUS.processed, reason: 'bent' },
] as const satisfies readonly { from: OrderStatus; to: OrderStatus; reason: string }[];
export type TransitionReason = (typeof ORDER_TRANSITIONS)[number]['reason'];

/** One row of an order's status history (GET /admin/order/info/history?id=). */
export interface OrderStatusChange {
  fromStatus: OrderStatus | null;
  toStatus: OrderStatus;
  /** A status move's reason; 'created' for the first row, 'designer' when the designer changed (the status stays). */
  reason: TransitionReason | 'created' | 'designer';
  /** Who moved it; null for the server itself (a job ended, a machine finished). */
  userId: number | null;
  userName: string | null;
  /** A failure's sentence (a bite job's), else null. */
  detail: string | null;
  createTime: string;
}

/** A server-side geometry job as lists show it. */
export type GeoJobState = 'queued' | 'running' | 'done' | 'failed';
export interface GeoJobView {
  id: number;
  kind: string;
  state: GeoJobState;
  /** 0..1 */
  progress: number;
  attempts: number;
  error: string | null;
}

/** What the lifecycle adds to an order row of /admin/order/info (page, list, info). */
export interface OrderLifecycleFields {
  /** The latest bite registration job, or null. */
  biteJob: GeoJobView | null;
  /** The generated denture base (a space file id, downloadable at /admin/base/comm/file/:id), or null. */
  baseFileId: number | null;
  /** The stored design rule check (updateDRC), or null. */
  drc: DrcResult | null;
}

export const orderIdSchema = z.object({ orderId: id });
export type OrderIdRequest = z.input<typeof orderIdSchema>;

/** POST /admin/design/submit: the designer hands the design over for processing. */
export const designSubmitSchema = z.object({ orderId: id });
/** POST /admin/design/reopen: a submitted order goes back to design. */
export const designReopenSchema = z.object({ orderId: id });

/** POST /admin/design/designer: assign or change the designer. */
export const designerSchema = z.object({ orderId: id, designerId: id });

/** POST /admin/design/copyOrder: a remake with the same models and a copy of the design. */
export const copyOrderSchema = z.object({ orderId: id, patientName: z.string().trim().min(1).max(255).optional(), remark: z.string().max(1024).nullable().optional() });

/** POST /admin/design/otherDesign: the other orders (with designs) of the same patient. */
export const otherDesignSchema = z.object({ orderId: id });

/** POST /admin/design/modifyModel: a new version of a jaw's model (a smoothed or straightened mesh uploaded as a space file), or back to an earlier version. */
export const modifyModelSchema = z.object({
  orderId: id,
  jaw: z.enum(['upper', 'lower']),
  /** The uploaded file of the new version; or omit it and name `restoreVersion`. */
  fileId: id.optional(),
  restoreVersion: z.number().int().min(1).optional(),
  note: z.enum(['smoothed', 'straightened', 'edited']).optional(),
});

/** POST /admin/design/updateDRC: the design rule check result of a design version. */
export const drcIssueSchema = z.object({
  code: z.string().min(1).max(64),
  severity: z.enum(['error', 'warning']),
  message: z.string().max(500).optional(),
  wireId: z.string().max(64).optional(),
});
export const updateDrcSchema = z.object({
  orderId: id,
  /** The design version the check ran on (getDesignData's version). */
  designVersion: z.number().int().min(1),
  passed: z.boolean(),
  issues: z.array(drcIssueSchema).max(200),
});
export type DrcResult = z.output<typeof updateDrcSchema> & { updateTime: string };

/** GET /admin/design/getOcclusalModelData?orderId= */
export interface OcclusalModelData {
  orderId: number;
  occlusion: { id: number; name: string; url: string } | null;
  /** The latest bite job, while one exists. */
  job: GeoJobView | null;
  /** The registered bite; null until a job ended. */
  bite: (BiteResult & { source: 'auto' | 'manual'; updateTime: string }) | null;
}

/** GET /admin/design/getTeeth?orderId=&jaw=: the teeth of an order's jaw model. */
export const orderTeethSchema = z.object({ orderId: id, jaw: z.enum(['upper', 'lower']) });
export type OrderTeethRequest = z.input<typeof orderTeethSchema>;

/** 'none': the order has no such model, or no teeth job for the model it has now. */
export type TeethState = 'none' | GeoJobState;

/** GET /admin/design/getTeeth's answer: the `teeth` job of the jaw's current model and its result. */
export interface OrderTeeth {
  orderId: number;
  jaw: Jaw;
  /** The jaw's model now (a space file id), or null. */
  fileId: number | null;
  state: TeethState;
  /** 0..1 (1 when done). */
  progress: number;
  /** A failed job's reason, else null. */
  error: string | null;
  /** The segmentation of the current model; only when done. */
  teeth: StoredTeeth | null;
}

/** GET /admin/design/getDeviceInfo?orderId=: the machine the order's wires go to. */
export interface OrderDeviceInfo {
  device: { id: number; name: string; status: string; online: boolean } | null;
  jobs: { jobId: string; wire: string; status: string; updateTime: string }[];
}

/** GET /admin/design/modelVersions?orderId= (and modifyModel's `versions`): one version of a jaw's model. */
export interface OrderModelVersion {
  jaw: 'upper' | 'lower';
  version: number;
  fileId: number;
  name: string | null;
  /** 'original' for version 1, else modifyModel's note. */
  note: string;
  userId: number | null;
  createTime: string;
  url: string;
  /** The order's model is this version's file now. */
  active: boolean;
}

/** POST /admin/design/saveDentureBase's reply. */
export interface StoredDentureBase {
  orderId: number;
  baseFileId: number;
  url: string;
  size: number;
  triangles: number;
}
