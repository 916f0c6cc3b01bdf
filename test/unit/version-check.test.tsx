// @vitest-environment jsdom
// The version check (spec sections 4 and 9): every 30 minutes, only while the tab is visible,
// stops once a new version is found; the notice shows both versions and closing resumes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { APP_VERSION, startVersionCheck, VERSION_CHECK_INTERVAL_MS } from '../../src/app/version.ts';
import { VersionNotice } from '../../src/app/VersionNotice.tsx';

let visibility: DocumentVisibilityState = 'visible';
let served = APP_VERSION;
const fetchMock = vi.fn(async (_url: string) => new Response(JSON.stringify({ gn: served })));

function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  vi.useFakeTimers();
  visibility = 'visible';
  served = APP_VERSION;
  fetchMock.mockClear();
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  vi.stubGlobal('fetch', fetchMock);
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets the timers fire and the fetch promises settle. */
async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('startVersionCheck', () => {
  it('asks every 30 minutes with a cache-busting query and stays quiet while the version is the same', async () => {
    const onUpdate = vi.fn();
    const check = startVersionCheck(onUpdate);
    await advance(VERSION_CHECK_INTERVAL_MS - 1);
    expect(fetchMock).not.toHaveBeenCalled();
    await advance(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toMatch(/^\/version\.json\?t=\d+$/);
    await advance(VERSION_CHECK_INTERVAL_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(onUpdate).not.toHaveBeenCalled();
    check.stop();
  });

  it('finds a new version once and stops checking; resume starts again', async () => {
    const onUpdate = vi.fn();
    const check = startVersionCheck(onUpdate);
    served = '9.9.9';
    await advance(VERSION_CHECK_INTERVAL_MS);
    expect(onUpdate).toHaveBeenCalledExactlyOnceWith('9.9.9');
    await advance(3 * VERSION_CHECK_INTERVAL_MS);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    check.resume();
    await advance(VERSION_CHECK_INTERVAL_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(onUpdate).toHaveBeenCalledTimes(2);
    check.stop();
  });

  it('defers a check that falls due while the tab is hidden until it shows again', async () => {
    const onUpdate = vi.fn();
    const check = startVersionCheck(onUpdate);
    served = '2.0.0';
    setVisibility('hidden');
    await advance(2 * VERSION_CHECK_INTERVAL_MS);
    expect(fetchMock).not.toHaveBeenCalled();
    setVisibility('visible');
    await advance(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(onUpdate).toHaveBeenCalledWith('2.0.0');
    check.stop();
  });

  it('is silent when the fetch fails or answers garbage', async () => {
    const onUpdate = vi.fn();
    const check = startVersionCheck(onUpdate);
    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    await advance(VERSION_CHECK_INTERVAL_MS);
    fetchMock.mockResolvedValueOnce(new Response('<html>'));
    await advance(VERSION_CHECK_INTERVAL_MS);
    expect(onUpdate).not.toHaveBeenCalled();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    check.stop();
  });
});

describe('VersionNotice', () => {
  it('shows the current and the new version; closing hides it and checking goes on', async () => {
    render(
      <I18nProvider i18n={i18n}>
        <VersionNotice />
      </I18nProvider>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    served = '1.2.3';
    await advance(VERSION_CHECK_INTERVAL_MS);
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('A new version is available');
    expect(dialog.textContent).toContain(APP_VERSION);
    expect(dialog.textContent).toContain('1.2.3');
    expect(screen.getByRole('button', { name: 'Update' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await advance(0);
    expect(screen.queryByRole('dialog')).toBeNull();
    // Closed means "not now": the next check finds it again.
    await advance(VERSION_CHECK_INTERVAL_MS);
    expect(screen.getByRole('dialog').textContent).toContain('1.2.3');
  });
});
