// A live module's resource: the generic service (core/crud.ts) built from its stored definition.
// Every value is checked by a zod schema made from the fields; rows are scoped like other
// resources (the caller's departments, all for a superadmin); the definition is read from the
// database by every process, and a built resource is kept only while its row's version stands.
import type { Context } from 'hono';
import { z, type ZodType } from 'zod';
import { GEN_MODULE, TABLE_NAME, type FieldDef, type ModuleDef } from '../../../common/ai-code.ts';
import { moduleSchema } from '../../../common/ai-code-schema.ts';
import type { AppContext } from '../../context.ts';
import { createCrud, type ColumnDef, type HookArgs, type Resource } from '../../core/crud.ts';
import type { AppEnv } from '../../core/env.ts';
import { invalidField } from '../../core/errors.ts';
import { departmentScope } from '../../core/grants.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** The schema of one field's value (present and not null). */
function valueSchema(f: FieldDef): ZodType {
  switch (f.type) {
    case 'string': return z.string().trim().max(255);
    case 'text': return z.string().max(10_000);
    case 'number': return z.coerce.number().finite().refine((n) => Math.abs(n) < 1e15);
    case 'integer': return z.coerce.number().int().min(-(2 ** 31)).max(2 ** 31 - 1);
    case 'boolean': return z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v ? 1 : 0));
    case 'date': return z.string().regex(DATE).refine((v) => !Number.isNaN(Date.parse(v)));
    case 'datetime': return z.string().regex(DATETIME).refine((v) => !Number.isNaN(Date.parse(v.replace(' ', 'T'))));
    case 'dict': return z.union([z.string(), z.number()]).transform(String).pipe(z.string().min(1).max(64));
    case 'enum': return z.enum(f.options as [string, ...string[]]);
  }
}

const blank = (v: unknown) => v === '' || v === null || v === undefined;

/** add: required fields present; update: present fields valid, required ones never emptied. */
export function recordSchemas(def: ModuleDef) {
  const add: Record<string, ZodType> = {};
  const update: Record<string, ZodType> = {};
  for (const f of def.fields) {
    const value = valueSchema(f);
    const empty = z.preprocess((v) => (blank(v) ? null : v), value.nullable().optional());
    // A required field: missing on add is "cannot be empty"; emptied on update is invalid.
    add[f.name] = f.required ? z.preprocess((v) => (blank(v) ? undefined : v), value) : empty;
    update[f.name] = f.required ? z.preprocess((v) => (v === '' ? null : v), value.optional()) : empty;
  }
  return {
    add: z.object(add),
    update: z.object({ ...update, id: z.coerce.number().int().positive() }),
  };
}

const COLUMN: Record<FieldDef['type'], ColumnDef['type']> = {
  string: 'string', text: 'string', number: 'number', integer: 'number', boolean: 'number',
  date: 'string', datetime: 'datetime', dict: 'string', enum: 'string',
};

/** Filterable by equality: picked values. Keyword: typed text. */
export const isFilter = (f: FieldDef) => f.search && (f.type === 'dict' || f.type === 'enum' || f.type === 'boolean');
export const isKeyword = (f: FieldDef) => f.search && (f.type === 'string' || f.type === 'text');

export function buildResource(ctx: AppContext, def: ModuleDef): Resource {
  // Checked again on every build: a definition is only ever served over a table the helper made.
  if (!TABLE_NAME.test(def.tableName)) throw new Error('not a generated table');
  const { add, update } = recordSchemas(def);
  const columns: Record<string, ColumnDef> = {
    id: { type: 'number', comment: 'ID', readonly: true },
    ...Object.fromEntries(def.fields.map((f) => [f.name, { type: COLUMN[f.type], comment: f.label, nullable: !f.required }])),
    departmentId: { type: 'number', comment: 'Department', nullable: true, readonly: true },
    createBy: { type: 'number', comment: 'Created by', nullable: true, readonly: true },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  };
  const scope = async ({ c }: { c: Context<AppEnv> }) => {
    const auth = c.get('auth');
    const departments = auth ? await departmentScope(ctx.db, auth.userId) : [];
    return departments === undefined ? undefined : { departmentId: departments };
  };
  // The definition's names passed moduleSchema; the factory quotes every identifier.
  return createCrud(ctx, {
    module: GEN_MODULE,
    path: def.name,
    name: def.name,
    table: def.tableName,
    columns,
    actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
    keyWordColumns: def.fields.filter(isKeyword).map((f) => f.name),
    filterable: def.fields.filter(isFilter).map((f) => f.name),
    sortable: ['id', 'createTime', 'updateTime', ...def.fields.filter((f) => f.type !== 'text').map((f) => f.name)],
    defaultOrder: ['id', 'desc'],
    addSchema: add,
    updateSchema: update,
    hooks: {
      scope,
      beforeAdd: async (data: Record<string, unknown>, { c, trx }: HookArgs) => {
        const auth = c.get('auth');
        const user = auth ? await trx.selectFrom('base_sys_user').select('departmentId').where('id', '=', auth.userId).executeTakeFirst() : undefined;
        await checkDictValues(trx, def, data);
        return { ...data, departmentId: user?.departmentId ?? null, createBy: auth?.userId ?? null };
      },
      beforeUpdate: async ({ id: _id, ...data }: Record<string, unknown>, { trx }: HookArgs) => {
        await checkDictValues(trx, def, data);
        return data;
      },
    },
  } as never) as Resource;
}

/** A dictionary field takes only a value (or name) of its dictionary type's entries. */
async function checkDictValues(db: AppContext['db'], def: ModuleDef, data: Record<string, unknown>): Promise<void> {
  for (const f of def.fields) {
    const value = data[f.name];
    if (f.type !== 'dict' || blank(value)) continue;
    const entry = await db
      .selectFrom('dict_info as i')
      .innerJoin('dict_type as t', 't.id', 'i.typeId')
      .select('i.id')
      .where('t.key', '=', f.dict!)
      .where((eb) => eb.or([eb('i.value', '=', String(value)), eb('i.name', '=', String(value))]))
      .executeTakeFirst();
    if (!entry) throw invalidField(f.name);
  }
}

/** A stored definition, checked again as it is read (a row edited by hand is refused, not served). */
export function parseStored(text: string): ModuleDef | null {
  try {
    const parsed = moduleSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

interface Built {
  id: number;
  version: number;
  def: ModuleDef;
  resource: Resource;
}
const MAX_CACHED = 200;

/** The live modules' resources of one app, by name: one version read per call. */
export function liveResources(ctx: AppContext) {
  const cache = new Map<string, Built>();
  return async function resourceOf(name: string): Promise<Built | null> {
    const row = await ctx.db.selectFrom('helper_module').select(['id', 'version']).where('name', '=', name).executeTakeFirst();
    if (!row) {
      cache.delete(name);
      return null;
    }
    const hit = cache.get(name);
    if (hit && hit.id === row.id && hit.version === row.version) return hit;
    const stored = await ctx.db.selectFrom('helper_module').select(['definition', 'version']).where('id', '=', row.id).executeTakeFirst();
    const def = stored && parseStored(stored.definition);
    if (!stored || !def || def.name !== name) return null;
    const built = { id: row.id, version: stored.version, def, resource: buildResource(ctx, def) };
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(name, built);
    return built;
  };
}
