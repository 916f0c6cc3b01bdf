// A fresh install has one role per kind of user (common/role-templates.ts): each can do its
// kind's work and nothing more.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../server/bootstrap.ts';
import { addUser, setup, type TestServer } from './helpers.ts';

let t: TestServer;
let admin: string;

beforeEach(async () => {
  t = await setup();
  admin = (await t.login()).token;
});
afterEach(() => t.close());

async function roleId(kind: string): Promise<number> {
  const name = kind === 'superadmin' ? kind : `kind-${kind}`;
  return (await t.ctx.db.selectFrom('base_sys_role').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

async function signIn(kind: string): Promise<string> {
  await addUser(t, admin, { username: `a-${kind}`, password: 'secret-pass-1', roleIdList: [await roleId(kind)] });
  return (await t.login(`a-${kind}`, 'secret-pass-1')).token;
}

/** The HTTP status of a call (403 when the right is missing; anything else means it got through). */
async function status(token: string, method: string, url: string, body: unknown = {}) {
  return (await t.call(method, url, { token, body: method === 'POST' ? body : undefined })).status;
}

describe('seeded roles', () => {
  it('exist once on a fresh install; one an admin deleted is not made again', async () => {
    const roles = await t.ctx.db.selectFrom('base_sys_role').select(['name', 'label']).orderBy('id').execute();
    expect(roles).toEqual([
      { name: 'superadmin', label: 'admin' },
      { name: 'kind-designer', label: 'Designer (user kind)' },
      { name: 'kind-manufacturer', label: 'Manufacturer (user kind)' },
      { name: 'kind-administrator', label: 'Administrator (user kind)' },
    ]);
    await t.ctx.db.deleteFrom('base_sys_role').where('name', '=', 'kind-designer').execute();
    await prepareDatabase(t.ctx);
    expect((await t.ctx.db.selectFrom('base_sys_role').select('name').execute()).map((r) => r.name)).not.toContain('kind-designer');
  });

  it('a designer designs and bends their orders, and manages nothing', async () => {
    const token = await signIn('designer');
    expect(await status(token, 'POST', '/admin/order/info/page')).toBe(200);
    expect(await status(token, 'GET', '/admin/design/getDesignData?orderId=1')).toBe(200);
    expect(await status(token, 'POST', '/admin/design/save', {})).toBe(200);
    expect(await status(token, 'POST', '/admin/design/getQueueList')).toBe(200);
    for (const [method, url] of [
      ['POST', '/admin/base/sys/user/page'],
      ['POST', '/admin/base/sys/role/add'],
      ['POST', '/admin/order/info/add'],
      ['POST', '/admin/order/info/delete'],
      ['POST', '/admin/device/info/add'],
      ['POST', '/admin/dashboard/info/addInfo'],
      ['POST', '/admin/device/apiConfig/page'],
    ] as const) {
      expect(await status(token, method, url), url).toBe(403);
    }
    const perms: string[] = (await t.call('GET', '/admin/base/comm/permmenu', { token })).body.data.perms;
    expect(perms).not.toContain('order:info:all');
  });

  it('a manufacturer runs orders, machines, the partner interface, files and the board, not users or roles', async () => {
    const token = await signIn('manufacturer');
    for (const url of ['/admin/order/info/page', '/admin/device/info/page', '/admin/device/apiConfig/page', '/admin/space/info/page', '/admin/dashboard/info/designBaseInfo', '/admin/dashboard/info/departmentProcessInfo']) {
      expect(await status(token, 'POST', url), url).toBe(200);
    }
    for (const url of ['/admin/base/sys/user/page', '/admin/base/sys/role/page', '/admin/base/sys/menu/create', '/admin/base/sys/param/page', '/admin/base/sys/log/page']) {
      expect(await status(token, 'POST', url), url).toBe(403);
    }
  });

  it('an administrator manages users and roles, within what the role holds (not a superadmin)', async () => {
    const token = await signIn('administrator');
    expect(await status(token, 'POST', '/admin/base/sys/user/page')).toBe(200);
    expect(await status(token, 'POST', '/admin/base/sys/role/page')).toBe(200);
    // It cannot hand out the superadmin role.
    const res = await t.call('POST', '/admin/base/sys/user/add', { token, body: { username: 'sneak', password: 'secret-pass-1', roleIdList: [await roleId('superadmin')] } });
    expect(res.body.code).toBe(1001);
  });
});
