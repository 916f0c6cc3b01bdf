// The generic resource service: from one table definition come the add/delete/update/info/
// list/page routes of the contract, their eps description and their permission strings.
// The definition is typed against the table (server/db/schema.ts): a column, sort, filter or
// keyword column the table does not have does not compile. The routes carry a typed schema
// (CrudSchema) so that AppType, and the browser's typed client, know the calls of a resource.
import { Hono, type Context, type Schema } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { sql, type Kysely, type Selectable } from 'kysely';
import { z, type ZodType } from 'zod';
import type { AppContext } from '../context.ts';
import { containsText } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from './env.ts';
import { describeHandler, epsGroup, type ColumnType, type EpsApi, type EpsGroup } from './eps.ts';
import { ok } from './envelope.ts';
import { fail, invalidField } from './errors.ts';
import { formatTime } from './clock.ts';
import { validate } from './validate.ts';
import { moveToRecycleBin, registerRecyclable } from './recycle.ts';
import { excelRoutes, excelActions, type ExcelDef } from './crud-excel.ts';

export type Action = 'add' | 'delete' | 'update' | 'info' | 'list' | 'page';
export const MAX_PAGE_SIZE = 100;

export interface ColumnDef {
  type: ColumnType;
  comment: string;
  nullable?: boolean;
  /** false: never read back (e.g. password hashes). */
  select?: false;
  /** true: never written from a request body. */
  readonly?: true;
}

type Row = Record<string, unknown>;

export interface HookArgs {
  c: Context<AppEnv>;
  ctx: AppContext;
  /** The transaction the write runs in. Use it, never ctx.db: SQLite has one connection and
   * a query outside the transaction would wait for it forever. */
  trx: Kysely<Database>;
}

/** A column of table T. */
export type ColumnOf<T extends keyof Database> = keyof Database[T] & string;

export interface ResourceDef<T extends keyof Database = keyof Database, A extends ZodType = ZodType, U extends ZodType = ZodType> {
  /** First path segment under /admin, and first part of the permission strings. */
  module: string;
  /** Path under the module, e.g. `sys/user`. */
  path: string;
  /** Entity name in eps. */
  name: string;
  table: T;
  /** The columns eps describes and the calls read and write: columns of the table only. */
  columns: Columns<T>;
  actions: readonly Action[];
  keyWordColumns?: readonly ColumnOf<T>[];
  sortable?: readonly ColumnOf<T>[];
  /** Columns a page/list body may filter on by equality (or `in` for arrays). */
  filterable?: readonly ColumnOf<T>[];
  defaultOrder?: readonly [ColumnOf<T>, 'asc' | 'desc'];
  addSchema?: A;
  updateSchema?: U;
  /** true: `delete` moves the rows (and the rows `hooks.related` names) into the recycle bin
   * (`/admin/recycle/data`) in the same transaction, from where they can be restored. */
  recycle?: boolean;
  /** Summaries of the extra calls the module chains onto `routes` itself: eps lists each of
   * these that is registered (their perms follow the path). */
  extraApi?: readonly EpsApi[];
  /** Spreadsheet export of the filtered list (`/export`) and, with `add`, import of new rows
   * through the same checks as add (`/import`, `/template`): core/crud-excel.ts. */
  excel?: ExcelDef;
  hooks?: {
    /** Slow work on the validated body (hash secrets) before the write transaction holds the
     * database's one connection. */
    prepareAdd?(data: z.output<A>, args: Omit<HookArgs, 'trx'>): Promise<z.output<A>> | z.output<A>;
    /** Turns the validated body into the row to insert (check references, drop extra fields). */
    /** Like prepareAdd, for update. */
    prepareUpdate?(data: z.output<U>, args: Omit<HookArgs, 'trx'>): Promise<z.output<U>> | z.output<U>;
    beforeAdd?(data: z.output<A>, args: HookArgs): Promise<Row> | Row;
    afterAdd?(id: number, data: z.output<A>, args: HookArgs): Promise<void> | void;
    /** Fields the add reply carries besides the id, from the inserted row (a secret shown once). */
    addReply?(id: number, row: Row): Row;
    beforeUpdate?(data: z.output<U>, args: HookArgs): Promise<Row> | Row;
    afterUpdate?(id: number, data: z.output<U>, args: HookArgs): Promise<void> | void;
    /**
     * Rows the caller may see and touch, as column constraints (a value, or an array for `in`),
     * applied to page, list, info, update and delete alike; undefined = no restriction.
     * E.g. non-admins see only their own orders: `{ designerId: userId }`.
     */
    scope?(args: { c: Context<AppEnv>; ctx: AppContext }): Promise<Row | undefined> | Row | undefined;
    /** Runs in the delete transaction before the rows go: throw to refuse (e.g. "cannot delete
     * yourself"), or move dependants away. `ids` are the in-scope ids that exist. */
    beforeDelete?(ids: number[], args: HookArgs): Promise<void> | void;
    /** Rows of other tables that belong to a deleted row and go to the recycle bin with it,
     * keyed by table (each row needs its `id`); they are deleted before it and restored after it. */
    related?(row: Row, args: HookArgs): Promise<Record<string, Row[]>> | Record<string, Row[]>;
    /** Extra constraints for page/list from the body (e.g. a department and its subtree), as
     * column constraints like `scope`. */
    where?(body: Row, args: { c: Context<AppEnv>; ctx: AppContext; db: Kysely<Database> }): Promise<Row | undefined> | Row | undefined;
    /** Adds to the rows of a page or list reply (e.g. names of related records). */
    decorateList?(rows: Row[], args: { ctx: AppContext; db: Kysely<Database> }): Promise<Row[]> | Row[];
    /** Extra data for a page reply (e.g. sums over the filtered rows), as `subData`. */
    subData?(body: Row, args: { c: Context<AppEnv>; ctx: AppContext; db: Kysely<Database> }): Promise<unknown> | unknown;
    /** Adds to a record read by `info` (e.g. related ids). */
    decorate?(row: Row, args: { ctx: AppContext; db: Kysely<Database> }): Promise<Row> | Row;
  };
}

/** The envelope of a successful reply, as the typed client sees it. */
export interface OkReply<D> {
  code: 1000;
  message: string;
  data: D;
}
type Call<I, D> = { input: I; output: OkReply<D>; outputFormat: 'json'; status: ContentfulStatusCode };

/** The columns a definition lists: what the calls read and write, eps describes. */
export type Columns<T extends keyof Database> = { readonly [K in ColumnOf<T>]?: ColumnDef };
/** The columns of `C` the calls read back: all but those marked `select: false` (secrets). */
export type ReadColumns<C> = { [K in keyof C]-?: C[K] extends { select: false } ? never : K }[keyof C];
/** A row as info, list and page answer it: the table's row type (`Selectable`) narrowed to the
 * columns `K` they select (the definition's readable columns), and what the hooks add. */
export type CrudRow<T extends keyof Database, K extends keyof Selectable<Database[T]> = keyof Selectable<Database[T]>> = Pick<
  Selectable<Database[T]>,
  K
> & { [added: string]: unknown };
/** The body of list and page: keyword, order and the definition's filters. */
export interface CrudQuery {
  keyWord?: string;
  order?: string;
  sort?: 'asc' | 'desc';
  [filter: string]: unknown;
}
/** The calls of a resource of table T whose rows carry the columns K. */
export interface CrudCalls<T extends keyof Database, A extends ZodType, U extends ZodType, K extends keyof Selectable<Database[T]>> {
  '/add': { $post: Call<{ json: z.input<A> }, { id: number }> };
  '/delete': { $post: Call<{ json: { ids: number[] } }, null> };
  '/update': { $post: Call<{ json: z.input<U> }, null> };
  '/info': { $get: Call<{ query: { id: string | number } }, CrudRow<T, K>> };
  '/list': { $post: Call<{ json: CrudQuery }, CrudRow<T, K>[]> };
  '/page': {
    $post: Call<
      { json: CrudQuery & { page?: number; size?: number } },
      { list: CrudRow<T, K>[]; pagination: { page: number; size: number; total: number }; subData?: unknown }
    >;
  };
}
/** The Hono schema of a resource's own calls (paths relative to its prefix). */
export type CrudSchema<
  T extends keyof Database,
  A extends ZodType,
  U extends ZodType,
  X extends Action,
  K extends keyof Selectable<Database[T]> = keyof Selectable<Database[T]>,
> = Pick<CrudCalls<T, A, U, K>, `/${X}`>;

export interface Resource<P extends string = string, S extends Schema = any> {
  prefix: P;
  /** Module-specific calls are chained onto these (and summarised in `extraApi`), and the
   * chain's result is mounted in their place, `{ ...resource, routes }`: it is the same Hono,
   * and its type also carries the extra calls, so AppType and the typed client see them. */
  routes: Hono<AppEnv, S>;
  /** The resource's eps entry (core/eps.ts). */
  eps: EpsGroup;
  perms: string[];
  /** The caller's scope constraints (undefined: all rows), for module-specific calls. */
  scopeOf(c: Context<AppEnv>): Promise<Row | undefined>;
  /** Narrows a select/update/delete builder to scope constraints. */
  within<Q extends { where: (...args: any[]) => any }>(q: Q, scope: Row | undefined): Q;
  /** The page/list query (keyword, filters, `where` hook, scope) of a body, without select. */
  filtered(c: Context<AppEnv>, body: Row): Promise<any>;
}

const SUMMARY: Record<Action, string> = {
  add: 'Add', delete: 'Delete', update: 'Update', info: 'Info', list: 'List', page: 'Page',
};
const MANAGED = new Set(['id', 'createTime', 'updateTime']);

function columnSchema(type: ColumnType): ZodType {
  switch (type) {
    case 'number': return z.coerce.number();
    case 'boolean': return z.boolean();
    case 'json': return z.unknown();
    default: return z.string();
  }
}

/**
 * A filter value as a column of `type` compares it, as SQLite does: '5' is 5 in a number column and
 * text that is no number matches nothing (undefined), where PostgreSQL would refuse the query.
 */
function comparable(type: ColumnType | undefined, value: string | number): string | number | undefined {
  if (type !== 'number' || typeof value !== 'string') return value;
  const n = value.trim() === '' ? NaN : Number(value);
  return Number.isFinite(n) ? n : undefined;
}

const filterValue = z
  .union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))])
  .nullable()
  .optional();
const sortValue = z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(['asc', 'desc']));

export function permsFor(def: Pick<ResourceDef, 'module' | 'path' | 'actions' | 'excel'> & { extraApi?: readonly EpsApi[] }): string[] {
  const base = [def.module, ...def.path.split('/')].join(':');
  const extra = [...(def.extraApi ?? []), ...excelActions(def)];
  return [...def.actions, ...extra.map((a) => a.path.replace(/^\//, '').replaceAll('/', ':'))].map((a) => `${base}:${a}`);
}

export function createCrud<
  T extends keyof Database,
  A extends ZodType,
  U extends ZodType,
  X extends Action,
  M extends string,
  P extends string,
  C extends Columns<T>,
>(
  ctx: AppContext,
  // The guard on `columns` keeps a column the table lacks an error (C alone would accept it).
  def: ResourceDef<T, A, U> & { module: M; path: P; actions: readonly X[]; columns: C & { readonly [K in Exclude<keyof C, ColumnOf<T>>]: never } },
): Resource<`/admin/${M}/${P}`, CrudSchema<T, A, U, X, ReadColumns<C> & keyof Selectable<Database[T]>>> {
  const db = ctx.db as unknown as Kysely<any>;
  // The queries are built over any table: the definition's types were checked above.
  const table: string = def.table;
  const prefix = `/admin/${def.module}/${def.path}` as const;
  const columns = def.columns as Record<string, ColumnDef>;
  const cols = Object.entries(columns);
  const selectable = cols.filter(([, c]) => c.select !== false).map(([k]) => k);
  const writable = new Set(cols.filter(([k, c]) => !c.readonly && !MANAGED.has(k)).map(([k]) => k));
  const sortable = new Set<string>(def.sortable ?? ['id']);
  const [defaultColumn, defaultDirection] = def.defaultOrder ?? ['id', 'desc'];
  const hasTimes = 'createTime' in columns && 'updateTime' in columns;

  const writableShape = Object.fromEntries(
    [...writable].map((k) => [k, columnSchema(columns[k]!.type).nullable().optional()]),
  );
  const addSchema = (def.addSchema ?? z.object(writableShape)) as ZodType;
  const updateSchema = (def.updateSchema ?? z.object({ ...writableShape, id: z.coerce.number().int().positive() })) as ZodType;
  const queryShape = {
    keyWord: z.string().max(200).optional(),
    order: z.string().optional(),
    sort: sortValue.optional(),
    ...Object.fromEntries((def.filterable ?? []).map((f) => [f, filterValue])),
  };
  const listSchema = z.looseObject(queryShape);
  const pageSchema = z.looseObject({
    ...queryShape,
    page: z.coerce.number().int().min(1).default(1),
    size: z.coerce.number().int().min(1).default(20).transform((s) => Math.min(s, MAX_PAGE_SIZE)),
  });

  const pick = (data: Row): Row => Object.fromEntries(Object.entries(data).filter(([k, v]) => writable.has(k) && v !== undefined));
  // A hook's row is server code: it may also set readonly columns (an owner id), never the managed ones.
  const pickFromHook = (data: Row): Row =>
    Object.fromEntries(Object.entries(data).filter(([k, v]) => k in columns && !MANAGED.has(k) && v !== undefined));

  async function scopeOf(c: Context<AppEnv>): Promise<Row | undefined> {
    return def.hooks?.scope ? await def.hooks.scope({ c, ctx }) : undefined;
  }
  /** Narrows any select/update/delete builder to the caller's scope. */
  function within<Q extends { where: (...args: any[]) => any }>(q: Q, scope: Row | undefined): Q {
    if (!scope) return q;
    for (const [column, value] of Object.entries(scope)) {
      q = Array.isArray(value)
        ? (value.length ? q.where(column, 'in', value) : q.where(column, 'in', [null]))
        : q.where(column, '=', value);
    }
    return q;
  }

  // Filters, keyword and order come only from the definition's whitelists; values are bound.
  function query(body: Row, scope: Row | undefined) {
    let q = within(db.selectFrom(table), scope);
    const kw = typeof body.keyWord === 'string' ? body.keyWord.trim() : '';
    if (kw && def.keyWordColumns?.length) {
      q = q.where((eb) => eb.or(def.keyWordColumns!.map((col) => containsText(db, col, kw))));
    }
    for (const field of (def.filterable ?? []) as readonly string[]) {
      const value = body[field];
      if (value === undefined || value === null || value === '') continue;
      const type = columns[field]?.type;
      if (Array.isArray(value)) {
        if (!value.length) continue;
        const values = value.map((v) => comparable(type, v)).filter((v) => v !== undefined);
        q = values.length ? q.where(field, 'in', values) : q.where(sql.lit(false));
      } else {
        const v = comparable(type, value as string | number);
        q = v === undefined ? q.where(sql.lit(false)) : q.where(field, '=', v);
      }
    }
    return q;
  }
  async function filtered(c: Context<AppEnv>, body: Row) {
    const extra = def.hooks?.where ? await def.hooks.where(body, { c, ctx, db: ctx.db }) : undefined;
    return within(query(body, await scopeOf(c)), extra);
  }
  const decorateList = async (rows: Row[]) =>
    def.hooks?.decorateList && rows.length ? await def.hooks.decorateList(rows, { ctx, db: ctx.db }) : rows;

  function ordering(body: Row): [string, 'asc' | 'desc'] {
    const order = body.order;
    if (order === undefined || order === null || order === '') return [defaultColumn, (body.sort as 'asc' | 'desc') ?? defaultDirection];
    if (typeof order !== 'string' || !sortable.has(order)) throw invalidField('order');
    return [order, (body.sort as 'asc' | 'desc') ?? 'asc'];
  }

  /** The row add inserts for a validated (and prepared) body. */
  const addValues = async (data: z.output<A>, args: HookArgs): Promise<Row> =>
    def.hooks?.beforeAdd ? pickFromHook(await def.hooks.beforeAdd(data, args)) : pick(data as Row);
  /** Inserts the row of add and runs afterAdd; the new id. */
  async function insertRow(data: z.output<A>, values: Row, args: HookArgs): Promise<number> {
    const now = formatTime(ctx.clock.now());
    const row = await (args.trx as unknown as Kysely<any>)
      .insertInto(table)
      .values(hasTimes ? { ...values, createTime: now, updateTime: now } : values)
      .returning('id')
      .executeTakeFirstOrThrow();
    const newId = Number(row.id);
    await def.hooks?.afterAdd?.(newId, data, args);
    return newId;
  }

  const routes = new Hono<AppEnv>();
  const has = (a: Action) => (def.actions as readonly Action[]).includes(a);

  if (has('add')) {
    routes.post('/add', validate('json', addSchema), async (c) => {
      const body = c.req.valid('json') as z.output<A>;
      const data = def.hooks?.prepareAdd ? await def.hooks.prepareAdd(body, { c, ctx }) : body;
      const { id, values } = await db.transaction().execute(async (trx) => {
        const args = { c, ctx, trx: trx as unknown as Kysely<Database> };
        const values = await addValues(data, args);
        return { id: await insertRow(data, values, args), values };
      });
      return ok(c, { ...def.hooks?.addReply?.(id, values), id });
    });
  }

  if (has('delete')) {
    const schema = z.object({ ids: z.array(z.coerce.number().int()).min(1).max(1000) });
    routes.post('/delete', validate('json', schema), async (c) => {
      const { ids } = c.req.valid('json');
      const scope = await scopeOf(c);
      await db.transaction().execute(async (trx) => {
        const args = { c, ctx, trx: trx as unknown as Kysely<Database> };
        const rows = (await within(trx.selectFrom(table).selectAll().where('id', 'in', ids), scope).execute()) as Row[];
        if (!rows.length) return;
        const found = rows.map((r) => Number(r.id));
        await def.hooks?.beforeDelete?.(found, args);
        if (def.recycle) {
          const auth = c.get('auth');
          const entries = [];
          for (const row of rows) {
            entries.push({ row, related: def.hooks?.related ? await def.hooks.related(row, args) : {} });
          }
          await moveToRecycleBin(args.trx, {
            entity: def.name,
            prefix,
            table,
            hidden: cols.filter(([, col]) => col.select === false).map(([k]) => k),
            entries,
            user: auth ? { id: auth.userId, name: auth.username } : undefined,
            now: formatTime(ctx.clock.now()),
          });
        }
        await trx.deleteFrom(table).where('id', 'in', found).execute();
      });
      return ok(c, null);
    });
  }

  if (has('update')) {
    routes.post('/update', validate('json', updateSchema), async (c) => {
      const body = c.req.valid('json') as z.output<U> & { id: number };
      const data = (def.hooks?.prepareUpdate ? await def.hooks.prepareUpdate(body, { c, ctx }) : body) as z.output<U> & { id: number };
      const scope = await scopeOf(c);
      if (scope && !(await within(db.selectFrom(table).select('id').where('id', '=', data.id), scope).executeTakeFirst())) {
        throw fail('dataNotFound');
      }
      await db.transaction().execute(async (trx) => {
        const args = { c, ctx, trx: trx as unknown as Kysely<Database> };
        const values = def.hooks?.beforeUpdate ? pickFromHook(await def.hooks.beforeUpdate(data, args)) : pick(data as Row);
        if (hasTimes) values.updateTime = formatTime(ctx.clock.now());
        if (Object.keys(values).length > 0) {
          const result = await within(trx.updateTable(table).set(values).where('id', '=', data.id), scope).executeTakeFirst();
          if (Number(result.numUpdatedRows) === 0) throw fail('dataNotFound');
        }
        await def.hooks?.afterUpdate?.(data.id, data, args);
      });
      return ok(c, null);
    });
  }

  if (has('info')) {
    const schema = z.object({ id: z.coerce.number().int().positive() });
    routes.get('/info', validate('query', schema), async (c) => {
      const { id } = c.req.valid('query');
      const row = (await within(db.selectFrom(table).select(selectable).where('id', '=', id), await scopeOf(c)).executeTakeFirst()) as
        | Row
        | undefined;
      if (!row) throw fail('dataNotFound');
      return ok(c, def.hooks?.decorate ? await def.hooks.decorate(row, { ctx, db: ctx.db }) : row);
    });
  }

  if (has('list')) {
    routes.post('/list', validate('json', listSchema), async (c) => {
      const body = c.req.valid('json') as Row;
      const [column, direction] = ordering(body);
      let q = (await filtered(c, body)).select(selectable).orderBy(column, direction);
      if (column !== 'id') q = q.orderBy('id', direction);
      const list = await q.execute();
      return ok(c, await decorateList(list));
    });
  }

  if (has('page')) {
    routes.post('/page', validate('json', pageSchema), async (c) => {
      const body = c.req.valid('json') as Row & { page: number; size: number };
      const [column, direction] = ordering(body);
      const { total } = (await (await filtered(c, body))
        .select((eb: any) => eb.fn.countAll().as('total'))
        .executeTakeFirstOrThrow()) as { total: unknown };
      let q = (await filtered(c, body)).select(selectable).orderBy(column, direction);
      // A unique tiebreak keeps pages stable when the sort column has equal values.
      if (column !== 'id') q = q.orderBy('id', direction);
      let list: Row[] = await q
        .limit(body.size)
        .offset((body.page - 1) * body.size)
        .execute();
      const pagination = { page: body.page, size: body.size, total: Number(total) };
      list = await decorateList(list);
      if (!def.hooks?.subData) return ok(c, { list, pagination });
      return ok(c, { list, pagination, subData: await def.hooks.subData(body, { c, ctx, db: ctx.db }) });
    });
  }

  if (def.excel) {
    excelRoutes(routes, ctx, def.excel, {
      listSchema,
      addSchema: has('add') ? addSchema : undefined,
      async rows(c, body) {
        const [column, direction] = ordering(body);
        let q = (await filtered(c, body)).select(selectable).orderBy(column, direction);
        if (column !== 'id') q = q.orderBy('id', direction);
        return decorateList(await q.limit(body.limit as number).execute());
      },
      scopeOf,
      prepare: (data, c) => (def.hooks?.prepareAdd ? def.hooks.prepareAdd(data as z.output<A>, { c, ctx }) : data),
      add: async (data, args) => {
        const values = await addValues(data as z.output<A>, args);
        return { values, insert: () => insertRow(data as z.output<A>, values, args) };
      },
    });
  }

  // eps: the calls registered above are described here, the extra calls the module registers
  // on `routes` by the definition's summaries (core/eps.ts lists those that exist).
  const eps: EpsGroup = {
    ...epsGroup(
      def.module,
      prefix,
      def.name,
      cols
        .filter(([, c]) => c.select !== false)
        .map(([propertyName, c]) => ({ propertyName, type: c.type, comment: c.comment, nullable: !!c.nullable })),
    ),
    extra: new Map([...(def.extraApi ?? []), ...excelActions(def)].map((a) => [`${a.method} ${a.path}`, a.summary])),
  };
  const described = new Set<string>();
  for (const route of routes.routes) {
    const action = route.path.slice(1) as Action;
    // The first handler of each call (its validator, or the handler itself) stands for it.
    if (described.has(action) || !(action in SUMMARY)) continue;
    described.add(action);
    describeHandler(route.handler, eps, SUMMARY[action]);
  }

  if (def.recycle) registerRecyclable(table, def.name, prefix);

  const typed = routes as unknown as Hono<AppEnv, CrudSchema<T, A, U, X, ReadColumns<C> & keyof Selectable<Database[T]>>>;
  return { prefix, routes: typed, eps, perms: permsFor(def), scopeOf, within, filtered };
}
