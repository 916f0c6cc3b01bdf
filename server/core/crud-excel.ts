// The spreadsheet calls of a CRUD resource that declares `excel` (core/crud.ts):
//   POST export   the page's filters (keyword, field filters, order, the caller's scope), all
//                 pages, at most MAX_EXPORT_ROWS rows (or the Excel plugin's exportRows), as xlsx;
//   GET  template the importable columns' headers, as xlsx;
//   POST import   multipart `file`: each row is checked as add checks a body (the resource's zod
//                 schema, its hooks) and must fall inside the caller's scope; bad rows are
//                 skipped with their row number and reason, the good ones are written in one
//                 transaction (an unexpected failure writes none).
// The Excel kit is a plugin: while it is disabled these calls answer "disabled".
import type { Context, Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z, type ZodType } from 'zod';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import type { HookArgs } from './crud.ts';
import type { EpsApi } from './eps.ts';
import type { AppEnv } from './env.ts';
import { ok } from './envelope.ts';
import { ApiError, fail } from './errors.ts';
import { headerOf, MAX_EXPORT_ROWS, readSheet, readUpload, withoutBlanks, writeSheet, xlsxReply, type ExcelDef } from './excel.ts';
import { t, type Lang } from './i18n.ts';
import { exportRowCap, requirePlugin } from './plugins.ts';
import { validate, validationError } from './validate.ts';

export type { ExcelDef } from './excel.ts';
type Row = Record<string, unknown>;

export interface ImportResult {
  created: { row: number; id: number }[];
  skipped: { row: number; reason: string }[];
}

/** The calls `excel` adds, for eps and the permission strings. */
export function excelActions(def: { excel?: ExcelDef; actions: readonly string[] }): EpsApi[] {
  if (!def.excel) return [];
  const calls: EpsApi[] = [{ method: 'post', path: '/export', summary: 'The filtered list (page filters, all pages) as an xlsx file' }];
  if (def.excel.import !== false && def.actions.includes('add')) {
    calls.push(
      { method: 'post', path: '/import', summary: 'Add rows from an xlsx upload (multipart "file"); bad rows are skipped and reported' },
      { method: 'get', path: '/template', summary: 'An empty xlsx with the importable columns' },
    );
  }
  return calls;
}

/** Whether a value satisfies a scope constraint (a value, or an array for `in`). */
function inScope(value: unknown, allowed: unknown): boolean {
  if (value === undefined || value === null) return false;
  const list = Array.isArray(allowed) ? allowed : [allowed];
  return list.some((a) => String(a) === String(value));
}

export interface ExcelParts {
  listSchema: ZodType;
  /** The add schema; undefined when the resource has no generic add (export only). */
  addSchema: ZodType | undefined;
  /** The filtered, ordered, decorated rows of a list body, at most `body.limit`. */
  rows(c: Context<AppEnv>, body: Row): Promise<Row[]>;
  scopeOf(c: Context<AppEnv>): Promise<Row | undefined>;
  prepare(data: unknown, c: Context<AppEnv>): unknown;
  /** The row add would insert (hooks run, may refuse with an ApiError), and its insert. */
  add(data: unknown, args: HookArgs): Promise<{ values: Row; insert: () => Promise<number> }>;
}

export function excelRoutes(routes: Hono<AppEnv>, ctx: AppContext, excel: ExcelDef, parts: ExcelParts): void {
  const exported = excel.columns.filter((col) => col.export !== false);
  const importable = excel.columns.filter((col) => col.import !== false);

  routes.post('/export', validate('json', parts.listSchema), async (c) => {
    const limit = await exportRowCap(ctx.db, MAX_EXPORT_ROWS);
    const body = c.req.valid('json') as Row;
    const rows = await parts.rows(c, { ...body, limit });
    return xlsxReply(c, await writeSheet(excel, exported, rows, c.get('lang')), excel.file);
  });

  const addSchema = parts.addSchema;
  if (!addSchema || excel.import === false) return;

  routes.get('/template', validate('query', z.object({})), async (c) => {
    await requirePlugin(ctx.db, 'excel');
    return xlsxReply(c, await writeSheet(excel, importable, [], c.get('lang')), `${excel.file}-template`);
  });

  routes.post('/import', async (c) => {
    await requirePlugin(ctx.db, 'excel');
    const lang: Lang = c.get('lang');
    const { bytes } = await readUpload(c);
    const items = await readSheet(bytes, importable);
    const result: ImportResult = { created: [], skipped: [] };
    const skip = (row: number, err: ApiError) => {
      // A field is named by its column header in the reader's language.
      const field = typeof err.params?.field === 'string' ? headerOf(excel.columns, err.params.field, lang) : undefined;
      result.skipped.push({ row, reason: t(lang, err.key, field ? { ...err.params, field } : err.params) });
    };

    const parsed: { row: number; data: unknown }[] = [];
    for (const { row, data } of items) {
      const input = withoutBlanks(data);
      const checked = addSchema.safeParse(input);
      if (!checked.success) {
        skip(row, validationError(checked.error.issues, input));
        continue;
      }
      try {
        parsed.push({ row, data: await parts.prepare(checked.data, c) });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        skip(row, err);
      }
    }

    const scope = await parts.scopeOf(c);
    await ctx.db.transaction().execute(async (trx) => {
      const args: HookArgs = { c, ctx, trx: trx as unknown as Kysely<Database> };
      for (const { row, data } of parsed) {
        let planned: Awaited<ReturnType<ExcelParts['add']>>;
        try {
          planned = await parts.add(data, args);
          // A new row must be one the caller could see afterwards (e.g. not another department's).
          for (const [column, allowed] of Object.entries(scope ?? {})) {
            if (column !== 'id' && !inScope(planned.values[column], allowed)) throw fail('importOutsideScope', { field: column });
          }
        } catch (err) {
          // Hooks refuse before writing: such a row is skipped. Anything else undoes the import.
          if (!(err instanceof ApiError)) throw err;
          skip(row, err);
          continue;
        }
        result.created.push({ row, id: await planned.insert() });
      }
    });
    result.skipped.sort((a, b) => a.row - b.row);
    return ok(c, result);
  });
}
