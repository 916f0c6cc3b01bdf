import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createContext, loadJwtSecret, prepareDatabase } from '../../server/bootstrap.ts';
import { loadConfig } from '../../server/config.ts';
import { seedMenus } from '../../server/db/seed-menus.ts';
import { permsFor } from '../../server/core/crud.ts';
import { departmentResource } from '../../server/modules/base/sys-department.ts';
import { menuResource } from '../../server/modules/base/sys-menu.ts';
import { recycleResource } from '../../server/modules/base/sys-recycle.ts';
import { roleResource } from '../../server/modules/base/sys-role.ts';
import { migrations as allMigrations } from '../../server/db/migrations/index.ts';
import { userResource } from '../../server/modules/base/sys-user.ts';
import { logResource } from '../../server/modules/base/sys-log.ts';
import { recordingLogger, removeDataDir, tempDir, testEnv } from './helpers.ts';
import { onPostgres } from './test-database.ts';

function countMenus(items: typeof seedMenus): number {
  return items.reduce((n, m) => n + 1 + countMenus(m.children ?? []), 0);
}

describe('config', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      dataDir: './data',
      storageDir: './data/uploads',
      captcha: true,
      tokenExpire: 7200,
      refreshExpire: 1296000,
      trustProxy: false,
      adminPassword: undefined,
      jwtSecret: undefined,
    });
  });

  it('reads the environment and refuses nonsense', () => {
    const c = loadConfig({ PORT: '0', CAPTCHA: 'off', TOKEN_EXPIRE: '60', REFRESH_EXPIRE: '120', TRUST_PROXY: 'on' });
    expect(c).toMatchObject({ port: 0, captcha: false, tokenExpire: 60, refreshExpire: 120, trustProxy: true });
    expect(loadConfig({ DATA_DIR: '/srv/a/' }).storageDir).toBe('/srv/a/uploads');
    expect(loadConfig({ DATA_DIR: '/srv/a', UPLOAD_DIR: '/mnt/shared' }).storageDir).toBe('/mnt/shared');
    expect(loadConfig({ UPLOAD_DIR: '/mnt/other', STORAGE_DIR: '/mnt/shared' }).storageDir).toBe('/mnt/shared');
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ CAPTCHA: 'maybe' })).toThrow(/CAPTCHA/);
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
  });
});

describe('a database the server cannot use', () => {
  it('stops the start with a message when it cannot be reached, without the password', async () => {
    // Port 1 on loopback: nothing listens there.
    const dir = tempDir();
    const ctx = createContext(loadConfig(testEnv({ DATABASE_URL: 'postgres://aw:hunter2-secret@127.0.0.1:1/archwright' }, dir)));
    const err = await prepareDatabase(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^Cannot reach the database: .*ECONNREFUSED/);
    expect((err as Error).message).not.toContain('hunter2');
    await ctx.db.destroy();
    await removeDataDir(dir);
  });

  it('refuses a schema newer than this code knows, naming the migration', async () => {
    const dir = tempDir();
    const ctx = createContext(loadConfig(testEnv({}, dir)));
    await prepareDatabase(ctx);
    await ctx.db.withTables<{ kysely_migration: { name: string; timestamp: string } }>()
      .insertInto('kysely_migration')
      .values({ name: '9999_from_the_future', timestamp: '2030-01-01T00:00:00.000Z' })
      .execute();
    await expect(prepareDatabase(ctx)).rejects.toThrow(/newer schema than this server knows \(migration 9999_from_the_future\)/);
    await ctx.db.destroy();
    await removeDataDir(dir);
  });
});

describe('first start', () => {
  it('generates the admin password once, seeds idempotently, and keeps the JWT secret', async () => {
    const dir = tempDir();
    const env = testEnv({ ADMIN_PASSWORD: '', JWT_SECRET: '' }, dir);
    const logger = recordingLogger();
    const ctx = createContext(loadConfig(env), { logger });
    const first = await prepareDatabase(ctx);
    expect(first.menusCreated).toBe(countMenus(seedMenus));
    expect(first.generatedAdminPassword).toMatch(/^\S{12,}$/);
    expect(logger.lines).toContain(`Admin password (shown once): ${first.generatedAdminPassword}`);

    const second = await prepareDatabase(ctx);
    expect(second).toEqual({ menusCreated: 0 });
    expect(logger.lines.filter((l) => l.startsWith('Admin password'))).toHaveLength(1);
    const { n } = await ctx.db.selectFrom('base_sys_menu').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(n)).toBe(countMenus(seedMenus));

    const secretFile = path.join(dir, 'jwt-secret');
    expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(loadJwtSecret(loadConfig(env))).toBe(ctx.jwtSecret);

    // On SQLite WAL and foreign keys are on (PostgreSQL has no such settings); the migration is recorded.
    if (!onPostgres) {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(ctx.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(ctx.db);
      expect(fk.rows[0]?.foreign_keys).toBe(1);
    }
    const migrations = await ctx.db.selectFrom('kysely_migration' as any).select('name' as any).execute();
    expect(migrations.map((m: any) => m.name)).toEqual(Object.keys(allMigrations).sort());
    await ctx.db.destroy();
    await removeDataDir(dir);
  });

  it('uses JWT_SECRET when set and writes no file', () => {
    const dir = tempDir();
    expect(loadJwtSecret(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'given' }))).toBe('given');
    expect(fs.existsSync(path.join(dir, 'jwt-secret'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('seeds the menu the front end expects', () => {
    const routers: string[] = [];
    const walk = (items: typeof seedMenus) => items.forEach((m) => { if (m.router) routers.push(m.router); walk(m.children ?? []); });
    walk(seedMenus);
    expect(routers).toEqual([
      '/dashboard', '/order/list', '/order/time', '/device/list', '/device/api-config', '/space/list',
      '/sys/user', '/sys/menu', '/sys/role', '/recycle/data', '/helper/ai-code', '/sys/plugin', '/sys/param', '/dict/list', '/sys/release', '/sys/log',
      '/task/list', '/help/doc', '/help/article',
      '/demo/address', '/demo/region', '/demo/markdown', '/demo/code', '/demo/preview', '/demo/rich-text', '/demo/upload', '/demo/layout', '/demo/list',
    ]);
    expect(seedMenus[0]).toMatchObject({ name: 'Data board', type: 0 });
  });

  it('grants every permission the resources define through some seeded menu entry', () => {
    const seeded = new Set<string>();
    const walk = (items: typeof seedMenus) => items.forEach((m) => { m.perms?.split(',').forEach((p) => seeded.add(p)); walk(m.children ?? []); });
    walk(seedMenus);
    const defined = [
      ...permsFor(userResource), ...permsFor(logResource), ...permsFor(roleResource), ...permsFor(menuResource),
      ...permsFor(departmentResource), ...permsFor(recycleResource),
    ];
    expect(defined).toEqual(expect.arrayContaining(['base:sys:user:add', 'base:sys:user:move', 'base:sys:department:order', 'recycle:data:restore', 'base:sys:log:page']));
    for (const perm of defined) expect(seeded).toContain(perm);
  });
});
