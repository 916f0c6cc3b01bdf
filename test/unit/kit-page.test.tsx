// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CrudPage } from '../../src/kit/index.ts';
import { memoryService, renderAt, sampleRows } from './kit-harness.tsx';

afterEach(cleanup);

const columns = [
  { prop: 'name', label: 'Name', sortable: true },
  { prop: 'status', label: 'Status', dict: [{ label: 'Enabled', value: 1 }, { label: 'Disabled', value: 0 }] },
];

describe('CrudPage: list, URL state', () => {
  it('loads the first page of 20 and keeps page, size and sort in the URL', async () => {
    const mem = memoryService(sampleRows(45));
    const { router } = renderAt(() => <CrudPage service={mem.service} columns={columns} items={[{ prop: 'name', label: 'Name', required: true }]} />);
    await screen.findByText('user-001');
    expect(mem.last('page')!.payload).toEqual({ page: 1, size: 20 });
    expect(screen.getByTestId('kit-total').textContent).toContain('45');

    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await screen.findByText('user-041');
    expect(router.state.location.search).toEqual({ page: 3 });

    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(router.state.location.search).toEqual({ order: 'name', sort: 'asc' }));
    expect(mem.last('page')!.payload).toEqual({ page: 1, size: 20, order: 'name', sort: 'asc' });
    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(mem.last('page')!.payload).toMatchObject({ order: 'name', sort: 'desc' }));
    await screen.findByText('user-045');
    expect(within(screen.getAllByRole('row')[1]!).getByText('user-045')).toBeTruthy();
  });
});
