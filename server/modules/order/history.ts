// GET /admin/order/info/history?id=: an order's status changes, oldest first, with who made them.
import { z } from 'zod';
import type { OrderStatusChange } from '../../../common/order-lifecycle.ts';
import type { Db } from '../../db/index.ts';

export const historySchema = z.object({ id: z.coerce.number().int().positive() });

export async function orderHistory(db: Db, orderId: number): Promise<OrderStatusChange[]> {
  const rows = await db
    .selectFrom('order_status_log as l')
    .leftJoin('base_sys_user as u', 'u.id', 'l.userId')
    .select(['l.fromStatus', 'l.toStatus', 'l.reason', 'l.userId', 'u.nickName', 'u.name', 'u.username', 'l.detail', 'l.createTime'])
    .where('l.orderId', '=', orderId)
    .orderBy('l.id')
    .limit(1000)
    .execute();
  return rows.map((r) => ({
    fromStatus: r.fromStatus as OrderStatusChange['fromStatus'],
    toStatus: r.toStatus as OrderStatusChange['toStatus'],
    reason: r.reason as OrderStatusChange['reason'],
    userId: r.userId,
    userName: r.userId === null ? null : r.nickName || r.name || r.username || null,
    detail: r.detail,
    createTime: r.createTime,
  }));
}
