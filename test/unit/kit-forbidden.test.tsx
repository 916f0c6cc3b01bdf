// What an HTTP 403 does (docs/kit.md "Refusals"): the call that loads what a list screen shows
// leaves for /403; a side call (an option list, a card, a record, an action) shows the refusal as
// an error toast and the user stays. Against the real server over a real SQLite file.
import './kit-dom.ts';
import { useEffect, useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { request, session, setNavigator } from '../../src/api/client.ts';
import { ensureBootstrap, resetApp } from '../../src/app/store.ts';
import { CrudPage, createService } from '../../src/kit/index.ts';
import { toast } from '../../src/ui/toast.tsx';
import { createRole, setup, type TestServer } from '../server/helpers.ts';
import { renderAt } from './kit-harness.tsx';

let server: TestServer;
const realFetch = window.fetch;
let visited: string[] = [];

beforeAll(async () => {
  server = await setup();
  setNavigator((to) => visited.push(to));
  window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init)) as typeof fetch;
  // Orders only: the user list and the role list are not theirs.
  const role = await createRole(server.ctx, 'orders', ['order:info:page']);
  const now = '2026-01-01 00:00:00';
  const { id } = await server.ctx.db
    .insertInto('base_sys_user')
    .values({ username: 'orders', password: await server.ctx.passwords.hash('orders-pass-1'), name: 'orders', nickName: 'orders', headImg: null, phone: null, email: null, remark: null, departmentId: null, status: 1, createTime: now, updateTime: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await server.ctx.db.insertInto('base_sys_user_role').values({ userId: id, roleId: role }).execute();
  session.login(await server.login('orders', 'orders-pass-1'));
  await ensureBootstrap();
});

afterAll(async () => {
  window.fetch = realFetch;
  act(() => session.logout('user'));
  resetApp();
  await server.close();
});

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  visited = [];
});

/** A page whose own content is allowed and which asks for the role list on the side. */
function PageWithSideCall() {
  const [roles, setRoles] = useState<string>('loading');
  useEffect(() => {
    request<unknown[]>({ url: '/admin/base/sys/role/list', method: 'POST', data: {} }).then(
      (r) => setRoles(`${r.length} roles`),
      () => setRoles('no roles'),
    );
  }, []);
  return <p>Orders page · {roles}</p>;
}

describe('a 403', () => {
  it('of a side call shows the server message as a toast and the page stays', async () => {
    renderAt(() => <PageWithSideCall />, '/order/list');
    await screen.findByText('Orders page · no roles');
    expect(await screen.findByText('No permission')).toBeTruthy();
    expect(visited).toEqual([]);
  });

  it('of a silent side call only rejects', async () => {
    await expect(request({ url: '/admin/base/sys/role/list', method: 'POST', data: {}, silent: true })).rejects.toMatchObject({ status: 403 });
    expect(visited).toEqual([]);
  });

  it('of a record or an action of the kit service shows a toast; its page and list go to /403', async () => {
    const users = createService('/admin/base/sys/user');
    renderAt(() => <p>Form open</p>, '/order/list');
    await expect(users.info!({ id: 1 })).rejects.toMatchObject({ status: 403 });
    await expect(users.update!({ id: 1, nickName: 'x' })).rejects.toMatchObject({ status: 403 });
    expect(await screen.findByText('No permission')).toBeTruthy();
    expect(visited).toEqual([]);
    await expect(users.list!({})).rejects.toMatchObject({ status: 403, handled: true });
    expect(visited).toEqual(['/403']);
  });

  it('of the list a list screen shows sends the window to /403, without a toast', async () => {
    // The flags say "allowed" (as with permissions revoked since sign-in); the server refuses.
    renderAt(() => <CrudPage service="/admin/base/sys/user" perms={{ page: true }} columns={[{ prop: 'username', label: 'Username' }]} items={[]} />, '/sys/user');
    await waitFor(() => expect(visited).toEqual(['/403']));
    expect(screen.queryByText('No permission')).toBeNull();
  });

  it('of an allowed list changes nothing', async () => {
    await expect(createService('/admin/order/info').page!({ page: 1, size: 20 })).resolves.toBeTruthy();
    expect(visited).toEqual([]);
  });
});
