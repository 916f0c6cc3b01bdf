// Browser bench of the design editor (its speed goals): a measurement, not a test (no assertions
// on time; figures go to BENCHMARKS.md, "Editor (browser)").
//
//   npx vite build --outDir /tmp/dist-perf --emptyOutDir      (the app, as served)
//   npx tsx test/bench/browser/editor-perf.ts --dist=/tmp/dist-perf [--runs=5] [--quick] [--json]
//
// Self-contained: builds the Babylon loader page (loader-page/) into <dist>/bench-loader/, starts
// the app's server on a free port with its own DATA_DIR (removed afterwards), creates the orders
// through the API as an admin, and drives Playwright's Chromium (/usr/bin/chromium, or
// CHROMIUM_PATH; headless, so WebGL runs on SwiftShader, the CPU: the renderer string is printed).
// In one browser run it measures:
//   open    /bend?orderId=N with upper.stl and lower.stl (open-full-jaw-p26, about 450k triangles
//           each; generated jaws of the same size when the fixtures are absent): navigation start
//           to the engine's marks editor:models-shown (first frame with both models) and
//           editor:interactive (every model's BVH built in the worker, then the next frame: a pick
//           answers at once), beside the loader page: the same files fetched on the main thread,
//           parsed by Babylon's STLFileLoader, first frame drawn (loader:shown), once drawn as the
//           editor draws (both sides) and once with the loader's default material. Runs alternate.
//   orbit   requestAnimationFrame intervals while left-dragging over a generated 1M-triangle jaw
//   brush   the same while dragging the smoothing brush over it (dabs counted from the saved design)
//   undercut  analysis:direction (a tilt committed) to analysis:painted (the frame with the new
//           colours), on the 1M jaw and on upper.stl; includes the 250 ms debounce of analysis.ts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { jawMesh, rigidMatrix, transformPositions, type IndexedMesh } from '../../fixtures/jaw.ts';
import { binaryStl, soupOf } from '../../fixtures/stl.ts';
import { fixturesDir } from '../inputs.ts';

// ---------------------------------------------------------------- options

const USAGE = 'usage: npx tsx test/bench/browser/editor-perf.ts --dist=<built app> [--runs=N] [--quick] [--json] [--only=open,orbit,brush,undercut]';
const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
if (argv.some((a) => !/^--(dist|runs|only)=|^--(quick|json)$/.test(a))) {
  console.error(USAGE);
  process.exit(2);
}
const root = fileURLToPath(new URL('../../../', import.meta.url));
const dist = resolve(arg('dist') ?? join(root, 'dist'));
const quick = argv.includes('--quick');
const json = argv.includes('--json');
const runs = Math.max(1, Number(arg('runs')) || (quick ? 2 : 5));
const only = new Set((arg('only') ?? 'open,orbit,brush,undercut').split(','));
const log = (line: string): void => void (json ? process.stderr : process.stdout).write(`${line}\n`);

if (!existsSync(join(dist, 'index.html'))) {
  console.error(`${dist}/index.html is missing: build the app first (npx vite build --outDir ${dist} --emptyOutDir).`);
  process.exit(1);
}

const ADMIN_PASSWORD = 'bench-Admin-pass1';
const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

// ---------------------------------------------------------------- statistics

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (at - lo);
}
const median = (v: number[]): number => quantile(v, 0.5);

/**
 * Frame intervals while dragging: the engine draws a frame for each input it has not drawn yet, so the
 * ticks between input events are idle ones (a display refresh, 16.7 ms); the drawn frames are the
 * intervals clearly longer than that. Reported: their median and 95th percentile, how many, and
 * the drawn frames per second over the whole drag.
 */
function frameStats(intervals: number[]): Record<string, number> {
  const drawn = intervals.filter((d) => d > 25);
  const seconds = intervals.reduce((a, b) => a + b, 0) / 1000;
  return {
    drawn_median_ms: median(drawn),
    drawn_p95_ms: quantile(drawn, 0.95),
    drawn_frames: drawn.length,
    all_median_ms: median(intervals),
    seconds,
    drawn_fps: drawn.length / seconds,
  };
}
const ms = (v: number): string => (Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v.toFixed(1)) : '-');

// ---------------------------------------------------------------- server

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

async function startServer(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(join(root, 'node_modules/.bin/tsx'), ['server/index.ts'], {
    cwd: root,
    detached: true, // its own process group, ended as a whole below
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: dist,
      CAPTCHA: 'off',
      ADMIN_PASSWORD,
      JWT_SECRET: 'bench-secret-not-for-production-0123456789',
    },
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/version.json`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start in 60 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stopServer(child: ChildProcess): void {
  if (child.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

// ---------------------------------------------------------------- API set-up (as an admin would)

interface Login {
  token: string;
  refreshToken: string;
  expire: number;
  refreshExpire: number;
}

async function api<T>(base: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const init: RequestInit = { headers: { ...(token ? { Authorization: token } : {}) } };
  if (body instanceof FormData) Object.assign(init, { method: 'POST', body });
  else if (body !== undefined) Object.assign(init, { method: 'POST', body: JSON.stringify(body), headers: { ...init.headers, 'Content-Type': 'application/json' } });
  const res = await fetch(`${base}${path}`, init);
  const reply = (await res.json()) as { code: number; message?: string; data: T };
  if (reply.code !== 1000) throw new Error(`${path}: ${JSON.stringify(reply)}`);
  return reply.data;
}

async function createOrder(base: string, token: string, patientName: string, files: { name: string; bytes: Uint8Array }[]): Promise<number> {
  const ids: number[] = [];
  for (const file of files) {
    const form = new FormData();
    form.append('kind', 'model');
    form.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: 'model/stl' }), file.name);
    const uploaded = await api<{ id: number }[]>(base, '/admin/base/comm/upload', token, form);
    ids.push(uploaded[0]!.id);
  }
  const order = await api<{ id: number }>(base, '/admin/order/info/add', token, {
    patientName,
    upperFileId: ids[0],
    ...(ids[1] !== undefined ? { lowerFileId: ids[1] } : {}),
  });
  return order.id;
}

function stlOf(mesh: IndexedMesh): Uint8Array {
  return binaryStl(soupOf(mesh));
}

/** Generated jaws: the lower one and the upper one turned over with the cusps meeting. */
function generatedJaws(detail: number): { upper: IndexedMesh; lower: IndexedMesh } {
  const lower = jawMesh({ detail });
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  return { upper, lower };
}

const triangleCount = (stl: Uint8Array): number => new DataView(stl.buffer, stl.byteOffset).getUint32(80, true);

// ---------------------------------------------------------------- browser helpers

async function marks(page: Page, names: string[]): Promise<Record<string, number>> {
  return page.evaluate((wanted) => {
    const out: Record<string, number> = {};
    for (const name of wanted) {
      const list = performance.getEntriesByName(name, 'mark');
      if (list.length) out[name] = list[list.length - 1]!.startTime;
    }
    return out;
  }, names);
}

/**
 * When the page's scripts and the model downloads (responses over 1 MB) started and ended, in ms
 * from the page's navigation start. The editor's workers download the models themselves: their
 * timelines count from their own start, so their entries are shifted by it (timeOrigin).
 */
async function loadPhases(page: Page): Promise<{ scripts: number; downloadStart: number; downloadEnd: number }> {
  type Timing = { origin: number; resources: { name: string; type: string; size: number; start: number; end: number }[] };
  const timing = (): Timing => ({
    origin: performance.timeOrigin,
    resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
      name: e.name,
      type: e.initiatorType,
      size: e.encodedBodySize,
      start: e.startTime,
      end: e.responseEnd,
    })),
  });
  const own = await page.evaluate(timing);
  const workers = await Promise.all(page.workers().map((w) => w.evaluate(timing).catch(() => null)));
  const all = [own, ...workers.filter((w): w is Timing => w !== null)].flatMap((t) =>
    t.resources.map((r) => ({ ...r, start: r.start + t.origin - own.origin, end: r.end + t.origin - own.origin })),
  );
  const big = all.filter((e) => e.type === 'fetch' && e.size > 1e6);
  const scripts = own.resources.filter((e) => e.type === 'script' || e.name.endsWith('.js'));
  return {
    scripts: Math.max(0, ...scripts.map((e) => e.end)),
    downloadStart: Math.min(...big.map((e) => e.start)),
    downloadEnd: Math.max(...big.map((e) => e.end)),
  };
}

async function waitForMark(page: Page, name: string, timeout = 180_000): Promise<void> {
  await page.waitForFunction((n) => performance.getEntriesByName(n, 'mark').length > 0, name, { polling: 100, timeout });
}

/**
 * Records requestAnimationFrame timestamps until stopFrames(). Each tick first reads one pixel of
 * the editor's canvas (its own WebGL2 context: getContext returns it), which waits until the GPU
 * has drawn that frame: without it the draw calls return at once and SwiftShader's work piles up
 * into a few long stalls, so the intervals would not be the time per drawn frame. (A string: tsx
 * would wrap a named inner function in a helper the page lacks.)
 */
async function startFrames(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const run = (window.benchFramesRun ?? 0) + 1;
    window.benchFramesRun = run;
    window.benchFrames = [];
    const canvas = document.querySelector('[data-testid="viewport"] canvas');
    const gl = canvas && canvas.getContext('webgl2');
    const pixel = new Uint8Array(4);
    const tick = (t) => {
      if (window.benchFramesRun !== run) return;
      if (gl) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
      window.benchFrames.push(t);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
}

async function stopFrames(page: Page): Promise<number[]> {
  const times = (await page.evaluate(`(() => {
    window.benchFramesRun += 1;
    return window.benchFrames;
  })()`)) as number[];
  return times.slice(1).map((t, i) => t - times[i]!);
}

async function canvasBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await page.locator('[data-testid="viewport"] canvas').boundingBox();
  if (!box) throw new Error('no editor canvas');
  return box;
}

/** A drag with the left button at about 60 events a second. */
async function drag(page: Page, from: { x: number; y: number }, path: (k: number) => { x: number; y: number }, steps: number): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    const p = path(i / steps);
    await page.mouse.move(p.x, p.y);
    await page.waitForTimeout(16);
  }
  await page.mouse.up();
}

async function renderer(page: Page): Promise<string> {
  return page.evaluate(() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return 'no WebGL2';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
  });
}

/** The steps of an open, printed per run (src/editor/engine/openTiming.ts). */
const TRACE_MARKS = ['editor:engine', 'editor:opening', 'editor:parsed:upper', 'editor:parsed:lower', 'editor:built:upper', 'editor:built:lower'];

async function openEditor(page: Page, base: string, orderId: number): Promise<Record<string, number>> {
  // A fresh page each time: marks from one open only.
  await page.goto(`${base}/bend?orderId=${orderId}`, { waitUntil: 'commit' });
  await waitForMark(page, 'editor:interactive');
  return { ...(await marks(page, [...TRACE_MARKS, 'editor:models-shown', 'editor:interactive'])), ...(await loadPhases(page)) };
}

// ---------------------------------------------------------------- main

interface Row {
  name: string;
  input: string;
  values: Record<string, number | string>;
}
const rows: Row[] = [];
const row = (name: string, input: string, values: Record<string, number | string>): void => {
  rows.push({ name, input, values });
  log(`  ${name} ${input}: ${Object.entries(values).map(([k, v]) => `${k}=${typeof v === 'number' ? ms(v) : v}`).join(' ')}`);
  if (json) process.stdout.write(`${JSON.stringify({ name, input, ...values })}\n`);
};

const started = Date.now();
log(`Editor browser bench: ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg().map((v) => v.toFixed(1)).join(' ')}`);
log('building the loader page...');
const build = spawnSync(
  join(root, 'node_modules/.bin/vite'),
  ['build', '--config', 'test/bench/browser/loader-page/vite.config.ts', '--outDir', join(dist, 'bench-loader'), '--emptyOutDir', '--logLevel', 'warn'],
  { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
);
if (build.status !== 0) process.exit(1);
const loaderPath = '/bench-loader/test/bench/browser/loader-page/index.html';

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'aw-bench-editor-'));
const base = `http://127.0.0.1:${port}`;
let server: ChildProcess | null = null;
let browser: Browser | null = null;
try {
  server = await startServer(port, dataDir);
  const login = await api<Login>(base, '/admin/base/open/login', null, { username: 'admin', password: ADMIN_PASSWORD, captchaId: '', verifyCode: '' });

  // Inputs.
  const jawDir = join(fixturesDir, 'open-full-jaw-p26');
  let jawLabel: string;
  let jawFiles: { name: string; bytes: Uint8Array }[];
  if (existsSync(join(jawDir, 'upper.stl')) && existsSync(join(jawDir, 'lower.stl'))) {
    jawFiles = ['upper.stl', 'lower.stl'].map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(jawDir, name))) }));
    jawLabel = 'open-full-jaw-p26 upper+lower';
  } else {
    log(`${jawDir} not found (set ARCHWRIGHT_FIXTURES): generated jaws of about the same size instead`);
    const { upper, lower } = generatedJaws(3.1);
    jawFiles = [
      { name: 'upper.stl', bytes: stlOf(upper) },
      { name: 'lower.stl', bytes: stlOf(lower) },
    ];
    jawLabel = 'generated jaws upper+lower';
  }
  jawLabel += ` (${jawFiles.map((f) => `${(triangleCount(f.bytes) / 1000).toFixed(0)}k`).join(' + ')} triangles)`;
  const jawOrder = await createOrder(base, login.token, 'Bench Jaws', jawFiles);
  const big = generatedJaws(4.62).upper;
  const bigStl = stlOf(big);
  const bigLabel = `generated upper jaw (${(triangleCount(bigStl) / 1e6).toFixed(2)}M triangles)`;
  const bigOrder = await createOrder(base, login.token, 'Bench Big', [{ name: 'upper.stl', bytes: bigStl }]);

  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: BROWSER_ARGS });
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  const now = Date.now();
  const session = { token: login.token, refreshToken: login.refreshToken, expiresAt: now + login.expire * 1000, refreshExpiresAt: now + login.refreshExpire * 1000 };
  await context.addInitScript((s) => {
    if (!localStorage.getItem('aw.session')) localStorage.setItem('aw.session', s);
  }, JSON.stringify(session));

  let page = await context.newPage();
  const rendererName = await renderer(page);
  log(`renderer: ${rendererName}`);
  row('renderer', '-', { renderer: rendererName });

  // ---- open: ours and the loader (drawn as the editor draws, and with its own default material),
  // alternating, in fresh pages of one context (HTTP cache warm after the first)
  if (only.has('open')) {
    type Peer = { downloadStart: number; downloadEnd: number; downloaded: number; parsed: number; shown: number; pickMs: number };
    const ours: { downloadStart: number; downloadEnd: number; shown: number; interactive: number }[] = [];
    const peers: Record<'editor' | 'default', Peer[]> = { editor: [], default: [] };
    let size = { width: 0, height: 0 };
    const openLoader = async (material: 'editor' | 'default'): Promise<Peer> => {
      await page.close();
      page = await context.newPage();
      await page.goto(`${base}${loaderPath}?orderId=${jawOrder}&width=${size.width}&height=${size.height}&material=${material}`, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as unknown as { benchLoader?: { done: boolean } }).benchLoader?.done, null, { polling: 100, timeout: 180_000 });
      const state = await page.evaluate(() => (window as unknown as { benchLoader: { error: string | null; pickMs: number; triangles: number } }).benchLoader);
      if (state.error) throw new Error(`loader page: ${state.error}`);
      const lm: Record<string, number> = { ...(await marks(page, ['loader:downloaded', 'loader:parsed', 'loader:shown'])), ...(await loadPhases(page)) };
      return { downloadStart: lm.downloadStart!, downloadEnd: lm.downloadEnd!, downloaded: lm['loader:downloaded']!, parsed: lm['loader:parsed']!, shown: lm['loader:shown']!, pickMs: state.pickMs };
    };
    for (let i = 0; i <= runs; i++) {
      await page.close();
      page = await context.newPage();
      const m = await openEditor(page, base, jawOrder);
      const box = await canvasBox(page);
      size = { width: Math.round(box.width), height: Math.round(box.height) };
      if (i > 0) ours.push({ downloadStart: m.downloadStart!, downloadEnd: m.downloadEnd!, shown: m['editor:models-shown']!, interactive: m['editor:interactive']! });
      const same = await openLoader('editor');
      const culled = await openLoader('default');
      if (i > 0) peers.editor.push(same), peers.default.push(culled);
      log(
        `  run ${i === 0 ? 'warm-up' : i}: ours scripts ${ms(m.scripts!)}, ${TRACE_MARKS.filter((k) => m[k] !== undefined).map((k) => `${k.slice(7)} ${ms(m[k]!)}`).join(', ')}, downloads ${ms(m.downloadStart!)}-${ms(m.downloadEnd!)}, shown ${ms(m['editor:models-shown']!)}, interactive ${ms(m['editor:interactive']!)} ms; ` +
          `loader downloads ${ms(same.downloadStart)}-${ms(same.downloadEnd)}, parsed ${ms(same.parsed)}, shown ${ms(same.shown)} ms (default material: parsed ${ms(culled.parsed)}, shown ${ms(culled.shown)})`,
      );
    }
    const pick = <T>(list: T[], f: (v: T) => number): number[] => list.map(f);
    row('open/ours', jawLabel, {
      canvas: `${size.width}x${size.height}`,
      download_start_ms: median(pick(ours, (r) => r.downloadStart)),
      download_end_ms: median(pick(ours, (r) => r.downloadEnd)),
      shown_ms: median(pick(ours, (r) => r.shown)),
      interactive_ms: median(pick(ours, (r) => r.interactive)),
      interactive_min_ms: Math.min(...pick(ours, (r) => r.interactive)),
      runs: ours.length,
    });
    for (const [name, peer] of [['open/babylon-loader', peers.editor], ['open/babylon-loader-culled', peers.default]] as const) {
      row(name, jawLabel, {
        download_start_ms: median(pick(peer, (r) => r.downloadStart)),
        download_end_ms: median(pick(peer, (r) => r.downloadEnd)),
        downloaded_ms: median(pick(peer, (r) => r.downloaded)),
        parsed_ms: median(pick(peer, (r) => r.parsed)),
        shown_ms: median(pick(peer, (r) => r.shown)),
        shown_min_ms: Math.min(...pick(peer, (r) => r.shown)),
        first_pick_ms: median(pick(peer, (r) => r.pickMs)),
        runs: peer.length,
      });
    }
  }

  // ---- orbit and brush on the 1M jaw
  if (only.has('orbit') || only.has('brush') || only.has('undercut')) {
    await page.close();
    page = await context.newPage();
    const m = await openEditor(page, base, bigOrder);
    row('open/ours', bigLabel, { shown_ms: m['editor:models-shown']!, interactive_ms: m['editor:interactive']!, runs: 1 });
    const box = await canvasBox(page);
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    await page.waitForTimeout(800);

    await startFrames(page);
    await page.waitForTimeout(1000);
    const idle = await stopFrames(page);
    row('frames/idle', bigLabel, { median_ms: median(idle), p95_ms: quantile(idle, 0.95), frames: idle.length });

    if (only.has('orbit')) {
      const r = Math.min(box.width, box.height) * 0.25;
      await startFrames(page);
      await drag(page, { x: cx, y: cy }, (k) => ({ x: cx + r * Math.sin(k * 2 * Math.PI), y: cy + r * 0.5 * Math.sin(k * 4 * Math.PI) }), quick ? 60 : 120);
      const frames = await stopFrames(page);
      row('frames/orbit', bigLabel, frameStats(frames));
      await page.keyboard.press('1'); // back to the front view
      await page.waitForTimeout(800);
    }

    if (only.has('brush')) {
      await page.locator('[data-testid="viewport"] canvas').focus();
      await page.keyboard.press('s');
      await page.waitForTimeout(300);
      // Across the incisors in the front view, where the jaw fills the centre of the view.
      const w = box.width * 0.12;
      await startFrames(page);
      const t0 = Date.now();
      await drag(page, { x: cx - w, y: cy }, (k) => ({ x: cx - w + 2 * w * k, y: cy + 6 * Math.sin(k * 6 * Math.PI) }), quick ? 40 : 80);
      const seconds = (Date.now() - t0) / 1000;
      const frames = await stopFrames(page);
      // The stroke is saved with the design: count its dabs.
      let dabs = 0;
      for (let i = 0; i < 50 && dabs === 0; i++) {
        await page.waitForTimeout(200);
        const saved = await api<{ data: { smoothing?: { dabs?: number[] }[] } } | null>(base, `/admin/design/getDesignData?orderId=${bigOrder}`, login.token);
        dabs = (saved?.data.smoothing ?? []).reduce((n, op) => n + (op.dabs?.length ?? 0) / 4, 0);
      }
      row('frames/brush', bigLabel, {
        ...frameStats(frames),
        dabs,
        dabs_per_s: dabs / seconds,
      });
      await page.keyboard.press('s');
    }

    if (only.has('undercut')) {
      const undercutRows = async (label: string): Promise<void> => {
        await page.getByTestId('heatmap-undercut').click();
        await page.waitForFunction(() => document.querySelector('[data-testid="analysis"]')?.getAttribute('data-status') === 'ready', null, { polling: 100, timeout: 180_000 });
        const tilt = page.getByLabel('Tilt front / back');
        const times: number[] = [];
        const computed: number[] = [];
        for (const angle of quick ? [10, 20] : [10, 20, 30, 20, 10]) {
          const before = (await page.evaluate(() => performance.getEntriesByName('analysis:painted', 'mark').length));
          await tilt.fill(String(angle));
          await tilt.blur();
          await page.waitForFunction((n) => performance.getEntriesByName('analysis:painted', 'mark').length > n, before, { polling: 50, timeout: 180_000 });
          const m2 = await marks(page, ['analysis:direction', 'analysis:computed', 'analysis:painted']);
          times.push(m2['analysis:painted']! - m2['analysis:direction']!);
          computed.push(m2['analysis:computed']! - m2['analysis:direction']!);
        }
        row('undercut/direction-change', label, {
          median_ms: median(times),
          min_ms: Math.min(...times),
          max_ms: Math.max(...times),
          computed_median_ms: median(computed),
          changes: times.length,
          debounce_ms: 250,
        });
        await page.getByTestId('heatmap-off').click();
      };
      await undercutRows(bigLabel);
      await page.close();
      page = await context.newPage();
      await openEditor(page, base, jawOrder);
      await undercutRows(`${jawLabel.split(' (')[0]}: upper`);
    }
  }
} finally {
  await browser?.close();
  if (server) stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------- report

if (!json) {
  log('');
  for (const r of rows) {
    const values = Object.entries(r.values)
      .map(([k, v]) => `${k}=${typeof v === 'number' ? ms(v) : v}`)
      .join('  ');
    log(`${r.name.padEnd(28)} ${r.input.padEnd(50)} ${values}`);
  }
}
log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; load average now ${loadavg().map((v) => v.toFixed(1)).join(' ')}`);
