// Creating and removing a live module, each in one transaction:
// - create: the table (Kysely's schema builder: quoted identifiers, names that passed
//   moduleSchema and never a table that exists), a menu group with the module's page (the generic
//   view, modules/helper/views/generated) and its permission entries (Add, Delete, Update, Query
//   like every resource), and the stored definition. The new entries are granted to the creator's
//   roles only if the creator may change roles' grants (base:sys:role:update): a right nobody
//   holds yet is handed out by those who hand out rights; a superadmin holds it at once anyway.
// - remove: the menu entries (and every role's grant of them), the table and the definition;
//   nothing else. Whoever used the module loses its menu with it.
import type { Kysely } from 'kysely';
import { GEN_MODULE, GEN_PAGE_PREFIX, MAX_MODULES, TABLE_NAME, type FieldDef, type ModuleDef } from '../../../common/ai-code.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { fail } from '../../core/errors.ts';
import type { Holding } from '../../core/grants.ts';
import { idColumn, timeColumns } from '../../db/dialect.ts';
import type { Db } from '../../db/index.ts';

export const GENERATED_VIEW = 'modules/helper/views/generated';
/** The right to change roles' grants: who holds it may hand a new module's entries to their roles. */
export const GRANT_PERM = 'base:sys:role:update';

const SQL_TYPE: Record<FieldDef['type'], 'text' | 'integer' | 'double precision' | `varchar(${number})`> = {
  string: 'varchar(255)',
  text: 'text',
  number: 'double precision',
  integer: 'integer',
  boolean: 'integer',
  date: 'varchar(10)',
  datetime: 'varchar(19)',
  dict: 'varchar(64)',
  enum: 'varchar(64)',
};

/** The permission entries of a module: like every resource's (seed-menus.ts crud()). */
export function modulePerms(name: string): { name: string; perms: string }[] {
  const p = `${GEN_MODULE}:${name}`;
  return [
    { name: 'Add', perms: `${p}:add` },
    { name: 'Delete', perms: `${p}:delete` },
    { name: 'Update', perms: `${p}:update` },
    { name: 'Query', perms: `${p}:info,${p}:list,${p}:page,${p}:meta` },
  ];
}

async function tableExists(db: Db, table: string): Promise<boolean> {
  const tables = await db.introspection.getTables();
  return tables.some((t) => t.name.toLowerCase() === table.toLowerCase());
}

export interface Created {
  id: number;
  pageMenuId: number;
  /** Whether the creator's roles were granted the new entries. */
  granted: boolean;
}

export async function createModule(ctx: AppContext, def: ModuleDef, creator: { userId: number; holding: Holding }): Promise<Created> {
  if (!TABLE_NAME.test(def.tableName)) throw fail('operateFailed');
  const now = formatTime(ctx.clock.now());
  return ctx.db.transaction().execute(async (trx) => {
    const count = await trx.selectFrom('helper_module').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_MODULES) throw fail('helperTooMany', { max: MAX_MODULES });
    if (await trx.selectFrom('helper_module').select('id').where('name', '=', def.name).executeTakeFirst()) throw fail('helperModuleTaken', { name: def.name });
    const router = `${GEN_PAGE_PREFIX}${def.name}`;
    if (await trx.selectFrom('base_sys_menu').select('id').where('router', '=', router).executeTakeFirst()) throw fail('helperModuleTaken', { name: def.name });
    if ((await trx.selectFrom('helper_module').select('id').where('tableName', '=', def.tableName).executeTakeFirst()) || (await tableExists(trx, def.tableName))) {
      throw fail('helperTableTaken', { table: def.tableName });
    }

    let table = idColumn(trx as Kysely<any>)(trx.schema.createTable(def.tableName));
    for (const f of def.fields) table = table.addColumn(f.name, SQL_TYPE[f.type]);
    await timeColumns(table.addColumn('departmentId', 'integer').addColumn('createBy', 'integer')).execute();
    await trx.schema.createIndex(`${def.tableName}_dept`).on(def.tableName).column('departmentId').execute();

    const menu = async (values: { parentId: number | null; name: string; type: 0 | 1 | 2; router?: string; viewPath?: string; perms?: string; orderNum: number }) =>
      Number(
        (
          await trx
            .insertInto('base_sys_menu')
            .values({
              parentId: values.parentId,
              name: values.name,
              type: values.type,
              router: values.router ?? null,
              viewPath: values.viewPath ?? null,
              icon: values.type === 2 ? null : 'code',
              perms: values.perms ?? null,
              orderNum: values.orderNum,
              keepAlive: 1,
              isShow: 1,
              createTime: now,
              updateTime: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const groupId = await menu({ parentId: null, name: def.label, type: 0, orderNum: 100 });
    const pageId = await menu({ parentId: groupId, name: def.label, type: 1, router, viewPath: GENERATED_VIEW, orderNum: 1 });
    const permIds: number[] = [];
    let position = 0;
    for (const p of modulePerms(def.name)) permIds.push(await menu({ parentId: pageId, name: p.name, type: 2, perms: p.perms, orderNum: ++position }));

    const row = await trx
      .insertInto('helper_module')
      .values({ name: def.name, tableName: def.tableName, label: def.label, definition: JSON.stringify(def), version: 1, groupMenuId: groupId, createBy: creator.userId, createTime: now, updateTime: now })
      .returning('id')
      .executeTakeFirstOrThrow();

    const granted = !creator.holding.isSuper && creator.holding.perms.has(GRANT_PERM);
    if (granted) {
      const roles = await trx
        .selectFrom('base_sys_user_role as ur')
        .innerJoin('base_sys_role as r', 'r.id', 'ur.roleId')
        .select('r.id')
        .where('ur.userId', '=', creator.userId)
        .execute();
      for (const role of roles) {
        for (const menuId of [groupId, pageId, ...permIds]) await trx.insertInto('base_sys_role_menu').values({ roleId: role.id, menuId }).execute();
      }
    }
    return { id: Number(row.id), pageMenuId: pageId, granted: granted || creator.holding.isSuper };
  });
}

/** The module's menu rows: its group, its page wherever it was moved, and everything below them. */
async function moduleMenuIds(db: Db, name: string, groupMenuId: number | null): Promise<number[]> {
  const all = await db.selectFrom('base_sys_menu').select(['id', 'parentId', 'router', 'perms']).execute();
  const prefix = `${GEN_MODULE}:${name}:`;
  const roots = all.filter((m) => m.id === groupMenuId || m.router === `${GEN_PAGE_PREFIX}${name}` || (m.perms ?? '').split(',').some((p) => p.trim().startsWith(prefix)));
  const ids = new Set<number>();
  const stack = roots.map((m) => m.id);
  while (stack.length) {
    const id = stack.pop()!;
    if (ids.has(id)) continue;
    ids.add(id);
    for (const child of all) if (child.parentId === id) stack.push(child.id);
  }
  return [...ids];
}

export async function removeModule(ctx: AppContext, id: number, confirm: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('helper_module').select(['name', 'tableName', 'groupMenuId']).where('id', '=', id).executeTakeFirst();
    if (!row) throw fail('dataNotFound');
    if (confirm !== row.name) throw fail('helperConfirm');
    const menuIds = await moduleMenuIds(trx, row.name, row.groupMenuId);
    if (menuIds.length) {
      await trx.deleteFrom('base_sys_role_menu').where('menuId', 'in', menuIds).execute();
      await trx.deleteFrom('base_sys_menu').where('id', 'in', menuIds).execute();
    }
    // Only ever a table the helper made (the stored name is checked again before it goes).
    if (TABLE_NAME.test(row.tableName)) await trx.schema.dropTable(row.tableName).ifExists().execute();
    await trx.deleteFrom('helper_module').where('id', '=', id).execute();
  });
}
