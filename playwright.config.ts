import { defineConfig } from '@playwright/test';

// The browser tests run the real server (built app + API + SQLite) on its own port and data folder.
const port = Number(process.env.E2E_PORT ?? 18787);
// Port-specific data folder, and E2E_DIST to serve another build than dist/, so that parallel runs
// on different ports do not share state.
const staticDir = process.env.E2E_DIST ?? '';
/** The slot worker's test page is served by a second server, 1000 ports up (clear of parallel runs on nearby ports). */
const slotPort = port + 1000;
const slotDist = `test/.tmp/dist-slot-${slotPort}`;
/** test/e2e/order-simplify.spec.ts: the same app with a 1 MB upload limit, 2000 ports up. */
const smallUploadPort = port + 2000;
/** The back-office stream's own server, 3000 ports up (the 3D stream keeps `port`). */
const officePort = port + 3000;

// Two streams side by side, each one spec at a time on a server and data folder of its own: the
// 3D editor's specs (WebGL in SwiftShader, the kernels' workers: mostly CPU) and the back office's
// (mostly waiting on the server and React). Together they keep two cores busy where one stream
// left one idle. A spec that names E2E_PORT itself (its machines' WebSocket URL) belongs to the
// 3D stream.
const threeD = /\/(editor[\w-]*|ai-design|order-lifecycle|geometry-worker|slot-worker|csp)\.spec\.ts$/;

/** A test server on port `p` with its own fresh data folder, serving `dist`; `before` runs first. */
function appServer(p: number, dist: string, extra: { env?: Record<string, string>; before?: string; timeout?: number } = {}) {
  const data = `test/.tmp/e2e-data-${p}`;
  return {
    command: `rm -rf ${data} && ${extra.before ? `${extra.before} && ` : ''}node_modules/.bin/tsx server/index.ts`,
    url: `http://127.0.0.1:${p}/version.json`,
    reuseExistingServer: false,
    timeout: extra.timeout ?? 60_000,
    stdout: 'pipe' as const,
    env: {
      PORT: String(p),
      HOST: '127.0.0.1',
      DATA_DIR: data,
      STATIC_DIR: dist,
      CAPTCHA: 'off',
      ADMIN_PASSWORD: 'e2e-Admin-pass1',
      JWT_SECRET: 'e2e-secret-not-for-production-0123456789',
      ...extra.env,
    },
  };
}

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    locale: 'zh-CN',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    // DOM snapshots of a failed test, without a screencast frame per action (canvas pages make those slow)
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
      ],
    },
  },
  projects: [
    { name: '3d', testMatch: threeD, workers: 1, use: { baseURL: `http://127.0.0.1:${port}` } },
    { name: 'office', testIgnore: threeD, workers: 1, use: { baseURL: `http://127.0.0.1:${officePort}` } },
  ],
  webServer: [
    appServer(port, staticDir),
    appServer(officePort, staticDir),
    // test/e2e/slot-worker.spec.ts: the slotting test page, built on its own (seconds).
    appServer(slotPort, slotDist, {
      before: `node_modules/.bin/vite build --config test/e2e/slot-page/vite.config.ts --outDir ${slotDist} --emptyOutDir --logLevel warn`,
      timeout: 120_000,
    }),
    // test/e2e/order-simplify.spec.ts: a model over the upload limit without a 100 MB fixture.
    appServer(smallUploadPort, staticDir, { env: { UPLOAD_MAX_MB: '1' } }),
  ],
});
