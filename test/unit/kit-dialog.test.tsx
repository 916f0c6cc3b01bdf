// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CrudPage, type FormItem, type FormTab } from '../../src/kit/index.ts';
import { toast } from '../../src/ui/toast.tsx';
import { memoryService, renderAt, setScreenWidth, useLocale } from './kit-harness.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  setScreenWidth(1280);
  useLocale('en');
});

const rows = [
  { id: 1, name: 'Alpha', code: 'A-1', status: 1, remark: 'first' },
  { id: 2, name: 'Beta', code: 'B-2', status: 0, remark: '' },
];
const columns = [
  { prop: 'name', label: 'Name' },
  { prop: 'code', label: 'Code' },
];
const tabs: FormTab[] = [
  { name: 'base', label: 'Basics' },
  { name: 'more', label: 'More' },
];
const items: FormItem[] = [
  { prop: 'name', label: 'Name', required: true, span: 12 },
  { prop: 'status', label: 'Status', type: 'switch', hook: 'booleanNumber', span: 12 },
  { prop: 'code', label: 'Code', required: true, tab: 'more' },
  { type: 'group', label: 'Notes', tab: 'more', collapsed: true, children: [{ prop: 'remark', label: 'Remark', required: true }] },
];

const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

async function open(name: string, button: string) {
  fireEvent.click(within(rowOf(name)).getByRole('button', { name: button }));
  return screen.findByRole('dialog');
}

describe('upsert dialog', () => {
  it('info loads the record by id, shows it read-only and has no save button', async () => {
    const mem = memoryService(rows);
    renderAt(() => <CrudPage service={mem.service} columns={columns} items={items} tabs={tabs} />);
    await screen.findByText('Alpha');
    const dialog = await open('Alpha', 'Details');
    expect(within(dialog).getByRole('heading', { name: 'Details' })).toBeTruthy();
    await waitFor(() => expect((within(dialog).getByLabelText(/Name/) as HTMLInputElement).value).toBe('Alpha'));
    expect(mem.last('info')!.payload).toEqual({ id: 1 });
    expect((within(dialog).getByLabelText(/Name/) as HTMLInputElement).readOnly).toBe(true);
    expect((within(dialog).getByRole('switch') as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog).getByRole('switch').getAttribute('aria-checked')).toBe('true');
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
    expect(within(dialog).queryByText('*')).toBeNull(); // required marks are not shown in info mode
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // From the keyboard: Enter on a focused row opens its details.
    const row = rowOf('Beta');
    row.focus();
    fireEvent.keyDown(row, { key: 'Enter' });
    const again = await screen.findByRole('dialog');
    await waitFor(() => expect((within(again).getByLabelText(/Name/) as HTMLInputElement).value).toBe('Beta'));
    expect(mem.last('info')!.payload).toEqual({ id: 2 });
  });

  it('update fills from info, saves with the id and hooks, says so, closes and refreshes', async () => {
    const mem = memoryService(rows);
    renderAt(() => <CrudPage service={mem.service} columns={columns} items={items} tabs={tabs} />);
    await screen.findByText('Beta');
    const pages = mem.calls.filter((c) => c.action === 'page').length;
    const dialog = await open('Beta', 'Edit');
    // Filled once info arrived (the form renders again then): look the field up afresh until then.
    await waitFor(() => expect((within(dialog).getByLabelText(/Name/) as HTMLInputElement).value).toBe('Beta'));
    const name = within(dialog).getByLabelText(/Name/) as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'Beta 2' } });
    fireEvent.click(within(dialog).getByRole('switch'));
    // The remark on the other tab is required and empty: fill it there first.
    fireEvent.mouseDown(within(dialog).getByRole('tab', { name: 'More' })); // Radix tabs switch on mouse down
    fireEvent.click(within(dialog).getByRole('button', { name: 'Notes' }));
    fireEvent.change(within(dialog).getByLabelText(/Remark/), { target: { value: 'note' } });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    // Footer order: close, then save.
    const footer = save.parentElement!;
    expect([...footer.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Close', 'Save']);
    fireEvent.click(save);
    await screen.findByText('Save successful', { exact: true });
    expect(mem.last('update')!.payload).toEqual({ id: 2, name: 'Beta 2', status: 1, code: 'B-2', remark: 'note' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByText('Beta 2');
    expect(mem.calls.filter((c) => c.action === 'page').length).toBe(pages + 1);
  });

  it('validation: tabs switch freely; a failed save jumps to the first failing field', async () => {
    const mem = memoryService(rows);
    renderAt(() => <CrudPage service={mem.service} columns={columns} items={items} tabs={tabs} />);
    await screen.findByText('Alpha');
    fireEvent.click(screen.getByRole('button', { name: /Add/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Add' })).toBeTruthy();
    expect(within(dialog).getByRole('tab', { name: 'Basics' }).getAttribute('aria-selected')).toBe('true');
    // The second tab is lazy: its fields are not rendered before it is opened.
    expect(within(dialog).queryByLabelText(/Code/)).toBeNull();

    // Leaving the first tab with an empty required field is allowed, with no error shown yet.
    fireEvent.mouseDown(within(dialog).getByRole('tab', { name: 'More' })); // Radix tabs switch on mouse down
    expect(within(dialog).getByRole('tab', { name: 'More' }).getAttribute('aria-selected')).toBe('true');
    expect(within(dialog).getByLabelText(/Code/)).toBeTruthy();
    expect(within(dialog).queryByRole('alert')).toBeNull();

    // Saving from there goes back to the first failing field, Name on "Basics".
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByRole('tab', { name: 'Basics' }).getAttribute('aria-selected')).toBe('true'));
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText(/Name/)));
    expect(within(dialog).getByText('Name cannot be empty')).toBeTruthy();
    expect(mem.last('add')).toBeUndefined();

    fireEvent.change(within(dialog).getByLabelText(/Name/), { target: { value: 'Gamma' } });
    expect(within(dialog).queryByText('Name cannot be empty')).toBeNull();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // Code (tab "More") fails first: its tab opens and it gets the focus; the folded group opens too.
    await waitFor(() => expect(within(dialog).getByRole('tab', { name: 'More' }).getAttribute('aria-selected')).toBe('true'));
    const code = within(dialog).getByLabelText(/Code/);
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(within(dialog).getByText('Code cannot be empty')).toBeTruthy();
    expect(within(dialog).getByText('Remark cannot be empty')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Notes' }).getAttribute('aria-expanded')).toBe('true');
    expect(mem.last('add')).toBeUndefined();

    fireEvent.change(code, { target: { value: 'G-3' } });
    fireEvent.change(within(dialog).getByLabelText(/Remark/), { target: { value: 'r' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(mem.last('add')!.payload).toEqual({ name: 'Gamma', status: 0, code: 'G-3', remark: 'r' }));
  });

  it('says "cannot be empty" in Chinese and German', async () => {
    const mem = memoryService(rows);
    renderAt(() => <CrudPage service={mem.service} columns={columns} items={[{ prop: 'name', label: 'Name', required: true }]} />);
    await screen.findByText('Alpha');
    for (const [locale, text] of [['zh', 'Name不能为空'], ['de', 'Name darf nicht leer sein']] as const) {
      useLocale(locale);
      fireEvent.click(within(screen.getByRole('toolbar')).getAllByRole('button')[1]!); // add
      const dialog = await screen.findByRole('dialog');
      fireEvent.submit(dialog.querySelector('form')!);
      expect(await within(dialog).findByText(text)).toBeTruthy();
      fireEvent.keyDown(dialog, { key: 'Escape' });
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    }
  });

  it('fullscreen by double-clicking the header; forced on mini screens; Esc does not close while saving', async () => {
    const user = userEvent.setup();
    const mem = memoryService(rows, { manualWrites: true });
    renderAt(() => <CrudPage service={mem.service} columns={columns} items={[{ prop: 'name', label: 'Name', required: true }]} />);
    await screen.findByText('Alpha');
    const dialog = await open('Alpha', 'Edit');
    expect(dialog.getAttribute('data-fullscreen')).toBe('false');
    expect(dialog.style.width).toBe('50%');
    fireEvent.doubleClick(screen.getByTestId('kit-dialog-header'));
    expect(dialog.getAttribute('data-fullscreen')).toBe('true');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Exit fullscreen' }));
    expect(dialog.getAttribute('data-fullscreen')).toBe('false');

    // A click on the backdrop does not close it.
    fireEvent.pointerDown(document.body);
    expect(screen.getByRole('dialog')).toBe(dialog);

    await waitFor(() => expect((within(dialog).getByLabelText(/Name/) as HTMLInputElement).value).toBe('Alpha'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(mem.last('update')).toBeDefined());
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBe(dialog);
    await act(async () => mem.last('update')!.release());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    setScreenWidth(600);
    const mini = await open('Alpha', 'Edit');
    expect(mini.getAttribute('data-fullscreen')).toBe('true');
    expect(within(mini).queryByRole('button', { name: 'Fullscreen' })).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('opening the dialog from the page', () => {
  it('appends with prefilled values through the handle; items hidden by mode are neither shown nor sent', async () => {
    const { createRef } = await import('react');
    const handle = createRef<import('../../src/kit/index.ts').CrudHandle>();
    const mem = memoryService(rows);
    const formItems: FormItem[] = [
      { prop: 'name', label: 'Name', required: true },
      { prop: 'code', label: 'Code', hidden: ({ mode }) => mode !== 'add' },
    ];
    renderAt(() => <CrudPage ref={handle} service={mem.service} columns={columns} items={formItems} />);
    await screen.findByText('Alpha');
    act(() => handle.current!.openAdd({ name: 'Copy of Alpha', code: 'A-2' }));
    let dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText(/Name/) as HTMLInputElement).value).toBe('Copy of Alpha');
    expect((within(dialog).getByLabelText(/Code/) as HTMLInputElement).value).toBe('A-2');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(mem.last('add')!.payload).toEqual({ name: 'Copy of Alpha', code: 'A-2' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    act(() => handle.current!.openUpdate({ id: 1 }));
    dialog = await screen.findByRole('dialog');
    await waitFor(() => expect((within(dialog).getByLabelText(/Name/) as HTMLInputElement).value).toBe('Alpha'));
    expect(within(dialog).queryByLabelText(/Code/)).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(mem.last('update')).toBeDefined());
    expect(mem.last('update')!.payload).toEqual({ id: 1, name: 'Alpha', status: 1, remark: 'first' });
  });
});

describe('misconfigured forms', () => {
  it('say what is wrong inline instead of failing', async () => {
    const mem = memoryService(rows);
    renderAt(() => (
      <CrudPage
        service={mem.service}
        columns={columns}
        items={[{ label: 'No prop' }, { prop: 'widget', label: 'Widget', type: 'custom' }, { prop: 'name', label: 'Name' }]}
      />
    ));
    await screen.findByText('Alpha');
    fireEvent.click(screen.getByRole('button', { name: /Add/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Error, name is required')).toBeTruthy();
    expect(within(dialog).getByText('widget is not found')).toBeTruthy();
    expect(within(dialog).getByLabelText('Name')).toBeTruthy();
  });
});
