// /admin/device/config: calibration per device and wire diameter, a springback table of
// [angle, springback] rows in degrees (angles, and angles plus springback, rising from 0 to 180:
// the rule is common/springback.ts, the same the editor and the bend kernels apply). The request
// schemas are common/device-request.ts.
// A table that is replaced (by this form, a machine's calibration upload or a restore) is kept in
// device_config_history: GET history lists them, POST restore puts one back. The machine's
// calibration app (a calibration token, core/calibration.ts) uploads measured springback with
// POST calibrate and reads the history of its own device only.
import {
  calibrationUploadSchema,
  configHistorySchema,
  configRestoreSchema,
  deviceConfigAddSchema,
  deviceConfigUpdateSchema,
  springbackSchema,
} from '../../../common/device-request.ts';
import { springbackFromMeasurements } from '../../../common/springback.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { LOGIN_WINDOW_MS, reserveAll, settle, type Bucket } from '../../core/rate-limit.ts';
import { calibrationOf } from '../../core/calibration.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { Code, ok } from '../../core/envelope.ts';
import { ApiError, fail, forbidden, invalidField } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import { withKeyLock } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';
import { authOf } from '../../core/access.ts';
import { visibleDeviceIds } from './scope.ts';

/** Calibration uploads one device may make in the window (each keeps the table it replaces). */
export const CALIBRATIONS_PER_WINDOW = 30;
const calibrationBucket = (deviceId: number): Bucket => ({ key: `calibrate:${deviceId}`, max: CALIBRATIONS_PER_WINDOW, windowMs: LOGIN_WINDOW_MS });

export const deviceConfigResource = {
  module: 'device',
  path: 'config',
  name: 'DeviceConfig',
  table: 'device_config',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    deviceId: { type: 'number', comment: 'Device ID' },
    diameter: { type: 'number', comment: 'Wire diameter, mm' },
    springback: { type: 'json', comment: 'Springback table: [[angle, springback], ...] in degrees' },
    remark: { type: 'string', comment: 'Remark', nullable: true },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  sortable: ['id', 'deviceId', 'diameter', 'createTime'],
  filterable: ['deviceId', 'diameter'],
  defaultOrder: ['diameter', 'asc'],
  addSchema: deviceConfigAddSchema,
  updateSchema: deviceConfigUpdateSchema,
  extraApi: [
    { method: 'post', path: '/calibrate', summary: "The machine's calibration app: measured springback ({ diameter, points: [{ commanded, measured }] }) becomes the device's table" },
    { method: 'get', path: '/history', summary: 'Replaced springback tables of a device (?deviceId=&diameter=), newest first' },
    { method: 'post', path: '/restore', summary: 'Put a replaced table back in use ({ historyId }); the current one is kept in turn' },
  ],
} as const satisfies ResourceDef<'device_config', typeof deviceConfigAddSchema, typeof deviceConfigUpdateSchema>;

/** The diameter must be one the device supports. */
async function checkDiameter(db: Db, deviceId: number, diameter: number) {
  const device = await db.selectFrom('device_info').select('diameters').where('id', '=', deviceId).executeTakeFirst();
  if (!device) throw invalidField('deviceId');
  if (!device.diameters.split(',').map(Number).includes(Math.round(diameter * 100) / 100)) {
    throw fail('deviceDiameterUnsupported', { diameter });
  }
}

/** The diameter must be one the device supports, and only one table per pair. */
async function checkPair(db: Db, deviceId: number, diameter: number, selfId?: number) {
  await checkDiameter(db, deviceId, diameter);
  let q = db.selectFrom('device_config').select('id').where('deviceId', '=', deviceId).where('diameter', '=', diameter);
  if (selfId) q = q.where('id', '!=', selfId);
  if (await q.executeTakeFirst()) throw invalidField('diameter');
}

const parsed = (row: Record<string, unknown>) => ({ ...row, springback: JSON.parse(String(row.springback)) as unknown });

type ReplacedBy = 'form' | 'calibration' | 'restore';

/** Keeps the table of config row `id` in the history before it is replaced. */
async function keepPrevious(db: Db, id: number, replacedBy: ReplacedBy, userId: number | null, now: string) {
  const row = await db.selectFrom('device_config').select(['deviceId', 'diameter', 'springback', 'remark']).where('id', '=', id).executeTakeFirst();
  if (!row) throw fail('dataNotFound');
  await db.insertInto('device_config_history').values({ ...row, replacedBy, userId, createTime: now }).execute();
}

/**
 * Makes `springback` (JSON text, already held to springbackSchema) the device's table for the
 * diameter: the current one, if any, goes to the history first. One transaction.
 */
async function putTable(db: Db, t: { deviceId: number; diameter: number; springback: string; remark?: string | null }, replacedBy: ReplacedBy, userId: number | null, now: string) {
  // Diameters are kept to 0.01 mm, as the device's list is (0.80000001 is the 0.8 table).
  const diameter = Math.round(t.diameter * 100) / 100;
  return db.transaction().execute(async (trx) => {
    // Read, then insert or update: two uploads at once must not both find no table.
    await withKeyLock(trx, `device-config:${t.deviceId}:${diameter}`, async () => undefined);
    await checkDiameter(trx, t.deviceId, diameter);
    const current = await trx.selectFrom('device_config').select('id').where('deviceId', '=', t.deviceId).where('diameter', '=', diameter).executeTakeFirst();
    if (current) {
      await keepPrevious(trx, current.id, replacedBy, userId, now);
      await trx
        .updateTable('device_config')
        .set({ springback: t.springback, ...(t.remark !== undefined ? { remark: t.remark } : {}), updateTime: now })
        .where('id', '=', current.id)
        .execute();
      return current.id;
    }
    const row = await trx
      .insertInto('device_config')
      .values({ deviceId: t.deviceId, diameter, springback: t.springback, remark: t.remark ?? null, createTime: now, updateTime: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/** A table held to the back office's checks (springbackSchema), or 1002 naming `field` and why. */
function checkedTable(rows: unknown, field: string): string {
  const r = springbackSchema.safeParse(rows);
  if (r.success) return r.data;
  const why = r.error.issues[0]?.message ?? 'invalid';
  throw new ApiError(Code.validation, 'springbackTableInvalid', 200, { field, reason: why });
}

export function createDeviceConfigResource(ctx: AppContext) {
  const resource = createCrud(ctx, {
    ...deviceConfigResource,
    hooks: {
      async scope({ c }) {
        const ids = await visibleDeviceIds(ctx.db, authOf(c).userId);
        return ids ? { deviceId: ids } : undefined;
      },
      async beforeAdd(data, { c, trx }) {
        const ids = await visibleDeviceIds(trx, authOf(c).userId);
        if (ids && !ids.includes(data.deviceId)) throw invalidField('deviceId');
        await checkPair(trx, data.deviceId, data.diameter);
        return data;
      },
      async beforeUpdate(data, { c, trx }) {
        const row = await trx.selectFrom('device_config').select(['deviceId', 'diameter', 'springback']).where('id', '=', data.id).executeTakeFirstOrThrow();
        if (data.diameter !== undefined && data.diameter !== row.diameter) await checkPair(trx, row.deviceId, data.diameter, data.id);
        // A new table: the one it replaces is kept.
        if (data.springback !== undefined && data.springback !== row.springback) {
          await keepPrevious(trx, data.id, 'form', authOf(c).userId, formatTime(ctx.clock.now()));
        }
        return { diameter: data.diameter, springback: data.springback, remark: data.remark };
      },
      decorateList: (rows) => rows.map(parsed),
      decorate: (row) => parsed(row),
    },
  });

  /** The device a history call is about: the calibration token's own, or one the user sees. */
  async function historyDevice(c: Parameters<typeof resource.scopeOf>[0], deviceId: number | undefined): Promise<number> {
    const machine = calibrationOf(c);
    if (machine) {
      if (deviceId !== undefined && deviceId !== machine.deviceId) throw fail('dataNotFound');
      return machine.deviceId;
    }
    if (deviceId === undefined) throw invalidField('deviceId', true);
    const ids = await visibleDeviceIds(ctx.db, authOf(c).userId);
    if (ids && !ids.includes(deviceId)) throw fail('dataNotFound');
    return deviceId;
  }

  // Chained, so that AppType (and the typed client) see the extra calls.
  const routes = resource.routes
    .post('/calibrate', validate('json', calibrationUploadSchema), async (c) => {
      // Only a machine's calibration app, for its own device (the device is the token's).
      const machine = calibrationOf(c);
      if (!machine) throw forbidden();
      const { diameter, points, remark } = c.req.valid('json');
      // Every upload keeps the table it replaces: a bounded number per device and window, counted
      // whether it is taken or refused, so a looping app cannot grow the history without end.
      await reserveAll(ctx, [calibrationBucket(machine.deviceId)], 'tooManyCalibrations').then((held) => settle(ctx, held));
      const rows = springbackFromMeasurements(points);
      const springback = checkedTable(rows, 'points');
      const now = formatTime(ctx.clock.now());
      const id = await putTable(ctx.db, { deviceId: machine.deviceId, diameter, springback, remark }, 'calibration', null, now);
      ctx.logger.info(`springback calibrated: device ${machine.deviceId}, ${diameter} mm, ${points.length} measurements, ${rows.length} rows`);
      return ok(c, { id, deviceId: machine.deviceId, diameter, springback: rows });
    })
    .get('/history', validate('query', configHistorySchema), async (c) => {
      const q = c.req.valid('query');
      const deviceId = await historyDevice(c, q.deviceId);
      let sel = ctx.db
        .selectFrom('device_config_history')
        .select(['id', 'deviceId', 'diameter', 'springback', 'remark', 'replacedBy', 'userId', 'createTime'])
        .where('deviceId', '=', deviceId);
      if (q.diameter !== undefined) sel = sel.where('diameter', '=', q.diameter);
      const rows = await sel.orderBy('id', 'desc').limit(100).execute();
      return ok(c, rows.map(parsed));
    })
    .post('/restore', validate('json', configRestoreSchema), async (c) => {
      const { historyId } = c.req.valid('json');
      const { userId } = authOf(c);
      const kept = await ctx.db.selectFrom('device_config_history').selectAll().where('id', '=', historyId).executeTakeFirst();
      if (!kept) throw fail('dataNotFound');
      const ids = await visibleDeviceIds(ctx.db, userId);
      if (ids && !ids.includes(kept.deviceId)) throw fail('dataNotFound');
      // Held to today's rule: a table kept from before a stricter check is not put back unchecked.
      const springback = checkedTable(JSON.parse(kept.springback), 'springback');
      const id = await putTable(ctx.db, { deviceId: kept.deviceId, diameter: kept.diameter, springback, remark: kept.remark }, 'restore', userId, formatTime(ctx.clock.now()));
      return ok(c, { id });
    });
  return { ...resource, routes };
}
