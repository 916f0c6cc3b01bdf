// /admin/base/sys/role: roles with their menu/permission grants (menuIdList) and department data
// scope (departmentIdList, relevance). Grants are read from the database on every request
// (core/auth.ts, permmenu), so a change takes effect on the next call without any cache.
import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import type { AppEnv } from '../../core/env.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { grantedMenuIds, loadAccess, SUPERADMIN_ROLE } from '../../core/perms.ts';
import type { Database } from '../../db/schema.ts';

const idList = z.array(z.coerce.number().int().positive()).max(5000);
const fields = {
  name: z.string().trim().min(1).max(100),
  label: z.string().trim().min(1).max(100),
  remark: z.string().max(1024).nullable().optional(),
  relevance: z.coerce.number().int().min(0).max(1),
};

export const roleAddSchema = z.object({
  ...fields,
  relevance: fields.relevance.default(1),
  menuIdList: idList.default([]),
  departmentIdList: idList.default([]),
});
export const roleUpdateSchema = z.object({
  id: z.coerce.number().int().positive(),
  name: fields.name.optional(),
  label: fields.label.optional(),
  remark: fields.remark,
  relevance: fields.relevance.optional(),
  menuIdList: idList.optional(),
  departmentIdList: idList.optional(),
});

export const roleResource = {
  module: 'base',
  path: 'sys/role',
  name: 'BaseSysRole',
  table: 'base_sys_role',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    name: { type: 'string', comment: 'Name (unique key)' },
    label: { type: 'string', comment: 'Label' },
    remark: { type: 'string', comment: 'Remark', nullable: true },
    relevance: { type: 'number', comment: 'Data scope includes sub-departments: 1 yes, 0 no' },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name', 'label', 'remark'],
  sortable: ['id', 'name', 'label', 'createTime', 'updateTime'],
  filterable: ['relevance'],
  defaultOrder: ['id', 'asc'],
  addSchema: roleAddSchema,
  updateSchema: roleUpdateSchema,
  recycle: true,
} satisfies ResourceDef<typeof roleAddSchema, typeof roleUpdateSchema>;

/**
 * Menus must exist; a caller who is not a superadmin may only pass on menus their own roles hold
 * (else anyone allowed to edit roles could grant themselves everything).
 */
async function checkGrants(db: Kysely<Database>, c: Context<AppEnv>, menuIdList: number[] | undefined, departmentIdList: number[] | undefined) {
  if (menuIdList?.length) {
    const ids = [...new Set(menuIdList)];
    const found = await db.selectFrom('base_sys_menu').select('id').where('id', 'in', ids).execute();
    if (found.length !== ids.length) throw invalidField('menuIdList');
    const caller = c.get('auth');
    const access = caller ? await loadAccess(db, caller.userId) : undefined;
    if (!access?.isSuper) {
      const own = await grantedMenuIds(db, access?.roleIds ?? []);
      // A business rule, not a missing permission of the path: 1001 keeps the user on the page.
      if (ids.some((id) => !own.has(id))) throw fail('grantBeyondOwn');
    }
  }
  if (departmentIdList?.length) {
    const ids = [...new Set(departmentIdList)];
    const found = await db.selectFrom('base_sys_department').select('id').where('id', 'in', ids).execute();
    if (found.length !== ids.length) throw invalidField('departmentIdList');
  }
}

async function replaceGrants(db: Kysely<Database>, roleId: number, menuIdList: number[] | undefined, departmentIdList: number[] | undefined) {
  if (menuIdList) {
    await db.deleteFrom('base_sys_role_menu').where('roleId', '=', roleId).execute();
    const ids = [...new Set(menuIdList)];
    if (ids.length) await db.insertInto('base_sys_role_menu').values(ids.map((menuId) => ({ roleId, menuId }))).execute();
  }
  if (departmentIdList) {
    await db.deleteFrom('base_sys_role_department').where('roleId', '=', roleId).execute();
    const ids = [...new Set(departmentIdList)];
    if (ids.length) await db.insertInto('base_sys_role_department').values(ids.map((departmentId) => ({ roleId, departmentId }))).execute();
  }
}

export function createRoleResource(ctx: AppContext) {
  return createCrud(ctx, {
    ...roleResource,
    hooks: {
      async beforeAdd(data, { c, trx }) {
        if (data.name === SUPERADMIN_ROLE) throw fail('roleNameTaken');
        const taken = await trx.selectFrom('base_sys_role').select('id').where('name', '=', data.name).executeTakeFirst();
        if (taken) throw fail('roleNameTaken');
        await checkGrants(trx, c, data.menuIdList, data.departmentIdList);
        return { name: data.name, label: data.label, remark: data.remark ?? null, relevance: data.relevance };
      },
      async afterAdd(id, data, { trx }) {
        await replaceGrants(trx, id, data.menuIdList, data.departmentIdList);
      },
      async beforeUpdate(data, { c, trx }) {
        const role = await trx.selectFrom('base_sys_role').select('name').where('id', '=', data.id).executeTakeFirst();
        if (!role) throw fail('dataNotFound');
        // Its grants mean nothing (it passes every check) and renaming it would demote its holders.
        if (role.name === SUPERADMIN_ROLE) throw fail('superadminRoleProtected');
        if (data.name !== undefined) {
          const taken = await trx
            .selectFrom('base_sys_role')
            .select('id')
            .where('name', '=', data.name)
            .where('id', '!=', data.id)
            .executeTakeFirst();
          if (taken || data.name === SUPERADMIN_ROLE) throw fail('roleNameTaken');
        }
        await checkGrants(trx, c, data.menuIdList, data.departmentIdList);
        const { id: _id, menuIdList: _m, departmentIdList: _d, ...row } = data;
        return row;
      },
      async afterUpdate(id, data, { trx }) {
        await replaceGrants(trx, id, data.menuIdList, data.departmentIdList);
      },
      async beforeDelete(ids, { trx }) {
        const protectedRole = await trx.selectFrom('base_sys_role').select('id').where('id', 'in', ids).where('name', '=', SUPERADMIN_ROLE).executeTakeFirst();
        if (protectedRole) throw fail('superadminRoleProtected');
      },
      async related(row, { trx }) {
        const roleId = Number(row.id);
        return {
          base_sys_role_menu: await trx.selectFrom('base_sys_role_menu').selectAll().where('roleId', '=', roleId).execute(),
          base_sys_role_department: await trx.selectFrom('base_sys_role_department').selectAll().where('roleId', '=', roleId).execute(),
          base_sys_user_role: await trx.selectFrom('base_sys_user_role').selectAll().where('roleId', '=', roleId).execute(),
        };
      },
      async decorate(row, { db }) {
        const roleId = Number(row.id);
        const menus = await db.selectFrom('base_sys_role_menu').select('menuId').where('roleId', '=', roleId).orderBy('menuId').execute();
        const depts = await db.selectFrom('base_sys_role_department').select('departmentId').where('roleId', '=', roleId).orderBy('departmentId').execute();
        return { ...row, menuIdList: menus.map((m) => m.menuId), departmentIdList: depts.map((d) => d.departmentId) };
      },
    },
  });
}
