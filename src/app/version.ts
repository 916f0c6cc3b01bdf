/**
 * Version check (specification, section 4): every 30 minutes, only while the tab is visible
 * (a check that falls due while hidden runs when the tab shows again), `GET /version.json?t=`.
 * When the region's version differs from the running one, checking stops and `onUpdate` fires;
 * `resume()` (the user closed the notice) starts checking again. Failures are silent.
 */
import { version as runningVersion } from '../../package.json';

export const APP_VERSION: string = runningVersion;
export const VERSION_CHECK_INTERVAL_MS = 30 * 60 * 1000;
/** The deployment region key in version.json. */
const VERSION_REGION = 'gn';

export function startVersionCheck(onUpdate: (latest: string) => void): { resume(): void; stop(): void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  let due = false;

  async function check() {
    if (document.visibilityState !== 'visible') {
      due = true;
      return;
    }
    due = false;
    try {
      const res = await fetch(`/version.json?t=${Date.now()}`, { cache: 'no-store' });
      const json: unknown = await res.json();
      const latest = (json as Record<string, unknown> | null)?.[VERSION_REGION];
      if (typeof latest === 'string' && latest && latest !== APP_VERSION) {
        stop();
        onUpdate(latest);
      }
    } catch {
      // Silent by specification.
    }
  }

  function onVisibility() {
    if (due && document.visibilityState === 'visible') void check();
  }

  function resume() {
    stop();
    timer = setInterval(() => void check(), VERSION_CHECK_INTERVAL_MS);
    document.addEventListener('visibilitychange', onVisibility);
  }

  function stop() {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
    due = false;
    document.removeEventListener('visibilitychange', onVisibility);
  }

  resume();
  return { resume, stop };
}
