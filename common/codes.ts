// The envelope codes of every JSON reply `{ code, message, data? }` (api-contract.md): one list for
// the server that answers them and the client that reads them. Pure: no DOM, worker or Node imports.

export const Code = {
  /** Success. */
  ok: 1000,
  /** A business rule refused the call; `message` says why. */
  fail: 1001,
  /** A field (or the body) failed validation; `message` names the field. */
  validation: 1002,
  /** The server failed; nothing was changed that the caller should rely on. */
  internal: 1003,
} as const;
export type Code = (typeof Code)[keyof typeof Code];

/** The envelope code of a successful reply. */
export const CODE_OK = Code.ok;
