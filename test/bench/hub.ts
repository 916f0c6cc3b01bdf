// `npm run bench:hub [-- --devices 1000 --jobs 500 --concurrency 20]`: the device hub under
// load. One back-end process (this one) with N simulated machines connected from another
// process (test/device-sim.ts); then bend jobs over HTTP and time each from the POST to the
// machine's ack as the hub records it. Memory per connected device is the growth of this
// process (heap + external, and RSS) from before the machines connect to after, divided by N.
//
// --database postgres://... runs it on PostgreSQL (a throw-away database); --processes 2 starts a
// second server process (tsx server/index.ts) on that database and connects half the machines to
// each. The timed jobs go to the machines on this process, half of them stored through the other
// one: their notice crosses processes by LISTEN/NOTIFY (docs/scaling.md). Memory per device is then
// this process's growth over its own N/2 machines.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../server/config.ts';
import { formatTime } from '../../server/core/clock.ts';
import { silentLogger } from '../../server/core/logger.ts';
import { startServer } from '../../server/index.ts';
import { throwawayDatabase } from './pg-database.ts';
import { newDeviceKey } from '../../server/modules/device/keys.ts';
import { collectGarbage, liveBytes } from './measure.ts';

const argv = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : def;
};
const N = opt('devices', 1000);
const JOBS = opt('jobs', 500);
const CONCURRENCY = opt('concurrency', 20);
const PROCESSES = opt('processes', 1);
const DATABASE = argv.includes('--database') ? argv[argv.indexOf('--database') + 1] : undefined;
if (PROCESSES !== 1 && PROCESSES !== 2) throw new Error('--processes is 1 or 2');
if (PROCESSES > 1 && !DATABASE?.startsWith('postgres')) throw new Error('--processes 2 needs --database postgres://...');
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-bench-hub-'));
  const password = 'bench-admin-pass-1';
  const pgDb = DATABASE ? await throwawayDatabase(DATABASE) : undefined;
  const env = {
    DATA_DIR: dir, CAPTCHA: 'off', ADMIN_PASSWORD: password, JWT_SECRET: 'bench-secret-that-is-long-enough', ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
  };
  const server = await startServer(loadConfig({ ...env, PORT: '0' }), { staticDir: dir, logger: silentLogger });
  const stopAll: Array<() => unknown> = [];
  try {
    // The other process, on the same database.
    let other: string | undefined;
    if (PROCESSES === 2) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
        cwd: ROOT,
        env: { ...process.env, ...env, PORT: '0', STATIC_DIR: dir },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      // Waited for: dropping the database under a process still shutting down cuts its connections.
      stopAll.push(() => new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }));
      other = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /Archwright listening on (http:\/\/\S+)/.exec(out);
          if (m?.[1]) resolve(m[1]);
        });
        child.once('exit', () => reject(new Error('the second process exited')));
      });
    }
    // Devices straight into the database: the bench is about the hub, not about 1,000 adds.
    const keys: string[] = [];
    const ids: number[] = [];
    const now = formatTime(Date.now());
    for (let i = 0; i < N; i++) {
      const { key, keyHash, keyHint } = await newDeviceKey();
      const row = await server.ctx.db
        .insertInto('device_info')
        .values({ devicename: `Bench ${i}`, personnelId: null, status: 0, remark: null, enableAI: 0, diameters: '0.8', memory: 1000, keyHash, keyHint, createTime: now, updateTime: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      keys.push(key);
      ids.push(row.id);
    }
    // Two processes: the first half of the machines on this one, the rest on the other.
    const here = PROCESSES === 2 ? N / 2 : N;
    const keysFile = path.join(dir, 'keys.txt');
    fs.writeFileSync(keysFile, keys.slice(0, here).join('\n') + '\n');
    const post = async (p: string, body: unknown, token?: string, through = server.url) => {
      const res = await fetch(through + p, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { code: number; message: string; data: any };
    };
    const { token } = (await post('/admin/base/open/login', { username: 'admin', password })).data;
    // Warm the paths once, then the baseline.
    await post('/admin/design/getQueueList', {}, token);
    collectGarbage();
    await sleep(200);
    collectGarbage();
    const before = { live: liveBytes(), rss: process.memoryUsage().rss };

    const t0 = performance.now();
    const sim = spawn(process.execPath, ['--import', 'tsx', 'test/device-sim.ts', '--devices', String(here), '--keys', keysFile, '--url', `ws://127.0.0.1:${server.port}/ws/device`, '--speed', '10', '--quiet'], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    stopAll.push(() => sim.kill('SIGTERM'));
    if (other) {
      const otherKeys = path.join(dir, 'keys-other.txt');
      fs.writeFileSync(otherKeys, keys.slice(here).join('\n') + '\n');
      const sim2 = spawn(process.execPath, ['--import', 'tsx', 'test/device-sim.ts', '--devices', String(N - here), '--keys', otherKeys, '--url', `${other.replace(/^http/, 'ws')}/ws/device`, '--speed', '10', '--quiet'], {
        cwd: ROOT,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      stopAll.push(() => sim2.kill('SIGTERM'));
    }
    const online = async () => Number((await server.ctx.db.selectFrom('device_link').select((eb) => eb.fn.countAll().as('n')).where('online', '=', 1).executeTakeFirst())?.n ?? 0);
    while (server.hub.connectedCount < here || (other && (await online()) < N)) {
      if (sim.exitCode !== null) throw new Error('the simulator exited');
      if (performance.now() - t0 > 120_000) throw new Error(`only ${await online()}/${N} connected after 120 s`);
      await sleep(100);
    }
    const connectS = (performance.now() - t0) / 1000;
    await sleep(1000);
    collectGarbage();
    await sleep(200);
    collectGarbage();
    const after = { live: liveBytes(), rss: process.memoryUsage().rss };

    // Bend -> ack latency, CONCURRENCY requests in flight, spread over all devices.
    const acked = new Map<string, number>();
    const off = server.hub.on((e) => {
      if (e.type === 'job' && e.status === 'acked') acked.set(e.jobId, performance.now());
    });
    stopAll.push(off);
    const started = new Map<string, number>();
    /** Jobs stored through the other process. */
    const crossed = new Set<string>();
    let next = 0;
    const steps = Array.from({ length: 12 }, (_, i) => ({ feed: 4 + i, rotate: 15 * i, bend: 35 }));
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < JOBS) {
          const n = next++;
          const t = performance.now();
          const through = other && n % 2 === 1 ? other : server.url;
          const r = await post('/admin/design/bend', { deviceId: ids[(n * 7919) % here], wire: { type: 'labialBow', diameter: 0.8 }, steps }, token, through);
          if (r.code !== 1000) throw new Error(r.message);
          started.set(r.data.jobId, t);
          if (through !== server.url) crossed.add(r.data.jobId);
        }
      }),
    );
    const t1 = performance.now();
    while (acked.size < JOBS && performance.now() - t1 < 30_000) await sleep(20);
    const latencies = (which: (jobId: string) => boolean) =>
      [...started].filter(([jobId]) => which(jobId)).map(([jobId, t]) => (acked.get(jobId) ?? NaN) - t).filter(Number.isFinite).sort((a, b) => a - b);
    const lat = latencies(() => true);
    const split = other
      ? [latencies((j) => !crossed.has(j)), latencies((j) => crossed.has(j))].flatMap((l, i) => [
          [`  stored through ${i ? 'the other process' : 'this process'}: p50 / p99`, `${pct(l, 50).toFixed(1)} / ${pct(l, 99).toFixed(1)} ms (${l.length} jobs)`],
        ])
      : [];
    const rows = [
      ['database, processes', `${pgDb ? 'PostgreSQL' : 'SQLite'}, ${PROCESSES}`],
      ['devices connected', `${N}${other ? ` (${here} on each process)` : ''} (in ${connectS.toFixed(1)} s)`],
      ['jobs acked', `${lat.length}/${JOBS} (${CONCURRENCY} in flight)`],
      ['bend -> ack p50', `${pct(lat, 50).toFixed(1)} ms`],
      ['bend -> ack p99', `${pct(lat, 99).toFixed(1)} ms`],
      ['bend -> ack max', `${lat[lat.length - 1]!.toFixed(1)} ms`],
      ...split,
      ['memory per device (heap+external)', `${((after.live - before.live) / here / 1024).toFixed(1)} KiB (${mb(before.live)} -> ${mb(after.live)} MiB)`],
      ['memory per device (RSS)', `${((after.rss - before.rss) / here / 1024).toFixed(1)} KiB (${mb(before.rss)} -> ${mb(after.rss)} MiB)`],
    ];
    const w = Math.max(...rows.map((r) => r[0]!.length));
    console.log(`\nDevice hub bench (Node ${process.version}, ${os.cpus().length} CPUs)`);
    for (const [k, v] of rows) console.log(`${k!.padEnd(w)}  ${v}`);
  } finally {
    await Promise.all(stopAll.map((s) => s()));
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await pgDb?.drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
