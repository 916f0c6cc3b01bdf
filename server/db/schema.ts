// Table types for Kysely. Times: createTime/updateTime are "YYYY-MM-DD HH:mm:ss" (UTC) text;
// internal instants (expiry, attempts) are epoch milliseconds.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface BaseSysUserTable {
  id: Generated<number>;
  username: string;
  password: string;
  /** Bumped on every password change; tokens carry it, so old ones stop working. */
  passwordVersion: Generated<number>;
  name: string | null;
  nickName: string | null;
  headImg: string | null;
  phone: string | null;
  email: string | null;
  remark: string | null;
  status: Generated<number>;
  departmentId: number | null;
  createTime: string;
  updateTime: string;
}

export interface BaseSysRoleTable {
  id: Generated<number>;
  name: string;
  label: string;
  remark: string | null;
  relevance: Generated<number>;
  createTime: string;
  updateTime: string;
}

export interface BaseSysUserRoleTable {
  id: Generated<number>;
  userId: number;
  roleId: number;
}

export interface BaseSysMenuTable {
  id: Generated<number>;
  parentId: number | null;
  name: string;
  router: string | null;
  perms: string | null;
  type: number;
  icon: string | null;
  orderNum: Generated<number>;
  viewPath: string | null;
  keepAlive: Generated<number>;
  isShow: Generated<number>;
  createTime: string;
  updateTime: string;
}

export interface BaseSysRoleMenuTable {
  id: Generated<number>;
  roleId: number;
  menuId: number;
}

export interface BaseSysLogTable {
  id: Generated<number>;
  userId: number | null;
  username: string | null;
  action: string;
  method: string;
  status: number;
  timeMs: number;
  ip: string;
  params: string | null;
  createTime: string;
}

export interface BaseSysDepartmentTable {
  id: Generated<number>;
  name: string;
  parentId: number | null;
  orderNum: Generated<number>;
  createTime: string;
  updateTime: string;
}

/** Departments a role may see the data of (its data scope). */
export interface BaseSysRoleDepartmentTable {
  id: Generated<number>;
  roleId: number;
  departmentId: number;
}

/** A deleted row of a resource with a recycle bin; `data` is JSON `{ row, related, hidden }`. */
export interface RecycleDataTable {
  id: Generated<number>;
  entity: string;
  prefix: string;
  tableName: string;
  rowId: number;
  data: string;
  userId: number | null;
  userName: string | null;
  createTime: string;
}

/** A login and every access/refresh token rotated from it (the "family"). */
export interface BaseSessionTable {
  id: string;
  userId: number;
  passwordVersion: number;
  createdAt: number;
  revokedAt: number | null;
}

export interface BaseRefreshTokenTable {
  id: Generated<number>;
  sessionId: string;
  /** sha256 of the opaque token; the token itself is never stored. */
  tokenHash: string;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

export interface BaseLoginFailureTable {
  id: Generated<number>;
  account: string;
  ip: string;
  at: number;
}

export interface BaseLoginLockTable {
  account: string;
  ip: string;
  until: number;
}

export interface BaseCaptchaTable {
  id: string;
  answer: string;
  expiresAt: number;
}

export interface Database {
  base_sys_user: BaseSysUserTable;
  base_sys_role: BaseSysRoleTable;
  base_sys_user_role: BaseSysUserRoleTable;
  base_sys_menu: BaseSysMenuTable;
  base_sys_role_menu: BaseSysRoleMenuTable;
  base_sys_log: BaseSysLogTable;
  base_session: BaseSessionTable;
  base_refresh_token: BaseRefreshTokenTable;
  base_login_failure: BaseLoginFailureTable;
  base_login_lock: BaseLoginLockTable;
  base_captcha: BaseCaptchaTable;
  base_sys_department: BaseSysDepartmentTable;
  base_sys_role_department: BaseSysRoleDepartmentTable;
  recycle_data: RecycleDataTable;
}

export type User = Selectable<BaseSysUserTable>;
export type NewUser = Insertable<BaseSysUserTable>;
export type UserUpdate = Updateable<BaseSysUserTable>;
export type Menu = Selectable<BaseSysMenuTable>;
export type NewMenu = Insertable<BaseSysMenuTable>;
