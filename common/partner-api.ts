// The open API for partners (clinics' and labs' systems), under PARTNER_PREFIX: the calls a
// partner entry (/admin/device/apiConfig, kind 'partner') may be allowed and the API's limits.
// The request schemas are partner-request.ts (zod: the browser does not load it). Pure.

/** The specification's "open" prefix of the sy calls. */
export const PARTNER_PREFIX = '/admin/sy/open';
/** The OpenAPI 3 document of the calls (no signature needed). */
export const PARTNER_OPENAPI_PATH = `${PARTNER_PREFIX}/openapi.json`;

/** Every call a partner may be allowed (`test` is always allowed: it only answers who is calling). */
export const PARTNER_CALLS = [
  'productionInfo',
  'updateOrder',
  'deleteOrder',
  'batchOrder',
  'orderInfo',
  'redirect',
  'bowWire',
  'order',
  'bend',
  'test',
  'userList',
] as const;
export type PartnerCall = (typeof PARTNER_CALLS)[number];

/** Orders one batchOrder may carry. */
export const PARTNER_BATCH_MAX = 20;
/** How long a redirect link signs in (ms), once (a base one-time sign-in code: /transfer?code=). */
export const PARTNER_REDIRECT_TTL_MS = 2 * 60 * 1000;
/** Redirects a model link may take before it is refused. */
export const PARTNER_LINK_MAX_REDIRECTS = 3;

/** The calls stored for an entry (comma-separated), as a list of known calls. */
export function parseCalls(stored: string | null | undefined): PartnerCall[] {
  if (!stored) return [];
  return stored
    .split(',')
    .map((s) => s.trim())
    .filter((s): s is PartnerCall => (PARTNER_CALLS as readonly string[]).includes(s));
}
