// Permission flags against the real server: the browser's fetch goes to the Hono app over a real
// SQLite file; the kit reads the signed-in user's perms from permmenu like the app does. The node
// environment with a DOM of its own (kit-dom.ts), so that the server modules load as on the server.
import './kit-dom.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { session, setNavigator } from '../../src/api/client.ts';
import { ensureBootstrap, resetApp } from '../../src/app/store.ts';
import { CrudPage, type TableColumn } from '../../src/kit/index.ts';
import { createRole, setup, type TestServer } from '../server/helpers.ts';
import { renderAt } from './kit-harness.tsx';

let server: TestServer;
const realFetch = window.fetch;

beforeAll(async () => {
  server = await setup();
  setNavigator(() => {});
  window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init)) as typeof fetch;
  const admin = await server.login();
  const viewer = await createRole(server.ctx, 'viewer', ['base:sys:user:page']);
  const editor = await createRole(server.ctx, 'editor', ['base:sys:user:page', 'base:sys:user:update']);
  void admin;
  await insertUser('viewer', 'viewer-pass-1', viewer);
  await insertUser('editor', 'editor-pass-1', editor);
});

/**
 * A user with one role in a department of their own (so their data scope shows them), written
 * straight into the database (the add call is not under test here).
 */
let departmentId: number | undefined;
async function insertUser(username: string, password: string, roleId: number) {
  const now = '2026-01-01 00:00:00';
  departmentId ??= (
    await server.ctx.db.insertInto('base_sys_department').values({ name: 'Lab', parentId: null, createTime: now, updateTime: now }).returning('id').executeTakeFirstOrThrow()
  ).id;
  const { id } = await server.ctx.db
    .insertInto('base_sys_user')
    .values({ username, password: await server.ctx.passwords.hash(password), name: username, nickName: username, headImg: null, phone: null, email: null, remark: null, departmentId, status: 1, createTime: now, updateTime: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await server.ctx.db.insertInto('base_sys_user_role').values({ userId: id, roleId }).execute();
}

afterAll(async () => {
  window.fetch = realFetch;
  await server.close();
});

afterEach(() => {
  cleanup();
  act(() => session.logout('user'));
  resetApp();
});

async function signIn(username: string, password: string) {
  const pair = await server.login(username, password);
  session.login(pair);
  await ensureBootstrap();
}

const columns: TableColumn[] = [
  { prop: 'username', label: 'Username', sortable: true },
  { prop: 'status', label: 'Status' },
];
const items = [{ prop: 'username', label: 'Username', required: true }];

function page(extra: Partial<Parameters<typeof CrudPage>[0]> = {}) {
  return () => <CrudPage service="/admin/base/sys/user" columns={columns} items={items} {...extra} />;
}

const toolbar = () => screen.getByRole('toolbar');
/** The first data row, once the list has loaded (the rows a user sees depend on their data scope). */
async function firstRow() {
  await waitFor(() => expect(document.querySelector('tbody tr')).not.toBeNull());
  return document.querySelector('tbody tr') as HTMLElement;
}

describe('buttons follow the permission flags of the service', () => {
  it('an administrator sees add, multi-delete and every row button and menu entry', async () => {
    await signIn('admin', 'admin-secret-1');
    renderAt(page(), '/sys/user');
    await screen.findByText('viewer');
    expect(within(toolbar()).getByRole('button', { name: /Add/ })).toBeTruthy();
    expect(within(toolbar()).getByRole('button', { name: /Delete/ })).toBeTruthy();
    expect(within(await firstRow()).getAllByRole('button').map((b) => b.textContent)).toEqual(['Details', 'Edit', 'Delete']);
    fireEvent.contextMenu(screen.getByText('viewer'));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Edit' })).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: 'Delete' })).toBeTruthy();
  });

  it('a page override hides what the user could do', async () => {
    await signIn('admin', 'admin-secret-1');
    renderAt(page({ perms: { add: false, delete: false } }), '/sys/user');
    await screen.findByText('viewer');
    expect(within(toolbar()).queryByRole('button', { name: /Add/ })).toBeNull();
    expect(within(toolbar()).queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(within(await firstRow()).getAllByRole('button').map((b) => b.textContent)).toEqual(['Details', 'Edit']);
  });

  it('a user who may only query sees the list and details, nothing that changes data', async () => {
    await signIn('viewer', 'viewer-pass-1');
    renderAt(page(), '/sys/user');
    const row = await firstRow();
    expect(within(toolbar()).queryByRole('button', { name: /Add/ })).toBeNull();
    expect(within(toolbar()).queryByRole('button', { name: /Delete/ })).toBeNull();
    expect(within(row).getAllByRole('button').map((b) => b.textContent)).toEqual(['Details']);
    fireEvent.contextMenu(row.querySelector('td[data-prop="username"]')!);
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'Edit' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'Delete' })).toBeNull();

    // Details loads the record from the server.
    fireEvent.keyDown(menu, { key: 'Escape' });
    const username = row.querySelector('td[data-prop="username"]')!.textContent;
    fireEvent.click(within(row).getByRole('button', { name: 'Details' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect((within(dialog).getByLabelText(/Username/) as HTMLInputElement).value).toBe(username));
  });

  it('a user who may also update gets the edit button only', async () => {
    await signIn('editor', 'editor-pass-1');
    renderAt(page(), '/sys/user');
    expect(within(await firstRow()).getAllByRole('button').map((b) => b.textContent)).toEqual(['Details', 'Edit']);
    expect(within(toolbar()).queryByRole('button', { name: /Add/ })).toBeNull();
  });

  it('sorting reaches the real server as order/sort', async () => {
    await signIn('admin', 'admin-secret-1');
    const { router } = renderAt(page(), '/sys/user?order=username&sort=desc');
    await screen.findByText('viewer');
    const names = () => screen.getAllByRole('row').slice(1).map((r) => r.querySelector('td[data-prop="username"]')!.textContent);
    expect(names()).toEqual(['viewer', 'editor', 'admin']);
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Username/ })).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Username/ })).getByRole('button'));
    await waitFor(() => expect(names()).toEqual(['admin', 'editor', 'viewer']));
  });
});
