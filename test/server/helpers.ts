// A real app over a real SQLite file in a temp folder (or, in the `postgres` test project, a
// PostgreSQL database of its own), with a clock tests can move and a captcha store that lets them
// read the answers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../server/app.ts';
import { createContext, prepareDatabase } from '../../server/bootstrap.ts';
import { loadConfig } from '../../server/config.ts';
import type { AppContext } from '../../server/context.ts';
import type { Logger } from '../../server/core/logger.ts';
import type { TokenPair } from '../../server/core/tokens.ts';
import { dropTestDatabase, onPostgres, testDatabaseUrl } from './test-database.ts';

export const ADMIN_PASSWORD = 'admin-secret-1';
export const START = Date.UTC(2026, 0, 1, 8, 0, 0);

export interface ManualClock {
  now(): number;
  advance(ms: number): void;
}

export function manualClock(start = START): ManualClock {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'aw-server-'));
}

export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => void lines.push(m),
    warn: (m) => void lines.push(m),
    error: (m, err) => void lines.push(`${m} ${err instanceof Error ? err.message : ''}`),
  };
}

export function testEnv(overrides: Record<string, string> = {}, dir = tempDir()): Record<string, string> {
  return {
    DATA_DIR: dir,
    CAPTCHA: 'off',
    ADMIN_PASSWORD,
    JWT_SECRET: 'test-secret-that-is-long-enough',
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    ...(onPostgres ? { DATABASE_URL: testDatabaseUrl(dir) } : {}),
    ...overrides,
  };
}

/** Removes a test server's data folder and its database. */
export async function removeDataDir(dir: string): Promise<void> {
  await dropTestDatabase(dir);
  fs.rmSync(dir, { recursive: true, force: true });
}

export interface Reply<T = any> {
  status: number;
  body: { code: number; message: string; data?: T };
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  lang?: string;
  ip?: string;
  headers?: Record<string, string>;
}

export type TestServer = Awaited<ReturnType<typeof setup>>;

export async function setup(env: Record<string, string> = {}, opts: { clock?: ManualClock; dir?: string } = {}) {
  const dir = opts.dir ?? tempDir();
  const config = loadConfig(testEnv(env, dir));
  const clock = opts.clock ?? manualClock();
  const logger = recordingLogger();
  const captchaAnswers = new Map<string, string>();
  const ctx: AppContext = createContext(config, {
    clock,
    logger,
    captchaStore: (store) => ({
      async put(id, answer, expiresAt) {
        captchaAnswers.set(id, answer);
        await store.put(id, answer, expiresAt);
      },
      take: (id) => store.take(id),
    }),
  });
  await prepareDatabase(ctx);
  const app = createApp(ctx);

  async function call<T = any>(method: string, url: string, o: CallOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token !== undefined) headers.Authorization = o.token;
    if (o.lang) headers['Accept-Language'] = o.lang;
    if (o.ip) headers['X-Forwarded-For'] = o.ip;
    let body: string | undefined;
    if (o.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(o.body);
    }
    const res = await app.request(url, { method, headers, body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }

  async function login(username = 'admin', password = ADMIN_PASSWORD, extra: CallOptions = {}): Promise<TokenPair> {
    const res = await call<TokenPair>('POST', '/admin/base/open/login', { ...extra, body: { username, password } });
    if (res.body.code !== 1000 || !res.body.data) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
    return res.body.data;
  }

  async function close() {
    await ctx.db.destroy();
    await removeDataDir(dir);
  }

  return { ctx, app, clock, logger, dir, captchaAnswers, call, login, close };
}

/** A role granted the seeded type-2 menu entries whose perms include each given string. */
export async function createRole(ctx: AppContext, name: string, perms: string[]): Promise<number> {
  const now = '2026-01-01 00:00:00';
  const role = await ctx.db
    .insertInto('base_sys_role')
    .values({ name, label: name, remark: null, createTime: now, updateTime: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const menus = await ctx.db.selectFrom('base_sys_menu').select(['id', 'perms']).where('type', '=', 2).execute();
  for (const perm of perms) {
    const menu = menus.find((m) => (m.perms ?? '').split(',').includes(perm));
    if (!menu) throw new Error(`no seeded menu holds ${perm}`);
    await ctx.db
      .insertInto('base_sys_role_menu')
      .values({ roleId: role.id, menuId: menu.id })
      .onConflict((oc) => oc.columns(['roleId', 'menuId']).doNothing())
      .execute();
  }
  return role.id;
}

/** Adds a user through the API as admin and returns its id. */
export async function addUser(
  t: TestServer,
  adminToken: string,
  user: { username: string; password: string; roleIdList?: number[] },
): Promise<number> {
  const res = await t.call<{ id: number }>('POST', '/admin/base/sys/user/add', {
    token: adminToken,
    body: { name: user.username, nickName: user.username, status: 1, roleIdList: [], ...user },
  });
  if (res.body.code !== 1000 || !res.body.data) throw new Error(`add user failed: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}
