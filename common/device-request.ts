// The request schemas of the device calls: /admin/device/info (add, update, resetKey, userList,
// bind, unbind, diameterList) and a device's calibration, /admin/device/config (add, update),
// whose springback table is held to the springback rule of springback.ts. The server validates
// with these (server/modules/device/); the back office's bodies are typed from them (z.input).
import { z } from 'zod';
import { locationFields } from './location.ts';
import { SPRINGBACK_LIMITS as L, springbackTableProblem } from './springback.ts';

/** Rows of [angle, springback] (deg) inside SPRINGBACK_LIMITS, angles and compensated angles rising. */
export const springbackRowsSchema = z
  .array(z.tuple([z.number().min(L.minAngle).max(L.maxAngle), z.number().min(L.minSpringback).max(L.maxSpringback)]))
  .min(L.minRows)
  .max(L.maxRows)
  // The editor bends to angle + springback: that must rise too, or two targets share one bend.
  .refine((rows) => springbackTableProblem(rows) === null, 'angles and compensated angles must rise');

export type SpringbackRows = z.infer<typeof springbackRowsSchema>;

const id = z.coerce.number().int().positive();

// --- /admin/device/info ---

/** Wire diameters in mm: a list (or "0.7,0.8"), each 0.1 to 5, stored sorted and comma-joined. */
export const diametersSchema = z
  .preprocess(
    (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v),
    z.array(z.coerce.number().min(0.1).max(5)).min(1).max(20),
  )
  .transform((list) => [...new Set(list.map((d) => Math.round(d * 100) / 100))].sort((a, b) => a - b).join(','));
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v ? 1 : 0));
const deviceFields = {
  devicename: z.string().trim().min(1).max(255),
  personnelId: z.preprocess((v) => (v === '' ? null : v), z.coerce.number().int().positive().nullable().optional()),
  remark: z.string().max(1024).nullable().optional(),
  enableAI: flag.optional(),
  diameters: diametersSchema,
  /** Program memory: the most bend steps one program may hold. */
  memory: z.coerce.number().int().min(1).max(10_000_000),
  /** Radius of the bend arcs' centreline (mm): the programs are computed for it. */
  dieRadius: z.coerce.number().min(0.2).max(20).optional(),
  ...locationFields,
};
/** POST /admin/device/info/add. */
export const deviceAddSchema = z.object(deviceFields);
export type DeviceAddRequest = z.input<typeof deviceAddSchema>;
/** POST /admin/device/info/update: any of the fields, and the device's id. */
export const deviceUpdateSchema = z.object({
  ...deviceFields,
  devicename: deviceFields.devicename.optional(),
  diameters: diametersSchema.optional(),
  memory: deviceFields.memory.optional(),
  id,
});
export type DeviceUpdateRequest = z.input<typeof deviceUpdateSchema>;
/** POST /admin/device/info/resetKey (body) and GET /admin/device/info/userList (query): one device. */
export const deviceIdSchema = z.object({ id });
export type DeviceIdRequest = z.input<typeof deviceIdSchema>;
/** POST /admin/device/info/bind and /unbind: a device and the users bound to it or unbound. */
export const deviceBindSchema = deviceIdSchema.extend({ userIds: z.array(id).min(1).max(1000) });
export type DeviceBindRequest = z.input<typeof deviceBindSchema>;
/** GET /admin/device/info/diameterList (query): one device, or all the caller sees. */
export const deviceDiameterListSchema = z.object({ id: id.optional() });
export type DeviceDiameterListRequest = z.input<typeof deviceDiameterListSchema>;

// --- /admin/device/config ---

/** A springback table as rows or as their JSON text, stored as JSON text. */
export const springbackSchema = z
  .preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v);
      } catch {
        return v;
      }
    },
    springbackRowsSchema,
  )
  .transform((rows) => JSON.stringify(rows));
const configFields = {
  deviceId: id,
  diameter: z.coerce.number().min(0.1).max(5),
  springback: springbackSchema,
  remark: z.string().max(1024).nullable().optional(),
};
/** POST /admin/device/config/add: a table for one device and wire diameter. */
export const deviceConfigAddSchema = z.object(configFields);
export type DeviceConfigAddRequest = z.input<typeof deviceConfigAddSchema>;
/** POST /admin/device/config/update: the device stays; diameter, table and remark may change. */
export const deviceConfigUpdateSchema = z.object({
  id,
  diameter: configFields.diameter.optional(),
  springback: configFields.springback.optional(),
  remark: configFields.remark,
});
export type DeviceConfigUpdateRequest = z.input<typeof deviceConfigUpdateSchema>;
