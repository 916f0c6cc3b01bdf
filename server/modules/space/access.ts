// Who may read a stored file (downloads): the general rules are server/core/access.ts.
import type { AppContext } from '../../context.ts';
import { SEE_ALL } from '../../core/access.ts';
import { loadAccess } from '../../core/perms.ts';

/** Can this user read the file: the uploader, a files admin, or someone who sees an order that uses it. */
export async function canReadFile(ctx: AppContext, userId: number, fileId: number): Promise<boolean> {
  const file = await ctx.db.selectFrom('space_info').select(['id', 'userId']).where('id', '=', fileId).executeTakeFirst();
  if (!file) return false;
  if (file.userId === userId) return true;
  const access = await loadAccess(ctx.db, userId);
  if (access.isSuper || access.perms.has(SEE_ALL.files)) return true;
  let orders = ctx.db
    .selectFrom('order_info')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('upperFileId', '=', fileId),
        eb('lowerFileId', '=', fileId),
        eb('occlusionFileId', '=', fileId),
        eb('baseFileId', '=', fileId),
        // An earlier version of one of its models (modifyModel).
        eb('id', 'in', eb.selectFrom('order_model_version').select('orderId').where('fileId', '=', fileId)),
      ]),
    );
  if (!access.perms.has(SEE_ALL.orders)) orders = orders.where('designerId', '=', userId);
  return !!(await orders.executeTakeFirst());
}
