// Who may read a stored file (downloads): the general rules are server/core/access.ts.
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { AppContext } from '../../context.ts';
import { SEE_ALL } from '../../core/access.ts';
import { loadAccess } from '../../core/perms.ts';
import type { Database } from '../../db/schema.ts';
import { attachedForReader } from '../chat/access.ts';

/** The order uses one of these files: as a model, its denture base, or a kept model version (modifyModel). */
export function usesFiles(eb: ExpressionBuilder<Database, 'order_info'>, ids: readonly number[]): Expression<SqlBool> {
  return eb.or([
    eb('upperFileId', 'in', ids),
    eb('lowerFileId', 'in', ids),
    eb('occlusionFileId', 'in', ids),
    eb('baseFileId', 'in', ids),
    eb('id', 'in', eb.selectFrom('order_model_version').select('orderId').where('fileId', 'in', ids)),
  ]);
}

/** Can this user read the file: the uploader, a files admin, someone who sees an order that uses
 * it, or a party to a conversation it was attached in (orders admins: any). */
export async function canReadFile(ctx: AppContext, userId: number, fileId: number): Promise<boolean> {
  const file = await ctx.db.selectFrom('space_info').select(['id', 'userId']).where('id', '=', fileId).executeTakeFirst();
  if (!file) return false;
  if (file.userId === userId) return true;
  const access = await loadAccess(ctx.db, userId);
  if (access.isSuper || access.perms.has(SEE_ALL.files)) return true;
  let orders = ctx.db
    .selectFrom('order_info')
    .select('id')
    .where((eb) => usesFiles(eb, [fileId]));
  if (!access.perms.has(SEE_ALL.orders)) orders = orders.where('designerId', '=', userId);
  if (await orders.executeTakeFirst()) return true;
  return attachedForReader(ctx.db, userId, fileId, access.perms.has(SEE_ALL.orders));
}
