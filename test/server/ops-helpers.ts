// Users for the ops tests, written straight into the database: these tests are about params,
// dictionaries, tasks, releases and help, not about the user API.
import { setup, type TestServer } from './helpers.ts';

export async function insertUser(t: TestServer, username: string, password: string, roleIds: number[] = []): Promise<string> {
  const now = '2026-01-01 00:00:00';
  const user = await t.ctx.db
    .insertInto('base_sys_user')
    .values({ username, password: await t.ctx.passwords.hash(password), name: username, nickName: username, createTime: now, updateTime: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (roleIds.length) {
    await t.ctx.db.insertInto('base_sys_user_role').values(roleIds.map((roleId) => ({ userId: user.id, roleId }))).execute();
  }
  return (await t.login(username, password)).token;
}

/** A server for one ops test file, the admin's token and the token of 'plain', a user without roles. */
export async function opsServer(): Promise<{ t: TestServer; admin: string; plain: string }> {
  const t = await setup();
  return { t, admin: (await t.login()).token, plain: await insertUser(t, 'plain', 'plain-pass') };
}
