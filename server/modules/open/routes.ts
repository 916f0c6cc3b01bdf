// The partners' open API under /admin/sy/open (docs/partner-api.md). Who: a request signed with
// the secret of an enabled partner entry that may make the call (partner.ts: signature,
// timestamp, nonce, per-address and per-key limits). On whose data: its department's (and the
// departments below) users, the orders they design and the devices they own. Limits: JSON bodies
// within BODY_LIMIT (the body reader), `order` uploads within the upload limits, batchOrder at
// most PARTNER_BATCH_MAX orders. Every body is checked by its zod schema (common/partner-request.ts)
// before any work; the same definitions below make the OpenAPI document (openapi.ts).
// Not signed: the OpenAPI document. A `redirect` link is spent by the base one-time sign-in
// (redirect.service.ts: the /transfer page, POST /admin/base/open/redirect).
import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import { PARTNER_OPENAPI_PATH, PARTNER_PREFIX, PARTNER_REDIRECT_TTL_MS, type PartnerCall } from '../../../common/partner-api.ts';
import {
  batchOrderSchema,
  bendSchema,
  bowWireSchema,
  emptySchema,
  orderRefSchema,
  partnerOrderSchema,
  redirectSchema,
  updateOrderSchema,
} from '../../../common/partner-request.ts';
import { isWireType } from '../../../common/wires.ts';
import type { AppContext } from '../../context.ts';
import { MAX_JSON_DEPTH, nestingExceeds } from '../../core/body.ts';
import { formatTime } from '../../core/clock.ts';
import { randomToken } from '../../core/crypto.ts';
import type { AppEnv } from '../../core/env.ts';
import { Code, ok } from '../../core/envelope.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { ApiError, fail } from '../../core/errors.ts';
import { t } from '../../core/i18n.ts';
import { moveToRecycleBin } from '../../core/recycle.ts';
import { validationError } from '../../core/validate.ts';
import { ORDER_STATUS, AI_STATUS } from '../order/status.ts';
import { issueRedirect } from '../base/redirect.service.ts';
import { checkProgram, queueBend } from '../design/bend-queue.ts';
import { maxUploadBody, receive } from '../space/upload.routes.ts';
import { spaceStore } from '../space/index.ts';
import { createPartnerOrder, deliveryTimeOf, MODEL_FIELDS, type Uploaded } from './orders.ts';
import { asPartner, mayBePartner, partnerDevice, partnerOrder, partnerUser, partnerUsers, type OrderRef } from './partner.ts';
import { DEFAULT_DIE_RADIUS_MM, designWires, springbackOf, wireProgram } from './programs.ts';
import { openApiDocument, type CallDef } from './openapi.ts';
import { orderView, productionView } from './views.ts';

const OPEN = epsGroup('sy', PARTNER_PREFIX, 'PartnerOpen');
/** The multipart `order` reads its own body (the body reader skips it). */
export const PARTNER_ORDER_PATH = `${PARTNER_PREFIX}/order`;

/** The JSON body checked by `schema` (after the signature: refusals name the field, 1002). */
async function bodyOf<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  const text = c.get('body') ?? (await c.req.text());
  let raw: unknown = {};
  if (text.trim() !== '') {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new ApiError(Code.validation, 'bodyInvalid');
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error.issues, raw);
  return parsed.data;
}

/** A design's wire a partner names, with its stored fields. */
async function orderWire(ctx: AppContext, orderId: number, wireId: string) {
  const design = await ctx.db.selectFrom('design_data').select('data').where('orderId', '=', orderId).executeTakeFirst();
  const wire = designWires(design?.data).find((w) => w.id === wireId);
  if (!wire) throw fail('partnerWireNotFound', { wireId });
  return wire;
}

/** One bend per (partner, idempotency key) in this process at a time; the table keeps it across. */
const bendLocks = new Map<string, Promise<unknown>>();
function oneAtATime<T>(key: string, job: () => Promise<T>): Promise<T> {
  const before = bendLocks.get(key) ?? Promise.resolve();
  const run = before.then(job, job);
  const tail = run.catch(() => {});
  bendLocks.set(key, tail);
  void tail.then(() => bendLocks.get(key) === tail && bendLocks.delete(key));
  return run;
}

export function openRoutes(ctx: AppContext) {
  const doc = entryDoc(OPEN);
  const { storage } = spaceStore(ctx);
  const lang = (c: Context<AppEnv>) => c.get('lang');

  const calls: CallDef[] = [
    {
      call: 'test',
      summary: "Checks the signature and answers the partner's identity: { id, name, departmentId, departmentName, departments, calls, callbackUrl }",
      body: emptySchema,
      run: async (_c, p) => {
        const dep = await ctx.db.selectFrom('base_sys_department').select('name').where('id', '=', p.departmentId).executeTakeFirst();
        return { id: p.id, name: p.name, departmentId: p.departmentId, departmentName: dep?.name ?? null, departments: p.departments, calls: p.calls, callbackUrl: p.callbackUrl };
      },
    },
    {
      call: 'userList',
      method: 'get',
      summary: "The users of the partner's department and those below (designers): [{ id, username, name, nickName, departmentId, departmentName, status, roles }]",
      run: async (_c, p) => {
        const users = await partnerUsers(ctx.db, p)
          .leftJoin('base_sys_department as d', 'd.id', 'base_sys_user.departmentId')
          .select(['base_sys_user.id', 'base_sys_user.username', 'base_sys_user.name', 'base_sys_user.nickName', 'base_sys_user.departmentId', 'd.name as departmentName', 'base_sys_user.status'])
          .orderBy('base_sys_user.id')
          .execute();
        const ids = users.map((u) => u.id);
        const roles = ids.length
          ? await ctx.db.selectFrom('base_sys_user_role as ur').innerJoin('base_sys_role as r', 'r.id', 'ur.roleId').select(['ur.userId', 'r.name']).where('ur.userId', 'in', ids).execute()
          : [];
        return users.map((u) => ({ ...u, roles: roles.filter((r) => r.userId === u.id).map((r) => r.name) }));
      },
    },
    {
      call: 'order',
      summary:
        'Creates an order: JSON, or multipart with the JSON in the field `data` and the STL files in `upper`, `lower`, `occlusion`; models may be https links instead. Idempotent on partnerOrderNo: { orderId, caseNo, partnerOrderNo, created }',
      body: partnerOrderSchema,
      multipart: true,
      run: async () => null, // (its own route below: it streams the body)
    },
    {
      call: 'batchOrder',
      summary: `Creates several orders (JSON, models by link), each as \`order\` does: [{ partnerOrderNo, code, message, data? }] in the given order`,
      body: batchOrderSchema,
      run: async (c, p, body: z.output<typeof batchOrderSchema>) => {
        const out = [];
        for (const order of body.orders) {
          try {
            out.push({ partnerOrderNo: order.partnerOrderNo, code: Code.ok, message: 'success', data: await createPartnerOrder(ctx, lang(c), p, order) });
          } catch (err) {
            if (!(err instanceof ApiError)) throw err;
            out.push({ partnerOrderNo: order.partnerOrderNo, code: err.code, message: t(lang(c), err.key, err.params) });
          }
        }
        return out;
      },
    },
    {
      call: 'orderInfo',
      summary: 'An order: its statuses and AI status, models, design summary (wires, base) and bending progress',
      body: orderRefSchema,
      run: async (c, p, body: OrderRef) => orderView(ctx.db, lang(c), await partnerOrder(ctx.db, p, body)),
    },
    {
      call: 'productionInfo',
      summary: "An order's production: statuses, design summary and bending progress (jobs per wire)",
      body: orderRefSchema,
      run: async (c, p, body: OrderRef) => productionView(ctx.db, lang(c), await partnerOrder(ctx.db, p, body)),
    },
    {
      call: 'updateOrder',
      summary: 'Changes what may still change (patientName, remark, deliveryTime, designerId) until the order is processed; answers the order as orderInfo',
      body: updateOrderSchema,
      run: async (c, p, body: z.output<typeof updateOrderSchema>) => {
        const order = await partnerOrder(ctx.db, p, body);
        if (order.status === ORDER_STATUS.processed) throw fail('partnerOrderFinished');
        const designerId = body.designerId === undefined ? undefined : (await partnerUser(ctx.db, p, body.designerId)).id;
        const now = ctx.clock.now();
        await ctx.db.transaction().execute(async (trx) => {
          const res = await trx
            .updateTable('order_info')
            .set({
              ...(body.patientName !== undefined ? { patientName: body.patientName } : {}),
              ...(body.remark !== undefined ? { remark: body.remark } : {}),
              ...(body.deliveryTime !== undefined ? { deliveryTime: body.deliveryTime === null ? null : deliveryTimeOf(body.deliveryTime) } : {}),
              ...(designerId !== undefined ? { designerId } : {}),
              updateTime: formatTime(now),
            })
            .where('id', '=', order.id)
            .where('status', '!=', ORDER_STATUS.processed)
            .executeTakeFirst();
          if (Number(res.numUpdatedRows) !== 1) throw fail('partnerOrderFinished');
          if (designerId !== undefined && designerId !== order.designerId) {
            await trx
              .insertInto('order_status_log')
              .values({ orderId: order.id, fromStatus: order.status, toStatus: order.status, reason: 'designer', userId: null, detail: `designer ${order.designerId} -> ${designerId} (partner ${p.id})`, createTime: formatTime(now) })
              .execute();
          }
        });
        return orderView(ctx.db, lang(c), await partnerOrder(ctx.db, p, { orderId: order.id }));
      },
    },
    {
      call: 'deleteOrder',
      summary: 'Deletes an order before its design starts (no design saved, no automatic design submitted, under way or done, not submitted for processing): to the recycle bin',
      body: orderRefSchema,
      run: async (_c, p, body: OrderRef) => {
        const order = await partnerOrder(ctx.db, p, body);
        await ctx.db.transaction().execute(async (trx) => {
          const row = await trx.selectFrom('order_info').selectAll().where('id', '=', order.id).executeTakeFirst();
          const design = await trx.selectFrom('design_data').select('id').where('orderId', '=', order.id).executeTakeFirst();
          const started =
            !row ||
            design !== undefined ||
            (row.status !== ORDER_STATUS.design && row.status !== ORDER_STATUS.biteRegistration) ||
            row.aiStatus === AI_STATUS.submitted ||
            row.aiStatus === AI_STATUS.processing ||
            row.aiStatus === AI_STATUS.ready;
          if (started) throw fail('partnerDesignStarted');
          await moveToRecycleBin(trx, {
            entity: 'OrderInfo',
            prefix: '/admin/order/info',
            table: 'order_info',
            hidden: [],
            entries: [{ row, related: {} }],
            user: { id: 0, name: `partner ${p.id}` },
            now: formatTime(ctx.clock.now()),
          });
          await trx.deleteFrom('order_info').where('id', '=', order.id).execute();
          await trx.deleteFrom('partner_order').where('orderId', '=', order.id).execute();
        });
        return { orderId: order.id, deleted: true };
      },
    },
    {
      call: 'bowWire',
      summary:
        "The designed wires: geometry (corners, mm, in the jaw model's frame) and bend programs: `program` for no device in particular (1 mm die, no springback) and, with deviceId, `deviceProgram` for that device (its die, springback-compensated)",
      body: bowWireSchema,
      run: async (c, p, body: z.output<typeof bowWireSchema>) => {
        const order = await partnerOrder(ctx.db, p, body);
        const device = body.deviceId === undefined ? null : await partnerDevice(ctx.db, p, body.deviceId);
        const design = await ctx.db.selectFrom('design_data').select('data').where('orderId', '=', order.id).executeTakeFirst();
        const reason = (r: string) => (r === 'kernels' ? t(lang(c), 'partnerKernelsMissing') : r);
        const wires = [];
        for (const w of designWires(design?.data)) {
          const plain = await wireProgram(w.points, DEFAULT_DIE_RADIUS_MM);
          let deviceProgram = null;
          if (device) {
            const springback = w.diameter === null ? undefined : await springbackOf(ctx.db, device.id, w.diameter);
            const r = await wireProgram(w.points, device.dieRadius || DEFAULT_DIE_RADIUS_MM, springback);
            deviceProgram = r.ok
              ? { deviceId: device.id, dieRadius: device.dieRadius, springbackCompensated: springback !== undefined, ...r.program }
              : { deviceId: device.id, error: reason(r.reason) };
          }
          wires.push({
            id: w.id,
            type: w.type,
            jaw: w.jaw,
            diameter: w.diameter,
            ai: w.ai,
            points: w.points,
            program: plain.ok ? plain.program : { error: reason(plain.reason) },
            deviceProgram,
          });
        }
        return { orderId: order.id, partnerOrderNo: order.partnerOrderNo ?? null, wires };
      },
    },
    {
      call: 'bend',
      summary:
        "Sends a designed wire to one of the department's devices (its program for that device, checked like the editor's): { jobId, created }. Idempotent on idempotencyKey: a retry answers the same job, never a second bend",
      body: bendSchema,
      run: async (c, p, body: z.output<typeof bendSchema>) => {
        const order = await partnerOrder(ctx.db, p, body);
        const device = await partnerDevice(ctx.db, p, body.deviceId);
        return oneAtATime(`${p.id}:${body.idempotencyKey}`, async () => {
          // The key is claimed before the job exists (unique per partner), so that of two
          // copies, here or in another process, only one queues a job.
          const claim = `pending:${randomToken(12)}`;
          const claimed = await ctx.db
            .insertInto('partner_bend')
            .values({ configId: p.id, idempotencyKey: body.idempotencyKey, jobId: claim, createTime: formatTime(ctx.clock.now()) })
            .onConflict((oc) => oc.columns(['configId', 'idempotencyKey']).doNothing())
            .executeTakeFirst();
          if (Number(claimed.numInsertedOrUpdatedRows ?? 0) !== 1) {
            const known = await ctx.db.selectFrom('partner_bend').select('jobId').where('configId', '=', p.id).where('idempotencyKey', '=', body.idempotencyKey).executeTakeFirstOrThrow();
            if (known.jobId.startsWith('pending:')) throw fail('partnerBendInProgress');
            const job = await ctx.db.selectFrom('device_job').select(['orderId', 'deviceId', 'wire']).where('jobId', '=', known.jobId).executeTakeFirst();
            const same = job && job.orderId === order.id && job.deviceId === device.id && (JSON.parse(job.wire) as { id?: string }).id === body.wireId;
            if (!same) throw fail('partnerBendKeyReused');
            return { jobId: known.jobId, created: false };
          }
          try {
            const wire = await orderWire(ctx, order.id, body.wireId);
            if (!isWireType(wire.type)) throw fail('partnerWireProgram', { wireId: body.wireId, reason: t(lang(c), 'fieldInvalid', { field: 'type' }) });
            if (wire.diameter === null) throw fail('partnerWireProgram', { wireId: body.wireId, reason: t(lang(c), 'fieldInvalid', { field: 'diameter' }) });
            const springback = await springbackOf(ctx.db, device.id, wire.diameter);
            const program = await wireProgram(wire.points, device.dieRadius || DEFAULT_DIE_RADIUS_MM, springback);
            if (!program.ok) throw fail('partnerWireProgram', { wireId: body.wireId, reason: program.reason === 'kernels' ? t(lang(c), 'partnerKernelsMissing') : program.reason });
            const jobWire = { type: wire.type, diameter: wire.diameter, id: wire.id, ai: wire.ai };
            await checkProgram(ctx, device, jobWire, program.program.steps);
            const jobId = await queueBend(ctx, device, { userId: order.designerId, orderId: order.id, wire: jobWire, steps: program.program.steps });
            await ctx.db.updateTable('partner_bend').set({ jobId }).where('configId', '=', p.id).where('idempotencyKey', '=', body.idempotencyKey).where('jobId', '=', claim).execute();
            return { jobId, created: true };
          } catch (err) {
            // Refused: the key is free for the partner's next try.
            await ctx.db.deleteFrom('partner_bend').where('configId', '=', p.id).where('idempotencyKey', '=', body.idempotencyKey).where('jobId', '=', claim).execute();
            throw err;
          }
        });
      },
    },
    {
      call: 'redirect',
      summary: `A one-time link (good for ${PARTNER_REDIRECT_TTL_MS / 60_000} minutes) that signs a user of the department into the editor on the order: { url, token, expiresAt }; the /transfer page of url spends it (POST /admin/base/open/redirect { code: token })`,
      body: redirectSchema,
      run: async (_c, p, body: z.output<typeof redirectSchema>) => {
        const order = await partnerOrder(ctx.db, p, body);
        const user = await partnerUser(ctx.db, p, body.userId);
        const expiresAt = ctx.clock.now() + PARTNER_REDIRECT_TTL_MS;
        const ticket = await issueRedirect(ctx, user.id, `/bend?orderId=${order.id}`, { ttlMs: PARTNER_REDIRECT_TTL_MS, partnerId: p.id });
        return { url: `${ctx.config.publicUrl}${ticket.url}`, token: ticket.code, expiresAt: formatTime(expiresAt) };
      },
    },
  ];

  let app = new Hono<AppEnv>()
    .get(PARTNER_OPENAPI_PATH, doc('The OpenAPI 3 document of the open partner calls (no signature)'), (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.json(openApiDocument(calls, ctx.config.publicUrl));
    })
    // The multipart or JSON `order`: the body is read here (streamed, hashed for the signature)
    // once the address has room, and checked only once the signature holds.
    .post(PARTNER_ORDER_PATH, doc(calls.find((d) => d.call === 'order')!.summary), async (c) => {
      const raw = c.req.raw;
      const multipart = /^multipart\/form-data\b/i.test(raw.headers.get('content-type') ?? '');
      let fields = new Map<string, string>();
      let files: Awaited<ReturnType<typeof receive>>['files'] = [];
      let text = '';
      const readBody = async () => {
        const hash = createHash('sha256');
        if (!raw.body) return hash.digest('hex');
        if (multipart) await mayBePartner(ctx, c, 'order');
        const declared = Number(raw.headers.get('content-length') ?? NaN);
        const limit = multipart ? maxUploadBody(ctx.config.uploadMaxBytes) : ctx.config.bodyLimit;
        if (Number.isFinite(declared) && declared > limit) throw new ApiError(Code.fail, 'bodyTooLarge', 413);
        const hashed = raw.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ transform: (chunk, out) => (hash.update(chunk), out.enqueue(chunk)) }));
        if (multipart) {
          ({ fields, files } = await receive(new Request(raw.url, { method: 'POST', headers: raw.headers, body: hashed, duplex: 'half' } as RequestInit), storage, ctx.config.uploadMaxBytes));
        } else {
          const bytes = new Uint8Array(await new Response(hashed).arrayBuffer());
          if (bytes.byteLength > limit) throw new ApiError(Code.fail, 'bodyTooLarge', 413);
          text = new TextDecoder().decode(bytes);
        }
        return hash.digest('hex');
      };
      try {
        const answer = await asPartner(
          ctx,
          c,
          'order',
          async (p) => {
            const source = multipart ? (fields.get('data') ?? '') : text;
            if (nestingExceeds(source, MAX_JSON_DEPTH)) throw new ApiError(Code.validation, 'bodyTooDeep', 200, { max: MAX_JSON_DEPTH });
            let raw: unknown;
            try {
              raw = JSON.parse(source);
            } catch {
              throw new ApiError(Code.validation, 'bodyInvalid');
            }
            const parsed = partnerOrderSchema.safeParse(raw);
            if (!parsed.success) throw validationError(parsed.error.issues, raw);
            const uploaded: Uploaded = {};
            for (const f of files) {
              const field = MODEL_FIELDS.find((m) => m === f.field);
              if (!field || uploaded[field]) throw fail('uploadBadKind', { kind: f.field.slice(0, 40) });
              uploaded[field] = { name: f.name, staged: f.staged };
            }
            const out = await createPartnerOrder(ctx, lang(c), p, parsed.data, uploaded);
            files = [];
            return out;
          },
          readBody,
        );
        return ok(c, answer);
      } finally {
        // Files of a refused request (or of a retry answered with the first order) are dropped.
        await Promise.all(files.map((f) => storage.discard(f.staged).catch(() => {})));
      }
    });

  for (const def of calls) {
    if (def.call === 'order') continue;
    const handler = (c: Context<AppEnv>) => asPartner(ctx, c, def.call as PartnerCall, async (p) => ok(c, await def.run(c, p, def.body ? await bodyOf(c, def.body) : {})));
    app = def.method === 'get' ? app.get(`${PARTNER_PREFIX}/${def.call}`, doc(def.summary), handler) : app.post(`${PARTNER_PREFIX}/${def.call}`, doc(def.summary), handler);
  }
  return app;
}
