// Users in bulk: `batchCreateUser` (a JSON list), `import` (an xlsx upload) and `export` (the
// filtered list as xlsx). Creation in bulk keeps the good rows and reports each bad one by its
// row number and reason ("Import data errors skip the bad rows").
import type { Context, Hono, Schema } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { formatTime } from '../../core/clock.ts';
import { randomToken } from '../../core/crypto.ts';
import type { Resource } from '../../core/crud.ts';
import type { AppEnv } from '../../core/env.ts';
import { ok } from '../../core/envelope.ts';
import { callerHolding, type Holding } from '../../core/grants.ts';
import { ApiError } from '../../core/errors.ts';
import { headerOf, readSheet, readUpload, writeSheet, xlsxReply, type ExcelColumn } from '../../core/excel.ts';
import { exportRowCap, requirePlugin } from '../../core/plugins.ts';
import { t, type Lang, type MessageKey, type MessageParams } from '../../core/i18n.ts';
import { validate, validationError } from '../../core/validate.ts';
import type { Database } from '../../db/schema.ts';
import { userAddSchema } from './schemas.ts';

type Row = Record<string, unknown>;
export const MAX_BULK_USERS = 1000;
export const MAX_EXPORT_USERS = 10_000;

/** Spreadsheet columns: the key, and the header in each language (import accepts any of them). */
const COLUMNS: readonly ExcelColumn[] = [
  { key: 'id', zh: 'ID', en: 'ID', de: 'ID', width: 8, import: false },
  { key: 'username', zh: '用户名', en: 'Username', de: 'Benutzername', width: 18 },
  { key: 'password', zh: '密码', en: 'Password', de: 'Passwort', width: 14, export: false },
  { key: 'name', zh: '姓名', en: 'Name', de: 'Name', width: 16 },
  { key: 'nickName', zh: '昵称', en: 'Nickname', de: 'Spitzname', width: 16 },
  { key: 'phone', zh: '手机号', en: 'Phone', de: 'Telefon', width: 16 },
  { key: 'email', zh: '邮箱', en: 'Email', de: 'E-Mail', width: 24 },
  { key: 'department', zh: '部门', en: 'Department', de: 'Abteilung', width: 18 },
  { key: 'roles', zh: '角色', en: 'Roles', de: 'Rollen', width: 20 },
  { key: 'status', zh: '状态', en: 'Status', de: 'Status', width: 8 },
  { key: 'remark', zh: '备注', en: 'Remark', de: 'Bemerkung', width: 24 },
  { key: 'createTime', zh: '创建时间', en: 'Created', de: 'Erstellt', width: 20, import: false },
];
const EXCEL = { file: 'users', columns: COLUMNS };

export const batchCreateSchema = z.object({
  list: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_BULK_USERS),
  /** For entries without their own. */
  password: z.string().min(6).max(128).optional(),
  departmentId: z.coerce.number().int().positive().nullable().optional(),
  roleIdList: z.array(z.coerce.number().int().positive()).max(100).optional(),
});

/** Most users of one GET batchCreateUser (its list travels in the URL). */
export const MAX_GET_BULK_USERS = 200;
const idList = z
  .string()
  .max(1000)
  .transform((v, ctx) => {
    const ids = v.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
    if (ids.some((n) => !Number.isInteger(n) || n <= 0) || ids.length > 100) ctx.addIssue({ code: 'custom', message: 'invalid id list' });
    return ids;
  });

/**
 * GET batchCreateUser: the same creation from the query (`usernames` comma-separated,
 * `departmentId`, `roleIdList` comma-separated). No password travels in a URL (it would be
 * logged): each user gets a generated one, answered once with the created row.
 */
export const batchCreateQuerySchema = z.object({
  usernames: z
    .string()
    .min(1)
    .max(MAX_GET_BULK_USERS * 65)
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.string()).min(1).max(MAX_GET_BULK_USERS)),
  departmentId: z.coerce.number().int().positive().optional(),
  roleIdList: idList.optional(),
});

const exportSchema = z.looseObject({
  keyWord: z.string().max(200).optional(),
  status: z.union([z.coerce.number(), z.array(z.coerce.number())]).nullable().optional(),
  departmentId: z.union([z.coerce.number(), z.array(z.coerce.number())]).nullable().optional(),
});

export interface BulkResult {
  /** `password`: generated for this user (GET batchCreateUser), shown this once. */
  created: { row: number; id: number; username: string; password?: string }[];
  skipped: { row: number; reason: string }[];
}

interface Helpers {
  checkDepartment(db: Kysely<Database>, scope: Row | undefined, departmentId: number | null | undefined): Promise<void>;
  assignableRoles(db: Kysely<Database>, c: Context<AppEnv>): Promise<Set<number> | undefined>;
  checkOutcome(db: Kysely<Database>, caller: Holding, who: { departmentId: number | null; roleIds: number[] }): Promise<void>;
  describeUsers(db: Kysely<Database>, rows: Row[]): Promise<Row[]>;
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Status cells may say 1/0, true/false, enabled/disabled in any of our languages. */
function statusOf(v: unknown): unknown {
  if (blank(v)) return undefined;
  const s = String(v).trim().toLowerCase();
  if (['1', 'true', 'enabled', 'on', '启用', '正常', 'aktiv', 'aktiviert'].includes(s)) return 1;
  if (['0', 'false', 'disabled', 'off', '禁用', '停用', 'inaktiv', 'deaktiviert'].includes(s)) return 0;
  return v;
}

export async function createUsersInBulk(
  ctx: AppContext,
  c: Context<AppEnv>,
  resource: Resource,
  helpers: Helpers,
  items: { row: number; data: Row }[],
  defaults: { password?: string; departmentId?: number | null; roleIdList?: number[] },
): Promise<BulkResult> {
  const lang: Lang = c.get('lang');
  const db = ctx.db;
  const result: BulkResult = { created: [], skipped: [] };
  const skip = (row: number, key: MessageKey, params?: MessageParams) => result.skipped.push({ row, reason: t(lang, key, params) });

  const scope = await resource.scopeOf(c);
  const departments = await db.selectFrom('base_sys_department').select(['id', 'name']).execute();
  const roles = await db.selectFrom('base_sys_role').select(['id', 'name', 'label']).execute();
  const assignable = await helpers.assignableRoles(db, c);
  const caller = await callerHolding(db, c);
  const wanted = items.map((i) => String(i.data.username ?? '').trim()).filter(Boolean);
  const existing = new Set<string>();
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db.selectFrom('base_sys_user').select('username').where('username', 'in', wanted.slice(i, i + 500)).execute();
    rows.forEach((r) => existing.add(r.username));
  }
  const seen = new Set<string>();
  const good: { row: number; data: z.output<typeof userAddSchema> }[] = [];

  for (const { row, data } of items) {
    let departmentId: unknown = blank(data.departmentId) ? undefined : data.departmentId;
    if (departmentId === undefined && !blank(data.department)) {
      const name = String(data.department).trim();
      const found = departments.find((d) => d.name === name);
      if (!found) {
        skip(row, 'unknownDepartment', { name });
        continue;
      }
      departmentId = found.id;
    }
    let roleIdList: unknown = data.roleIdList;
    if (roleIdList === undefined && !blank(data.roles)) {
      const names = String(data.roles).split(/[,，;；]/).map((s) => s.trim()).filter(Boolean);
      const ids: number[] = [];
      const missing = names.find((n) => {
        const r = roles.find((x) => x.name === n || x.label === n);
        if (r) ids.push(r.id);
        return !r;
      });
      if (missing) {
        skip(row, 'unknownRole', { name: missing });
        continue;
      }
      roleIdList = ids;
    }
    const input = {
      username: blank(data.username) ? undefined : String(data.username).trim(),
      password: blank(data.password) ? defaults.password : String(data.password),
      name: blank(data.name) ? undefined : String(data.name),
      nickName: blank(data.nickName) ? undefined : String(data.nickName),
      phone: blank(data.phone) ? undefined : String(data.phone),
      email: blank(data.email) ? undefined : String(data.email),
      remark: blank(data.remark) ? undefined : String(data.remark),
      status: statusOf(data.status),
      departmentId: departmentId ?? defaults.departmentId ?? undefined,
      roleIdList: roleIdList ?? defaults.roleIdList ?? [],
    };
    // A user who is already there is the reason that matters (re-importing an export, which has no
    // password column, would otherwise say "password cannot be empty" on every row).
    if (input.username && existing.has(input.username)) {
      skip(row, 'usernameTaken');
      continue;
    }
    const parsed = userAddSchema.safeParse(input);
    if (!parsed.success) {
      const err = validationError(parsed.error.issues, input);
      // Name the field by its column header in the reader's language, not by its API key.
      const field = typeof err.params?.field === 'string' ? headerOf(COLUMNS, err.params.field, lang) : undefined;
      skip(row, err.key, field ? { ...err.params, field } : err.params);
      continue;
    }
    const user = parsed.data;
    if (existing.has(user.username)) {
      skip(row, 'usernameTaken');
      continue;
    }
    if (seen.has(user.username)) {
      skip(row, 'rowDuplicateUsername');
      continue;
    }
    if (user.roleIdList.some((id) => !roles.some((r) => r.id === id))) {
      skip(row, 'fieldInvalid', { field: 'roleIdList' });
      continue;
    }
    if (assignable && user.roleIdList.some((id) => !assignable.has(id))) {
      skip(row, 'roleBeyondOwn');
      continue;
    }
    try {
      await helpers.checkDepartment(db, scope, user.departmentId);
      await helpers.checkOutcome(db, caller, { departmentId: user.departmentId ?? null, roleIds: user.roleIdList });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      skip(row, err.key, err.params);
      continue;
    }
    seen.add(user.username);
    good.push({ row, data: user });
  }

  // Hash before the write transaction holds the database's one connection.
  const hashed: { row: number; data: z.output<typeof userAddSchema>; hash: string }[] = [];
  for (const g of good) hashed.push({ ...g, hash: await ctx.passwords.hash(g.data.password) });
  const now = formatTime(ctx.clock.now());
  await db.transaction().execute(async (trx) => {
    for (const { row, data, hash } of hashed) {
      const { roleIdList, ...user } = data;
      const inserted = await trx
        .insertInto('base_sys_user')
        .values({ ...user, departmentId: user.departmentId ?? null, password: hash, createTime: now, updateTime: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const roleIds = [...new Set(roleIdList)];
      if (roleIds.length) await trx.insertInto('base_sys_user_role').values(roleIds.map((roleId) => ({ userId: inserted.id, roleId }))).execute();
      result.created.push({ row, id: inserted.id, username: user.username });
    }
  });
  result.skipped.sort((a, b) => a.row - b.row);
  return result;
}

/** The rows of an uploaded sheet (core/excel.ts checks its type, size and row count). */
export async function readUserSheet(bytes: Uint8Array): Promise<{ row: number; data: Row }[]> {
  return readSheet(bytes, COLUMNS, { required: ['username'], maxRows: MAX_BULK_USERS });
}

/** Chains the bulk calls onto a user resource's routes and returns them (typed: AppType sees
 * them). `resource` supplies the scope and the page's filters. */
export function addUserExcelRoutes<S extends Schema>(ctx: AppContext, resource: Resource, routes: Hono<AppEnv, S>, helpers: Helpers) {
  return routes
    .post('/batchCreateUser', validate('json', batchCreateSchema), async (c) => {
      const body = c.req.valid('json');
      const items = body.list.map((data, i) => ({ row: i + 1, data }));
      return ok(c, await createUsersInBulk(ctx, c, resource, helpers, items, body));
    })
    .get('/batchCreateUser', validate('query', batchCreateQuerySchema), async (c) => {
      const query = c.req.valid('query');
      const passwords = new Map(query.usernames.map((username) => [username, randomToken(12)]));
      const items = query.usernames.map((username, i) => ({ row: i + 1, data: { username, password: passwords.get(username) } as Row }));
      const result = await createUsersInBulk(ctx, c, resource, helpers, items, { departmentId: query.departmentId, roleIdList: query.roleIdList });
      return ok(c, { ...result, created: result.created.map((u) => ({ ...u, password: passwords.get(u.username) })) });
    })
    .post('/import', async (c) => {
      await requirePlugin(ctx.db, 'excel');
      const { bytes, form } = await readUpload(c);
      const items = await readUserSheet(bytes);
      const password = form.get('password');
      const defaults = {
        password: typeof password === 'string' && password ? password : undefined,
      };
      return ok(c, await createUsersInBulk(ctx, c, resource, helpers, items, defaults));
    })
    .get('/template', async (c) => {
      await requirePlugin(ctx.db, 'excel');
      const lang: Lang = c.get('lang');
      return xlsxReply(c, await writeSheet(EXCEL, COLUMNS.filter((col) => col.import !== false), [], lang), 'users-template');
    })
    .post('/export', validate('json', exportSchema), async (c) => {
      const limit = await exportRowCap(ctx.db, MAX_EXPORT_USERS);
      // Same keyword/filters/scope as page; values are bound, never interpolated.
      const body = c.req.valid('json') as Row;
      const rows = (await (await resource.filtered(c, body))
        .select(['id', 'username', 'name', 'nickName', 'phone', 'email', 'departmentId', 'status', 'remark', 'createTime'])
        .orderBy('id', 'asc')
        .limit(limit)
        .execute()) as Row[];
      const described = rows.length ? await helpers.describeUsers(ctx.db, rows) : [];
      const lang: Lang = c.get('lang');
      const list = described.map((u) => ({ ...u, department: u.departmentName ?? '', roles: u.roleName ?? '' }));
      return xlsxReply(c, await writeSheet(EXCEL, COLUMNS.filter((col) => col.export !== false), list, lang), 'users');
    });
}
