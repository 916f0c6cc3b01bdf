import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { clear, counted, passwordBucket } from '../../core/rate-limit.ts';
import { revokeUserSessions } from '../../core/tokens.ts';
import type { PersonUpdateInput } from './schemas.ts';
import { habbySchema, readHabby, type Habby } from '../../../common/habby.ts';

export const PUBLIC_USER_COLUMNS = [
  'id', 'username', 'name', 'nickName', 'headImg', 'phone', 'email', 'remark', 'status', 'departmentId',
  'createTime', 'updateTime',
] as const;

export async function roleIdsOf(ctx: AppContext, userId: number): Promise<number[]> {
  const rows = await ctx.db.selectFrom('base_sys_user_role').select('roleId').where('userId', '=', userId).execute();
  return rows.map((r) => r.roleId);
}

export async function getPerson(ctx: AppContext, userId: number) {
  const user = await ctx.db
    .selectFrom('base_sys_user')
    .select([...PUBLIC_USER_COLUMNS, 'habby'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw fail('dataNotFound');
  return { ...user, habby: readHabby(user.habby), roleIdList: await roleIdsOf(ctx, userId) };
}

/** Merges preferences into the user's stored ones (editor settings key by key); answers the result. */
export async function updateHabby(ctx: AppContext, userId: number, input: Habby): Promise<Habby> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('base_sys_user').select('habby').where('id', '=', userId).executeTakeFirst();
    if (!row) throw fail('dataNotFound');
    const stored = readHabby(row.habby);
    const next: Habby = { ...stored, ...input };
    if (input.editor || stored.editor) next.editor = { ...stored.editor, ...input.editor };
    // The merged bag is checked again: together the two may exceed the editor limit.
    const checked = habbySchema.safeParse(next);
    if (!checked.success) throw invalidField('editor');
    await trx.updateTable('base_sys_user').set({ habby: JSON.stringify(checked.data) }).where('id', '=', userId).execute();
    return checked.data;
  });
}

/**
 * Profile fields, and the password when the old one is given. A new password bumps the
 * password version, so every token issued before (this session's too) stops working.
 */
export async function updatePerson(ctx: AppContext, userId: number, input: PersonUpdateInput): Promise<void> {
  const changes: Record<string, unknown> = {};
  for (const key of ['nickName', 'headImg', 'name', 'phone', 'email'] as const) {
    if (input[key] !== undefined) changes[key] = input[key];
  }
  let passwordChanged = false;
  if (input.password !== undefined) {
    if (!input.oldPassword) throw invalidField('oldPassword', true);
    // A stolen session must not become a password oracle: limited like login, counted first.
    await counted(
      ctx,
      [passwordBucket(userId)],
      'tooManyPasswordAttempts',
      async () => {
        const user = await ctx.db.selectFrom('base_sys_user').select('password').where('id', '=', userId).executeTakeFirst();
        if (!user || !(await ctx.passwords.verify(user.password, input.oldPassword!))) throw fail('oldPasswordIncorrect');
      },
      ([attempt]) => clear(ctx, attempt!),
    );
    changes.password = await ctx.passwords.hash(input.password);
    passwordChanged = true;
  }
  if (Object.keys(changes).length === 0) return;
  await ctx.db
    .updateTable('base_sys_user')
    .set((eb) => ({
      ...changes,
      updateTime: formatTime(ctx.clock.now()),
      ...(passwordChanged ? { passwordVersion: eb('passwordVersion', '+', 1) } : {}),
    }))
    .where('id', '=', userId)
    .execute();
  if (passwordChanged) await revokeUserSessions(ctx, userId);
}
