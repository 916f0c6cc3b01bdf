// /admin/base/sys/user: the CRUD factory plus what users need beyond it (hashed passwords,
// role links, unique usernames, the department data scope), moving users between departments,
// batch creation, and Excel export/import (sys-user-excel.ts).
import type { Context } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import type { AppEnv } from '../../core/env.ts';
import { ok } from '../../core/envelope.ts';
import { fail, forbidden, invalidField } from '../../core/errors.ts';
import { callerHolding, departmentScope, holdingOf, storedRoleHolding, userHolding, within, type Holding } from '../../core/grants.ts';
import { subtreeIds, SUPERADMIN_ROLE } from '../../core/perms.ts';
import { revokeUserSessions } from '../../core/tokens.ts';
import { validate } from '../../core/validate.ts';
import type { Database } from '../../db/schema.ts';
import { userAddSchema } from './schemas.ts';
import { addUserExcelRoutes } from './sys-user-excel.ts';

type Row = Record<string, unknown>;

/** An empty password on update means "keep the current one". */
const optionalPassword = z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().min(6).max(128).optional());

export const userUpdateSchema = z.object({
  id: z.coerce.number().int().positive(),
  username: z.string().trim().min(1).max(100).optional(),
  password: optionalPassword,
  name: z.string().trim().max(255).nullable().optional(),
  nickName: z.string().trim().max(255).nullable().optional(),
  headImg: z.string().max(1024).nullable().optional(),
  phone: z.string().max(32).nullable().optional(),
  email: z.string().max(255).nullable().optional(),
  remark: z.string().max(1024).nullable().optional(),
  roleIdList: z.array(z.coerce.number().int().positive()).max(100).optional(),
  departmentId: z.coerce.number().int().positive().nullable().optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
});

export const userMoveSchema = z.object({
  userIds: z.array(z.coerce.number().int().positive()).min(1).max(1000),
  departmentId: z.coerce.number().int().positive().nullable(),
});

export const userResource = {
  module: 'base',
  path: 'sys/user',
  name: 'BaseSysUser',
  table: 'base_sys_user',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    username: { type: 'string', comment: 'Username' },
    password: { type: 'string', comment: 'Password', select: false },
    passwordVersion: { type: 'number', comment: 'Password version', select: false, readonly: true },
    name: { type: 'string', comment: 'Name', nullable: true },
    nickName: { type: 'string', comment: 'Nickname', nullable: true },
    headImg: { type: 'string', comment: 'Avatar', nullable: true },
    phone: { type: 'string', comment: 'Phone', nullable: true },
    email: { type: 'string', comment: 'Email', nullable: true },
    remark: { type: 'string', comment: 'Remark', nullable: true },
    status: { type: 'number', comment: 'Status: 0 disabled, 1 enabled' },
    departmentId: { type: 'number', comment: 'Department ID', nullable: true },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['username', 'name', 'nickName', 'phone', 'email'],
  sortable: ['id', 'username', 'name', 'nickName', 'status', 'departmentId', 'createTime', 'updateTime'],
  // departmentId is handled by the `where` hook: a department means it and its subtree.
  filterable: ['status'],
  defaultOrder: ['id', 'desc'],
  addSchema: userAddSchema,
  updateSchema: userUpdateSchema,
  recycle: true,
  extraApi: [
    { method: 'post', path: '/move', summary: 'Move users to a department ({ userIds, departmentId })' },
    { method: 'post', path: '/batchCreateUser', summary: 'Create users from a list ({ list, password?, departmentId?, roleIdList? })' },
    { method: 'get', path: '/batchCreateUser', summary: 'Create users named in the query (?usernames=a,b&departmentId=&roleIdList=1,2), each with a generated password answered once' },
    { method: 'post', path: '/export', summary: 'The filtered list as an xlsx file (page filters)' },
    { method: 'post', path: '/import', summary: 'Create users from an xlsx upload (multipart "file"); bad rows are skipped and reported' },
    { method: 'get', path: '/template', summary: 'An empty xlsx with the importable columns' },
  ],
} as const satisfies ResourceDef<'base_sys_user', typeof userAddSchema, typeof userUpdateSchema>;

async function superadminRoleId(db: Kysely<Database>): Promise<number | undefined> {
  return (await db.selectFrom('base_sys_role').select('id').where('name', '=', SUPERADMIN_ROLE).executeTakeFirst())?.id;
}

/** Users among `ids` holding the superadmin role. */
async function superUsers(db: Kysely<Database>, ids: number[]): Promise<number[]> {
  const roleId = await superadminRoleId(db);
  if (roleId === undefined || !ids.length) return [];
  const rows = await db.selectFrom('base_sys_user_role').select('userId').where('roleId', '=', roleId).where('userId', 'in', ids).execute();
  return rows.map((r) => r.userId);
}

/**
 * The roles the caller may hand out, or undefined for all (superadmin): those whose menus,
 * permissions and data scope lie within the caller's own (core/grants.ts), never superadmin.
 * Else anyone allowed to edit users could give themselves (or a friend) more than they hold.
 */
export async function assignableRoles(db: Kysely<Database>, c: Context<AppEnv>): Promise<Set<number> | undefined> {
  const caller = await callerHolding(db, c);
  if (caller.isSuper) return undefined;
  const roles = await db.selectFrom('base_sys_role').select('id').execute();
  const allowed = new Set<number>();
  for (const { id } of roles) {
    const role = await storedRoleHolding(db, id);
    if (role && within(role, caller)) allowed.add(id);
  }
  return allowed;
}

/** Checks role ids exist and that the caller may hand them out (see assignableRoles). */
async function checkRoles(db: Kysely<Database>, c: Context<AppEnv>, roleIdList: number[], alreadyHeld: number[] = []): Promise<void> {
  const roles = roleIdList.length ? await db.selectFrom('base_sys_role').select(['id', 'name']).where('id', 'in', roleIdList).execute() : [];
  if (roles.length !== new Set(roleIdList).size) throw invalidField('roleIdList');
  const allowed = await assignableRoles(db, c);
  // Keeping a role the user already holds is not handing it out.
  const handedOut = roleIdList.filter((id) => !alreadyHeld.includes(id));
  if (!allowed || handedOut.every((id) => allowed.has(id))) return;
  if (roles.some((r) => r.name === SUPERADMIN_ROLE && handedOut.includes(r.id))) throw forbidden();
  throw fail('roleBeyondOwn');
}

/**
 * A non-superadmin changes (updates, deletes, moves) only users who hold nothing beyond the
 * caller: permissions, menus and data scope ("see all" grants included). A superadmin among them
 * is 403, as before; anyone else beyond the caller 1001.
 */
async function checkTargets(db: Kysely<Database>, caller: Holding, ids: number[]): Promise<void> {
  if (caller.isSuper || !ids.length) return;
  if ((await superUsers(db, ids)).length) throw forbidden();
  for (const id of ids) if (!within(await userHolding(db, id), caller)) throw fail('userBeyondOwn');
}

/** The user as it will be (department and roles after the change) must lie within the caller too. */
async function checkOutcome(db: Kysely<Database>, caller: Holding, who: { departmentId: number | null; roleIds: number[] }): Promise<void> {
  if (!caller.isSuper && !within(await holdingOf(db, who), caller)) throw fail('userBeyondOwn');
}

/** A department must exist and lie in the caller's data scope. */
async function checkDepartment(db: Kysely<Database>, scope: Row | undefined, departmentId: number | null | undefined): Promise<void> {
  if (departmentId == null) return;
  const found = await db.selectFrom('base_sys_department').select('id').where('id', '=', departmentId).executeTakeFirst();
  if (!found) throw invalidField('departmentId');
  if (scope && !(scope.departmentId as number[]).includes(departmentId)) throw invalidField('departmentId');
}

async function replaceRoles(db: Kysely<Database>, userId: number, roleIdList: number[]): Promise<void> {
  await db.deleteFrom('base_sys_user_role').where('userId', '=', userId).execute();
  const roleIds = [...new Set(roleIdList)];
  if (roleIds.length) await db.insertInto('base_sys_user_role').values(roleIds.map((roleId) => ({ userId, roleId }))).execute();
}

/** Department name and role ids/labels of each user row. */
export async function describeUsers(db: Kysely<Database>, rows: Row[]): Promise<Row[]> {
  const ids = rows.map((r) => Number(r.id));
  const links = await db
    .selectFrom('base_sys_user_role as ur')
    .innerJoin('base_sys_role as r', 'r.id', 'ur.roleId')
    .select(['ur.userId', 'r.id', 'r.label'])
    .where('ur.userId', 'in', ids)
    .orderBy('r.id')
    .execute();
  const deptIds = [...new Set(rows.map((r) => r.departmentId).filter((d): d is number => typeof d === 'number'))];
  const depts = deptIds.length ? await db.selectFrom('base_sys_department').select(['id', 'name']).where('id', 'in', deptIds).execute() : [];
  const deptName = new Map(depts.map((d) => [d.id, d.name]));
  return rows.map((row) => {
    const mine = links.filter((l) => l.userId === row.id);
    return {
      ...row,
      departmentName: typeof row.departmentId === 'number' ? (deptName.get(row.departmentId) ?? null) : null,
      roleIdList: mine.map((l) => l.id),
      roleName: mine.map((l) => l.label).join(','),
    };
  });
}

/** The caller's scope as user-row constraints, read through `db` (the transaction inside one). */
async function userScope(db: Kysely<Database>, c: Context<AppEnv>): Promise<Row | undefined> {
  const auth = c.get('auth');
  const ids = auth ? await departmentScope(db, auth.userId) : [];
  return ids === undefined ? undefined : { departmentId: ids };
}

export function createUserResource(ctx: AppContext) {
  const resource = createCrud(ctx, {
    ...userResource,
    hooks: {
      scope: ({ c }) => userScope(ctx.db, c),
      async where(body) {
        const d = body.departmentId;
        if (d === undefined || d === null || d === '') return undefined;
        if (Array.isArray(d)) {
          if (!d.every((x) => Number.isInteger(Number(x)))) throw invalidField('departmentId');
          return d.length ? { departmentId: d.map(Number) } : undefined;
        }
        const id = Number(d);
        if (typeof d === 'object' || !Number.isInteger(id)) throw invalidField('departmentId');
        const all = await ctx.db.selectFrom('base_sys_department').select(['id', 'parentId']).execute();
        return { departmentId: subtreeIds(all, [id]) };
      },
      async prepareAdd(data) {
        return { ...data, password: await ctx.passwords.hash(data.password) };
      },
      async prepareUpdate(data) {
        return data.password ? { ...data, password: await ctx.passwords.hash(data.password) } : data;
      },
      async beforeAdd(data, { c, trx }) {
        const taken = await trx.selectFrom('base_sys_user').select('id').where('username', '=', data.username).executeTakeFirst();
        if (taken) throw fail('usernameTaken');
        await checkRoles(trx, c, data.roleIdList);
        await checkDepartment(trx, await userScope(trx, c), data.departmentId);
        await checkOutcome(trx, await callerHolding(trx, c), { departmentId: data.departmentId ?? null, roleIds: data.roleIdList });
        const { roleIdList: _roles, ...row } = data;
        return row;
      },
      async afterAdd(id, data, { trx }) {
        await replaceRoles(trx, id, data.roleIdList);
      },
      async beforeUpdate(data, { c, trx }) {
        if (data.username !== undefined) {
          const taken = await trx
            .selectFrom('base_sys_user')
            .select('id')
            .where('username', '=', data.username)
            .where('id', '!=', data.id)
            .executeTakeFirst();
          if (taken) throw fail('usernameTaken');
        }
        // Only a superadmin may change a superadmin (password, roles) or make one; others change
        // only users within their own rights and data scope.
        const caller = await callerHolding(trx, c);
        await checkTargets(trx, caller, [data.id]);
        const held = (await trx.selectFrom('base_sys_user_role').select('roleId').where('userId', '=', data.id).execute()).map((h) => h.roleId);
        if (data.roleIdList) {
          await checkRoles(trx, c, data.roleIdList, held);
          // Nobody but a superadmin changes their own roles (sending the same ones is fine).
          const same = new Set(data.roleIdList).size === held.length && data.roleIdList.every((id) => held.includes(id));
          if (!caller.isSuper && c.get('auth')?.userId === data.id && !same) throw fail('ownRolesLocked');
        }
        if (data.departmentId !== undefined) await checkDepartment(trx, await userScope(trx, c), data.departmentId);
        if (data.roleIdList || data.departmentId !== undefined) {
          const current = await trx.selectFrom('base_sys_user').select('departmentId').where('id', '=', data.id).executeTakeFirst();
          const departmentId = data.departmentId !== undefined ? data.departmentId : (current?.departmentId ?? null);
          await checkOutcome(trx, caller, { departmentId, roleIds: data.roleIdList ?? held });
        }
        const { roleIdList: _roles, id: _id, ...row } = data;
        return row;
      },
      async afterUpdate(id, data, { trx }) {
        if (data.roleIdList) await replaceRoles(trx, id, data.roleIdList);
        // Disabling ends every session; enabling again does not bring them back.
        if (data.status === 0) await revokeUserSessions(ctx, id, trx);
        // A new password ends every session of the user, as a password change does.
        if (data.password) {
          await trx
            .updateTable('base_sys_user')
            .set((eb) => ({ passwordVersion: eb('passwordVersion', '+', 1) }))
            .where('id', '=', id)
            .execute();
        }
      },
      async beforeDelete(ids, { c, trx }) {
        const caller = c.get('auth');
        if (caller && ids.includes(caller.userId)) throw fail('cannotDeleteSelf');
        if ((await superUsers(trx, ids)).length) throw fail('cannotDeleteSuperadmin');
        await checkTargets(trx, await callerHolding(trx, c), ids);
      },
      async related(row, { trx }) {
        return { base_sys_user_role: await trx.selectFrom('base_sys_user_role').selectAll().where('userId', '=', Number(row.id)).execute() };
      },
      decorateList: (rows, { db }) => describeUsers(db, rows),
      async decorate(row, { db }) {
        return (await describeUsers(db, [row]))[0]!;
      },
    },
  });

  // Chained (here and in addUserExcelRoutes), so that AppType (and the typed client) see the
  // extra calls.
  const moveRoutes = resource.routes.post('/move', validate('json', userMoveSchema), async (c) => {
    const { userIds, departmentId } = c.req.valid('json');
    const scope = await resource.scopeOf(c);
    await checkDepartment(ctx.db, scope, departmentId);
    // Users outside the scope are left alone; those inside must lie within the caller, before and after.
    const caller = await callerHolding(ctx.db, c);
    if (!caller.isSuper) {
      const moved = await resource.within(ctx.db.selectFrom('base_sys_user').select('id').where('id', 'in', userIds), scope).execute();
      await checkTargets(ctx.db, caller, moved.map((u) => u.id));
      for (const { id } of moved) {
        const roles = await ctx.db.selectFrom('base_sys_user_role').select('roleId').where('userId', '=', id).execute();
        await checkOutcome(ctx.db, caller, { departmentId, roleIds: roles.map((r) => r.roleId) });
      }
    }
    const now = formatTime(ctx.clock.now());
    await resource
      .within(ctx.db.updateTable('base_sys_user').set({ departmentId, updateTime: now }).where('id', 'in', userIds), scope)
      .execute();
    return ok(c, null);
  });

  const routes = addUserExcelRoutes(ctx, resource, moveRoutes, { checkDepartment, assignableRoles, checkOutcome, describeUsers });
  return { ...resource, routes };
}
