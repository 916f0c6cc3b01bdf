// /admin/device/info: wire-bending machines. The key a machine signs in with is made here,
// shown once and stored hashed. Users are bound to devices (device_user); non-admins see the
// devices they own or are bound to. The request schemas are common/device-request.ts.
import type { z } from 'zod';
import { deviceAddSchema, deviceBindSchema, deviceDiameterListSchema, deviceIdSchema, deviceUpdateSchema } from '../../../common/device-request.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { ok } from '../../core/envelope.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { calibrationOf } from '../../core/calibration.ts';
import { locationColumns } from '../../core/location.ts';
import { validate } from '../../core/validate.ts';
import type { Db } from '../../db/index.ts';
import { authOf, SEE_ALL, seesAll } from '../../core/access.ts';
import { deviceConfiguration, headOf } from './configuration.ts';
import { newDeviceKey } from './keys.ts';
import { visibleDeviceIds } from './scope.ts';

export const deviceResource = {
  module: 'device',
  path: 'info',
  name: 'DeviceInfo',
  table: 'device_info',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    devicename: { type: 'string', comment: 'Device name' },
    personnelId: { type: 'number', comment: 'Owner (user ID)', nullable: true },
    // The hub's to set (a machine signs in or drops off), never a form field: a sent value is ignored.
    status: { type: 'number', comment: 'Status: 0 offline, 1 online (set by the device hub)', readonly: true },
    remark: { type: 'string', comment: 'Remark', nullable: true },
    enableAI: { type: 'number', comment: 'AI equipment: 0 no, 1 yes' },
    diameters: { type: 'string', comment: 'Supported wire diameters, mm, comma-separated' },
    memory: { type: 'number', comment: 'Program memory: most bend steps per program' },
    dieRadius: { type: 'number', comment: 'Bend die radius (centreline of the arcs), mm' },
    head: { type: 'json', comment: 'Bending head: [{ min: [x, y, z], max: [x, y, z] }, ...] in mm (head frame); null: the default head', nullable: true },
    keyHash: { type: 'string', comment: 'sha256 of the device key', select: false, readonly: true },
    keyHint: { type: 'string', comment: 'Key hint (prefix and last 4 characters)', readonly: true },
    ...locationColumns,
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  // add is written below: its reply carries the key, once.
  actions: ['delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['devicename', 'remark'],
  sortable: ['id', 'devicename', 'status', 'createTime', 'updateTime'],
  filterable: ['status', 'personnelId', 'enableAI'],
  defaultOrder: ['id', 'desc'],
  updateSchema: deviceUpdateSchema,
  extraApi: [
    { method: 'post', path: '/add', summary: 'Add a device; the reply carries its key, shown only this once' },
    { method: 'post', path: '/resetKey', summary: 'New key for a device ({ id }); shown only this once' },
    { method: 'get', path: '/userList', summary: 'Users bound to a device (?id=)' },
    { method: 'post', path: '/bind', summary: 'Bind users to a device ({ id, userIds })' },
    { method: 'post', path: '/unbind', summary: 'Unbind users from a device ({ id, userIds })' },
    { method: 'get', path: '/diameterList', summary: 'Wire diameters of the visible devices (?id= for one)' },
    { method: 'get', path: '/currentDevice', summary: "The caller's own devices (owned or bound), for the editor" },
    { method: 'get', path: '/config', summary: "A device's configuration (?id=; a calibration token: its own device): diameters, memory, die, head, springback tables" },
  ],
  // Export only: a device is added one at a time, its key shown once.
  excel: {
    file: 'devices',
    import: false,
    columns: [
      { key: 'id', zh: 'ID', en: 'ID', de: 'ID', width: 8 },
      { key: 'devicename', zh: '设备名称', en: 'Device name', de: 'Gerätename', width: 20 },
      { key: 'status', zh: '状态', en: 'Status', de: 'Status', width: 8 },
      { key: 'enableAI', zh: 'AI 设备', en: 'AI equipment', de: 'KI-Gerät', width: 10 },
      { key: 'diameters', zh: '线径', en: 'Diameters', de: 'Durchmesser', width: 14 },
      { key: 'memory', zh: '程序容量', en: 'Memory', de: 'Speicher', width: 10 },
      { key: 'keyHint', zh: '密钥提示', en: 'Key hint', de: 'Schlüsselhinweis', width: 16 },
      { key: 'remark', zh: '备注', en: 'Remark', de: 'Bemerkung', width: 24 },
      { key: 'createTime', zh: '创建时间', en: 'Created', de: 'Erstellt', width: 20 },
    ],
  },
} as const satisfies ResourceDef<'device_info', z.ZodTypeAny, typeof deviceUpdateSchema>;

async function checkUsers(db: Db, ids: number[], field: string) {
  const unique = [...new Set(ids)];
  const found = await db.selectFrom('base_sys_user').select('id').where('id', 'in', unique).execute();
  if (found.length !== unique.length) throw invalidField(field);
}

/**
 * Owner and device administrators manage a device: change, delete, reset its key, bind and
 * unbind users. A bound user only uses it (sees it, bends on it). Only an administrator names
 * another user as owner; others may name only themselves.
 */
async function checkManages(db: Db, userId: number, ids: number[], newOwner?: number | null): Promise<{ admin: boolean }> {
  const admin = await seesAll(db, userId, SEE_ALL.devices);
  // undefined: the owner is not touched; null: none (only when adding, else that is giving it away).
  const ownerOk = newOwner === undefined || newOwner === userId || (newOwner === null && !ids.length);
  if (!admin && !ownerOk) throw fail('deviceOwnerOnly');
  if (admin || !ids.length) return { admin };
  const notOwned = await db.selectFrom('device_info').select('id').where('id', 'in', ids).where((eb) => eb.or([eb('personnelId', 'is', null), eb('personnelId', '!=', userId)])).executeTakeFirst();
  if (notOwned) throw fail('deviceOwnerOnly');
  return { admin };
}

/** A row as the back office reads it: the diameters as a list, the head as boxes (null: the default head). */
function decorated(row: Record<string, unknown>) {
  const { head, headDefault } = headOf(row.head as string | null | undefined);
  return { ...row, diameterList: String(row.diameters).split(',').map(Number), head: headDefault ? null : head };
}

export function createDeviceResource(ctx: AppContext) {
  const resource = createCrud(ctx, {
    ...deviceResource,
    hooks: {
      async scope({ c }) {
        const ids = await visibleDeviceIds(ctx.db, authOf(c).userId);
        return ids ? { id: ids } : undefined;
      },
      async beforeUpdate(data, { c, trx }) {
        await checkManages(trx, authOf(c).userId, [data.id], data.personnelId);
        if (data.personnelId) await checkUsers(trx, [data.personnelId], 'personnelId');
        const { id: _id, ...values } = data;
        return values;
      },
      async beforeDelete(ids, { c, trx }) {
        await checkManages(trx, authOf(c).userId, ids);
      },
      decorateList: (rows) => rows.map(decorated),
      decorate: (row) => decorated(row),
    },
  });

  /** The device, if the caller may see it; otherwise "Data does not exist". */
  async function visible(c: Parameters<typeof resource.scopeOf>[0], id: number) {
    const row = await resource
      .within(ctx.db.selectFrom('device_info').select(['id', 'diameters']).where('id', '=', id), await resource.scopeOf(c))
      .executeTakeFirst();
    if (!row) throw fail('dataNotFound');
    return row;
  }
  /** The device, if the caller sees it and manages it (owner or devices admin). */
  async function managed(c: Parameters<typeof resource.scopeOf>[0], id: number) {
    const row = await visible(c, id);
    await checkManages(ctx.db, authOf(c).userId, [id]);
    return row;
  }

  // Chained, so that AppType (and the typed client) see the extra calls.
  const routes = resource.routes
    .post('/add', validate('json', deviceAddSchema), async (c) => {
      const data = c.req.valid('json');
      const { userId } = authOf(c);
      const { admin } = await checkManages(ctx.db, userId, [], data.personnelId);
      if (data.personnelId) await checkUsers(ctx.db, [data.personnelId], 'personnelId');
      const { key, keyHash, keyHint } = await newDeviceKey();
      const now = formatTime(ctx.clock.now());
      const row = await ctx.db
        .insertInto('device_info')
        .values({
          devicename: data.devicename,
          // A device a non-admin adds is theirs: without an owner they could not see it again.
          personnelId: data.personnelId ?? (admin ? null : userId),
          status: 0,
          remark: data.remark ?? null,
          enableAI: data.enableAI ?? 0,
          diameters: data.diameters,
          memory: data.memory,
          dieRadius: data.dieRadius ?? 1,
          head: data.head ?? null,
          city: data.city ?? null,
          latitude: data.latitude ?? null,
          longitude: data.longitude ?? null,
          keyHash,
          keyHint,
          createTime: now,
          updateTime: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // `key` is the device protocol's name; `deviceKey` stays for the clients that read it.
      return ok(c, { id: row.id, key, deviceKey: key });
    })
    .post('/resetKey', validate('json', deviceIdSchema), async (c) => {
      const { id } = c.req.valid('json');
      await managed(c, id);
      const { key, keyHash, keyHint } = await newDeviceKey();
      await ctx.db.updateTable('device_info').set({ keyHash, keyHint, updateTime: formatTime(ctx.clock.now()) }).where('id', '=', id).execute();
      return ok(c, { id, key, deviceKey: key });
    })
    .get('/userList', validate('query', deviceIdSchema), async (c) => {
      const { id } = c.req.valid('query');
      await visible(c, id);
      const users = await ctx.db
        .selectFrom('device_user as du')
        .innerJoin('base_sys_user as u', 'u.id', 'du.userId')
        .select(['u.id', 'u.username', 'u.name', 'u.nickName'])
        .where('du.deviceId', '=', id)
        .orderBy('u.id')
        .execute();
      return ok(c, users);
    })
    .post('/bind', validate('json', deviceBindSchema), async (c) => {
      const { id, userIds } = c.req.valid('json');
      await managed(c, id);
      await checkUsers(ctx.db, userIds, 'userIds');
      await ctx.db
        .insertInto('device_user')
        .values([...new Set(userIds)].map((userId) => ({ deviceId: id, userId })))
        .onConflict((oc) => oc.columns(['deviceId', 'userId']).doNothing())
        .execute();
      return ok(c, null);
    })
    .post('/unbind', validate('json', deviceBindSchema), async (c) => {
      const { id, userIds } = c.req.valid('json');
      await managed(c, id);
      await ctx.db.deleteFrom('device_user').where('deviceId', '=', id).where('userId', 'in', userIds).execute();
      return ok(c, null);
    })
    .get('/diameterList', validate('query', deviceDiameterListSchema), async (c) => {
      const { id } = c.req.valid('query');
      const rows = id
        ? [await visible(c, id)]
        : await resource.within(ctx.db.selectFrom('device_info').select(['id', 'diameters']), await resource.scopeOf(c)).execute();
      const all = new Set(rows.flatMap((r) => String(r.diameters).split(',').map(Number)));
      return ok(c, [...all].sort((a, b) => a - b));
    })
    .get('/currentDevice', async (c) => {
      // Even an admin gets only the devices they own or are bound to: the ones they send work to.
      const { userId } = authOf(c);
      const bound = ctx.db.selectFrom('device_user').select('deviceId').where('userId', '=', userId);
      const rows = await ctx.db
        .selectFrom('device_info')
        .select(['id', 'devicename', 'status', 'enableAI', 'diameters', 'memory', 'personnelId'])
        .where((eb) => eb.or([eb('personnelId', '=', userId), eb('id', 'in', bound)]))
        .orderBy('id')
        .execute();
      return ok(c, rows.map((r) => ({ ...r, diameterList: r.diameters.split(',').map(Number) })));
    })
    .get('/config', validate('query', deviceDiameterListSchema), async (c) => {
      // A machine's calibration app reads its own device only; a user names one they see.
      const machine = calibrationOf(c);
      const { id } = c.req.valid('query');
      if (machine && id !== undefined && id !== machine.deviceId) throw fail('dataNotFound');
      if (!machine && id === undefined) throw invalidField('id', true);
      const deviceId = machine ? machine.deviceId : (await visible(c, id!)).id;
      const config = await deviceConfiguration(ctx.db, deviceId);
      if (!config) throw fail('dataNotFound');
      return ok(c, config);
    });
  return { ...resource, routes };
}
