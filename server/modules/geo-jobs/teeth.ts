// The `teeth` job kind: the teeth segmentation of one jaw model of an order (thread side
// teeth.thread.ts, the kernels of `npm run teeth`). Queued per jaw model when the order's models
// change (order/lifecycle.ts modelsChanged, after the bite job); not a lifecycle step: the
// order's status is never touched, and a failure only stays on the job row with its reason.
// Done: the StoredTeeth goes to model_teeth under the model file's content key and the jaw, so a
// replaced model's teeth no longer apply and a copied order's models keep theirs.
import type { Kysely } from 'kysely';
import type { OrderTeeth } from '../../../common/order-lifecycle.ts';
import type { Jaw, StoredTeeth } from '../../../common/teeth.ts';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import type { Database } from '../../db/schema.ts';
import { enqueueJob, supersedeJobs } from './store.ts';
import type { GeoJobState, GeoKind, HookArgs } from './types.ts';

type Db = Kysely<Database>;

export const TEETH_THREAD = new URL('./teeth.thread.ts', import.meta.url).href;

/** What a teeth job reads: the storage key of one jaw model, where it lives. */
export interface TeethInput {
  orderId: number;
  jaw: Jaw;
  fileId: number;
  /** space_info.key: the bytes' sha256, also the key its teeth are stored under. */
  key: string;
  uploads: string;
}

const JAWS = [
  ['upper', 'upperFileId'],
  ['lower', 'lowerFileId'],
] as const;

async function stored({ ctx, trx, job }: HookArgs, teeth: StoredTeeth) {
  const input = job.input as TeethInput;
  const time = formatTime(ctx.clock.now());
  const json = JSON.stringify(teeth);
  await trx
    .insertInto('model_teeth')
    .values({ fileKey: input.key, jaw: input.jaw, jobId: job.id, teeth: json, createTime: time, updateTime: time })
    .onConflict((oc) => oc.columns(['fileKey', 'jaw']).doUpdateSet({ jobId: job.id, teeth: json, updateTime: time }))
    .execute();
}

/** The teeth kind; `module`/`fn` name other thread code (tests). */
export function teethKind(thread: { module?: string; fn?: string } = {}): GeoKind {
  return {
    module: thread.module ?? TEETH_THREAD,
    fn: thread.fn ?? 'run',
    background: true,
    onDone: (result, args) => stored(args, result as StoredTeeth),
  };
}

/** The order's latest teeth job of a jaw. */
async function latestTeethJob(db: Db, orderId: number, jaw: Jaw) {
  const row = await db
    .selectFrom('geo_job')
    .select(['id', 'state', 'progress', 'error', 'input'])
    .where('orderId', '=', orderId)
    .where('kind', '=', 'teeth')
    .where('subject', '=', jaw)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, state: row.state as GeoJobState, input: JSON.parse(row.input) as TeethInput } : null;
}

async function storedTeethOf(db: Db, key: string, jaw: Jaw): Promise<StoredTeeth | null> {
  const row = await db.selectFrom('model_teeth').select('teeth').where('fileKey', '=', key).where('jaw', '=', jaw).executeTakeFirst();
  return row ? (JSON.parse(row.teeth) as StoredTeeth) : null;
}

/**
 * For each jaw: a model whose teeth are neither stored nor on their way gets a teeth job (it
 * supersedes the jaw's older one); a jaw without a model, or whose teeth are stored, has its
 * pending job superseded. A failed job of the same model is tried again. Inside the
 * transaction of the change; `uploads` is where the models' bytes live.
 */
export async function queueTeeth(ctx: AppContext, trx: Db, orderId: number, uploads: string): Promise<void> {
  const order = await trx.selectFrom('order_info').select(['upperFileId', 'lowerFileId']).where('id', '=', orderId).executeTakeFirst();
  if (!order) return;
  const now = ctx.clock.now();
  let queued = false;
  for (const [jaw, column] of JAWS) {
    const fileId = order[column];
    const file = fileId ? await trx.selectFrom('space_info').select(['id', 'key']).where('id', '=', fileId).executeTakeFirst() : undefined;
    const latest = await latestTeethJob(trx, orderId, jaw);
    const pending = latest && (latest.state === 'queued' || latest.state === 'running');
    if (file && pending && latest.input.key === file.key) continue;
    if (!file || (await storedTeethOf(trx, file.key, jaw))) {
      if (pending) await supersedeJobs(trx, { orderId, kind: 'teeth', subject: jaw }, now);
      continue;
    }
    const input: TeethInput = { orderId, jaw, fileId: file.id, key: file.key, uploads };
    await enqueueJob(trx, { kind: 'teeth', orderId, subject: jaw, input }, now);
    queued = true;
  }
  if (queued) ctx.geoJobs?.wake();
}

/** The teeth of the order's jaw model as it is now (GET /admin/design/getTeeth). */
export async function orderTeeth(db: Db, order: { id: number; upperFileId: number | null; lowerFileId: number | null }, jaw: Jaw): Promise<OrderTeeth> {
  const fileId = jaw === 'upper' ? order.upperFileId : order.lowerFileId;
  const none: OrderTeeth = { orderId: order.id, jaw, fileId, state: 'none', progress: 0, error: null, teeth: null };
  const file = fileId ? await db.selectFrom('space_info').select('key').where('id', '=', fileId).executeTakeFirst() : undefined;
  if (!file) return { ...none, fileId: null };
  const teeth = await storedTeethOf(db, file.key, jaw);
  if (teeth) return { ...none, state: 'done', progress: 1, teeth };
  const job = await latestTeethJob(db, order.id, jaw);
  // A job for another model (replaced since), or done but stored for none: nothing for this model.
  if (!job || job.input.key !== file.key || job.state === 'done') return none;
  return { ...none, state: job.state, progress: Number(job.progress), error: job.state === 'failed' ? job.error : null };
}
