// Builds the context from config on Node: data folder, database, JWT secret, services.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { createDb } from './db/index.ts';
import { isPostgres } from './db/dialect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seed, type SeedResult } from './db/seed.ts';
import { systemClock } from './core/clock.ts';
import { consoleLogger } from './core/logger.ts';
import { InProcessDelivery, type DeviceDelivery } from './core/delivery.ts';
import { PgNotifyDelivery } from './core/delivery-pg.ts';
import { randomToken } from './core/crypto.ts';
import { createPasswordHasher } from './core/passwords.ts';
import { createCaptchaService, dbCaptchaStore, type CaptchaStore } from './modules/base/captcha.service.ts';
import { svgCaptcha } from './modules/base/captcha.svg.ts';

export interface ContextOverrides {
  clock?: AppContext['clock'];
  logger?: AppContext['logger'];
  /** Wrap or replace the captcha store (tests read answers through it). */
  captchaStore?: (defaultStore: CaptchaStore) => CaptchaStore;
  /**
   * How job notices reach the device hubs. Default: in-process (this process's hub) on SQLite;
   * LISTEN/NOTIFY between the processes on PostgreSQL.
   */
  delivery?: DeviceDelivery;
}

/** JWT_SECRET, or a secret generated once into DATA_DIR/jwt-secret (mode 0600). */
export function loadJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'jwt-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing) return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomToken(48);
  try {
    fs.writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    // Another process won the race: use its secret.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw err;
  }
}

export function createContext(config: Config, overrides: ContextOverrides = {}): AppContext {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const clock = overrides.clock ?? systemClock;
  const db = createDb(config);
  const baseStore = dbCaptchaStore(db, clock);
  const store = overrides.captchaStore ? overrides.captchaStore(baseStore) : baseStore;
  const logger = overrides.logger ?? consoleLogger;
  const delivery =
    overrides.delivery ?? (isPostgres(db) ? new PgNotifyDelivery(db, config.databaseUrl, logger) : new InProcessDelivery());
  return {
    config,
    db,
    clock,
    logger,
    jwtSecret: loadJwtSecret(config),
    passwords: createPasswordHasher(config),
    captcha: createCaptchaService(store, clock, svgCaptcha),
    delivery,
  };
}

/** Migrate to the latest schema, then seed (both idempotent). */
export async function prepareDatabase(ctx: AppContext): Promise<SeedResult> {
  await migrateToLatest(ctx.db);
  return seed(ctx);
}
