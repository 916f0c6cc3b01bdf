// The order list's Remake and Assign designer row actions against the real server (the browser's
// fetch goes to the Hono app over a SQLite file; perms come from permmenu as in the app): who sees
// them, what the dialogs send, what the list shows afterwards, and a refusal shown in the dialog.
// The order form's AI switch: turned on with the lab's default prescription, the order saves.
import './kit-dom.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { session, setNavigator } from '../../src/api/client.ts';
import { ensureBootstrap, resetApp } from '../../src/app/store.ts';
import OrderList from '../../src/modules/order/views/list.tsx';
import { toast } from '../../src/ui/toast.tsx';
import { addUser, createRole, setup, type TestServer } from '../server/helpers.ts';
import { renderAt } from './kit-harness.tsx';

let server: TestServer;
const realFetch = window.fetch;
const ids: Record<string, number> = {};
const VIEW = ['order:info:page', 'order:info:list', 'order:info:info'];

async function order(patientName: string, creatorId: number, designerId: number) {
  const time = '2026-01-02 00:00:00';
  const row = await server.ctx.db
    .insertInto('order_info')
    .values({
      caseNo: `AW-20260102-${String(Object.keys(ids).length + 1).padStart(4, '0')}`,
      patientName,
      remark: 'first fit',
      deliveryTime: null,
      enableAI: 0,
      aiStatus: 0,
      status: 0,
      designerId,
      creatorId,
      upperFileId: null,
      lowerFileId: null,
      occlusionFileId: null,
      designStartTime: time,
      createTime: time,
      updateTime: time,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  ids[patientName] = Number(row.id);
}

beforeAll(async () => {
  server = await setup();
  setNavigator(() => {});
  window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init)) as typeof fetch;
  const admin = (await server.login()).token;
  const designer = await createRole(server.ctx, 'designer', [...VIEW, 'design:save']);
  const maker = await createRole(server.ctx, 'maker', [...VIEW, 'order:info:add', 'design:designer', 'design:copyOrder', 'base:sys:user:list']);
  const clerk = await createRole(server.ctx, 'clerk', VIEW);
  const dora = (ids.dora = await addUser(server, admin, { username: 'dora', password: 'dora-pass-1', roleIdList: [designer] }));
  const mia = await addUser(server, admin, { username: 'mia', password: 'mia-pass-1', roleIdList: [maker] });
  const carl = await addUser(server, admin, { username: 'carl', password: 'carl-pass-1', roleIdList: [clerk] });
  const now = '2026-01-01 00:00:00';
  await server.ctx.db.insertInto('base_sys_department').values({ name: 'North lab', parentId: null, createTime: now, updateTime: now }).execute();
  await order('Alma', 1, dora);
  await order('Mia own', mia, mia);
  await order('Mia designs', 1, mia);
  await order('Carl own', carl, carl);
  await order('Bea', 1, mia);
});

afterAll(async () => {
  window.fetch = realFetch;
  await server.close();
});

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  act(() => session.logout('user'));
  resetApp();
});

async function signIn(username: string, password: string) {
  session.login(await server.login(username, password));
  await ensureBootstrap();
}

const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;
const actions = (row: HTMLElement) => within(row).queryAllByRole('button').map((b) => b.textContent);

describe('order list: Remake and Assign designer', () => {
  it('an orders admin remakes an order under another patient name: the list shows it and its form opens', async () => {
    await signIn('admin', 'admin-secret-1');
    renderAt(() => <OrderList />, '/order/list');
    const row = await rowOf('Alma');
    expect(actions(row)).toEqual(expect.arrayContaining(['Remake', 'Assign designer']));
    fireEvent.click(within(row).getByRole('button', { name: 'Remake' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading').textContent).toMatch(/^Remake AW-/);
    const name = within(dialog).getByLabelText('Patient') as HTMLInputElement;
    expect(name.value).toBe('Alma');
    fireEvent.change(name, { target: { value: 'Alma remake' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create remake' }));

    const copy = await waitFor(async () => {
      const r = await server.ctx.db.selectFrom('order_info').selectAll().where('patientName', '=', 'Alma remake').executeTakeFirst();
      expect(r).toBeTruthy();
      return r!;
    });
    expect(copy).toMatchObject({ remark: 'first fit', creatorId: 1, status: 0 });
    expect(await screen.findByText(`Remake ${copy.caseNo} created`, { exact: true })).toBeTruthy();
    // The list was refreshed, and the new order's form opened (it loads the order by id).
    expect(await screen.findByText(copy.caseNo)).toBeTruthy();
    const form = await screen.findByRole('dialog');
    expect(within(form).getByRole('heading', { name: 'Edit' })).toBeTruthy();
    await waitFor(() => expect((within(form).getByLabelText(/Patient/) as HTMLInputElement).value).toBe('Alma remake'));
    // Where an order can be produced (factories), read-only: an orders admin may send to every department.
    expect(within(form).getByText('Can be produced at')).toBeTruthy();
    expect(within(form).getByTestId('order-factories').textContent).toContain('North lab');
  });

  it('assigning a designer: the list shows the new one; someone who may not design is refused in the dialog', async () => {
    await signIn('admin', 'admin-secret-1');
    renderAt(() => <OrderList />, '/order/list');
    let row = await rowOf('Bea');
    fireEvent.click(within(row).getByRole('button', { name: 'Assign designer' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading').textContent).toMatch(/^Designer of AW-/);
    const select = within(dialog).getByLabelText('Designer') as HTMLSelectElement;
    const option = (name: string) => within(select).getAllByRole('option').find((o) => o.textContent === name) as HTMLOptionElement | undefined;
    // The order form's designer options (the user list) may arrive after the dialog opened.
    await waitFor(() => expect(option('dora')).toBeTruthy());

    // carl holds no design:save: the server refuses, the dialog stays and says why.
    fireEvent.change(select, { target: { value: option('carl')!.value } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'This user cannot be given orders to design (disabled, or without the design permission). Choose another designer.',
    );
    expect(screen.getByRole('dialog')).toBe(dialog);

    fireEvent.change(select, { target: { value: option('dora')!.value } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('The designer was changed', { exact: true })).toBeTruthy();
    await waitFor(async () => {
      row = await rowOf('Bea');
      expect(row.querySelector('td[data-prop="designerName"]')!.textContent).toBe('dora');
    });
    const stored = await server.ctx.db.selectFrom('order_info').select('designerId').where('id', '=', ids['Bea']!).executeTakeFirstOrThrow();
    expect(stored.designerId).toBe(ids.dora);
  });

  it('the creator may assign the designer of their own order only; without the permissions nothing is offered', async () => {
    await signIn('mia', 'mia-pass-1');
    renderAt(() => <OrderList />, '/order/list');
    const own = await rowOf('Mia own');
    expect(actions(own)).toEqual(expect.arrayContaining(['Remake', 'Assign designer']));
    const designs = await rowOf('Mia designs');
    expect(actions(designs)).toContain('Remake');
    expect(actions(designs)).not.toContain('Assign designer');
    cleanup();
    resetApp();

    await signIn('carl', 'carl-pass-1');
    renderAt(() => <OrderList />, '/order/list');
    const carl = await rowOf('Carl own');
    expect(actions(carl)).not.toContain('Remake');
    expect(actions(carl)).not.toContain('Assign designer');
  });
});

describe('order form: the AI switch', () => {
  it("switched on in an order's form, the lab's default prescription (untouched) shows ticked and the order is saved with it", async () => {
    const admin = (await server.login()).token;
    const role = await createRole(server.ctx, 'editor', [...VIEW, 'order:info:update']);
    const ava = await addUser(server, admin, { username: 'ava', password: 'ava-pass-1', roleIdList: [role] });
    const time = '2026-01-02 00:00:00';
    const model = await server.ctx.db
      .insertInto('space_info')
      .values({ url: '/upload/ava.stl', key: 'ava-upper', name: 'upper.stl', size: 684, mime: 'model/stl', kind: 'model', classifyId: null, userId: ava, triangleCount: 12, createTime: time, updateTime: time })
      .returning('id')
      .executeTakeFirstOrThrow();
    await order('Ava AI', ava, ava);
    await server.ctx.db.updateTable('order_info').set({ upperFileId: model.id }).where('id', '=', ids['Ava AI']!).execute();
    await signIn('ava', 'ava-pass-1');
    renderAt(() => <OrderList />, '/order/list');
    fireEvent.click(within(await rowOf('Ava AI')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect((within(dialog).getByLabelText(/Patient/) as HTMLInputElement).value).toBe('Ava AI'));
    fireEvent.click(within(dialog).getByRole('switch', { name: 'AI design' }));
    expect((within(dialog).getByLabelText(/lab's default prescription/) as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).queryByTestId('prescription-upper')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const saved = await server.ctx.db.selectFrom('order_info').select(['enableAI', 'prescription']).where('id', '=', ids['Ava AI']!).executeTakeFirstOrThrow();
    expect(saved).toEqual({ enableAI: 1, prescription: null });
  });
});
