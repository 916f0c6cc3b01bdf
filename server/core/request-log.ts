// One row per /admin call: who, route, method, status, time and IP. Parameters (query and
// body, secrets replaced) are stored only for authenticated calls: an anonymous caller gets a
// small row and no parsing of what they sent. The log is bounded by size (LOG_MAX_MB, oldest
// first) besides the days the daily purge keeps.
import { sql } from 'kysely';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/index.ts';
import type { BaseSysLogTable } from '../db/schema.ts';
import type { AppEnv } from './env.ts';
import { MAX_JSON_DEPTH } from './body.ts';
import { clientIp } from './client-ip.ts';
import { formatTime } from './clock.ts';

const MAX_PARAMS = 4000;
export const REDACTED = '***';

// A name is secret when one of its words (camelCase, snake_case, kebab-case, dotted) is one of
// these, or when it ends in "key" (apiKey, api_key, x-api-key, deviceKey, APIKEY, secretKey).
// "keyWord" (the search term of page calls) is not a key.
const SECRET_WORDS = new Set([
  'password', 'passwd', 'pwd', 'pass', 'passphrase', 'secret', 'token', 'authorization', 'auth',
  'cookie', 'credential', 'credentials', 'signature', 'sig', 'otp', 'pin',
]);

export function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  const flat = words.join('');
  return /(key|token|secret|password|passwd|pwd)$/.test(flat) || /^(password|passwd|secret|token)/.test(flat);
}

/** A copy with every value under a secret name replaced, at any depth. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > MAX_JSON_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = isSecretName(key) ? REDACTED : redact(v, depth + 1);
    }
    return out;
  }
  return value;
}

/** Query and body of an authenticated call, from the body the body reader already checked. */
function collectParams(c: Context<AppEnv>): string | null {
  const params: Record<string, unknown> = { ...c.req.queries() };
  for (const [k, v] of Object.entries(params)) if (Array.isArray(v) && v.length === 1) params[k] = v[0];
  const text = c.get('body');
  const type = c.req.header('content-type') ?? '';
  if (text && /^application\/([\w.-]+\+)?json/i.test(type)) {
    try {
      const body: unknown = JSON.parse(text);
      if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(params, body);
      else params.body = body;
    } catch {
      params.body = '(unreadable)';
    }
  }
  if (Object.keys(params).length === 0) return null;
  const out = JSON.stringify(redact(params));
  return out.length > MAX_PARAMS ? out.slice(0, MAX_PARAMS) + '…' : out;
}

/** What one entry costs besides its text columns (id, numbers, time, row header), roughly. */
export const LOG_ROW_OVERHEAD = 64;

/** The bytes one entry is counted as: its text plus the fixed overhead (same as rowBytesSql). */
export function logRowBytes(row: { action: string; username: string | null; ip: string; params: string | null }): number {
  return LOG_ROW_OVERHEAD + row.action.length + (row.username?.length ?? 0) + row.ip.length + (row.params?.length ?? 0);
}
const rowBytesSql = sql<number>`${sql.lit(LOG_ROW_OVERHEAD)} + length(action) + length(coalesce(username, '')) + length(ip) + length(coalesce(params, ''))`;

/** The bytes the whole log is counted as (one scan; run only at the first write and to trim). */
export async function measureRequestLog(db: Db): Promise<number> {
  const row = await db
    .selectFrom('base_sys_log')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(rowBytesSql), sql.lit(0)).as('bytes'))
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/**
 * Keeps the log under `maxBytes` by deleting the oldest entries, down to 90% of it so that trims
 * are rare. Each process keeps a running total from its own writes and measures the table only
 * when that total says it is over (so other processes' writes and the daily purge are taken into
 * account before anything is deleted).
 */
export function requestLogSizeKeeper(ctx: Pick<AppContext, 'db' | 'config' | 'logger'>) {
  let total: number | null = null;
  let queue: Promise<void> = Promise.resolve();

  async function trim(): Promise<void> {
    const max = ctx.config.logMaxBytes;
    let bytes = await measureRequestLog(ctx.db);
    const target = Math.floor(max * 0.9);
    if (bytes > max) {
      while (bytes > target) {
        const oldest = await ctx.db
          .selectFrom('base_sys_log')
          .select(['id', rowBytesSql.as('bytes')])
          .orderBy('id', 'asc')
          .limit(500)
          .execute();
        if (oldest.length === 0) break;
        let last = oldest[0]!.id;
        for (const row of oldest) {
          last = row.id;
          bytes -= Number(row.bytes);
          if (bytes <= target) break;
        }
        await ctx.db.deleteFrom('base_sys_log').where('id', '<=', last).execute();
      }
    }
    total = bytes;
  }

  return {
    /** Counts a written entry and trims when the log went over its size. */
    added(bytes: number): Promise<void> {
      queue = queue
        .then(async () => {
          if (total === null) total = await measureRequestLog(ctx.db);
          else total += bytes;
          if (total > ctx.config.logMaxBytes) await trim();
        })
        .catch((err) => ctx.logger.error('request log trim failed', err));
      return queue;
    },
  };
}

/** A log entry as written: the table's row without its generated id. */
type LogRow = Omit<BaseSysLogTable, 'id'>;
/** Rows per insert: 9 columns each, within SQLite's 999 bound parameters. */
const BATCH_ROWS = 100;

/**
 * Writes the entries of requests that end together in one insert (one statement instead of one
 * per call under load). Each caller awaits the write that holds its row, so a reply still leaves
 * only once its entry is stored.
 */
function logWriter(ctx: AppContext): (row: LogRow) => Promise<void> {
  const size = requestLogSizeKeeper(ctx);
  let open: { rows: LogRow[]; written: Promise<void> } | null = null;
  const flush = async (rows: LogRow[]) => {
    if (open?.rows === rows) open = null;
    await ctx.db.insertInto('base_sys_log').values(rows).execute();
    await size.added(rows.reduce((n, row) => n + logRowBytes(row), 0));
  };
  return (row) => {
    if (!open || open.rows.length >= BATCH_ROWS) {
      const rows: LogRow[] = [];
      open = { rows, written: new Promise<void>((resolve) => setImmediate(resolve)).then(() => flush(rows)) };
    }
    open.rows.push(row);
    return open.written;
  };
}

export function requestLog(ctx: AppContext): MiddlewareHandler<AppEnv> {
  const write = logWriter(ctx);
  return async (c, next) => {
    const started = performance.now();
    await next();
    try {
      const auth = c.get('auth');
      const row: LogRow = {
        userId: auth?.userId ?? null,
        username: auth?.username ?? null,
        action: c.req.path.slice(0, 255),
        method: c.req.method.slice(0, 16),
        status: c.res.status,
        timeMs: Math.round(performance.now() - started),
        ip: clientIp(c, ctx.config.trustProxy),
        params: auth ? collectParams(c) : null,
        createTime: formatTime(ctx.clock.now()),
      };
      await write(row);
    } catch (err) {
      // The log must never break the call it describes.
      ctx.logger.error('request log write failed', err);
    }
  };
}
