// The only file that knows Node's HTTP server: serves the API and the built front end, sets the
// cross-origin isolation headers, and stops cleanly on signals.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve, type HttpBindings } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { createApp, HEALTH_PATH } from './app.ts';
import { isPostgres } from './db/dialect.ts';
import { createContext, prepareDatabase, type ContextOverrides } from './bootstrap.ts';
import { loadConfig, type Config } from './config.ts';
import type { AppContext } from './context.ts';
import { schedulerFor } from './modules/task/index.ts';
import { attachDeviceHub, type NodeHubOptions } from './modules/device-hub/node.ts';
import type { DeviceHub } from './modules/device-hub/hub.ts';
import { GEO_KINDS } from './modules/geo-jobs/bite.ts';
import { GeoJobRunner } from './modules/geo-jobs/runner.ts';
import { CallbackDeliverer } from './modules/callbacks/deliverer.ts';

export const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../dist', import.meta.url));

export interface StartOptions extends ContextOverrides {
  /** The built front end; defaults to dist/ beside server/. */
  staticDir?: string;
  /** Device hub timing (tests shorten the tick). */
  hub?: NodeHubOptions;
}

/** How long an idle keep-alive connection stays open (over the usual 60 s of balancers and clients). */
export const KEEP_ALIVE_MS = 65_000;

export interface RunningServer {
  url: string;
  port: number;
  ctx: AppContext;
  /** The WebSocket hub of the bending machines on /ws/device. */
  hub: DeviceHub;
  close(): Promise<void>;
}

// Shared WASM memory between page and workers needs a cross-origin isolated page; the rest keeps
// browsers from sniffing types, leaking URLs (tokens in queries) or framing the app elsewhere.
const RESPONSE_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
} as const;

/**
 * The app's Content-Security-Policy: only this origin's scripts (no inline script, no eval;
 * WebAssembly may compile), module workers from this origin or blob: URLs, inline styles (Radix and
 * the virtualised tables set them), images from this origin, data: (captcha, icons) and blob:
 * (previews), calls to this origin only, and no framing by anyone. Frames may show http(s) pages:
 * menu entries whose view path is a URL open in one (src/modules/iframe). Sent on every response
 * that has no policy of its own (a user's file download keeps its stricter sandbox), so workers
 * started from our scripts run under it too.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' blob: data:",
  "media-src 'self' blob:",
  "frame-src 'self' http: https:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function isApiPath(p: string): boolean {
  return p === '/admin' || p.startsWith('/admin/') || p === '/version.json' || p === HEALTH_PATH || p === '/ws' || p.startsWith('/ws/');
}

export function createNodeApp(ctx: AppContext, staticDir: string) {
  const api = createApp(ctx);
  const web = new Hono<{ Bindings: HttpBindings }>();

  web.use('*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(RESPONSE_HEADERS)) c.res.headers.set(name, value);
    if (!c.res.headers.has('Content-Security-Policy')) c.res.headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  });

  web.all('/admin/*', (c) => api.fetch(c.req.raw, c.env));
  web.all('/admin', (c) => api.fetch(c.req.raw, c.env));
  web.get('/version.json', (c) => api.fetch(c.req.raw, c.env));
  web.get(HEALTH_PATH, (c) => api.fetch(c.req.raw, c.env));
  // The device hub is not a route: startServer attaches it to the server's 'upgrade' event.

  if (fs.existsSync(staticDir)) {
    // Hashed build output never changes under the same name.
    web.use(
      '/assets/*',
      serveStatic({ root: staticDir, onFound: (_p, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable') }),
    );
    web.use('*', serveStatic({ root: staticDir, onFound: (_p, c) => c.header('Cache-Control', 'no-cache') }));
  }

  // SPA fallback: page navigations that match no file get index.html.
  web.get('*', async (c) => {
    const accept = c.req.header('accept') ?? '';
    if (isApiPath(c.req.path) || !accept.includes('text/html')) return c.text('Not Found', 404);
    try {
      const html = await fs.promises.readFile(path.join(staticDir, 'index.html'), 'utf8');
      c.header('Cache-Control', 'no-cache');
      return c.html(html);
    } catch {
      return c.text('The front end is not built (run npm run build)', 404);
    }
  });
  return web;
}

/** Migrates, seeds and listens. `config.port` 0 picks a free port. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const ctx = createContext(config, options);
  try {
    await prepareDatabase(ctx);
  } catch (err) {
    await ctx.db.destroy();
    throw err;
  }
  const web = createNodeApp(ctx, options.staticDir ?? DEFAULT_STATIC_DIR);
  const server = serve({ fetch: web.fetch, port: config.port, hostname: config.host });
  // An idle keep-alive connection stays open longer than clients and balancers keep theirs idle:
  // with Node's 5 s, a client reusing one just as the server closed it got ECONNRESET (browsers
  // retry such a request, HAProxy and Node clients do not). The headers' limit stays above it.
  const http = server as import('node:http').Server;
  http.keepAliveTimeout = KEEP_ALIVE_MS;
  http.headersTimeout = KEEP_ALIVE_MS + 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  }).catch(async (err) => {
    await ctx.db.destroy();
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  // Scheduled tasks run only in a serving process; tests of the app call tick() themselves.
  const scheduler = schedulerFor(ctx);
  scheduler.start();
  // Geometry jobs (bite registration...) in worker threads; ARCHWRIGHT_JOB_CONCURRENCY at a time.
  // The runner is named by host and port, so a server restarted on its port takes back at once
  // the jobs its previous life left running (another process's wait for their leases to end).
  const geoJobs = new GeoJobRunner(ctx, { kinds: GEO_KINDS, owner: `${os.hostname()}:${port}` });
  ctx.geoJobs = geoJobs;
  await geoJobs.start();
  // Partners' callbacks, posted from their durable queue (several processes may each run one).
  const callbacks = new CallbackDeliverer(ctx);
  callbacks.start();
  let deviceHub: Awaited<ReturnType<typeof attachDeviceHub>>;
  try {
    // The hub is named like the runner: a restart on its port takes its device links back at once.
    deviceHub = await attachDeviceHub(ctx, http, { node: `${os.hostname()}:${port}`, ...options.hub });
    // Jobs stored through other processes reach this one's devices once it listens.
    await ctx.delivery.ready?.();
  } catch (err) {
    scheduler.stop();
    await geoJobs.stop();
    await callbacks.stop();
    server.close();
    await ctx.delivery.close?.();
    await ctx.db.destroy();
    throw err;
  }
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    hub: deviceHub.hub,
    close() {
      closing ??= deviceHub.close().then(() => new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }))
        .then(() => scheduler.stop())
        .then(() => geoJobs.stop())
        .then(() => callbacks.stop())
        .then(() => ctx.delivery.close?.())
        .then(() => ctx.db.destroy());
      return closing;
    },
  };
}

/** Starts from a config, prints where it listens, and exits 0 on SIGINT/SIGTERM. */
export async function runMain(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const running = await startServer(config, options);
  console.log(`Archwright listening on ${running.url}`);
  if (isPostgres(running.ctx.db) && !config.jwtSecret) {
    // Other processes on this database check this one's tokens: they need the same secret.
    console.warn(`JWT_SECRET is not set: tokens are signed with ${config.dataDir}/jwt-secret; every process on this database needs the same one (docs/scaling.md)`);
  }
  const stop = (signal: string) => {
    console.log(`${signal}: shutting down`);
    running.close().then(
      () => process.exit(0),
      (err) => {
        console.error('Shutdown failed', err);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return running;
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(path.resolve(entry)).href) {
  // STATIC_DIR: serve another build than dist/ (parallel browser-test runs build their own).
  runMain(loadConfig(process.env), { staticDir: process.env.STATIC_DIR || undefined }).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
