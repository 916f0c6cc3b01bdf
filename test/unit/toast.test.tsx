// @vitest-environment jsdom
// Toast messages: one copy of a message on screen, and a message shown again stays its full time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { Toaster, toast } from '../../src/ui/toast.tsx';

beforeEach(() => {
  vi.useFakeTimers();
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  render(
    <I18nProvider i18n={i18n}>
      <Toaster />
    </I18nProvider>,
  );
});
afterEach(() => {
  act(() => toast.clear());
  cleanup();
  vi.useRealTimers();
});

const after = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('toast', () => {
  it('goes after its time', () => {
    act(() => toast.success('Save successful'));
    expect(screen.getAllByText('Save successful')).toHaveLength(1);
    after(4500);
    expect(screen.queryByText('Save successful')).toBeNull();
  });

  it('shows a message given again while it is on screen once, for its full time from then', () => {
    act(() => toast.success('Save successful'));
    after(3000);
    // a second save, confirmed as the first one's message is about to go
    act(() => toast.success('Save successful'));
    expect(screen.getAllByText('Save successful')).toHaveLength(1);
    after(3000);
    expect(screen.getAllByText('Save successful')).toHaveLength(1);
    after(1500);
    expect(screen.queryByText('Save successful')).toBeNull();
  });
});
