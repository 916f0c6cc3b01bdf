// The exchange with an outside AI service (docs/ai-vendor.md): the job the server posts to it, and
// the callback it answers with. Pure: the example vendor (test/server/) reads it too.
import type { Prescription } from './prescription.ts';

/** Where the callback goes: POST {publicUrl}/admin/base/open/aiCallBack/{orderId}/{type}/{jawType}. */
export const AI_CALLBACK_PATH = '/admin/base/open/aiCallBack';
/** Where a model link points: GET {publicUrl}/admin/base/open/aiFile/{orderId}/{fileId}?expires=&sig= */
export const AI_FILE_PATH = '/admin/base/open/aiFile';

/** design: the body carries the design; fail: the service could not design it, the body says why. */
export const AI_CALLBACK_TYPES = ['design', 'fail'] as const;
export type AiCallbackType = (typeof AI_CALLBACK_TYPES)[number];
/** The jaws a callback's design covers. */
export const AI_CALLBACK_JAWS = ['upper', 'lower', 'both'] as const;
export type AiCallbackJaw = (typeof AI_CALLBACK_JAWS)[number];

/** How long a model link works (ms). */
export const AI_FILE_LINK_MS = 30 * 60 * 1000;
/** How long the server waits for the callback after the service took the job (ms). */
export const AI_VENDOR_DEADLINE_MS = 60 * 60 * 1000;
/** The largest callback body (bytes): a design (common/design.ts DESIGN_MAX_BYTES) and its report. */
export const AI_CALLBACK_MAX_BYTES = 1024 * 1024 + 64 * 1024;

/** A file the service fetches: no session, only this link, until `expires`. */
export interface AiVendorFile {
  fileId: number;
  url: string;
  /** ISO time after which the link is refused. */
  expires: string;
}

/** The body of the job the server posts (signed) to the service's URL. */
export interface AiVendorJob {
  orderId: number;
  /** Names this sending: the callback body repeats it (a job sent again has a new one). */
  jobId: number;
  jaws: ('upper' | 'lower')[];
  files: { upper?: AiVendorFile; lower?: AiVendorFile; bite?: AiVendorFile };
  prescription: Prescription;
  /** The callback's URL with {type} and {jawType} to fill in. */
  callback: string;
  /** ISO time after which the callback is refused and the order's automatic design fails. */
  deadline: string;
}
