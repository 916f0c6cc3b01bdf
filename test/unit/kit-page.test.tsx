// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CrudPage, pagerItems, type FormItem, type TableColumn } from '../../src/kit/index.ts';
import { toast } from '../../src/ui/toast.tsx';
import { memoryService, renderAt, sampleRows, setScreenWidth } from './kit-harness.tsx';

afterEach(() => {
  cleanup();
  act(() => toast.clear());
  setScreenWidth(1280);
});

const columns: TableColumn[] = [
  { prop: 'name', label: 'Name', sortable: true },
  { prop: 'status', label: 'Status', dict: [{ label: 'Enabled', value: 1 }, { label: 'Disabled', value: 0 }] },
];
const items: FormItem[] = [{ prop: 'name', label: 'Name', required: true }];
const search: FormItem[] = [
  { prop: 'status', label: 'Status', type: 'select', options: [{ label: 'Enabled', value: 1 }, { label: 'Disabled', value: 0 }] },
  { prop: 'remark', label: 'Remark' },
];

const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('CrudPage: list and URL state', () => {
  it('loads page 1 of 20 and keeps page and sort in the URL (asc → desc → none)', async () => {
    const mem = memoryService(sampleRows(45));
    const { router } = renderAt(() => <CrudPage service={mem.service} columns={columns} items={items} />);
    await screen.findByText('user-001');
    expect(mem.last('page')!.payload).toEqual({ page: 1, size: 20 });
    expect(screen.getByTestId('kit-total').textContent).toContain('45');

    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await screen.findByText('user-041');
    expect(router.state.location.search).toEqual({ page: 3 });

    const header = screen.getByRole('columnheader', { name: /Name/ });
    // A click on the cell, beside its label, sorts too.
    fireEvent.click(header);
    await waitFor(() => expect(router.state.location.search).toEqual({ order: 'name', sort: 'asc' }));
    expect(mem.last('page')!.payload).toEqual({ page: 1, size: 20, order: 'name', sort: 'asc' });
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(mem.last('page')!.payload).toMatchObject({ order: 'name', sort: 'desc' }));
    await screen.findByText('user-045');
    expect(within(screen.getAllByRole('row')[1]!).queryByText('user-045')).not.toBeNull();
    fireEvent.click(within(header).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(mem.last('page')!.payload).toEqual({ page: 1, size: 20 });
  });

  it('restores page, size, keyword, sort and search fields from the URL, after a reload and on back', async () => {
    const mem = memoryService(sampleRows(200));
    const url = '/sys/log?page=2&size=10&keyWord=user&order=name&sort=desc&status=1&foreign=kept';
    const page = () => <CrudPage service={mem.service} columns={columns} items={items} search={search} />;
    const first = renderAt(page, url);
    await screen.findByText('user-180');
    const expected = { page: 2, size: 10, keyWord: 'user', order: 'name', sort: 'desc', status: 1 };
    expect(mem.last('page')!.payload).toEqual(expected);
    expect((screen.getByRole('searchbox', { name: 'Keyword' }) as HTMLInputElement).value).toBe('user');
    expect((screen.getByRole('combobox', { name: 'Page size' }) as HTMLSelectElement).value).toBe('10');
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');

    // Another page: a history entry; the table's own params change, foreign ones stay.
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(first.router.state.location.search).toEqual({ ...expected, page: 3, foreign: 'kept' }));
    await waitFor(() => expect(mem.last('page')!.payload).toEqual({ ...expected, page: 3 }));

    // Back restores page 2 and loads it again.
    act(() => first.router.history.back());
    await waitFor(() => expect(mem.last('page')!.payload).toEqual(expected));
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');

    // A reload (fresh app at the same address) asks for the same page.
    const href = first.router.state.location.href;
    first.unmount();
    const calls = mem.calls.length;
    renderAt(page, href);
    await waitFor(() => expect(mem.calls.length).toBe(calls + 1));
    expect(mem.last('page')!.payload).toEqual(expected);
  });

  it('a newer refresh supersedes an older one: the late reply of the older is ignored', async () => {
    const mem = memoryService(sampleRows(3), { manual: true });
    renderAt(() => <CrudPage service={mem.service} columns={columns} items={items} />);
    await waitFor(() => expect(mem.pending()).toHaveLength(1));
    const older = mem.pending()[0]!;
    await act(() => mem.service.add!({ name: 'added-later', status: 1 }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Refresh' })[0]!);
    await waitFor(() => expect(mem.pending()).toHaveLength(2));
    const newer = mem.pending()[1]!;
    await act(async () => newer.release());
    await screen.findByText('added-later');
    await act(async () => older.release());
    expect(screen.queryByText('added-later')).not.toBeNull();
    expect(screen.getByTestId('kit-total').textContent).toContain('4');
  });

  it('asks before deleting; cancel keeps the row, confirm deletes, says so and refreshes', async () => {
    const mem = memoryService(sampleRows(3));
    renderAt(() => <CrudPage service={mem.service} columns={columns} items={items} />);
    await screen.findByText('user-002');

    fireEvent.click(within(rowOf('user-002')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Tips')).toBeTruthy();
    expect(within(dialog).getByText('This operation will permanently delete the selected data. Do you want to continue?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(mem.last('delete')).toBeUndefined();

    fireEvent.click(within(rowOf('user-002')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Delete successful', { exact: true });
    expect(mem.last('delete')!.payload).toEqual({ ids: [2] });
    await waitFor(() => expect(screen.queryByText('user-002')).toBeNull());
    expect(screen.getByText('user-003')).toBeTruthy();

    // Multi-delete of the checked rows.
    const toolbarDelete = within(screen.getByRole('toolbar')).getByRole('button', { name: /Delete/ });
    expect((toolbarDelete as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(rowOf('user-001')).getByRole('checkbox'));
    fireEvent.click(within(rowOf('user-003')).getByRole('checkbox'));
    expect(toolbarDelete.textContent).toContain('(2)');
    fireEvent.click(toolbarDelete);
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(mem.last('delete')!.payload).toEqual({ ids: [1, 3] }));
    await screen.findByTestId('kit-empty');
  });

  it('right-click row menu: check, sort by the clicked column, delete; opens from the keyboard too', async () => {
    const user = userEvent.setup();
    const mem = memoryService(sampleRows(5));
    const { router } = renderAt(() => <CrudPage service={mem.service} columns={columns} items={items} />);
    await screen.findByText('user-003');

    fireEvent.contextMenu(screen.getByText('user-003'));
    let menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Refresh', 'Check', 'Edit', 'Delete', 'Sort ascending', 'Sort descending']);
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Check' }));
    await waitFor(() => expect((within(rowOf('user-003')).getByRole('checkbox') as HTMLInputElement).checked).toBe(true));

    fireEvent.contextMenu(screen.getByText('user-003'));
    menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Uncheck' })).toBeTruthy();
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Sort descending' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ order: 'name', sort: 'desc' }));

    // A column that cannot be sorted: the sort entries are disabled.
    fireEvent.contextMenu(within(rowOf('user-002')).getByText('Enabled'));
    menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Sort ascending' }).getAttribute('aria-disabled')).toBe('true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    // Keyboard: Shift+F10 on a focused row opens the menu; arrows and Enter pick an entry.
    const row = rowOf('user-004');
    row.focus();
    await user.keyboard('{Shift>}{F10}{/Shift}');
    menu = await screen.findByRole('menu');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{Enter}');
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(mem.last('delete')!.payload).toEqual({ ids: [4] }));
  });
});

describe('CrudPage: keyword and advanced search', () => {
  it('the drawer applies its fields to the URL and the query; empty strings are left out', async () => {
    const mem = memoryService(sampleRows(30));
    const { router } = renderAt(() => <CrudPage service={mem.service} columns={columns} items={items} search={search} />, '/sys/log?page=2');
    await screen.findByText('user-021');
    fireEvent.click(screen.getByRole('button', { name: 'Advanced search' }));
    const drawer = await screen.findByRole('dialog', { name: 'Advanced search' });
    expect(drawer.style.width).toBe('30%');
    fireEvent.change(within(drawer).getByLabelText('Status'), { target: { value: '0' } }); // first option: Enabled (1)
    fireEvent.change(within(drawer).getByLabelText('Remark'), { target: { value: '' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ status: 1 }));
    expect(mem.last('page')!.payload).toEqual({ page: 1, size: 20, status: 1 });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: /Advanced search/ }).textContent).toContain('1');

    // Opening again shows the applied filter; clear empties, search then drops the filter.
    fireEvent.click(screen.getByRole('button', { name: /Advanced search/ }));
    const again = await screen.findByRole('dialog', { name: 'Advanced search' });
    expect((within(again).getByLabelText('Status') as HTMLSelectElement).value).toBe('0');
    fireEvent.click(within(again).getByRole('button', { name: 'Clear' }));
    expect((within(again).getByLabelText('Status') as HTMLSelectElement).value).toBe('');
    fireEvent.click(within(again).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(mem.last('page')!.payload).toEqual({ page: 1, size: 20 });
  });

  it('the drawer is full width on mini screens', async () => {
    setScreenWidth(600);
    const mem = memoryService(sampleRows(3));
    renderAt(() => <CrudPage service={mem.service} columns={columns} items={items} search={search} />);
    await screen.findByText('user-001');
    fireEvent.click(screen.getByRole('button', { name: 'Advanced search' }));
    expect((await screen.findByRole('dialog', { name: 'Advanced search' })).style.width).toBe('100%');
  });
});

describe('pagination', () => {
  it('7 page buttons, or 5 on mini screens, first and last always shown', () => {
    expect(pagerItems(1, 5, 7)).toEqual([1, 2, 3, 4, 5]);
    expect(pagerItems(1, 20, 7)).toEqual([1, 2, 3, 4, 5, 6, 'next-more', 20]);
    expect(pagerItems(10, 20, 7)).toEqual([1, 'prev-more', 8, 9, 10, 11, 12, 'next-more', 20]);
    expect(pagerItems(20, 20, 7)).toEqual([1, 'prev-more', 15, 16, 17, 18, 19, 20]);
    expect(pagerItems(10, 20, 5)).toEqual([1, 'prev-more', 9, 10, 11, 'next-more', 20]);
  });

  it('offers sizes 10-100 on wide screens; mini screens show only the total and the pager', async () => {
    const mem = memoryService(sampleRows(400));
    renderAt(() => <CrudPage service={mem.service} columns={columns} items={items} />, '/sys/log?page=10');
    await screen.findByText('user-181');
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    const sizes = within(nav).getByRole('combobox', { name: 'Page size' }) as HTMLSelectElement;
    expect([...sizes.options].map((o) => Number(o.value))).toEqual([10, 20, 30, 40, 50, 100]);
    expect(sizes.value).toBe('20');
    expect(within(nav).getAllByRole('button', { name: /^Page \d+$/ })).toHaveLength(7);
    // The operation column sticks to the right on wide screens.
    expect(screen.getByRole('columnheader', { name: 'Operation' }).className).toContain('sticky');

    setScreenWidth(600);
    const mini = screen.getByRole('navigation', { name: 'Pagination' });
    expect(mini.getAttribute('data-layout')).toBe('mini');
    expect(within(mini).queryByRole('combobox')).toBeNull();
    expect(within(mini).getAllByRole('button', { name: /^Page \d+$/ })).toHaveLength(5);
    expect(within(mini).getByText('Total 400')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Operation' }).className).not.toContain('sticky');

    setScreenWidth(1280);
    fireEvent.change(screen.getByRole('combobox', { name: 'Page size' }), { target: { value: '50' } });
    await waitFor(() => expect(mem.last('page')!.payload).toEqual({ page: 1, size: 50 }));
  });

  it('shows the inline error of a misconfigured page', () => {
    renderAt(() => <CrudPage service={undefined as never} columns={columns} />);
    return screen.findByText('Component options error');
  });
});

describe('dictionary columns and selects', () => {
  it('show the labels of a dictionary type', async () => {
    const { setDict } = await import('../../src/kit/index.ts');
    setDict('row-status', [
      { label: 'On', value: 1, color: '#16a34a' },
      { label: 'Off', value: 0 },
    ]);
    const mem = memoryService(sampleRows(2));
    renderAt(() => (
      <CrudPage
        service={mem.service}
        columns={[{ prop: 'name', label: 'Name' }, { prop: 'status', label: 'Status', dict: 'row-status' }]}
        items={[{ prop: 'status', label: 'Status', type: 'select', options: 'row-status' }]}
      />
    ));
    await screen.findByText('user-001');
    expect(within(rowOf('user-001')).getByText('Off')).toBeTruthy();
    expect(within(rowOf('user-002')).getByText('On')).toBeTruthy();
    fireEvent.click(within(rowOf('user-002')).getByRole('button', { name: 'Edit' }));
    // Looked up afresh each time: the form may render again (with a new select) when the row's info arrives.
    const statusSelect = () => within(screen.getByRole('dialog')).getByLabelText('Status') as HTMLSelectElement;
    await screen.findByRole('dialog');
    await waitFor(() => expect(statusSelect().selectedOptions[0]!.textContent).toBe('On'));
    expect([...statusSelect().options].map((o) => o.textContent)).toEqual(['Please select', 'On', 'Off']);
  });
});

describe('kept-alive pages', () => {
  it('keep their own state while another page has the URL, and follow it again when back', async () => {
    const mem = memoryService(sampleRows(100));
    const { router } = renderAt(() => <CrudPage service={mem.service} columns={columns} />, '/sys/log?page=2', { kept: true });
    await screen.findByText('user-021');
    const calls = mem.calls.length;
    await act(() => router.navigate({ href: '/elsewhere?page=4&keyWord=x' }));
    expect(router.state.location.pathname).toBe('/elsewhere');
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    expect(mem.calls.length).toBe(calls);
    await act(() => router.navigate({ href: '/sys/log?page=3' }));
    await screen.findByText('user-041');
    expect(mem.last('page')!.payload).toEqual({ page: 3, size: 20 });
  });
});

describe('two lists on one route', () => {
  it('a list kept in memory or under a URL prefix does not touch the other list\'s params', async () => {
    const main = memoryService(sampleRows(60));
    const side = memoryService(sampleRows(60).map((r) => ({ ...r, name: `side-${r.id}` })));
    const third = memoryService(sampleRows(60).map((r) => ({ ...r, name: `cfg-${r.id}` })));
    const { router } = renderAt(
      () => (
        <>
          <section aria-label="main">
            <CrudPage service={main.service} columns={columns} />
          </section>
          <section aria-label="side">
            <CrudPage service={side.service} columns={columns} urlState={false} />
          </section>
          <section aria-label="cfg">
            <CrudPage service={third.service} columns={columns} urlState={{ prefix: 'cfg.' }} />
          </section>
        </>
      ),
      '/sys/log?page=2',
    );
    const region = (name: string) => screen.getByRole('region', { name });
    await screen.findByText('user-021');
    await screen.findByText('side-1');
    await screen.findByText('cfg-1');
    expect(side.last('page')!.payload).toEqual({ page: 1, size: 20 });
    expect(third.last('page')!.payload).toEqual({ page: 1, size: 20 });

    fireEvent.click(within(region('side')).getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(side.last('page')!.payload).toEqual({ page: 3, size: 20 }));
    expect(router.state.location.search).toEqual({ page: 2 });

    fireEvent.click(within(region('cfg')).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ page: 2, 'cfg.page': 2 }));
    await waitFor(() => expect(third.last('page')!.payload).toEqual({ page: 2, size: 20 }));
    expect(main.last('page')!.payload).toEqual({ page: 2, size: 20 });
    expect(within(region('main')).getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
  });
});

describe('service objects built on every render', () => {
  it('load the list once, not on every render of the page', async () => {
    const { useState } = await import('react');
    const mem = memoryService(sampleRows(5));
    // The page re-renders after each reply (it keeps the reply's subData).
    function Page() {
      const [replies, setReplies] = useState(0);
      return (
        <>
          <p data-testid="replies">{replies}</p>
          <CrudPage service={{ ...mem.service }} columns={columns} items={items} onSubData={() => setReplies((n) => n + 1)} />
        </>
      );
    }
    renderAt(() => <Page />);
    await screen.findByText('user-001');
    // Let any further renders and effects settle.
    await act(async () => new Promise((r) => setTimeout(r, 50)));
    expect(mem.calls.filter((c) => c.action === 'page')).toHaveLength(1);
  });
});

describe('advanced search with ranges and defaults', () => {
  it('a datetime range searches as start/end fields in the URL; reset restores the item defaults', async () => {
    const mem = memoryService(sampleRows(5));
    const ranged: FormItem[] = [
      { prop: 'createTime', label: 'Created', type: 'datetimeRange' },
      { prop: 'status', label: 'Status', type: 'select', options: [{ label: 'Enabled', value: 1 }, { label: 'Disabled', value: 0 }], value: 1 },
    ];
    const { router } = renderAt(() => <CrudPage service={mem.service} columns={columns} search={ranged} />);
    await screen.findByText('user-001');
    fireEvent.click(screen.getByRole('button', { name: 'Advanced search' }));
    let drawer = await screen.findByRole('dialog', { name: 'Advanced search' });
    fireEvent.change(within(drawer).getByLabelText('Start time'), { target: { value: '2026-01-01T08:00' } });
    fireEvent.change(within(drawer).getByLabelText('End time'), { target: { value: '2026-01-31T18:30' } });
    fireEvent.change(within(drawer).getByLabelText('Status'), { target: { value: '' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ startCreateTime: '2026-01-01 08:00:00', endCreateTime: '2026-01-31 18:30:00' }));
    expect(mem.last('page')!.payload).toEqual({ page: 1, size: 20, startCreateTime: '2026-01-01 08:00:00', endCreateTime: '2026-01-31 18:30:00' });

    // The drawer shows the applied range again; reset brings back the default status and no range.
    fireEvent.click(screen.getByRole('button', { name: /Advanced search/ }));
    drawer = await screen.findByRole('dialog', { name: 'Advanced search' });
    expect((within(drawer).getByLabelText('Start time') as HTMLInputElement).value).toBe('2026-01-01T08:00');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Reset' }));
    expect((within(drawer).getByLabelText('Start time') as HTMLInputElement).value).toBe('');
    expect((within(drawer).getByLabelText('Status') as HTMLSelectElement).value).toBe('0'); // option 0: Enabled (1)
    fireEvent.click(within(drawer).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ status: 1 }));
  });
});
