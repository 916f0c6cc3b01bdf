// /admin/device/config: calibration per device and wire diameter, a springback table of
// [angle, springback] rows in degrees (angles, and angles plus springback, rising from 0 to 180:
// the rule is common/springback.ts, the same the editor and the bend kernels apply). The request
// schemas are common/device-request.ts.
import { deviceConfigAddSchema, deviceConfigUpdateSchema } from '../../../common/device-request.ts';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { fail, invalidField } from '../../core/errors.ts';
import type { Db } from '../../db/index.ts';
import { authOf } from '../../core/access.ts';
import { visibleDeviceIds } from './scope.ts';

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
} as const satisfies ResourceDef<'device_config', typeof deviceConfigAddSchema, typeof deviceConfigUpdateSchema>;

/** The diameter must be one the device supports, and only one table per pair. */
async function checkPair(db: Db, deviceId: number, diameter: number, selfId?: number) {
  const device = await db.selectFrom('device_info').select('diameters').where('id', '=', deviceId).executeTakeFirst();
  if (!device) throw invalidField('deviceId');
  if (!device.diameters.split(',').map(Number).includes(Math.round(diameter * 100) / 100)) {
    throw fail('deviceDiameterUnsupported', { diameter });
  }
  let q = db.selectFrom('device_config').select('id').where('deviceId', '=', deviceId).where('diameter', '=', diameter);
  if (selfId) q = q.where('id', '!=', selfId);
  if (await q.executeTakeFirst()) throw invalidField('diameter');
}

const parsed = (row: Record<string, unknown>) => ({ ...row, springback: JSON.parse(String(row.springback)) as unknown });

export function createDeviceConfigResource(ctx: AppContext) {
  return createCrud(ctx, {
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
      async beforeUpdate(data, { trx }) {
        const row = await trx.selectFrom('device_config').select(['deviceId', 'diameter']).where('id', '=', data.id).executeTakeFirstOrThrow();
        if (data.diameter !== undefined && data.diameter !== row.diameter) await checkPair(trx, row.deviceId, data.diameter, data.id);
        return { diameter: data.diameter, springback: data.springback, remark: data.remark };
      },
      decorateList: (rows) => rows.map(parsed),
      decorate: (row) => parsed(row),
    },
  });
}
