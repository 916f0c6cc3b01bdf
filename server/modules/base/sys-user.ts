// /admin/base/sys/user: the CRUD factory plus what users need beyond it (hashed passwords,
// role links, unique usernames).
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { fail, forbidden, invalidField } from '../../core/errors.ts';
import { loadAccess, SUPERADMIN_ROLE } from '../../core/perms.ts';
import { userAddSchema } from './schemas.ts';

export const userResource = {
  module: 'base',
  path: 'sys/user',
  name: 'BaseSysUser',
  table: 'base_sys_user',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    username: { type: 'string', comment: 'Username' },
    password: { type: 'string', comment: 'Password', select: false },
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
  actions: ['add', 'info', 'page'],
  keyWordColumns: ['username', 'name', 'nickName', 'phone', 'email'],
  sortable: ['id', 'username', 'name', 'nickName', 'status', 'createTime', 'updateTime'],
  filterable: ['status', 'departmentId'],
  defaultOrder: ['id', 'desc'],
  addSchema: userAddSchema,
} satisfies ResourceDef<typeof userAddSchema>;

export function createUserResource(ctx: AppContext) {
  return createCrud(ctx, {
    ...userResource,
    hooks: {
      async prepareAdd(data) {
        return { ...data, password: await ctx.passwords.hash(data.password) };
      },
      async beforeAdd(data, { c, trx }) {
        const taken = await trx.selectFrom('base_sys_user').select('id').where('username', '=', data.username).executeTakeFirst();
        if (taken) throw fail('usernameTaken');
        const roles = data.roleIdList.length
          ? await trx.selectFrom('base_sys_role').select(['id', 'name']).where('id', 'in', data.roleIdList).execute()
          : [];
        if (roles.length !== new Set(data.roleIdList).size) throw invalidField('roleIdList');
        // Only a superadmin may make another one.
        if (roles.some((r) => r.name === SUPERADMIN_ROLE)) {
          const caller = c.get('auth');
          if (!caller || !(await loadAccess(trx, caller.userId)).isSuper) throw forbidden();
        }
        const { roleIdList: _roles, ...row } = data;
        return row;
      },
      async afterAdd(id, data, { trx }) {
        const roleIds = [...new Set(data.roleIdList)];
        if (roleIds.length) {
          await trx.insertInto('base_sys_user_role').values(roleIds.map((roleId) => ({ userId: id, roleId }))).execute();
        }
      },
      async decorate(row, { db }) {
        const roles = await db
          .selectFrom('base_sys_user_role')
          .select('roleId')
          .where('userId', '=', Number(row.id))
          .execute();
        return { ...row, roleIdList: roles.map((r) => r.roleId) };
      },
    },
  });
}
