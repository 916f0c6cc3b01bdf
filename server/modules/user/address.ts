// /admin/user/address: users' delivery addresses. Everyone sees and changes only their own
// (scope); address admins (user:address:all, "All addresses") see everyone's and may add one
// for another user. The region is checked against the division data and stored with its names.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authOf, SEE_ALL, seesAll } from '../../core/access.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { checkedRegion } from '../../core/regions.ts';
import type { Db } from '../../db/index.ts';
import { joinRegion, regionSchema, splitRegion } from '../../../common/region.ts';

const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v ? 1 : 0));
const fields = {
  name: z.string().trim().min(1).max(64),
  phone: z.string().trim().regex(/^\+?[\d][\d -]{4,30}$/),
  region: regionSchema,
  detail: z.string().trim().min(1).max(255),
  isDefault: flag.optional(),
  /** Only address admins may name another user. */
  userId: z.coerce.number().int().positive().optional(),
};
const addressAddSchema = z.object(fields);
const addressUpdateSchema = z
  .object({ ...fields, id: z.coerce.number().int().positive() })
  .partial({ name: true, phone: true, region: true, detail: true });

export const addressResource = {
  module: 'user',
  path: 'address',
  name: 'UserAddress',
  table: 'user_address',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    userId: { type: 'number', comment: 'Owner (user ID)', readonly: true },
    name: { type: 'string', comment: 'Recipient' },
    phone: { type: 'string', comment: 'Phone' },
    regionCodes: { type: 'string', comment: 'Province, city, district codes (comma-separated)', readonly: true },
    regionNames: { type: 'string', comment: 'Province, city, district names (comma-separated)', readonly: true },
    detail: { type: 'string', comment: 'Street and number' },
    isDefault: { type: 'number', comment: 'Default address: 0 no, 1 yes' },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name', 'phone', 'detail', 'regionNames'],
  sortable: ['id', 'name', 'isDefault', 'createTime', 'updateTime'],
  filterable: ['userId', 'isDefault'],
  defaultOrder: ['isDefault', 'desc'],
  addSchema: addressAddSchema,
  updateSchema: addressUpdateSchema,
} as const satisfies ResourceDef<'user_address', typeof addressAddSchema, typeof addressUpdateSchema>;

/** The body with its region re-read from the division data (names from there, not the client). */
async function withCheckedRegion<T extends { region?: { codes: string[]; names?: string[] | undefined } | undefined }>(data: T): Promise<T> {
  if (!data.region) return data;
  const region = await checkedRegion(data.region.codes);
  if (!region) throw fail('addressRegionInvalid');
  return { ...data, region };
}
const regionColumns = (region: { codes: string[]; names?: string[] | undefined } | undefined) =>
  region ? joinRegion({ codes: region.codes, names: region.names ?? [] }) : {};

/** Makes `id` the only default address of `userId`. */
async function soleDefault(trx: Db, userId: number, id: number) {
  await trx.updateTable('user_address').set({ isDefault: 0 }).where('userId', '=', userId).where('id', '!=', id).execute();
}

/** Whether the address exists and belongs to the user (the order form's check). */
export async function addressOf(db: Db, addressId: number, userId: number): Promise<boolean> {
  return !!(await db.selectFrom('user_address').select('id').where('id', '=', addressId).where('userId', '=', userId).executeTakeFirst());
}

export function createAddressResource(ctx: AppContext) {
  /** Bodies that made their address the default (before -> after, same request). */
  const madeDefault = new WeakMap<object, number>();
  return createCrud(ctx, {
    ...addressResource,
    hooks: {
      async scope({ c }) {
        const { userId } = authOf(c);
        return (await seesAll(ctx.db, userId, SEE_ALL.addresses)) ? undefined : { userId };
      },
      // The division data is read before the write transaction holds the connection.
      prepareAdd: (data) => withCheckedRegion(data),
      prepareUpdate: (data) => withCheckedRegion(data),
      async beforeAdd(data, { c, trx }) {
        const caller = authOf(c).userId;
        let userId = caller;
        if (data.userId !== undefined && data.userId !== caller) {
          if (!(await seesAll(trx, caller, SEE_ALL.addresses))) throw invalidField('userId');
          if (!(await trx.selectFrom('base_sys_user').select('id').where('id', '=', data.userId).executeTakeFirst())) throw invalidField('userId');
          userId = data.userId;
        }
        // A user's first address is their default.
        const first = !(await trx.selectFrom('user_address').select('id').where('userId', '=', userId).executeTakeFirst());
        const isDefault = first ? 1 : (data.isDefault ?? 0);
        if (isDefault) madeDefault.set(data, userId);
        return { userId, name: data.name, phone: data.phone, detail: data.detail, isDefault, ...regionColumns(data.region) };
      },
      async afterAdd(id, data, { trx }) {
        const userId = madeDefault.get(data);
        if (userId !== undefined) await soleDefault(trx, userId, id);
      },
      async beforeUpdate(data, { trx }) {
        const previous = await trx.selectFrom('user_address').select('userId').where('id', '=', data.id).executeTakeFirst();
        if (!previous) throw fail('dataNotFound');
        if (data.userId !== undefined && data.userId !== previous.userId) throw invalidField('userId');
        if (data.isDefault) madeDefault.set(data, previous.userId);
        return { name: data.name, phone: data.phone, detail: data.detail, isDefault: data.isDefault, ...regionColumns(data.region) };
      },
      async afterUpdate(id, data, { trx }) {
        const userId = madeDefault.get(data);
        if (userId !== undefined) await soleDefault(trx, userId, id);
      },
      decorateList: (rows) => rows.map(withRegion),
      decorate: (row) => withRegion(row),
    },
  });
}

/** The region as the form edits it, beside the stored columns. */
const withRegion = (row: Record<string, unknown>) => ({ ...row, region: splitRegion(row.regionCodes as string, row.regionNames as string) });
