// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { CrudPage, KeywordSearch } from '../../src/kit/index.ts';
import { memoryService, renderAt, sampleRows } from './kit-harness.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderBox(onSearch: (v: string) => void, value = '') {
  render(
    <I18nProvider i18n={i18n}>
      <KeywordSearch value={value} onSearch={onSearch} />
    </I18nProvider>,
  );
  return screen.getByRole('searchbox', { name: 'Keyword' });
}

describe('keyword search', () => {
  it('searches 300 ms after the last keystroke, once', () => {
    vi.useFakeTimers();
    const searched: string[] = [];
    const box = renderBox((v) => searched.push(v));
    fireEvent.change(box, { target: { value: 'a' } });
    act(() => vi.advanceTimersByTime(200));
    fireEvent.change(box, { target: { value: 'ab' } });
    act(() => vi.advanceTimersByTime(299));
    expect(searched).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(searched).toEqual(['ab']);
    act(() => vi.advanceTimersByTime(1000));
    expect(searched).toEqual(['ab']);
  });

  it('Enter searches at once and suppresses searching for 300 ms after it', () => {
    vi.useFakeTimers();
    const searched: string[] = [];
    const box = renderBox((v) => searched.push(v));
    fireEvent.change(box, { target: { value: 'abc' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(searched).toEqual(['abc']);
    // The pending debounce was cancelled: no second search of the same text.
    act(() => vi.advanceTimersByTime(400));
    expect(searched).toEqual(['abc']);

    // An input right after the change event (within 300 ms) does not search...
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(searched).toEqual(['abc', 'abc']);
    act(() => vi.advanceTimersByTime(100));
    fireEvent.change(box, { target: { value: 'abcd' } });
    act(() => vi.advanceTimersByTime(1000));
    expect(searched).toEqual(['abc', 'abc']);
    // ...but typing after the window does.
    fireEvent.change(box, { target: { value: 'abcde' } });
    act(() => vi.advanceTimersByTime(300));
    expect(searched).toEqual(['abc', 'abc', 'abcde']);
  });

  it('a typed keyword reaches the page request and the URL, and goes back to page 1', async () => {
    const mem = memoryService(sampleRows(60));
    const { router } = renderAt(() => <CrudPage service={mem.service} columns={[{ prop: 'name', label: 'Name' }]} />, '/sys/log?page=2');
    await screen.findByText('user-021');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Keyword' }), { target: { value: 'user-05' } });
    await waitFor(() => expect(mem.last('page')!.payload).toEqual({ page: 1, size: 20, keyWord: 'user-05' }));
    expect(router.state.location.search).toEqual({ keyWord: 'user-05' });
    await screen.findByText('user-050');
    expect(screen.queryByText('user-021')).toBeNull();
  });
});

describe('keyword box and the URL', () => {
  it('keeps the text as typed when its search comes back, and shows a keyword set from outside', async () => {
    const mem = memoryService(sampleRows(30));
    const { router } = renderAt(() => <CrudPage service={mem.service} columns={[{ prop: 'name', label: 'Name' }]} />);
    await screen.findByText('user-001');
    const box = screen.getByRole('searchbox', { name: 'Keyword' }) as HTMLInputElement;
    fireEvent.change(box, { target: { value: 'user ' } });
    await waitFor(() => expect(router.state.location.search).toEqual({ keyWord: 'user' }));
    expect(box.value).toBe('user ');
    await act(() => router.navigate({ href: '/sys/log?keyWord=%22user-02%22' }));
    await waitFor(() => expect(box.value).toBe('user-02'));
    await waitFor(() => expect(mem.last('page')!.payload).toEqual({ page: 1, size: 20, keyWord: 'user-02' }));
  });
});
