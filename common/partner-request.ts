// The request schemas of the partners' open calls (partner-api.ts names them): the server
// validates each body with these before any work and generates its OpenAPI document from them
// (server/modules/open/openapi.ts). Pure: zod only.
import { z } from 'zod';
import { PARTNER_BATCH_MAX } from './partner-api.ts';

const id = z.coerce.number().int().positive();
/** The partner's own order number: unique per partner, what makes `order` idempotent. */
const partnerOrderNo = z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9._:/-]+$/);
const dateTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$/)
  .meta({ description: 'YYYY-MM-DD or YYYY-MM-DD HH:mm[:ss]' });
const httpsLink = z.url().max(2048).meta({ description: 'An https link the server fetches (an STL file)' });

/** An order named by its id here or by the partner's own number (one of the two is required). */
const ref = {
  orderId: id.optional().meta({ description: "The order's id here (one of orderId, partnerOrderNo)" }),
  partnerOrderNo: partnerOrderNo.optional().meta({ description: "The partner's own order number (one of orderId, partnerOrderNo)" }),
};
export const orderRefSchema = z.object(ref);

/** The fields of a new order (JSON, or the `data` field of a multipart body whose files are `upper`, `lower`, `occlusion`). */
export const partnerOrderSchema = z.object({
  partnerOrderNo,
  patientName: z.string().trim().min(1).max(255),
  remark: z.string().max(1024).nullable().optional(),
  deliveryTime: dateTime.nullable().optional(),
  enableAI: z.boolean().optional(),
  /** A user of the partner's department (userList); default: the department's first active user. */
  designerId: id.optional(),
  /** Links to the models (https), instead of uploading them. */
  links: z.object({ upper: httpsLink.optional(), lower: httpsLink.optional(), occlusion: httpsLink.optional() }).optional(),
});
export type PartnerOrderRequest = z.input<typeof partnerOrderSchema>;

export const batchOrderSchema = z.object({ orders: z.array(partnerOrderSchema).min(1).max(PARTNER_BATCH_MAX) });

export const updateOrderSchema = z.object({
  ...ref,
  patientName: z.string().trim().min(1).max(255).optional(),
  remark: z.string().max(1024).nullable().optional(),
  deliveryTime: dateTime.nullable().optional(),
  designerId: id.optional(),
});

export const bowWireSchema = z.object({
  ...ref,
  /** A device of the department: its springback-compensated program is answered too. */
  deviceId: id.optional(),
});

export const bendSchema = z.object({
  ...ref,
  wireId: z.string().min(1).max(64),
  deviceId: id,
  /** The partner's key for this bend: a retry with the same key answers the same job. */
  idempotencyKey: z.string().min(8).max(64).regex(/^[A-Za-z0-9_-]+$/),
});

export const redirectSchema = z.object({
  ...ref,
  /** A user of the partner's department (userList). */
  userId: id,
});

export const emptySchema = z.object({}).loose();
