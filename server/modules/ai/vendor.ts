// An outside AI service in place of the built-in engine (docs/ai-vendor.md).
// - Which: an enabled 'aiService' API configuration entry with a secret, of the department of the
//   order's designer, else one with no department (for all); the lowest id among equals.
// - Sending (the autodesign job's prepare, main side): the order is recorded as held by the entry
//   (ai_vendor_job: entry, job id, deadline) BEFORE the post, so a quick callback finds it; then
//   the job (common/ai-vendor.ts AiVendorJob) is posted, signed with the entry's secret
//   (X-Archwright-Key: the entry's id), with the entry's API key, if any, as a Bearer token. A
//   refusal (not 2xx) or no answer throws with the reason: the job's attempt fails (the runner
//   tries once more, then aiStatus -> fail with it).
// - Model links: HMAC (server secret) of order, file and expiry; served only while the order's
//   automatic design is processing and only the order's own jaw and bite files.
// - Deadline: the kind's sweep fails orders whose answer did not come in time.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AI_CALLBACK_PATH, AI_FILE_LINK_MS, AI_FILE_PATH, AI_VENDOR_DEADLINE_MS, type AiVendorFile, type AiVendorJob } from '../../../common/ai-vendor.ts';
import type { Prescription } from '../../../common/prescription.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { postSigned, type PostAnswer } from '../../core/outbound.ts';
import { pluginEnabled } from '../../core/plugins.ts';
import type { Db } from '../../db/index.ts';

/** How long the service may take to accept a job (ms, real time). */
const SEND_TIMEOUT_MS = 20_000;

export const VENDOR_REASONS = {
  overdue: (minutes: number) => `the AI service did not answer within ${minutes} minutes`,
  refused: (status: number, text: string) => `the AI service refused the job (HTTP ${status}${text ? `: ${text}` : ''})`,
  unreachable: (why: string) => `the AI service could not be reached (${why})`,
  failed: (reason: string) => `the AI service could not design it: ${reason}`,
};

export interface AiServiceEntry {
  id: number;
  url: string;
  key: string | null;
  secret: string;
}

/** The AI service entry that applies to the order, or null (the built-in engine designs it; also
 * while the AI service connector plugin is disabled). */
export async function aiServiceFor(db: Db, orderId: number): Promise<AiServiceEntry | null> {
  if (!(await pluginEnabled(db, 'aiService'))) return null;
  const order = await db
    .selectFrom('order_info')
    .leftJoin('base_sys_user', 'base_sys_user.id', 'order_info.designerId')
    .select('base_sys_user.departmentId')
    .where('order_info.id', '=', orderId)
    .executeTakeFirst();
  if (!order) return null;
  const department = order.departmentId;
  const row = await db
    .selectFrom('device_api_config')
    .select(['id', 'url', 'key', 'secret'])
    .where('kind', '=', 'aiService')
    .where('enabled', '=', 1)
    .where('secret', 'is not', null)
    .where((eb) => (department === null ? eb('departmentId', 'is', null) : eb.or([eb('departmentId', '=', department), eb('departmentId', 'is', null)])))
    .orderBy((eb) => eb.case().when('departmentId', 'is', null).then(1).else(0).end())
    .orderBy('id')
    .executeTakeFirst();
  return row ? { id: row.id, url: row.url, key: row.key, secret: row.secret! } : null;
}

/** The signature of a model link: HMAC of order, file and expiry (Unix seconds) with the server secret. */
function fileSignature(secret: string, orderId: number, fileId: number, expires: number): string {
  return createHmac('sha256', secret).update(`ai-file:${orderId}:${fileId}:${expires}`).digest('base64url');
}

export function fileLink(ctx: AppContext, orderId: number, fileId: number, now: number): AiVendorFile {
  const expires = Math.floor((now + AI_FILE_LINK_MS) / 1000);
  const sig = fileSignature(ctx.jwtSecret, orderId, fileId, expires);
  return { fileId, url: `${ctx.config.publicUrl}${AI_FILE_PATH}/${orderId}/${fileId}?expires=${expires}&sig=${sig}`, expires: new Date(expires * 1000).toISOString() };
}

/** Whether a model link is the server's and still works. */
export function fileLinkValid(ctx: AppContext, orderId: number, fileId: number, expires: string, sig: string, now: number): boolean {
  if (!/^[0-9]{1,12}$/.test(expires) || Number(expires) * 1000 < now) return false;
  const given = Buffer.from(sig);
  const expected = Buffer.from(fileSignature(ctx.jwtSecret, orderId, fileId, Number(expires)));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface VendorOrder {
  orderId: number;
  jobId: number;
  upperFileId: number | null;
  lowerFileId: number | null;
  occlusionFileId: number | null;
  prescription: Prescription;
}

/** Records the order as held by the entry, then posts it the job; throws with the reason when it is not taken. */
export async function sendToService(ctx: AppContext, entry: AiServiceEntry, order: VendorOrder): Promise<void> {
  const now = ctx.clock.now();
  const deadline = now + AI_VENDOR_DEADLINE_MS;
  const held = { configId: entry.id, jobId: order.jobId, deadline, sentTime: formatTime(now) };
  await ctx.db
    .insertInto('ai_vendor_job')
    .values({ orderId: order.orderId, ...held })
    .onConflict((oc) => oc.column('orderId').doUpdateSet(held))
    .execute();
  const files: AiVendorJob['files'] = {};
  if (order.upperFileId) files.upper = fileLink(ctx, order.orderId, order.upperFileId, now);
  if (order.lowerFileId) files.lower = fileLink(ctx, order.orderId, order.lowerFileId, now);
  if (order.occlusionFileId) files.bite = fileLink(ctx, order.orderId, order.occlusionFileId, now);
  const jaws = (['upper', 'lower'] as const).filter((j) => files[j]);
  const job: AiVendorJob = {
    orderId: order.orderId,
    jobId: order.jobId,
    jaws,
    files,
    // a jaw without its model is not designed
    prescription: { upper: files.upper ? order.prescription.upper : null, lower: files.lower ? order.prescription.lower : null },
    callback: `${ctx.config.publicUrl}${AI_CALLBACK_PATH}/${order.orderId}/{type}/{jawType}`,
    deadline: new Date(deadline).toISOString(),
  };
  // An AI service is the lab's own choice of engine, often on its own network: private targets allowed.
  let res: PostAnswer;
  try {
    res = await postSigned({
      url: entry.url,
      keyId: String(entry.id),
      secret: entry.secret,
      body: JSON.stringify(job),
      now,
      headers: entry.key ? { Authorization: `Bearer ${entry.key}` } : {},
      timeoutMs: SEND_TIMEOUT_MS,
      allowPrivate: true,
    });
  } catch (err) {
    throw new Error(VENDOR_REASONS.unreachable(err instanceof Error ? err.message : String(err)));
  }
  if (res.status < 200 || res.status > 299) throw new Error(VENDOR_REASONS.refused(res.status, res.text));
}

/** The entry holding the order's automatic design under this job id, while its deadline holds. */
export async function heldBy(db: Db, orderId: number, now: number): Promise<{ configId: number; jobId: number; sentTime: string } | null> {
  const row = await db.selectFrom('ai_vendor_job').select(['configId', 'jobId', 'sentTime', 'deadline']).where('orderId', '=', orderId).executeTakeFirst();
  return row && Number(row.deadline) >= now ? row : null;
}

/** Forgets the order's hand-off (its design came, failed, or is no longer awaited). */
export async function releaseOrder(db: Db, orderId: number): Promise<void> {
  await db.deleteFrom('ai_vendor_job').where('orderId', '=', orderId).execute();
}

export const VENDOR_DEADLINE_MINUTES = Math.round(AI_VENDOR_DEADLINE_MS / 60_000);
