// The request schemas of the device calls: /admin/device/info (add, update, resetKey, userList,
// bind, unbind, diameterList) and a device's calibration, /admin/device/config (add, update),
// whose springback table is held to the springback rule of springback.ts. The server validates
// with these (server/modules/device/); the back office's bodies are typed from them (z.input).
import { z } from 'zod';
import { locationFields } from './location.ts';
import { type HeadBox, headProblem, HEAD_LIMITS } from './bend-program.ts';
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
const coord = z.number().min(-HEAD_LIMITS.maxCoord).max(HEAD_LIMITS.maxCoord);
const xyz = z.tuple([coord, coord, coord]);
/** A bending head model: boxes in the head frame (mm), held to bend-program.ts headProblem. */
export const headRowsSchema = z
  .array(z.object({ min: xyz, max: xyz }))
  .min(HEAD_LIMITS.minBoxes)
  .max(HEAD_LIMITS.maxBoxes)
  .superRefine((boxes, c) => {
    const problem = headProblem(boxes);
    if (problem) c.addIssue({ code: 'custom', message: problem });
  });
/** A device's head as boxes or their JSON text, stored as JSON text; null or '': the default head. */
export const headSchema = z
  .preprocess((v) => {
    if (v === '' || v === null) return null;
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }, headRowsSchema.nullable())
  .transform((boxes) => (boxes ? JSON.stringify(boxes) : null));
/** The stored head (JSON text or null) as boxes; null: the device uses the default head. */
export function parseHead(text: string | null | undefined): HeadBox[] | null {
  if (!text) return null;
  const r = headRowsSchema.safeParse(JSON.parse(text));
  return r.success ? r.data : null;
}

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
  /** The bending head's boxes (HEAD_LIMITS); null: the default head (bend-program.ts DEFAULT_HEAD). */
  head: headSchema.optional(),
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

/** What a calibration upload may hold: measurements per bend, one wire diameter. */
export const CALIBRATION_LIMITS = { maxPoints: 2000, maxCommanded: 270 } as const;

/** POST /admin/base/open/calibration/login: the device's key (device-protocol.md), and its id when the app knows it. */
export const calibrationLoginSchema = z.object({
  deviceId: id.optional(),
  key: z.string().min(1).max(200),
});
export type CalibrationLoginRequest = z.input<typeof calibrationLoginSchema>;

/** POST /admin/device/config/calibrate: measured springback of one wire diameter. */
export const calibrationUploadSchema = z.object({
  diameter: configFields.diameter,
  points: z
    .array(
      z.object({
        /** The angle the machine bent to (deg). */
        commanded: z.number().min(L.minAngle).max(CALIBRATION_LIMITS.maxCommanded),
        /** The angle the wire kept, measured (deg). */
        measured: z.number().min(L.minAngle).max(L.maxAngle),
      }),
    )
    .min(1)
    .max(CALIBRATION_LIMITS.maxPoints),
  remark: configFields.remark,
});
export type CalibrationUploadRequest = z.input<typeof calibrationUploadSchema>;

/** GET /admin/device/config/history: the kept tables of a device (a calibration token: its own). */
export const configHistorySchema = z.object({ deviceId: id.optional(), diameter: z.coerce.number().min(0.1).max(5).optional() });
export type ConfigHistoryRequest = z.input<typeof configHistorySchema>;
/** POST /admin/device/config/restore: a kept table back in use. */
export const configRestoreSchema = z.object({ historyId: id });
export type ConfigRestoreRequest = z.input<typeof configRestoreSchema>;
