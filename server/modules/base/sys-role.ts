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
import { callerHolding, roleHolding, storedRoleHolding, within, type Holding } from '../../core/grants.ts';
import { SUPERADMIN_ROLE } from '../../core/perms.ts';
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
} as const satisfies ResourceDef<'base_sys_role', typeof roleAddSchema, typeof roleUpdateSchema>;

/** Menus and departments named in a grant must exist. */
async function checkGrantsExist(db: Kysely<Database>, menuIdList: number[] | undefined, departmentIdList: number[] | undefined) {
  for (const [table, list, field] of [
    ['base_sys_menu', menuIdList, 'menuIdList'],
    ['base_sys_department', departmentIdList, 'departmentIdList'],
  ] as const) {
    if (!list?.length) continue;
    const ids = [...new Set(list)];
    const found = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
    if (found.length !== ids.length) throw invalidField(field);
  }
}

/**
 * A non-superadmin creates or changes only roles that hand out nothing beyond their own holding
 * (core/grants.ts): menus and permissions (1001 "grant only what you hold"), data scope and
 * relevance (1001 "roles within your own permissions and data scope"). Else anyone allowed to
 * edit roles could grant themselves everything.
 */
function checkRoleWithin(role: Holding, caller: Holding) {
  if (within(role, caller)) return;
  // A business rule, not a missing permission of the path: 1001 keeps the user on the page.
  if (!within({ ...role, departments: new Set(), wide: false }, caller)) throw fail('grantBeyondOwn');
  throw fail('roleScopeBeyondOwn');
}

/** A stored role must lie within the caller (a non-superadmin cannot rewrite or delete a bigger one). */
async function checkStoredWithin(db: Kysely<Database>, caller: Holding, roleId: number) {
  const stored = await storedRoleHolding(db, roleId);
  if (stored && !within(stored, caller)) throw fail('roleScopeBeyondOwn');
}

/** Nobody but a superadmin changes or deletes a role they hold: that would be granting oneself. */
async function checkNotHeld(db: Kysely<Database>, caller: Holding, c: Context<AppEnv>, roleId: number) {
  const auth = c.get('auth');
  if (caller.isSuper || !auth) return;
  const holds = await db.selectFrom('base_sys_user_role').select('roleId').where('userId', '=', auth.userId).where('roleId', '=', roleId).executeTakeFirst();
  if (holds) throw fail('ownRoleLocked');
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
        await checkGrantsExist(trx, data.menuIdList, data.departmentIdList);
        checkRoleWithin(
          await roleHolding(trx, { menuIds: data.menuIdList, departmentIds: data.departmentIdList, relevance: data.relevance }),
          await callerHolding(trx, c),
        );
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
        await checkGrantsExist(trx, data.menuIdList, data.departmentIdList);
        const caller = await callerHolding(trx, c);
        if (!caller.isSuper) {
          await checkStoredWithin(trx, caller, data.id);
          // The role as it will be: what is sent, the stored grants for what is not.
          const stored = await trx.selectFrom('base_sys_role').select('relevance').where('id', '=', data.id).executeTakeFirstOrThrow();
          const menus = await trx.selectFrom('base_sys_role_menu').select('menuId').where('roleId', '=', data.id).execute();
          const depts = await trx.selectFrom('base_sys_role_department').select('departmentId').where('roleId', '=', data.id).execute();
          const after = await roleHolding(trx, {
            menuIds: data.menuIdList ?? menus.map((m) => m.menuId),
            departmentIds: data.departmentIdList ?? depts.map((d) => d.departmentId),
            relevance: data.relevance ?? stored.relevance,
          });
          checkRoleWithin(after, caller);
          await checkNotHeld(trx, caller, c, data.id);
        }
        const { id: _id, menuIdList: _m, departmentIdList: _d, ...row } = data;
        return row;
      },
      async afterUpdate(id, data, { trx }) {
        await replaceGrants(trx, id, data.menuIdList, data.departmentIdList);
      },
      async beforeDelete(ids, { c, trx }) {
        const protectedRole = await trx.selectFrom('base_sys_role').select('id').where('id', 'in', ids).where('name', '=', SUPERADMIN_ROLE).executeTakeFirst();
        if (protectedRole) throw fail('superadminRoleProtected');
        const caller = await callerHolding(trx, c);
        if (!caller.isSuper) {
          for (const id of ids) {
            await checkStoredWithin(trx, caller, id);
            await checkNotHeld(trx, caller, c, id);
          }
        }
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
