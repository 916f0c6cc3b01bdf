// Messages of users, roles, menus, departments and the recycle bin.
import type { Catalog } from './types.ts';

export const sysMessages = {} satisfies Catalog;
