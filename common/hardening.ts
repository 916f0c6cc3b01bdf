// Client hardening (specification, section 6): a system param switches it on for every browser.
/** The param (System → Param list) whose value 1, true or on turns it on; anything else is off. */
export const HARDENING_PARAM_KEY = 'clientHardening';
/** How often the debugger check runs, and the pause that counts as a debugger (ms). */
export const DEBUGGER_CHECK_MS = 20;
export const DEBUGGER_PAUSE_MS = 100;

export function hardeningOn(value: unknown): boolean {
  return value === 1 || value === true || (typeof value === 'string' && ['1', 'true', 'on'].includes(value.trim().toLowerCase()));
}
