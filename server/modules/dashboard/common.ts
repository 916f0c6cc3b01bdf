// What every dashboard call shares: the caller's scope, the period of the request, and the rule
// that a table of a module not installed counts as empty.
import type { Context } from 'hono';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AppEnv } from '../../core/env.ts';
import { invalidField } from '../../core/errors.ts';
import { loadAccess } from '../../core/perms.ts';
import type { Db } from '../../db/index.ts';
import { visibleDeviceIds } from '../device/scope.ts';
import { SEE_ALL } from '../../core/access.ts';
import { departmentScope } from '../../core/grants.ts';
import { isPeriod, rangeOf, type Range } from './periods.ts';

/** What a caller may count. `undefined` ids mean all. */
export interface Scope {
  /** Only orders of this designer (and their department on the map); undefined: all orders. */
  designerId: number | undefined;
  /** Only these devices (and their jobs); undefined: all devices. */
  deviceIds: number[] | undefined;
  users: boolean;
  /** Departments of the caller's data scope (server/core/grants.ts); undefined: all (superadmin). */
  departmentIds: number[] | undefined;
}

export async function scopeOf(db: Db, userId: number): Promise<Scope> {
  const access = await loadAccess(db, userId);
  const allOrders = access.isSuper || access.perms.has(SEE_ALL.orders);
  return {
    designerId: allOrders ? undefined : userId,
    deviceIds: await guard(() => visibleDeviceIds(db, userId), []),
    users: access.isSuper || access.perms.has('base:sys:user:page'),
    departmentIds: await departmentScope(db, userId),
  };
}

/**
 * The orders of the caller's scope, as a condition on the column holding an order's designer:
 * their own, or for an orders admin (not superadmin) those whose designer belongs to a department
 * of their data scope. null: every order.
 */
export function ordersInScope(db: Db, scope: Scope, designerColumn: string): RawBuilder<SqlBool> | null {
  const designer = sql.ref(designerColumn);
  if (scope.designerId !== undefined) return sql<SqlBool>`${designer} = ${scope.designerId}`;
  if (scope.departmentIds === undefined) return null;
  const ids = scope.departmentIds.length ? scope.departmentIds : [-1];
  return sql<SqlBool>`${designer} in (${db.selectFrom('base_sys_user').select('id').where('departmentId', 'in', ids)})`;
}

/** A missing table (module not installed) counts as empty instead of failing the dashboard. */
export async function guard<T>(run: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof Error && /no such table|does not exist/i.test(err.message)) return empty;
    throw err;
  }
}

/** `{ period }` of a POST body or of the query of a GET; week by default, 1002 when unknown. */
export async function readPeriod(c: Context<AppEnv>, now: number): Promise<Range> {
  let body: Record<string, unknown> = {};
  if (c.req.method === 'POST') {
    const text = await c.req.text();
    if (text) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
      } catch {
        throw invalidField('body');
      }
    }
  } else {
    body = c.req.query();
  }
  const period = body.period ?? 'week';
  if (!isPeriod(period)) throw invalidField('period');
  return rangeOf(period, now);
}

/** The name a user is shown by: nickname, name, username, or "#id". */
export function userName(u: { id: number | null; nickName?: string | null; name?: string | null; username?: string | null }): string {
  return u.nickName || u.name || u.username || `#${u.id}`;
}
