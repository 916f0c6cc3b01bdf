// The CRUD factory as a whole, through the real app (auth guard, permissions, error envelope) on a
// real SQLite file: a probe resource over its own table exercises every option of a definition.
import { sql, type Generated, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrud, type ResourceDef } from '../../server/core/crud.ts';
import { purgeRecycleBin } from '../../server/core/recycle.ts';
import { idColumn } from '../../server/db/dialect.ts';
import { addUser, setup, type TestServer } from './helpers.ts';

// The probe's own table, created below: definitions are typed against the schema's tables.
declare module '../../server/db/schema.ts' {
  interface Database {
    probe_item: {
      id: Generated<number>;
      name: string;
      category: string | null;
      amount: Generated<number>;
      ownerId: number;
      secret: string | null;
      createTime: string;
      updateTime: string;
    };
  }
}

let t: TestServer;
let admin: string;
let alice: { id: number; token: string };
let bob: { id: number; token: string };
let probeRoleId: number;

const probeDef = {
  module: 'probe',
  path: 'item',
  name: 'ProbeItem',
  table: 'probe_item',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    name: { type: 'string', comment: 'Name' },
    category: { type: 'string', comment: 'Category', nullable: true },
    amount: { type: 'number', comment: 'Amount' },
    ownerId: { type: 'number', comment: 'Owner', readonly: true },
    secret: { type: 'string', comment: 'Never read back', select: false, nullable: true },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['name'],
  sortable: ['id', 'name', 'amount'],
  filterable: ['category', 'amount'],
  defaultOrder: ['id', 'asc'],
  recycle: true,
} satisfies ResourceDef<'probe_item'>;

const allPerms = ['add', 'delete', 'update', 'info', 'list', 'page'].map((a) => `probe:item:${a}`);

async function grant(roleId: number, perms: string[]) {
  const now = '2026-01-01 00:00:00';
  await t.ctx.db.deleteFrom('base_sys_role_menu').where('roleId', '=', roleId).execute();
  for (const perms1 of perms) {
    const menu = await t.ctx.db
      .insertInto('base_sys_menu')
      .values({ parentId: null, name: perms1, type: 2, perms: perms1, createTime: now, updateTime: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.ctx.db.insertInto('base_sys_role_menu').values({ roleId, menuId: menu.id }).execute();
  }
}

const call = (token: string, action: string, body?: unknown) =>
  action === 'info'
    ? t.call('GET', `/admin/probe/item/info?id=${body}`, { token, lang: 'en' })
    : t.call('POST', `/admin/probe/item/${action}`, { token, lang: 'en', body: body ?? {} });

beforeAll(async () => {
  t = await setup();
  const db = t.ctx.db as unknown as Kysely<any>;
  await db.schema
    .createTable('probe_item')
    .$call(idColumn(db))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('category', 'varchar(100)')
    .addColumn('amount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ownerId', 'integer', (c) => c.notNull())
    .addColumn('secret', 'varchar(100)')
    .addColumn('createTime', 'varchar(19)', (c) => c.notNull())
    .addColumn('updateTime', 'varchar(19)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('probe_note')
    .$call(idColumn(db))
    .addColumn('itemId', 'integer', (c) => c.notNull().references('probe_item.id').onDelete('cascade'))
    .addColumn('text', 'varchar(100)', (c) => c.notNull())
    .execute();

  const probe = createCrud(t.ctx, {
    ...probeDef,
    hooks: {
      // Non-admins see and touch only their own rows.
      async scope({ c }) {
        const auth = c.get('auth')!;
        return auth.username === 'admin' ? undefined : { ownerId: auth.userId };
      },
      beforeAdd: (data, { c }) => ({ ...(data as Record<string, unknown>), ownerId: c.get('auth')!.userId }),
      async subData(body, { db }) {
        const row = await (db as unknown as Kysely<any>)
          .selectFrom('probe_item')
          .select((eb) => eb.fn.sum('amount').as('sum'))
          .executeTakeFirstOrThrow();
        return { amountSum: Number(row.sum), keyWord: body.keyWord ?? null };
      },
      async related(row, { trx }) {
        return { probe_note: await (trx as unknown as Kysely<any>).selectFrom('probe_note').selectAll().where('itemId', '=', row.id).execute() };
      },
    },
  });
  // Mounted before the first request, behind the app's real auth guard and error handler.
  t.app.route(probe.prefix, probe.routes);

  admin = (await t.login()).token;
  const role = await t.ctx.db
    .insertInto('base_sys_role')
    .values({ name: 'prober', label: 'Prober', remark: null, createTime: '2026-01-01 00:00:00', updateTime: '2026-01-01 00:00:00' })
    .returning('id')
    .executeTakeFirstOrThrow();
  probeRoleId = role.id;
  await grant(probeRoleId, allPerms);
  alice = { id: await addUser(t, admin, { username: 'alice', password: 'alice-pass', roleIdList: [probeRoleId] }), token: '' };
  bob = { id: await addUser(t, admin, { username: 'bob', password: 'bob-pass-1', roleIdList: [probeRoleId] }), token: '' };
  alice.token = (await t.login('alice', 'alice-pass')).token;
  bob.token = (await t.login('bob', 'bob-pass-1')).token;
});
afterAll(() => t.close());

describe('round trip', () => {
  it('adds, reads, updates, lists and deletes a record', async () => {
    const added = await call(alice.token, 'add', { name: 'Bracket', category: 'wire', amount: 5, secret: 's3cret', ownerId: 999, id: 77 });
    expect(added.body.code).toBe(1000);
    const id = added.body.data.id as number;
    expect(id).not.toBe(77);

    const info = await call(alice.token, 'info', id);
    expect(info.body.data).toMatchObject({ id, name: 'Bracket', category: 'wire', amount: 5, ownerId: alice.id });
    expect(info.body.data).not.toHaveProperty('secret');
    expect(info.body.data.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    expect((await call(alice.token, 'update', { id, name: 'Bracket 2', amount: 6, ownerId: bob.id })).body.code).toBe(1000);
    expect((await call(alice.token, 'info', id)).body.data).toMatchObject({ name: 'Bracket 2', amount: 6, ownerId: alice.id });
    expect((await call(alice.token, 'update', { id: 999_999, name: 'x' })).body).toEqual({ code: 1001, message: 'Data does not exist' });

    const list = await call(alice.token, 'list', {});
    expect(list.body.data.map((r: any) => r.id)).toContain(id);

    expect((await call(alice.token, 'delete', { ids: [id] })).body.code).toBe(1000);
    expect((await call(alice.token, 'info', id)).body).toEqual({ code: 1001, message: 'Data does not exist' });
  });

  it('validates bodies with 1002 naming the field', async () => {
    expect((await call(alice.token, 'add', { amount: 'lots', name: 'x' })).body).toEqual({ code: 1002, message: 'amount is invalid' });
    expect((await call(alice.token, 'delete', { ids: [] })).body.code).toBe(1002);
    expect((await call(alice.token, 'delete', {})).body).toEqual({ code: 1002, message: 'ids cannot be empty' });
    expect((await t.call('GET', '/admin/probe/item/info?id=abc', { token: alice.token, lang: 'en' })).body.code).toBe(1002);
  });
});

describe('search, filters, sort and paging', () => {
  beforeAll(async () => {
    for (const [name, category, amount] of [
      ['Clasp alpha', 'clasp', 3],
      ['Clasp beta', 'clasp', 1],
      ['Bow gamma', 'bow', 2],
      ['Base delta', null, 4],
    ] as const) {
      await call(bob.token, 'add', { name, category, amount });
    }
  });

  it('matches keyWord as a substring of the keyword columns only', async () => {
    const res = await call(bob.token, 'page', { keyWord: 'clasp' });
    expect(res.body.data.list.map((r: any) => r.name).sort()).toEqual(['Clasp alpha', 'Clasp beta']);
    expect(res.body.data.pagination).toEqual({ page: 1, size: 20, total: 2 });
    expect((await call(bob.token, 'page', { keyWord: 'bow' })).body.data.pagination.total).toBe(1);
  });

  it('filters by equality and by "any of" for arrays; ignores unknown fields', async () => {
    expect((await call(bob.token, 'list', { category: 'clasp' })).body.data).toHaveLength(2);
    expect((await call(bob.token, 'list', { amount: [1, 2] })).body.data.map((r: any) => r.name).sort()).toEqual(['Bow gamma', 'Clasp beta']);
    expect((await call(bob.token, 'list', { ownerId: 12345, nonsense: 'x' })).body.data).toHaveLength(4);
  });

  it('sorts by whitelisted columns in both directions and refuses others with 1002', async () => {
    const asc = await call(bob.token, 'list', { order: 'amount', sort: 'asc' });
    expect(asc.body.data.map((r: any) => r.amount)).toEqual([1, 2, 3, 4]);
    const desc = await call(bob.token, 'page', { order: 'amount', sort: 'DESC' });
    expect(desc.body.data.list.map((r: any) => r.amount)).toEqual([4, 3, 2, 1]);
    expect((await call(bob.token, 'page', { order: 'secret' })).body).toEqual({ code: 1002, message: 'order is invalid' });
    expect((await call(bob.token, 'page', { order: 'ownerId' })).body).toEqual({ code: 1002, message: 'order is invalid' });
    expect((await call(bob.token, 'page', { order: 'amount', sort: 'sideways' })).body).toEqual({ code: 1002, message: 'sort is invalid' });
  });

  it('pages with a stable order and caps the size at 100', async () => {
    const p2 = await call(bob.token, 'page', { page: 2, size: 3, order: 'name', sort: 'asc' });
    expect(p2.body.data.list.map((r: any) => r.name)).toEqual(['Clasp beta']);
    expect(p2.body.data.pagination).toEqual({ page: 2, size: 3, total: 4 });
    const rows = Array.from({ length: 105 }, (_, i) => ({ name: `bulk ${i}`, amount: 0, ownerId: bob.id, createTime: '2026-01-01 00:00:00', updateTime: '2026-01-01 00:00:00' }));
    await (t.ctx.db as unknown as Kysely<any>).insertInto('probe_item').values(rows).execute();
    const big = await call(bob.token, 'page', { size: 1000, keyWord: 'bulk' });
    expect(big.body.data.list).toHaveLength(100);
    expect(big.body.data.pagination).toEqual({ page: 1, size: 100, total: 105 });
    await (t.ctx.db as unknown as Kysely<any>).deleteFrom('probe_item').where('name', 'like', 'bulk %').execute();
  });

  it('adds subData from its hook to page replies', async () => {
    const res = await call(admin, 'page', { keyWord: 'a' });
    expect(res.body.data.subData).toEqual({ amountSum: 10, keyWord: 'a' });
  });
});

describe('injection attempts', () => {
  const count = async () => Number((await sql<{ n: number }>`select count(*) as n from probe_item`.execute(t.ctx.db)).rows[0]!.n);

  it('leave the data intact and answer 1002 or nothing', async () => {
    const before = await count();
    for (const keyWord of ["id; drop table probe_item", "' or 1=1 --", '%', '_']) {
      const res = await call(bob.token, 'page', { keyWord });
      expect(res.body.code).toBe(1000);
      expect(res.body.data.list).toHaveLength(0);
    }
    for (const order of ['id; drop table probe_item', "name' or 1=1 --", 'amount desc', '(select 1)']) {
      expect((await call(bob.token, 'page', { order })).body).toEqual({ code: 1002, message: 'order is invalid' });
    }
    expect((await call(bob.token, 'page', { sort: 'asc; drop table probe_item' })).body.code).toBe(1002);
    expect((await call(bob.token, 'list', { category: "' or 1=1 --" })).body.data).toHaveLength(0);
    expect((await call(bob.token, 'list', { amount: '1 or 1=1' })).body.data).toHaveLength(0);
    // Objects and arrays where a plain value belongs.
    expect((await call(bob.token, 'page', { keyWord: { $ne: '' } })).body).toEqual({ code: 1002, message: 'keyWord is invalid' });
    expect((await call(bob.token, 'page', { keyWord: ['a'] })).body.code).toBe(1002);
    expect((await call(bob.token, 'page', { order: ['name'] })).body).toEqual({ code: 1002, message: 'order is invalid' });
    expect((await call(bob.token, 'page', { order: { name: 1 } })).body.code).toBe(1002);
    expect((await call(bob.token, 'list', { category: { or: 1 } })).body.code).toBe(1002);
    expect((await call(bob.token, 'list', { category: [{ a: 1 }] })).body.code).toBe(1002);
    expect((await call(bob.token, 'delete', { ids: ['1 or 1=1'] })).body.code).toBe(1002);
    expect((await call(bob.token, 'delete', { ids: { in: [1] } })).body.code).toBe(1002);
    expect((await call(bob.token, 'page', { page: "1; drop table probe_item" })).body.code).toBe(1002);
    expect((await call(bob.token, 'page', { size: -5 })).body.code).toBe(1002);
    expect(await count()).toBe(before);
    expect((await call(bob.token, 'page', {})).body.data.pagination.total).toBe(4);
  });
});

describe('scope', () => {
  it("hides another user's rows from page, list and info and protects them from update and delete", async () => {
    const mine = (await call(alice.token, 'add', { name: 'Alice only', amount: 1 })).body.data.id as number;
    const bobsIds = (await call(bob.token, 'list', {})).body.data.map((r: any) => r.id) as number[];
    expect(bobsIds).not.toContain(mine);
    expect((await call(bob.token, 'page', { keyWord: 'Alice' })).body.data.pagination.total).toBe(0);
    expect((await call(bob.token, 'info', mine)).body).toEqual({ code: 1001, message: 'Data does not exist' });
    expect((await call(bob.token, 'update', { id: mine, name: 'hijacked' })).body).toEqual({ code: 1001, message: 'Data does not exist' });
    expect((await call(bob.token, 'delete', { ids: [mine] })).body.code).toBe(1000);
    expect((await call(alice.token, 'info', mine)).body.data.name).toBe('Alice only');
    // The admin (no scope) sees both.
    const all = (await call(admin, 'list', {})).body.data.map((r: any) => r.id);
    expect(all).toEqual(expect.arrayContaining([mine, ...bobsIds]));
    const recycled = await t.ctx.db.selectFrom('recycle_data').select('rowId').where('tableName', '=', 'probe_item').execute();
    expect(recycled.map((r) => r.rowId)).not.toContain(mine);
  });
});

describe('permissions', () => {
  it('answers 403 for each action without its permission, and allows it with', async () => {
    const id = (await call(admin, 'add', { name: 'perm probe', amount: 0 })).body.data.id as number;
    for (const action of ['add', 'delete', 'update', 'info', 'list', 'page']) {
      await grant(probeRoleId, allPerms.filter((p) => p !== `probe:item:${action}`));
      const body = action === 'info' ? id : action === 'add' ? { name: 'x' } : action === 'delete' ? { ids: [id] } : action === 'update' ? { id, name: 'y' } : {};
      const res = await call(alice.token, action, body);
      expect(res.status, action).toBe(403);
      expect(res.body).toEqual({ code: 1001, message: 'No permission' });
    }
    await grant(probeRoleId, ['probe:item:list']);
    expect((await call(alice.token, 'list', {})).status).toBe(200);
    expect((await call(alice.token, 'page', {})).status).toBe(403);
    await grant(probeRoleId, allPerms);
    expect((await t.call('POST', '/admin/probe/item/list', { body: {} })).status).toBe(401);
  });
});

describe('recycle bin', () => {
  it('keeps deleted rows with their related rows, restores them with the same ids, and purges old entries', async () => {
    const id = (await call(alice.token, 'add', { name: 'Recyclable', amount: 7, secret: 'hash' })).body.data.id as number;
    await (t.ctx.db as unknown as Kysely<any>).insertInto('probe_note').values([{ itemId: id, text: 'n1' }, { itemId: id, text: 'n2' }]).execute();
    expect((await call(alice.token, 'delete', { ids: [id] })).body.code).toBe(1000);
    expect(await (t.ctx.db as unknown as Kysely<any>).selectFrom('probe_note').selectAll().where('itemId', '=', id).execute()).toHaveLength(0);

    const page = await t.call('POST', '/admin/recycle/data/page', { token: admin, lang: 'en', body: { keyWord: 'ProbeItem' } });
    const entry = page.body.data.list.find((e: any) => e.rowId === id);
    expect(entry).toMatchObject({ entity: 'ProbeItem', prefix: '/admin/probe/item', userId: alice.id, userName: 'alice' });
    expect(entry.data).toMatchObject({ id, name: 'Recyclable', amount: 7 });
    expect(entry.data).not.toHaveProperty('secret');
    const info = await t.call('GET', `/admin/recycle/data/info?id=${entry.id}`, { token: admin, lang: 'en' });
    expect(info.body.data.data).not.toHaveProperty('secret');

    // Restore: same id, same hidden column, related rows back.
    const restored = await t.call('POST', '/admin/recycle/data/restore', { token: admin, lang: 'en', body: { ids: [entry.id] } });
    expect(restored.body).toEqual({ code: 1000, message: 'success', data: { restored: 1 } });
    expect((await call(alice.token, 'info', id)).body.data).toMatchObject({ id, name: 'Recyclable', amount: 7 });
    const row = await (t.ctx.db as unknown as Kysely<any>).selectFrom('probe_item').select('secret').where('id', '=', id).executeTakeFirst();
    expect(row?.secret).toBe('hash');
    expect(await (t.ctx.db as unknown as Kysely<any>).selectFrom('probe_note').select('text').where('itemId', '=', id).execute()).toHaveLength(2);
    expect((await t.call('GET', `/admin/recycle/data/info?id=${entry.id}`, { token: admin, lang: 'en' })).body.code).toBe(1001);

    // A taken id cannot be restored over: a clear error, nothing changes.
    await call(alice.token, 'delete', { ids: [id] });
    const again = (await t.call('POST', '/admin/recycle/data/page', { token: admin, body: {} })).body.data.list.find((e: any) => e.rowId === id);
    await (t.ctx.db as unknown as Kysely<any>)
      .insertInto('probe_item')
      .values({ id, name: 'Usurper', amount: 0, ownerId: bob.id, createTime: '2026-01-01 00:00:00', updateTime: '2026-01-01 00:00:00' })
      .execute();
    const clash = await t.call('POST', '/admin/recycle/data/restore', { token: admin, lang: 'en', body: { ids: [again.id] } });
    expect(clash.body).toEqual({ code: 1001, message: `"Recyclable" (#${id}) cannot be restored: its id is in use again` });
    expect((await call(admin, 'info', id)).body.data.name).toBe('Usurper');
    expect((await t.call('GET', `/admin/recycle/data/info?id=${again.id}`, { token: admin })).body.code).toBe(1000);

    // Purge: only entries older than the given days go.
    expect(await purgeRecycleBin(t.ctx, 1)).toBe(0);
    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    // Access tokens live 2 hours: sign in again after the jump.
    admin = (await t.login()).token;
    alice.token = (await t.login('alice', 'alice-pass')).token;
    const young = (await call(admin, 'add', { name: 'Young', amount: 0 })).body.data.id as number;
    await call(admin, 'delete', { ids: [young] });
    expect(await purgeRecycleBin(t.ctx, 1)).toBeGreaterThanOrEqual(1);
    const left = (await t.call('POST', '/admin/recycle/data/page', { token: admin, body: { size: 100 } })).body.data.list;
    expect(left.map((e: any) => e.rowId)).toEqual([young]);

    // Delete in the bin purges for good.
    expect((await t.call('POST', '/admin/recycle/data/delete', { token: admin, body: { ids: [left[0].id] } })).body.code).toBe(1000);
    expect((await t.call('POST', '/admin/recycle/data/page', { token: admin, body: {} })).body.data.pagination.total).toBe(0);
  });

  it('needs the recycle permissions', async () => {
    for (const action of ['page', 'restore', 'delete']) {
      const res = await t.call('POST', `/admin/recycle/data/${action}`, { token: alice.token, body: { ids: [1] } });
      expect(res.status).toBe(403);
    }
    expect((await t.call('GET', '/admin/recycle/data/info?id=1', { token: alice.token })).status).toBe(403);
  });
});
