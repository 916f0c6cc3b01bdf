// The open calls of an outside AI service (docs/ai-vendor.md), under /admin/base/open (no session):
// - GET aiFile/{orderId}/{fileId}?expires=&sig=: a model of an order whose automatic design a
//   service holds, by the link the job carried (vendor.ts fileLink): its HMAC and expiry checked,
//   only the order's jaw and bite files, only while the design is processing. Anything else
//   answers "not found", alike.
// - POST aiCallBack/{orderId}/{type}/{jawType}: the service's answer. Who: a request signed with
//   the secret of the enabled aiService entry the order was sent to (core/signature.ts: timestamp
//   within 5 minutes, nonce used once). On whose data: only that order, only while it is
//   processing and awaited from that entry under the body's jobId, before the deadline. Limits:
//   AI_CALLBACK_MAX_PER_WINDOW calls per address (all) and per key (signed ones) in 15 minutes,
//   AI_CALLBACK_MAX_BYTES of body. type design: { jobId, design, report?, bases? } checked like
//   an editor save (format version, wire types, size), the report like the built-in engine's
//   (common/ai-request.ts: a bad entry refuses the callback), every wire marked ai { accepted: false },
//   its wires only on the jaws of jawType, which the order must have models of; stored as the
//   order's next design version (kind.ts storeAiDesign), aiStatus -> ready. type fail:
//   { jobId, reason } -> aiStatus fail with the reason. A refused callback changes nothing.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { AI_CALLBACK_JAWS, AI_CALLBACK_MAX_BYTES, AI_CALLBACK_PATH, AI_CALLBACK_TYPES, AI_FILE_PATH, type AiCallbackJaw } from '../../../common/ai-vendor.ts';
import { aiBaseReportSchema, aiWireReportSchema } from '../../../common/ai-request.ts';
import { AI_REPORT_LIMITS } from '../../../common/ai-report.ts';
import { designDocumentSchema } from '../../../common/design-request.ts';
import { AI_STATUS } from '../../../common/orders.ts';
import { SIGNATURE_HEADERS } from '../../../common/signature.ts';
import type { AppContext } from '../../context.ts';
import type { AppEnv } from '../../core/env.ts';
import { Code, envelope, ok } from '../../core/envelope.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { clientIp } from '../../core/client-ip.ts';
import { ApiError, unauthorized } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import { LOGIN_WINDOW_MS, reserveAll, settle } from '../../core/rate-limit.ts';
import { verifySigned } from '../../core/signature.ts';
import { validationError } from '../../core/validate.ts';
import { localBlobPath } from '../space/storage.ts';
import { uploadsDir } from '../order/lifecycle.ts';
import { failAi, storeAiDesign, unusable } from './kind.ts';
import { fileLinkValid, heldBy, VENDOR_REASONS } from './vendor.ts';

/** Callbacks one key (and one address) may make in the rate limiter's window (15 minutes). */
export const AI_CALLBACK_MAX_PER_WINDOW = 300;

const bucket = (who: string) => ({ key: `aiCallBack:${who}`, max: AI_CALLBACK_MAX_PER_WINDOW, windowMs: LOGIN_WINDOW_MS });

const OPEN = epsGroup('ai', '/admin/base/open', 'AiService');

const jobId = z.number().int().positive();
// The report's entries as the built-in engine's (common/ai-report.ts); a bad one refuses the callback.
const designBody = z.object({
  jobId,
  design: designDocumentSchema,
  report: z.array(aiWireReportSchema).max(AI_REPORT_LIMITS.wires).optional(),
  bases: z.array(aiBaseReportSchema).max(AI_REPORT_LIMITS.bases).optional(),
});
const failBody = z.object({ jobId, reason: z.string().trim().min(1).max(1000) });

const notAwaited = (orderId: number) => new ApiError(Code.fail, 'aiCallbackNotAwaited', 409, { orderId });

function notFound(c: Context<AppEnv>) {
  return c.json(envelope(Code.fail, t(c.get('lang'), 'dataNotFound')), 404);
}

export function aiVendorRoutes(ctx: AppContext) {
  const doc = entryDoc(OPEN);
  return new Hono<AppEnv>()
    .get(`${AI_FILE_PATH}/:orderId{[0-9]{1,10}}/:fileId{[0-9]{1,10}}`, doc('A model of an order an AI service designs, by the signed link its job carried (no session)'), async (c) => {
      const orderId = Number(c.req.param('orderId'));
      const fileId = Number(c.req.param('fileId'));
      const now = ctx.clock.now();
      if (!fileLinkValid(ctx, orderId, fileId, c.req.query('expires') ?? '', c.req.query('sig') ?? '', now)) return notFound(c);
      const order = await ctx.db.selectFrom('order_info').select(['aiStatus', 'upperFileId', 'lowerFileId', 'occlusionFileId']).where('id', '=', orderId).executeTakeFirst();
      if (!order || order.aiStatus !== AI_STATUS.processing || ![order.upperFileId, order.lowerFileId, order.occlusionFileId].includes(fileId)) return notFound(c);
      if (!(await heldBy(ctx.db, orderId, now))) return notFound(c);
      const file = await ctx.db.selectFrom('space_info').select(['key', 'size']).where('id', '=', fileId).executeTakeFirst();
      const where = file && localBlobPath(uploadsDir(ctx), file.key);
      if (!file || !where || !fs.existsSync(where)) return notFound(c);
      return new Response(Readable.toWeb(fs.createReadStream(where)) as unknown as ReadableStream<Uint8Array>, {
        headers: {
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(file.size),
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        },
      });
    })
    .post(
      `${AI_CALLBACK_PATH}/:orderId{[0-9]{1,10}}/:type{${AI_CALLBACK_TYPES.join('|')}}/:jawType{${AI_CALLBACK_JAWS.join('|')}}`,
      doc("An AI service's answer for an order (signed with its entry's secret): /{orderId}/design|fail/upper|lower|both"),
      async (c) => {
        const orderId = Number(c.req.param('orderId'));
        const type = c.req.param('type') as (typeof AI_CALLBACK_TYPES)[number];
        const jawType = c.req.param('jawType') as AiCallbackJaw;
        if (!/^[0-9]{1,10}$/.test(c.req.header(SIGNATURE_HEADERS.key) ?? '')) throw unauthorized('signatureInvalid');
        // Every call counts against its address; only signed ones against the key, so that others
        // cannot use up a service's allowance with its (public) key id.
        const held = await reserveAll(ctx, [bucket(`ip:${clientIp(c, ctx.config.trustProxy)}`)], 'aiCallbackRateLimited');
        try {
          const declared = Number(c.req.header('content-length') ?? NaN);
          if (declared > AI_CALLBACK_MAX_BYTES) throw new ApiError(Code.fail, 'bodyTooLarge', 413);
          const bytes = new Uint8Array(await c.req.arrayBuffer());
          if (bytes.byteLength > AI_CALLBACK_MAX_BYTES) throw new ApiError(Code.fail, 'bodyTooLarge', 413);
          const key = await verifySigned(ctx, c, async (id) => {
            const row = await ctx.db
              .selectFrom('device_api_config')
              .select(['id', 'secret'])
              .where('id', '=', Number(id))
              .where('kind', '=', 'aiService')
              .where('enabled', '=', 1)
              .executeTakeFirst();
            return row?.secret ? { configId: row.id, secret: row.secret } : null;
          });
          held.push(...(await reserveAll(ctx, [bucket(`key:${key.configId}`)], 'aiCallbackRateLimited')));
          let raw: unknown;
          try {
            raw = JSON.parse(new TextDecoder().decode(bytes));
          } catch {
            throw new ApiError(Code.validation, 'bodyInvalid');
          }
          const parsed = (type === 'design' ? designBody : failBody).safeParse(raw);
          if (!parsed.success) throw validationError(parsed.error.issues, raw);
          const body = parsed.data as z.output<typeof designBody> | z.output<typeof failBody>;
          const order = await ctx.db.selectFrom('order_info').select(['aiStatus', 'upperFileId', 'lowerFileId']).where('id', '=', orderId).executeTakeFirst();
          const awaited = async () => {
            const h = await heldBy(ctx.db, orderId, ctx.clock.now());
            return h && h.configId === key.configId && h.jobId === body.jobId ? h : null;
          };
          if (!order || order.aiStatus !== AI_STATUS.processing || !(await awaited())) throw notAwaited(orderId);
          let design: z.output<typeof designBody>['design'] | null = null;
          if ('design' in body) {
            const lang = c.get('lang');
            const jaws = jawType === 'both' ? (['upper', 'lower'] as const) : [jawType];
            for (const jaw of jaws) {
              if (!(jaw === 'upper' ? order.upperFileId : order.lowerFileId)) throw new ApiError(Code.validation, 'aiCallbackJaw', 200, { orderId, jaw: t(lang, jaw === 'upper' ? 'jawUpper' : 'jawLower') });
            }
            const wires = body.design.wires ?? [];
            wires.forEach((w, i) => {
              const jaw = (w as { jaw?: unknown }).jaw;
              if (jaw !== undefined && !(jaws as readonly unknown[]).includes(jaw)) {
                throw new ApiError(Code.validation, 'aiCallbackWireJaw', 200, { index: i + 1, jaw: t(lang, jaw === 'lower' ? 'jawLower' : 'jawUpper') });
              }
            });
            // The service's wires are the engine's until a designer accepts them, whatever it sent.
            design = { ...body.design, wires: wires.map((w) => ({ ...w, ai: { accepted: false } })) };
            const problem = unusable({ design });
            if (problem) throw new ApiError(Code.validation, 'aiCallbackUnusable', 200, { problem });
          }
          await ctx.db.transaction().execute(async (trx) => {
            // Looked at again inside the write: of two callbacks at once only one finds it awaited.
            const now = await trx.selectFrom('order_info').select('aiStatus').where('id', '=', orderId).executeTakeFirst();
            const h = await heldBy(trx, orderId, ctx.clock.now());
            if (now?.aiStatus !== AI_STATUS.processing || !h || h.configId !== key.configId || h.jobId !== body.jobId) throw notAwaited(orderId);
            if (design) {
              const { report, bases } = body as z.output<typeof designBody>;
              // The service's per-wire report stays with the job, as the engine's does (once the
              // job has ended: a callback quicker than the job's own end is not kept there), and
              // with the design it stores (order_ai_report) when it sent one.
              await trx.updateTable('geo_job').set({ result: JSON.stringify({ handedTo: key.configId, report: report ?? [] }) }).where('id', '=', h.jobId).where('state', '=', 'done').execute();
              await storeAiDesign(ctx, trx, orderId, h.sentTime, { design, report, bases });
            }
            else await failAi(ctx, trx, orderId, VENDOR_REASONS.failed((body as z.output<typeof failBody>).reason));
          });
          const after = await ctx.db.selectFrom('order_info').select(['aiStatus', 'aiError']).where('id', '=', orderId).executeTakeFirst();
          return ok(c, { orderId, aiStatus: after?.aiStatus ?? null, aiError: after?.aiError ?? null });
        } finally {
          await settle(ctx, held);
        }
      },
    );
}
