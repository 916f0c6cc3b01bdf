/**
 * Client hardening (specification, section 6), off unless the system param `clientHardening` is on
 * (docs/hardening.md): the browser's context menu is blocked (pointer events still reach the page,
 * so the editor's right-button pan works), so are the developer-tool keys (F12, Ctrl+Shift+I/J/C,
 * Ctrl+U), and a debugger check every 20 ms opens a blank page when a `debugger` statement pauses
 * longer than 100 ms (only an open debugger pauses there). While off, none of this is installed.
 * `<html data-hardening="on">` tells that it runs.
 */
import { DEBUGGER_CHECK_MS, DEBUGGER_PAUSE_MS, HARDENING_PARAM_KEY, hardeningOn } from '../../common/hardening.ts';

/** Whether a key press opens developer tools or the page source. */
export function isDevToolsKey(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): boolean {
  const key = e.key.toLowerCase();
  if (key === 'f12') return true;
  const mod = e.ctrlKey || e.metaKey;
  if (mod && e.shiftKey && (key === 'i' || key === 'j' || key === 'c')) return true;
  // macOS: Cmd+Option+I/J/C.
  if (e.metaKey && e.altKey && (key === 'i' || key === 'j' || key === 'c')) return true;
  return mod && !e.shiftKey && key === 'u';
}

/** Pauses only while a debugger is attached: the statement is a breakpoint then. */
function debuggerTrap(): void {
  debugger;
}

export interface Hardening {
  stop(): void;
}

/** Installs the blocks and the check; `onDebugger` defaults to opening a blank page. */
export function startHardening(onDebugger: () => void = () => window.location.replace('about:blank')): Hardening {
  const blockMenu = (e: Event) => e.preventDefault();
  const blockKeys = (e: KeyboardEvent) => {
    if (!isDevToolsKey(e)) return;
    e.preventDefault();
    e.stopPropagation();
  };
  window.addEventListener('contextmenu', blockMenu, { capture: true });
  window.addEventListener('keydown', blockKeys, { capture: true });
  const timer = window.setInterval(() => {
    // Only the statement is timed: a busy page delays the interval, not this span.
    const start = performance.now();
    debuggerTrap();
    if (performance.now() - start > DEBUGGER_PAUSE_MS) onDebugger();
  }, DEBUGGER_CHECK_MS);
  document.documentElement.dataset.hardening = 'on';
  return {
    stop() {
      window.removeEventListener('contextmenu', blockMenu, { capture: true });
      window.removeEventListener('keydown', blockKeys, { capture: true });
      window.clearInterval(timer);
      document.documentElement.dataset.hardening = 'off';
    },
  };
}

/** Reads the param (no sign-in needed) and starts hardening when it is on. */
export async function applyHardening(): Promise<Hardening | null> {
  let on = false;
  try {
    const res = await fetch(`/admin/base/open/param?key=${HARDENING_PARAM_KEY}`);
    const reply = (await res.json()) as { code?: number; data?: unknown };
    on = reply.code === 1000 && hardeningOn(reply.data);
  } catch {
    // Unreachable server: the app shows its own error; hardening stays off.
  }
  if (!on) {
    document.documentElement.dataset.hardening = 'off';
    return null;
  }
  return startHardening();
}
