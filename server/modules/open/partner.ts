// Who a signed open call comes from, and what it may reach. A partner is an enabled API
// configuration entry of kind 'partner' with a department: every call is signed with its secret
// (core/signature.ts: timestamp within 5 minutes, nonce once), read from the database on every
// call, so disabling an entry or rotating its secret takes effect at once. Limits: every call
// counts against its address (before the signature is checked) and every signed call against its
// key (config partnerRateMax in 15 minutes), in the database's counter (core/rate-limit.ts), so
// concurrent calls cannot overrun it. The entry's list of calls says what it may call (`test`
// always). Its data: the users of its department and the departments below it, the orders those
// users design and the devices they own; anything else answers "not found", like a missing row.
import type { Context } from 'hono';
import { parseCalls, type PartnerCall } from '../../../common/partner-api.ts';
import { SIGNATURE_HEADERS, SIGNATURE_WINDOW_MS } from '../../../common/signature.ts';
import type { AppContext } from '../../context.ts';
import { clientIp } from '../../core/client-ip.ts';
import type { AppEnv } from '../../core/env.ts';
import { Code } from '../../core/envelope.ts';
import { ApiError, fail, unauthorized } from '../../core/errors.ts';
import { subtreeIds } from '../../core/perms.ts';
import { LOGIN_WINDOW_MS, reserveAll, settle, type Bucket, type Reservation } from '../../core/rate-limit.ts';
import { verifySigned } from '../../core/signature.ts';
import type { Db } from '../../db/index.ts';

export interface Partner {
  id: number;
  name: string;
  departmentId: number;
  /** Its department and every department below it. */
  departments: number[];
  calls: PartnerCall[];
  callbackUrl: string | null;
}

/** Calls from one address in the window, signed or not (a flood with a public key id stops here). */
const ipBucket = (ctx: AppContext, ip: string): Bucket => ({ key: `partner-ip:${ip}`, max: ctx.config.partnerRateMax * 4, windowMs: LOGIN_WINDOW_MS });
const keyBucket = (ctx: AppContext, id: number): Bucket => ({ key: `partner-key:${id}`, max: ctx.config.partnerRateMax, windowMs: LOGIN_WINDOW_MS });

/** A department and every department below it. */
export async function departmentsBelow(db: Db, departmentId: number): Promise<number[]> {
  const all = await db.selectFrom('base_sys_department').select(['id', 'parentId']).execute();
  return subtreeIds(all, [departmentId]).sort((a, b) => a - b);
}

/**
 * Runs `work` for the partner that signed the request, once the address and key have room, the
 * signature holds and the call is the partner's to make. `readBody`: a route that streams its
 * body itself reads it (after the address's limit) and answers the body's digest.
 */
export async function asPartner<T>(ctx: AppContext, c: Context<AppEnv>, call: PartnerCall, work: (p: Partner) => Promise<T>, readBody?: () => Promise<string>): Promise<T> {
  const held: Reservation[] = await reserveAll(ctx, [ipBucket(ctx, clientIp(c, ctx.config.trustProxy))], 'partnerRateLimited');
  try {
    const bodySha256 = readBody ? await readBody() : undefined;
    let row: { id: number; name: string; departmentId: number | null; calls: string | null; callbackUrl: string | null } | undefined;
    const key = await verifySigned(
      ctx,
      c,
      async (keyId) => {
        if (!/^[0-9]{1,10}$/.test(keyId)) return null;
        const found = await ctx.db
          .selectFrom('device_api_config')
          .select(['id', 'name', 'departmentId', 'calls', 'callbackUrl', 'secret'])
          .where('id', '=', Number(keyId))
          .where('kind', '=', 'partner')
          .where('enabled', '=', 1)
          .executeTakeFirst();
        if (!found?.secret || found.departmentId === null) return null;
        row = found;
        return { configId: found.id, secret: found.secret };
      },
      bodySha256,
    );
    held.push(...(await reserveAll(ctx, [keyBucket(ctx, key.configId)], 'partnerRateLimited')));
    const entry = row!;
    const calls = parseCalls(entry.calls);
    if (call !== 'test' && !calls.includes(call)) throw new ApiError(Code.fail, 'partnerCallNotAllowed', 403, { call });
    const departmentId = entry.departmentId!;
    return await work({ id: entry.id, name: entry.name, departmentId, departments: await departmentsBelow(ctx.db, departmentId), calls, callbackUrl: entry.callbackUrl });
  } finally {
    // Every call keeps its place in the window: the limit counts calls, not failures.
    await settle(ctx, held);
  }
}

/**
 * Before a large body is read: the headers name an enabled partner that may make `call`, with a
 * timestamp in the window. The signature itself is checked once the body is read (asPartner);
 * this only spares streaming an upload for a request that cannot pass. Refusals are 401 alike.
 */
export async function mayBePartner(ctx: AppContext, c: Context<AppEnv>, call: PartnerCall): Promise<void> {
  const keyId = c.req.header(SIGNATURE_HEADERS.key) ?? '';
  const timestamp = Number(c.req.header(SIGNATURE_HEADERS.timestamp) ?? NaN);
  const fresh = Number.isFinite(timestamp) && Math.abs(ctx.clock.now() - timestamp * 1000) <= SIGNATURE_WINDOW_MS;
  const row = /^[0-9]{1,10}$/.test(keyId)
    ? await ctx.db.selectFrom('device_api_config').select(['calls', 'departmentId', 'secret']).where('id', '=', Number(keyId)).where('kind', '=', 'partner').where('enabled', '=', 1).executeTakeFirst()
    : undefined;
  if (!fresh || !row?.secret || row.departmentId === null || !parseCalls(row.calls).includes(call)) throw unauthorized('signatureInvalid');
}

/**
 * Whether the entry is still an enabled partner whose departments hold a user of `departmentId`
 * (a sign-in link it issued for the user may still be spent).
 */
export async function partnerActsFor(db: Db, configId: number, departmentId: number | null): Promise<boolean> {
  const entry = await db.selectFrom('device_api_config').select('departmentId').where('id', '=', configId).where('kind', '=', 'partner').where('enabled', '=', 1).executeTakeFirst();
  if (!entry?.departmentId || departmentId === null) return false;
  return (await departmentsBelow(db, entry.departmentId)).includes(departmentId);
}

/** The partner's users (of its departments); `active`: enabled ones only. */
export function partnerUsers(db: Db, p: Partner, active = false) {
  let q = db.selectFrom('base_sys_user').where('departmentId', 'in', p.departments);
  if (active) q = q.where('status', '=', 1);
  return q;
}

/** A user of the partner's departments, enabled; else "not found". */
export async function partnerUser(db: Db, p: Partner, userId: number) {
  const user = await partnerUsers(db, p, true).select(['id', 'username', 'passwordVersion', 'departmentId']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw fail('partnerUserNotFound');
  return user;
}

export interface OrderRef {
  orderId?: number | undefined;
  partnerOrderNo?: string | undefined;
}

/** The order named by id or by the partner's number, if one of its users designs it; else "not found". */
export async function partnerOrder(db: Db, p: Partner, ref: OrderRef) {
  if (ref.orderId === undefined && ref.partnerOrderNo === undefined) throw new ApiError(Code.validation, 'partnerOrderRef');
  let q = db
    .selectFrom('order_info as o')
    .innerJoin('base_sys_user as u', 'u.id', 'o.designerId')
    .leftJoin('partner_order as po', (j) => j.onRef('po.orderId', '=', 'o.id').on('po.configId', '=', p.id))
    .selectAll('o')
    .select('po.partnerOrderNo')
    .where('u.departmentId', 'in', p.departments);
  if (ref.orderId !== undefined) q = q.where('o.id', '=', ref.orderId);
  if (ref.partnerOrderNo !== undefined) q = q.where('po.partnerOrderNo', '=', ref.partnerOrderNo);
  const order = await q.executeTakeFirst();
  if (!order) throw fail('partnerOrderNotFound');
  return order;
}

/** A device owned by a user of the partner's departments; else "not found". */
export async function partnerDevice(db: Db, p: Partner, deviceId: number) {
  const device = await db
    .selectFrom('device_info as d')
    .innerJoin('base_sys_user as u', 'u.id', 'd.personnelId')
    .select(['d.id', 'd.devicename', 'd.diameters', 'd.memory', 'd.dieRadius', 'd.enableAI', 'd.status'])
    .where('d.id', '=', deviceId)
    .where('u.departmentId', 'in', p.departments)
    .executeTakeFirst();
  if (!device) throw fail('partnerDeviceNotFound');
  return device;
}

/**
 * The partner entry that created an order (its `order` call), with its callback URL: where the
 * order's status changes go. Null for orders no partner sent.
 */
export async function orderPartner(db: Db, orderId: number) {
  const row = await db
    .selectFrom('partner_order as po')
    .innerJoin('device_api_config as a', 'a.id', 'po.configId')
    .select(['a.id as configId', 'a.callbackUrl', 'a.enabled', 'po.partnerOrderNo'])
    .where('po.orderId', '=', orderId)
    .where('a.kind', '=', 'partner')
    .executeTakeFirst();
  return row ?? null;
}
