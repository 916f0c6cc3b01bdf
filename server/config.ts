// All settings come from the environment through loadConfig(env), so tests pass their own.

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Empty means the embedded SQLite file under dataDir. */
  databaseUrl: string;
  /**
   * The folder of uploaded files (STORAGE_DIR, or UPLOAD_DIR; default DATA_DIR/uploads). Several
   * processes serving one database point it at one shared folder (docs/scaling.md).
   */
  storageDir: string;
  /** Most connections this process opens to PostgreSQL (DATABASE_POOL_SIZE, default 10). */
  databasePoolSize: number;
  adminPassword: string | undefined;
  jwtSecret: string | undefined;
  captcha: boolean;
  /** Access token lifetime, seconds. */
  tokenExpire: number;
  /** Refresh token lifetime, seconds. */
  refreshExpire: number;
  trustProxy: boolean;
  /**
   * concurrency: argon2 hashes at a time (ARGON2_CONCURRENCY, default 2). They run on libuv's
   * thread pool (4 threads), which every request also needs (Web Crypto's token check, file
   * reads and writes); more sign-ins than this wait their turn in line instead of filling it.
   */
  argon2: { memoryCost: number; timeCost: number; concurrency: number };
  /** Largest JSON body accepted by /admin, bytes. */
  bodyLimit: number;
  /** Largest file accepted by POST /admin/base/comm/upload, bytes (UPLOAD_MAX_MB). */
  uploadMaxBytes: number;
  /**
   * A job a device had (acked) or was bending may be cancelled by its owner or an admin once the
   * device has been offline this long (DEVICE_GONE_CANCEL_SECONDS), ms.
   */
  deviceGoneCancelMs: number;
  /** Most bytes the request log may hold (LOG_MAX_MB); the oldest entries go first. */
  logMaxBytes: number;
  /**
   * The address outside services reach this server at (PUBLIC_URL, no trailing slash; default
   * http://HOST:PORT): an AI service's model links and callback are made from it.
   */
  publicUrl: string;
  /**
   * Partners' callbacks may go to private, loopback and link-local addresses
   * (CALLBACK_ALLOW_PRIVATE, default off: only public addresses, so a callback URL cannot reach
   * into the lab's own network).
   */
  callbackAllowPrivate: boolean;
  /** Signed calls one partner key may make in 15 minutes (PARTNER_RATE_MAX). */
  partnerRateMax: number;
  /**
   * Model links of partners may be http and point at private or loopback addresses
   * (PARTNER_LINKS_INSECURE, default off; for tests and closed networks only).
   */
  partnerLinksInsecure: boolean;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'on', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'off', 'false', 'no'].includes(raw)) return false;
  throw new Error(`${name} must be on or off, got "${env[name]}"`);
}

function text(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

export function loadConfig(env: Env = {}): Config {
  const port = int(env, 'PORT', 8787);
  const host = text(env, 'HOST') ?? '127.0.0.1';
  const dataDir = text(env, 'DATA_DIR') ?? './data';
  return {
    port,
    host,
    dataDir,
    databaseUrl: text(env, 'DATABASE_URL') ?? '',
    storageDir: text(env, 'STORAGE_DIR') ?? text(env, 'UPLOAD_DIR') ?? `${dataDir.replace(/[\\/]+$/, '')}/uploads`,
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1),
    adminPassword: text(env, 'ADMIN_PASSWORD'),
    jwtSecret: text(env, 'JWT_SECRET'),
    captcha: flag(env, 'CAPTCHA', true),
    tokenExpire: int(env, 'TOKEN_EXPIRE', 2 * 60 * 60, 1),
    refreshExpire: int(env, 'REFRESH_EXPIRE', 15 * 24 * 60 * 60, 1),
    trustProxy: flag(env, 'TRUST_PROXY', false),
    argon2: {
      memoryCost: int(env, 'ARGON2_MEMORY_KIB', 19456, 8),
      timeCost: int(env, 'ARGON2_TIME_COST', 2, 1),
      concurrency: int(env, 'ARGON2_CONCURRENCY', 2, 1),
    },
    bodyLimit: int(env, 'BODY_LIMIT', 2 * 1024 * 1024, 1024),
    uploadMaxBytes: int(env, 'UPLOAD_MAX_MB', 100, 1) * 1024 * 1024,
    deviceGoneCancelMs: int(env, 'DEVICE_GONE_CANCEL_SECONDS', 600, 0) * 1000,
    logMaxBytes: int(env, 'LOG_MAX_MB', 100, 1) * 1024 * 1024,
    callbackAllowPrivate: flag(env, 'CALLBACK_ALLOW_PRIVATE', false),
    partnerRateMax: int(env, 'PARTNER_RATE_MAX', 600, 1),
    partnerLinksInsecure: flag(env, 'PARTNER_LINKS_INSECURE', false),
    publicUrl: (text(env, 'PUBLIC_URL') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, ''),
  };
}
