// `npm run bench:load [-- --clients 200 --seconds 12]`: the back end under concurrent users.
//
// A real server (server/start.ts in a child process, so that the clients here do not share its
// event loop) on a free loopback port, with a throw-away DATA_DIR under test/.tmp and CAPTCHA off.
// Designers are seeded with orders; then N clients, each signed in as one of them, run a fixed mix
// for a fixed time: the order list page, the user list page, an order's info and now and then a
// small STL upload; every client signs in again every SIGN_IN_EVERY requests (correct passwords,
// so the login throttle never bites). Printed per kind: requests per second, p50/p99 latency and
// the errors by what they were.
//
// Beside them, the ceiling: the SQL that one request of the kind runs (recorded from an in-process
// app.request, the same handler and the same database), replayed back to back in this process, no
// HTTP, no JSON, no routing. "ratio" is the HTTP rate over that ceiling; the goal is a third or
// more for the list pages, with no errors at 200 clients.
//
// Bounded: at most --clients clients (1..1000) for --seconds (1..120), loopback only; the data
// folder goes afterwards (--keep keeps it). --profile DIR has the server write a CPU profile.
//
// --database postgres://... runs it on PostgreSQL instead (a throw-away database created on that
// server and dropped afterwards), and --processes N (1..8, PostgreSQL only) starts N servers on
// one database, the clients spread over them in turn (docs/scaling.md).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { CompiledQuery } from 'kysely';
import { createApp } from '../../server/app.ts';
import { createContext } from '../../server/bootstrap.ts';
import { loadConfig } from '../../server/config.ts';
import { silentLogger } from '../../server/core/logger.ts';
import { createDb } from '../../server/db/index.ts';
import { cubeStl } from '../fixtures/stl.ts';
import { throwawayDatabase } from './pg-database.ts';

const argv = process.argv.slice(2);
const opt = (name: string, def: number, min: number, max: number) => {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return def;
  const raw = argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer from ${min} to ${max}`);
  return n;
};
const CLIENTS = opt('clients', 200, 1, 1000);
const PROCESSES = opt('processes', 1, 1, 8);
const DATABASE = argv.includes('--database') ? argv[argv.indexOf('--database') + 1] : undefined;
if (DATABASE !== undefined && !/^postgres(ql)?:\/\//.test(DATABASE)) throw new Error('--database must be a postgres:// URL');
if (PROCESSES > 1 && !DATABASE) throw new Error('--processes above 1 needs --database postgres://...');
const SECONDS = opt('seconds', 12, 1, 120);
const USERS = Math.min(20, CLIENTS);
const ORDERS = 300;
const SIGN_IN_EVERY = 50;
const KEEP = argv.includes('--keep');
/** --profile DIR: the server writes a CPU profile (.cpuprofile, for Chrome's DevTools) into DIR. */
const PROFILE = argv.includes('--profile') ? argv[argv.indexOf('--profile') + 1] : undefined;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ADMIN_PASSWORD = 'load-Admin-pass-1';
const USER_PASSWORD = 'load-User-pass-1';

type Kind = 'signIn' | 'orderPage' | 'userPage' | 'orderInfo' | 'upload' | 'floor';
const KINDS: Kind[] = ['signIn', 'orderPage', 'userPage', 'orderInfo', 'upload'];
/** A client's cycle; it starts at its own offset so that the kinds interleave. */
const CYCLE: Kind[] = ['orderPage', 'userPage', 'orderInfo', 'orderPage', 'userPage', 'orderInfo', 'orderPage', 'userPage', 'orderInfo', 'upload'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

interface Reply {
  status: number;
  code: number | null;
  data: any;
}

function client(base: string) {
  const call = async (method: 'GET' | 'POST', p: string, token: string | null, body?: unknown): Promise<Reply> => {
    const headers: Record<string, string> = { 'Accept-Language': 'en' };
    if (token) headers.Authorization = token;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(base + p, { method, headers, body: payload });
    const text = await res.text();
    let json: { code?: number; data?: unknown } | null = null;
    try {
      json = JSON.parse(text) as { code?: number; data?: unknown };
    } catch {
      // Not an envelope: counted by its status.
    }
    return { status: res.status, code: typeof json?.code === 'number' ? json.code : null, data: json?.data };
  };
  return call;
}

async function waitForServer(base: string, child: ChildProcess, output: () => string): Promise<void> {
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${base}/version.json`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error(`the server did not answer within 90 s:\n${output()}`);
}

const STL = cubeStl({ size: 12 });
const stlForm = () => {
  const form = new FormData();
  form.append('kind', 'model');
  form.append('file', new File([STL], 'load.stl', { type: 'model/stl' }));
  return form;
};

/** The role of the load's designers: their orders, files, and the user list. */
const PERMS = ['order:info:add', 'order:info:info', 'order:info:page', 'order:info:list', 'base:sys:user:page'];

async function seed(env: Record<string, string>, call: ReturnType<typeof client>) {
  // The role straight into the database (the API takes menu ids, not permission strings).
  const db = createDb(loadConfig(env));
  const now = '2026-01-01 00:00:00';
  const role = await db.insertInto('base_sys_role').values({ name: 'load', label: 'load', remark: null, createTime: now, updateTime: now }).returning('id').executeTakeFirstOrThrow();
  const menus = await db.selectFrom('base_sys_menu').select(['id', 'perms']).where('type', '=', 2).execute();
  for (const perm of PERMS) {
    const menu = menus.find((m) => (m.perms ?? '').split(',').includes(perm));
    if (!menu) throw new Error(`no seeded menu holds ${perm}`);
    await db.insertInto('base_sys_role_menu').values({ roleId: role.id, menuId: menu.id }).onConflict((oc) => oc.doNothing()).execute();
  }
  await db.destroy();

  const login = async (username: string, password: string) => {
    const r = await call('POST', '/admin/base/open/login', null, { username, password });
    if (r.code !== 1000) throw new Error(`sign-in of ${username} failed: ${r.status} ${r.code}`);
    return r.data.token as string;
  };
  const admin = await login('admin', ADMIN_PASSWORD);
  const names: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const username = `designer${i}`;
    const r = await call('POST', '/admin/base/sys/user/add', admin, { username, password: USER_PASSWORD, name: username, nickName: username, status: 1, roleIdList: [role.id] });
    if (r.code !== 1000) throw new Error(`adding ${username} failed: ${JSON.stringify(r)}`);
    names.push(username);
  }
  // Each designer: one model, and their share of the orders (the list pages show their own).
  const orderIds: number[][] = [];
  for (const username of names) {
    const token = await login(username, USER_PASSWORD);
    const up = await call('POST', '/admin/base/comm/upload', token, stlForm());
    if (up.code !== 1000) throw new Error(`seed upload failed: ${JSON.stringify(up)}`);
    const ids: number[] = [];
    for (let o = 0; o < ORDERS / USERS; o++) {
      const r = await call('POST', '/admin/order/info/add', token, { patientName: `Patient ${username}-${o}`, remark: 'load', upper: up.data[0].id });
      if (r.code !== 1000) throw new Error(`seed order failed: ${JSON.stringify(r)}`);
      ids.push(r.data.id);
    }
    orderIds.push(ids);
  }
  return { names, orderIds };
}

interface Stats {
  ms: number[];
  errors: Map<string, number>;
}

/** The mix (every kind), or the list pages alone (what the ceiling's ratio is about). */
async function runClients(bases: string[], names: string[], orderIds: number[][], cycle: Kind[], seconds: number, given?: (string | undefined)[]) {
  const tokens: (string | undefined)[] = [];
  const calls = bases.map(client);
  const stats = new Map<Kind, Stats>([...KINDS, 'floor' as const].map((k) => [k, { ms: [], errors: new Map() }]));
  const record = (kind: Kind, started: number, r: Reply | Error): Reply | null => {
    const s = stats.get(kind)!;
    s.ms.push(performance.now() - started);
    const why = r instanceof Error ? `network: ${r.message}` : r.status !== 200 ? `HTTP ${r.status}` : r.code !== 1000 ? `code ${r.code}` : null;
    if (why) s.errors.set(why, (s.errors.get(why) ?? 0) + 1);
    return why || r instanceof Error ? null : r;
  };
  const timed = async (kind: Kind, run: () => Promise<Reply>): Promise<Reply | null> => {
    const started = performance.now();
    try {
      return record(kind, started, await run());
    } catch (err) {
      return record(kind, started, err instanceof Error ? err : new Error(String(err)));
    }
  };
  let end = Infinity;
  const one = async (c: number) => {
    const user = c % names.length;
    const username = names[user]!;
    const mine = orderIds[user]!;
    // Client c talks to server c mod N (a balancer's round robin).
    const call = calls[c % calls.length]!;
    const signIn = async () => (await timed('signIn', () => call('POST', '/admin/base/open/login', null, { username, password: USER_PASSWORD })))?.data?.token as string | undefined;
    // Given sessions (the list phase) are kept; the mix signs in again now and then.
    let token = given ? given[c] : await signIn();
    for (let i = c; performance.now() < end; i++) {
      if (!token || (!given && (i - c) % SIGN_IN_EVERY === SIGN_IN_EVERY - 1)) {
        token = await signIn();
        if (!token) continue;
      }
      const kind = cycle[i % cycle.length]!;
      if (kind === 'orderPage') await timed(kind, () => call('POST', '/admin/order/info/page', token!, { page: 1 + (i % 3), size: 20, order: 'createTime', sort: 'desc' }));
      else if (kind === 'userPage') await timed(kind, () => call('POST', '/admin/base/sys/user/page', token!, { page: 1, size: 20 }));
      else if (kind === 'orderInfo') await timed(kind, () => call('GET', `/admin/order/info/info?id=${mine[i % mine.length]}`, token!));
      else if (kind === 'floor') await timed(kind, () => call('GET', '/admin/base/comm/uploadMode', token!));
      else await timed(kind, () => call('POST', '/admin/base/comm/upload', token!, stlForm()));
    }
    tokens[c] = token;
  };
  // Clients sign in as they start, then run for SECONDS from when the last one started.
  const started = performance.now();
  end = started + seconds * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => one(c)));
  const elapsed = (performance.now() - started) / 1000;
  return { stats, elapsed, tokens };
}

/**
 * The ceiling: the SQL of one request of each kind, recorded from an in-process app.request on
 * the same database, then replayed back to back for `seconds`.
 */
async function ceiling(env: Record<string, string>, names: string[], orderIds: number[][], seconds: number) {
  const config = loadConfig({ ...env, CAPTCHA: 'off', JWT_SECRET: 'load-secret-that-is-long-enough-0123456789' });
  const base = createContext(config, { logger: silentLogger });
  await base.db.destroy();
  let recording: CompiledQuery[] | null = null;
  // The server's own database layer (statement cache included), with a query log.
  const db = createDb(config, (event) => {
    if (recording && event.level === 'query') recording.push(event.query);
  });
  const ctx = { ...base, db };
  const app = createApp(ctx);
  const req = async (method: string, p: string, token: string | null, body?: unknown) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = token;
    const res = await app.request(p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as { code: number; data: any };
  };
  const { token } = (await req('POST', '/admin/base/open/login', null, { username: names[0], password: USER_PASSWORD })).data;
  const kinds: [Kind, () => Promise<unknown>][] = [
    ['orderPage', () => req('POST', '/admin/order/info/page', token, { page: 2, size: 20, order: 'createTime', sort: 'desc' })],
    ['userPage', () => req('POST', '/admin/base/sys/user/page', token, { page: 1, size: 20 })],
    ['orderInfo', () => req('GET', `/admin/order/info/info?id=${orderIds[0]![3]}`, token)],
  ];
  const out = new Map<Kind, { rps: number; statements: number; appRps: number }>();
  for (const [kind, run] of kinds) {
    await run();
    recording = [];
    await run();
    const queries = recording;
    recording = null;
    let n = 0;
    const until = performance.now() + seconds * 1000;
    const t0 = performance.now();
    while (performance.now() < until) {
      for (const q of queries) await db.executeQuery(q);
      n++;
    }
    const rps = n / ((performance.now() - t0) / 1000);
    // The whole handler in-process (no sockets), for reference.
    let m = 0;
    const until2 = performance.now() + (seconds / 2) * 1000;
    const t1 = performance.now();
    while (performance.now() < until2) {
      await run();
      m++;
    }
    out.set(kind, { rps, statements: queries.length, appRps: m / ((performance.now() - t1) / 1000) });
  }
  await db.destroy();
  return out;
}

/** CPU milliseconds (user + system) the server processes have used so far; undefined off Linux. */
function serverCpu(pids: number[]): () => number | undefined {
  const tick = 1000 / 100; // USER_HZ
  return () => {
    try {
      let sum = 0;
      for (const pid of pids) {
        const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        sum += (Number(fields[11]) + Number(fields[12])) * tick;
      }
      return sum;
    } catch {
      return undefined;
    }
  };
}

async function main() {
  fs.mkdirSync(path.join(ROOT, 'test/.tmp'), { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(ROOT, 'test/.tmp/load-'));
  const pgDb = DATABASE ? await throwawayDatabase(DATABASE) : undefined;
  const env: Record<string, string> = { DATA_DIR: dataDir, ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) };
  let output = '';
  const profile = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROFILE)}`] : [];
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-4000);
  };
  const children: ChildProcess[] = [];
  const bases: string[] = [];
  const startOne = async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'server/start.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        CAPTCHA: 'off',
        ADMIN_PASSWORD,
        JWT_SECRET: 'load-secret-that-is-long-enough-0123456789',
        // What server/start.ts would respawn itself with; set here, the child is the server itself.
        UV_THREADPOOL_SIZE: '16',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    children.push(child);
    bases.push(base);
    await waitForServer(base, child, () => output);
  };
  const stopAll = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null) return;
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }),
    );
  };
  try {
    // The first migrates and seeds; the others join it.
    await startOne();
    await Promise.all(Array.from({ length: PROCESSES - 1 }, startOne));
    const base = bases.join(', ');
    const call = client(bases[0]!);
    const { names, orderIds } = await seed(env, call);
    console.log(`# Load: ${CLIENTS} clients for ${SECONDS} s against ${base} (${PROCESSES} process${PROCESSES > 1 ? 'es' : ''} on ${pgDb ? 'PostgreSQL' : 'SQLite'})`);
    console.log(`- machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; Node ${process.version}`);
    console.log(`- seeded: ${names.length} designers, ${ORDERS} orders; mix per client: ${CYCLE.join(', ')}; sign-in every ${SIGN_IN_EVERY} requests`);
    const cpu = serverCpu(children.map((c) => c.pid!));
    const { stats, elapsed, tokens } = await runClients(bases, names, orderIds, CYCLE, SECONDS);
    // Each list page alone, so that its rate is comparable with its ceiling; then the floor.
    const alone = new Map<Kind, { stats: Map<Kind, Stats>; elapsed: number; cpuMs: number | undefined }>();
    for (const kind of ['orderPage', 'userPage', 'floor'] as const) {
      const before = cpu();
      const run = await runClients(bases, names, orderIds, [kind], Math.max(3, Math.round(SECONDS / 3)), tokens);
      const after = cpu();
      const n = run.stats.get(kind)!.ms.length;
      alone.set(kind, { ...run, cpuMs: before !== undefined && after !== undefined && n ? (after - before) / n : undefined });
    }
    const loadAfter = os.loadavg()[0]!.toFixed(1);
    await stopAll();
    const top = await ceiling(env, names, orderIds, Math.max(2, Math.min(5, SECONDS / 3)));

    const table = (stats: Map<Kind, Stats>, elapsed: number, kinds: Kind[]) => {
      const rows: string[][] = [];
      let errors = 0;
      let total = 0;
      for (const kind of kinds) {
        const s = stats.get(kind)!;
        const sorted = [...s.ms].sort((a, b) => a - b);
        const rps = s.ms.length / elapsed;
        errors += [...s.errors.values()].reduce((a, b) => a + b, 0);
        total += s.ms.length;
        const c = top.get(kind);
        rows.push([
          kind,
          String(s.ms.length),
          rps.toFixed(0),
          pct(sorted, 50).toFixed(0),
          pct(sorted, 99).toFixed(0),
          [...s.errors].map(([why, n]) => `${n} × ${why}`).join('; ') || '0',
          c ? `${c.rps.toFixed(0)} (${c.statements} statements)` : '—',
          c ? (rps / c.rps).toFixed(2) : '—',
          c ? c.appRps.toFixed(0) : '—',
          c ? (rps / c.appRps).toFixed(2) : '—',
        ]);
      }
      const head = ['kind', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'ceiling: its SQL only, req/s', 'ratio', 'ceiling: app in-process, req/s', 'ratio'];
      console.log('');
      console.log(`| ${head.join(' | ')} |`);
      console.log(`|${head.map((_, i) => (i === 0 || i === 5 ? '---' : '---:')).join('|')}|`);
      for (const r of rows) console.log(`| ${r.join(' | ')} |`);
      console.log('');
      console.log(`${total} requests in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)} req/s), ${errors} errors.`);
      return errors;
    };
    console.log('\n## The mix');
    let errors = table(stats, elapsed, KINDS);
    console.log('\n## One kind at a time (the same clients, signed in)');
    for (const [kind, run] of alone) {
      errors += table(run.stats, run.elapsed, [kind]);
      if (run.cpuMs !== undefined) console.log(`Server CPU per request: ${run.cpuMs.toFixed(3)} ms.`);
    }
    console.log('');
    console.log(`Load average after: ${loadAfter}. ratio = the kind's HTTP req/s over a ceiling, both measured on this machine`);
    console.log('(the ceilings after the server stopped: one core each, the SQL or the handler called back to back).');
    console.log('floor = GET /admin/base/comm/uploadMode: the token check, the request log and a constant answer, the');
    console.log('lightest signed-in call: what any route can reach through HTTP with these clients on this machine.');
    if (errors > 0) process.exitCode = 1;
  } finally {
    await stopAll();
    if (!KEEP) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await pgDb?.drop();
    }
    else console.log(`data kept in ${dataDir}`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
