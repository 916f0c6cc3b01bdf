import { describe, expect, it } from 'vitest';
import { createContext, prepareDatabase } from '../../server/bootstrap.ts';
import { loadConfig } from '../../server/config.ts';
import type { AppContext } from '../../server/context.ts';
import { testEnv } from './helpers.ts';

async function fresh(): Promise<AppContext> {
  const ctx = createContext(loadConfig(testEnv()));
  await prepareDatabase(ctx);
  return ctx;
}

const menuCount = async (ctx: AppContext) =>
  Number((await ctx.db.selectFrom('base_sys_menu').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

const pageByRouter = (ctx: AppContext, router: string) =>
  ctx.db.selectFrom('base_sys_menu').selectAll().where('router', '=', router).execute();

describe('seeded menu on an existing database', () => {
  it('adds entries a newer version brings, once, under their parent, with their permission entries', async () => {
    const ctx = await fresh();
    const before = await menuCount(ctx);
    const [page] = await pageByRouter(ctx, '/sys/log');
    expect(page).toBeDefined();
    const children = await ctx.db.selectFrom('base_sys_menu').select('id').where('parentId', '=', page!.id).execute();
    // As if this page were new in this version: gone from the menu, never recorded as applied.
    await ctx.db.deleteFrom('base_sys_menu').where('parentId', '=', page!.id).execute();
    await ctx.db.deleteFrom('base_sys_menu').where('id', '=', page!.id).execute();
    await ctx.db.deleteFrom('base_sys_seed').where('key', 'like', '%/sys/log%').execute();

    const again = await prepareDatabase(ctx);
    expect(again.menusCreated).toBe(1 + children.length);
    expect(await menuCount(ctx)).toBe(before);
    const [restored] = await pageByRouter(ctx, '/sys/log');
    expect(restored!.parentId).toBe(page!.parentId);

    expect((await prepareDatabase(ctx)).menusCreated).toBe(0);
    expect(await menuCount(ctx)).toBe(before);
    await ctx.db.destroy();
  });

  it('does not bring back an entry an admin deleted', async () => {
    const ctx = await fresh();
    const [page] = await pageByRouter(ctx, '/help/article');
    await ctx.db.deleteFrom('base_sys_menu').where('parentId', '=', page!.id).execute();
    await ctx.db.deleteFrom('base_sys_menu').where('id', '=', page!.id).execute();
    const before = await menuCount(ctx);

    expect((await prepareDatabase(ctx)).menusCreated).toBe(0);
    expect(await pageByRouter(ctx, '/help/article')).toEqual([]);
    expect(await menuCount(ctx)).toBe(before);
    await ctx.db.destroy();
  });

  it('adopts the rows of a database seeded before entries were recorded, without duplicates', async () => {
    const ctx = await fresh();
    const before = await menuCount(ctx);
    await ctx.db.deleteFrom('base_sys_seed').execute();

    expect((await prepareDatabase(ctx)).menusCreated).toBe(0);
    expect(await menuCount(ctx)).toBe(before);
    // Menu entries only: the seeded roles are recorded there too (role:<kind>).
    const recorded = await ctx.db.selectFrom('base_sys_seed').select('key').where('key', 'not like', 'role:%').execute();
    expect(recorded.length).toBe(before);
    await ctx.db.destroy();
  });
});
