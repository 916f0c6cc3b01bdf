// The request schemas of the order calls (/admin/order/info/add, update, retryAI): what a body
// may carry and how loose values are read (blank as null, a model as a file id or the upload's
// reply). The server validates with these (server/modules/order/order-info.ts); the back office's
// bodies are typed from them (z.input).
import { z } from 'zod';
import { ORDER_STATUS } from './orders.ts';
import type { Prescription } from './prescription.ts';

/** "YYYY-MM-DD" or "YYYY-MM-DD HH:mm(:ss)" (also with a T) -> "YYYY-MM-DD HH:mm:ss". */
const dateTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/)
  .transform((v) => {
    const [date, time = '00:00:00'] = v.replace('T', ' ').split(' ');
    return `${date} ${time.length === 5 ? `${time}:00` : time}`;
  })
  .refine((v) => !Number.isNaN(Date.parse(v.replace(' ', 'T') + 'Z')));
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v ? 1 : 0));
const fileId = z.coerce.number().int().positive().nullable().optional();
const statusCode = z.coerce.number().int().refine((v) => (Object.values(ORDER_STATUS) as number[]).includes(v));
const blankToNull = (v: unknown) => (v === '' ? null : v);
/** A model given as a file id or as the reply of the upload (an object with its `id`). */
const modelRef = z.preprocess(
  (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && 'id' in v ? (v as { id: unknown }).id : blankToNull(v)),
  fileId,
);

const fields = {
  patientName: z.string().trim().min(1).max(255),
  remark: z.string().max(1024).nullable().optional(),
  deliveryTime: z.preprocess(blankToNull, dateTime.nullable().optional()),
  enableAI: flag.optional(),
  designerId: z.preprocess(blankToNull, z.coerce.number().int().positive().nullable().optional()),
  upperFileId: z.preprocess(blankToNull, fileId),
  lowerFileId: z.preprocess(blankToNull, fileId),
  occlusionFileId: z.preprocess(blankToNull, fileId),
  upper: modelRef,
  lower: modelRef,
  occlusion: modelRef,
  /** The delivery address (one of the order creator's, /admin/user/address), or null. */
  addressId: z.preprocess(blankToNull, z.coerce.number().int().positive().nullable().optional()),
  /**
   * The order's own prescription for the automatic design (common/prescription.ts), null for the
   * lab's default. Checked by the server with prescriptionSchema after this parse, so that a
   * refusal names the jaw, the wire and the teeth.
   */
  prescription: z.custom<Prescription | null>((v) => v === null || (typeof v === 'object' && !Array.isArray(v))).optional(),
};
export const orderAddSchema = z.object(fields);
export type OrderAddRequest = z.input<typeof orderAddSchema>;
export const orderUpdateSchema = z.object({
  ...fields,
  patientName: fields.patientName.optional(),
  status: statusCode.optional(),
  id: z.coerce.number().int().positive(),
});
export type OrderUpdateRequest = z.input<typeof orderUpdateSchema>;

/** POST /admin/order/info/retryAI: the order whose failed AI design is sent again. */
export const orderRetryAiSchema = z.object({ id: z.coerce.number().int().positive() });
export type OrderRetryAiRequest = z.input<typeof orderRetryAiSchema>;
