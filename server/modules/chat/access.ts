// Who takes part in an order's conversation: its creator and its designer read and write; an
// orders admin (order:info:all, the data scope of orders) may read it, not write in it, since it
// is the two parties' exchange. Anyone else is answered as if the order did not exist.
import type { Db } from '../../db/index.ts';
import { SEE_ALL, seesAll } from '../../core/access.ts';
import { fail } from '../../core/errors.ts';

export interface ChatOrder {
  id: number;
  caseNo: string;
  patientName: string;
  creatorId: number;
  designerId: number;
  /** The caller is the creator or the designer. */
  participant: boolean;
}

/** The order's conversation as the caller may see it; dataNotFound when they may not. */
export async function chatOrder(db: Db, userId: number, orderId: number): Promise<ChatOrder> {
  const order = await db
    .selectFrom('order_info')
    .select(['id', 'caseNo', 'patientName', 'creatorId', 'designerId'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) throw fail('dataNotFound');
  const participant = order.creatorId === userId || order.designerId === userId;
  if (!participant && !(await seesAll(db, userId, SEE_ALL.orders))) throw fail('dataNotFound');
  return { ...order, participant };
}

/** The caller may write: only the order's two parties. Readers are told it is not theirs. */
export async function writableOrder(db: Db, userId: number, orderId: number): Promise<ChatOrder> {
  const order = await chatOrder(db, userId, orderId);
  if (!order.participant) throw fail('chatReadOnly');
  return order;
}

/**
 * A file attached in a conversation the user may read: so both parties (and orders admins) can
 * open what the other sent, though it lies in the sender's file space (used by space/access.ts).
 */
export async function attachedForReader(db: Db, userId: number, fileId: number, ordersAdmin: boolean): Promise<boolean> {
  let q = db
    .selectFrom('chat_attachment as a')
    .innerJoin('chat_session as s', 's.id', 'a.sessionId')
    .innerJoin('order_info as o', 'o.id', 's.orderId')
    .select('a.id')
    .where('a.fileId', '=', fileId);
  if (!ordersAdmin) q = q.where((eb) => eb.or([eb('o.creatorId', '=', userId), eb('o.designerId', '=', userId)]));
  return !!(await q.limit(1).executeTakeFirst());
}
