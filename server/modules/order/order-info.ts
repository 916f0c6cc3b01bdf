// /admin/order/info: orders for patients with their jaw models. Non-admins see and touch only
// the orders they design (scope); models must be STL files the caller may read.
import { sql, type Kysely } from 'kysely';
import { orderAddSchema, orderRetryAiSchema, orderUpdateSchema } from '../../../common/order-request.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { ok } from '../../core/envelope.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import { withKeyLock } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { authOf, SEE_ALL, seesAll } from '../../core/access.ts';
import { fileUrl } from '../space/upload.routes.ts';
import { AI_STATUS, ORDER_STATUS } from './status.ts';
import { latestJobs } from '../geo-jobs/store.ts';
import { modelsChanged } from './lifecycle.ts';
import { checkModelSet, orderCreated } from './create.ts';
import { historySchema, orderHistory } from './history.ts';
import { aiOff, AUTODESIGN_KIND, submitAi } from '../ai/status.ts';
import { checkPrescription } from '../ai/prescription.ts';
import { addressOf } from '../user/address.ts';

type Row = Record<string, unknown>;
const MODELS = ['upperFileId', 'lowerFileId', 'occlusionFileId'] as const;
/** The specification's names of the models (`upper`...) beside the columns (`upperFileId`...). */
const MODEL_ALIAS = { upper: 'upperFileId', lower: 'lowerFileId', occlusion: 'occlusionFileId' } as const;
type Alias = keyof typeof MODEL_ALIAS;

// The bodies are common/order-request.ts (the back office's too).
const addSchema = orderAddSchema;
const updateSchema = orderUpdateSchema;

export const orderResource = {
  module: 'order',
  path: 'info',
  name: 'OrderInfo',
  table: 'order_info',
  // Columns the hooks set are not readonly: the schemas above decide what a body may carry.
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    caseNo: { type: 'string', comment: 'Case number (AW-YYYYMMDD-NNNN)' },
    patientName: { type: 'string', comment: 'Patient name' },
    remark: { type: 'string', comment: 'Remark', nullable: true },
    deliveryTime: { type: 'datetime', comment: 'Delivery time', nullable: true },
    enableAI: { type: 'number', comment: 'AI design: 0 off, 1 on' },
    aiStatus: { type: 'number', comment: 'AI status: 0 not enabled, 1 processing, 2 ready, 3 fail, 4 submitted' },
    status: { type: 'number', comment: 'Status: 0 in design, 1 to be processed, 2 processed, 3 bite registration' },
    designerId: { type: 'number', comment: 'Designer (user ID)' },
    creatorId: { type: 'number', comment: 'Created by (user ID)' },
    upperFileId: { type: 'number', comment: 'Upper jaw model (space file ID)', nullable: true },
    lowerFileId: { type: 'number', comment: 'Lower jaw model (space file ID)', nullable: true },
    occlusionFileId: { type: 'number', comment: 'Occlusion model (space file ID)', nullable: true },
    designStartTime: { type: 'datetime', comment: 'Design started', nullable: true },
    designEndTime: { type: 'datetime', comment: 'Design finished', nullable: true },
    processStartTime: { type: 'datetime', comment: 'Processing started', nullable: true },
    processEndTime: { type: 'datetime', comment: 'Processing finished', nullable: true },
    baseFileId: { type: 'number', comment: 'Generated denture base (space file ID), saveDentureBase', nullable: true, readonly: true },
    drc: { type: 'json', comment: 'Design rule check of a design version (updateDRC)', nullable: true, readonly: true },
    addressId: { type: 'number', comment: "Delivery address (user_address of the order's creator)", nullable: true },
    prescription: { type: 'json', comment: "The order's prescription for the automatic design (common/prescription.ts); null: the lab's default", nullable: true },
    aiError: { type: 'string', comment: 'Why the last automatic design failed (aiStatus 3)', nullable: true, readonly: true },
    aiSubmitTime: { type: 'datetime', comment: 'Automatic design last submitted', nullable: true, readonly: true },
    aiEndTime: { type: 'datetime', comment: 'Automatic design last ended (ready or fail)', nullable: true, readonly: true },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['caseNo', 'patientName', 'remark'],
  sortable: ['id', 'caseNo', 'patientName', 'deliveryTime', 'status', 'aiStatus', 'designerId', 'createTime', 'updateTime', 'designStartTime', 'processEndTime'],
  filterable: ['status', 'aiStatus', 'designerId', 'enableAI'],
  defaultOrder: ['id', 'desc'],
  addSchema,
  updateSchema,
  recycle: true,
  extraApi: [
    { method: 'post', path: '/retryAI', summary: 'Send a failed AI design again ({ id }): aiStatus fail -> submitted, a new autodesign job (as POST /admin/design/retryAI)' },
    { method: 'get', path: '/history', summary: "The order's status changes, oldest first (?id=): OrderStatusChange[]" },
  ],
} as const satisfies ResourceDef<'order_info', typeof addSchema, typeof updateSchema>;

/**
 * The next case number of the day: AW-YYYYMMDD-0001, -0002, ... (inside the write transaction,
 * which holds the day's lock until the order is inserted).
 */
export async function nextCaseNo(trx: Kysely<Database>, now: number): Promise<string> {
  const prefix = `AW-${formatTime(now).slice(0, 10).replaceAll('-', '')}-`;
  const last = await withKeyLock(trx, `caseNo:${prefix}`, (db) =>
    db
      .selectFrom('order_info')
      .select('caseNo')
      .where('caseNo', 'like', `${prefix}%`)
      .orderBy(sql`length(${sql.ref('caseNo')})`, 'desc')
      .orderBy('caseNo', 'desc')
      .executeTakeFirst(),
  );
  const n = last ? Number(last.caseNo.slice(prefix.length)) + 1 : 1;
  return `${prefix}${String(n).padStart(4, '0')}`;
}

type Models = Partial<Record<(typeof MODELS)[number], number | null>>;

/**
 * The models a body names, by either name, with the name each came under (errors name the field
 * as sent). Both names may come: a client sends back the record `info` answered with one of them
 * changed. On update the one that differs from the stored value is the change; two different
 * changes (or two different files on add) are refused.
 */
function modelsOf(data: Row, previous?: Row): { models: Models; names: Record<string, string> } {
  const models: Models = {};
  const names: Record<string, string> = {};
  for (const [alias, column] of Object.entries(MODEL_ALIAS) as [Alias, (typeof MODELS)[number]][]) {
    const a = data[alias] as number | null | undefined;
    const b = data[column] as number | null | undefined;
    names[column] = a !== undefined ? alias : column;
    if (a === undefined || b === undefined || a === b) models[column] = a !== undefined ? a : b;
    else if (previous && b === (previous[column] ?? null)) models[column] = a;
    else if (previous && a === (previous[column] ?? null)) [models[column], names[column]] = [b, column];
    else throw invalidField(alias);
  }
  return { models, names };
}

/** Each model must be an STL file (read by the kernel at upload) the caller may use. */
async function checkModels(trx: Kysely<Database>, userId: number, filesAdmin: boolean, data: Row, previous?: Row): Promise<Models> {
  const { models, names } = modelsOf(data, previous);
  for (const field of MODELS) {
    const id = models[field];
    if (id === undefined || id === null || id === previous?.[field]) continue;
    const file = await trx.selectFrom('space_info').select(['userId', 'triangleCount']).where('id', '=', id).executeTakeFirst();
    if (!file || (file.userId !== userId && !filesAdmin)) throw invalidField(names[field]!);
    if (file.triangleCount === null) throw fail('orderModelNotStl', { field: names[field]! });
  }
  const merged = { ...previous, ...Object.fromEntries(MODELS.filter((f) => models[f] !== undefined).map((f) => [f, models[f]])) };
  checkModelSet(merged);
  return models;
}

/** A delivery address must be one of the order creator's. */
async function checkAddress(trx: Kysely<Database>, addressId: number | null | undefined, creatorId: number) {
  if (addressId === null || addressId === undefined) return;
  if (!(await addressOf(trx, addressId, creatorId))) throw fail('addressNotYours');
}

async function checkDesigner(trx: Kysely<Database>, designerId: number) {
  const user = await trx.selectFrom('base_sys_user').select('id').where('id', '=', designerId).executeTakeFirst();
  if (!user) throw invalidField('designerId');
}

export function createOrderResource(ctx: AppContext) {
  /** Update bodies whose models changed (beforeUpdate -> afterUpdate, same request). */
  const modelChanges = new WeakSet<object>();
  /** Update bodies that submit the automatic design again, or switch it off. */
  const aiChanges = new WeakMap<object, 'submit' | 'off'>();
  const prescriptionOf = (lang: Parameters<typeof checkPrescription>[0], value: unknown) =>
    value === undefined ? undefined : value === null ? null : JSON.stringify(checkPrescription(lang, value, 'prescription'));
  const resource = createCrud(ctx, {
    ...orderResource,
    hooks: {
      async scope({ c }) {
        const { userId } = authOf(c);
        return (await seesAll(ctx.db, userId, SEE_ALL.orders)) ? undefined : { designerId: userId };
      },
      async beforeAdd(data, { c, trx }) {
        const { userId } = authOf(c);
        const ordersAdmin = await seesAll(trx, userId, SEE_ALL.orders);
        const models = await checkModels(trx, userId, await seesAll(trx, userId, SEE_ALL.files), data);
        // Only an orders admin assigns another designer; everyone else designs their own.
        const designerId = ordersAdmin && data.designerId ? data.designerId : userId;
        if (designerId !== userId) await checkDesigner(trx, designerId);
        const now = ctx.clock.now();
        const enableAI = data.enableAI ?? 0;
        const prescription = prescriptionOf(c.get('lang'), data.prescription);
        await checkAddress(trx, data.addressId, userId);
        return {
          caseNo: await nextCaseNo(trx, now),
          patientName: data.patientName,
          remark: data.remark ?? null,
          deliveryTime: data.deliveryTime ?? null,
          enableAI,
          // AI on: submitted by afterAdd (submitAi), after the models' jobs.
          aiStatus: AI_STATUS.notEnabled,
          prescription: prescription ?? null,
          status: ORDER_STATUS.design,
          designerId,
          creatorId: userId,
          upperFileId: models.upperFileId ?? null,
          lowerFileId: models.lowerFileId ?? null,
          occlusionFileId: models.occlusionFileId ?? null,
          addressId: data.addressId ?? null,
          designStartTime: formatTime(now),
        };
      },
      // The first history row; the models' jobs (same transaction): with an occlusion model, status 3
      // and the bite job; the teeth of each jaw model.
      async afterAdd(id, data, { c, ctx, trx }) {
        // Saved with AI on: submitted, its job queued after the bite and teeth jobs.
        await orderCreated(ctx, trx, id, authOf(c).userId, Boolean(data.enableAI));
      },
      async beforeUpdate(data, { c, trx }) {
        const { userId } = authOf(c);
        const previous = (await trx.selectFrom('order_info').selectAll().where('id', '=', data.id).executeTakeFirst()) as Row | undefined;
        if (!previous) throw fail('dataNotFound');
        // The status moves only through the lifecycle's calls (submit, reopen, jobs, machines): a
        // body may carry the status it read (old clients send the record back), never another one.
        if (data.status !== undefined && data.status !== previous.status) throw fail('orderStatusNotWritable');
        const models = await checkModels(trx, userId, await seesAll(trx, userId, SEE_ALL.files), data, previous);
        const changed = MODELS.some((f) => models[f] !== undefined && models[f] !== (previous[f] ?? null));
        // A submitted or processed order's models are what was designed on: reopen it first.
        if (changed && previous.status !== ORDER_STATUS.design && previous.status !== ORDER_STATUS.biteRegistration) throw fail('orderModelsLocked');
        if (changed) modelChanges.add(data);
        const values: Row = {
          patientName: data.patientName,
          remark: data.remark,
          deliveryTime: data.deliveryTime,
          ...models,
        };
        if (data.addressId !== undefined && data.addressId !== previous.addressId) {
          await checkAddress(trx, data.addressId, Number(previous.creatorId));
          values.addressId = data.addressId;
        }
        if (data.designerId && data.designerId !== previous.designerId && (await seesAll(trx, userId, SEE_ALL.orders))) {
          await checkDesigner(trx, data.designerId);
          values.designerId = data.designerId;
        }
        const prescription = prescriptionOf(c.get('lang'), data.prescription);
        const prescriptionChanged = prescription !== undefined && prescription !== (previous.prescription ?? null);
        if (prescriptionChanged) values.prescription = prescription;
        // The automatic design is (re)submitted when AI is switched on, or when what it designs
        // from changed (models, prescription) while AI is on; switched off, it stops.
        const enableAI = data.enableAI ?? previous.enableAI;
        if (enableAI !== previous.enableAI) values.enableAI = enableAI;
        if (!enableAI && previous.enableAI) aiChanges.set(data, 'off');
        else if (enableAI && (!previous.enableAI || changed || prescriptionChanged)) aiChanges.set(data, 'submit');
        return values;
      },
      async afterUpdate(id, data, { c, ctx, trx }) {
        if (modelChanges.delete(data)) await modelsChanged(ctx, trx, id, authOf(c).userId);
        const ai = aiChanges.get(data);
        aiChanges.delete(data);
        if (ai === 'submit') await submitAi(ctx, trx, id);
        else if (ai === 'off') await aiOff(ctx, trx, id);
      },
      // Names for the list: the designer, and the model files with their download URLs.
      async decorateList(rows, { db }) {
        return decorate(db, rows);
      },
      async decorate(row, { db }) {
        return (await decorate(db, [row]))[0]!;
      },
    },
  });

  // Chained, so that AppType (and the typed client) see the extra call.
  const routes = resource.routes.post('/retryAI', validate('json', orderRetryAiSchema), async (c) => {
    const { id } = c.req.valid('json');
    const order = await resource
      .within(ctx.db.selectFrom('order_info').select(['id', 'enableAI', 'aiStatus']).where('id', '=', id), await resource.scopeOf(c))
      .executeTakeFirst();
    if (!order) throw fail('dataNotFound');
    if (!order.enableAI || order.aiStatus !== AI_STATUS.fail) throw fail('orderAiNotRetryable');
    // The same resubmission as POST /admin/design/retryAI (conditional: a concurrent retry loses).
    if (!(await ctx.db.transaction().execute((trx) => submitAi(ctx, trx, id, 'retry')))) throw fail('orderAiNotRetryable');
    return ok(c, null);
  })
    .get('/history', validate('query', historySchema), async (c) => {
      const { id } = c.req.valid('query');
      const order = await resource.within(ctx.db.selectFrom('order_info').select('id').where('id', '=', id), await resource.scopeOf(c)).executeTakeFirst();
      if (!order) throw fail('dataNotFound');
      return ok(c, await orderHistory(ctx.db, id));
    });
  return { ...resource, routes };
}

async function decorate(db: Kysely<Database>, rows: Row[]): Promise<Row[]> {
  const userIds = [...new Set(rows.map((r) => Number(r.designerId)))];
  const fileIds = [...new Set(rows.flatMap((r) => [...MODELS, 'baseFileId' as const].map((f) => r[f]).filter((v): v is number => typeof v === 'number')))];
  const users = userIds.length
    ? await db.selectFrom('base_sys_user').select(['id', 'username', 'nickName', 'name']).where('id', 'in', userIds).execute()
    : [];
  const files = fileIds.length
    ? await db.selectFrom('space_info').select(['id', 'name', 'size']).where('id', 'in', fileIds).execute()
    : [];
  const bites = await latestJobs(db, rows.map((r) => Number(r.id)), 'bite');
  const designs = await latestJobs(db, rows.map((r) => Number(r.id)), AUTODESIGN_KIND);
  const userById = new Map(users.map((u) => [u.id, u]));
  const fileById = new Map(files.map((f) => [f.id, { ...f, url: fileUrl(f.id) }]));
  return rows.map((r) => {
    const u = userById.get(Number(r.designerId));
    const upper = fileById.get(r.upperFileId as number) ?? null;
    const lower = fileById.get(r.lowerFileId as number) ?? null;
    const occlusion = fileById.get(r.occlusionFileId as number) ?? null;
    return {
      ...r,
      designerName: u ? u.nickName || u.name || u.username : null,
      // The specification's names, as objects with their `id` (what add and update take back)...
      upper,
      lower,
      occlusion,
      // ...and the names the back office reads.
      upperFile: upper,
      lowerFile: lower,
      occlusionFile: occlusion,
      // The stored denture base (saveDentureBase) as a file like the models, or null.
      baseFile: fileById.get(r.baseFileId as number) ?? null,
      // The latest bite registration job (GeoJobView: state, progress, error), or null.
      biteJob: bites.get(Number(r.id)) ?? null,
      drc: typeof r.drc === 'string' ? (JSON.parse(r.drc) as unknown) : (r.drc ?? null),
      prescription: typeof r.prescription === 'string' ? (JSON.parse(r.prescription) as unknown) : (r.prescription ?? null),
      // The latest automatic design job (GeoJobView), or null: its progress while aiStatus is processing.
      aiJob: designs.get(Number(r.id)) ?? null,
    };
  });
}
