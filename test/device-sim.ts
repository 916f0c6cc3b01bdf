// Simulated wire-bending machines for the device hub (docs/device-bridge.md): real `ws` clients
// that follow /work/shared/device-protocol.md. Tests import SimDevice; the CLI
// (`npm run device:sim -- --devices N`) runs N of them in their own process.
//
// A simulated machine acks every job, remembers job ids (a repeated job is acked again and never
// bent twice), bends one job at a time with progress per step, reports done or failed, sends its
// status at least every 30 s (with the job it is bending), answers pings, reconnects after a
// drop or a lost server with a growing delay until it is stopped, and after each welcome reports
// again the outcomes of the jobs the welcome lists as awaited (the report may have been lost with
// the connection; the server ignores repeats).
//
// Like a real machine's calibration app (docs/devices.md, "Calibration"), it can sign in over HTTP
// with its key, read its configuration (die, bending head, springback tables) and upload the
// springback it measures on its simulated wire. Once it has read its configuration it sweeps each
// job through its own head (the kernels' collision check) and refuses, as `failed` with code
// `collision`, a job that would hit the head.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import type { HeadBox } from '../common/bend-program.ts';
import type { SpringbackMeasurement } from '../common/springback.ts';
import { instantiateKernels, type KernelExports } from '../workers/kernels/abi.ts';
import { bendCollision, type BendCollision, type BendStep } from '../workers/kernels/bend.ts';

export interface SimOptions {
  url: string;
  key: string;
  serial?: string;
  diameters?: number[];
  memory?: number;
  /** Milliseconds per bend step (a real machine: ~300). */
  stepMs?: number;
  /** Probability that a job fails on the machine. */
  failRate?: number;
  /** Probability, per message received, that the machine drops its connection right after it. */
  dropRate?: number;
  /** Delay before reconnecting after a drop; it doubles (with jitter) while the server stays away. */
  reconnectMs?: number;
  /** The longest delay between two connection attempts. */
  reconnectMaxMs?: number;
  /** The reconnect timer keeps the Node process alive (the CLI); tests leave it off. */
  keepAlive?: boolean;
  /** Status heartbeat period (protocol: at least every 30 s). */
  statusMs?: number;
  /** Send the key in the Authorization header instead of hello. */
  headerAuth?: boolean;
  random?: () => number;
  log?: (line: string) => void;
}

/** What GET /admin/device/info/config answers (the part the machine uses). */
export interface SimConfig {
  id: number;
  devicename: string;
  diameterList: number[];
  dieRadius: number;
  head: HeadBox[];
  headDefault: boolean;
  springback: { diameter: number; table: [number, number][] }[];
}

/** The envelope of an HTTP reply. */
export interface SimReply<T = any> {
  status: number;
  code: number;
  message: string;
  data: T;
}

/**
 * The simulated wire's springback: bent to c degrees, it keeps c * (1 - 0.06 * d) - 0.5 (d the
 * diameter, mm): thicker wire springs back more.
 */
export function simulatedKept(commanded: number, diameter: number): number {
  return Math.max(0, commanded * (1 - 0.06 * diameter) - 0.5);
}

const WASM = fileURLToPath(new URL('../build/kernels.wasm', import.meta.url));
let kernels: Promise<KernelExports> | undefined;
const loadKernels = () => (kernels ??= instantiateKernels(fs.readFileSync(WASM)));

interface SimJob {
  jobId: string;
  steps: number;
  program?: BendStep[];
  diameter?: number;
  outcome?: { type: 'done'; ms: number } | { type: 'failed'; code: string; message: string };
  cancelled?: boolean;
}

export class SimDevice {
  /** Every job id this machine bent, in order: a job appears here at most once. */
  readonly bent: string[] = [];
  /** Times each job id was received (repeats included). */
  readonly received = new Map<string, number>();
  readonly messages: Array<Record<string, unknown>> = [];
  readonly closes: number[] = [];
  deviceId?: number;
  welcomed = 0;
  /** The configuration last read with a calibration token; the machine's head comes from it. */
  config?: SimConfig;
  /** The collision its own head check found, per job refused for it. */
  readonly collisions = new Map<string, BendCollision>();
  private ws?: WebSocket;
  private readonly jobs = new Map<string, SimJob>();
  private readonly queue: SimJob[] = [];
  private busy = false;
  private stopped = false;
  private statusTimer?: NodeJS.Timeout;
  private reconnectTimer?: NodeJS.Timeout;
  /** Connection attempts since the last welcome. */
  private attempts = 0;
  private current?: SimJob;
  private readonly o: Required<Omit<SimOptions, 'log'>> & { log?: (line: string) => void };

  constructor(opts: SimOptions) {
    this.o = {
      serial: 'SIM-' + opts.key.slice(-6),
      diameters: [0.7, 0.8, 0.9, 1],
      memory: 1000,
      stepMs: 300,
      failRate: 0,
      dropRate: 0,
      reconnectMs: 200,
      reconnectMaxMs: 10_000,
      keepAlive: false,
      statusMs: 30_000,
      headerAuth: false,
      random: Math.random,
      ...opts,
    };
  }

  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN && this.welcomed > 0;
  }

  /** Connects (and keeps reconnecting until stop()); resolves on the first welcome or close. */
  start(): Promise<void> {
    this.stopped = false;
    return new Promise((resolve) => this.connect(resolve));
  }

  private connect(first?: () => void) {
    if (this.stopped) return;
    const headers: Record<string, string> = this.o.headerAuth ? { Authorization: `Device ${this.o.key}` } : {};
    const ws = new WebSocket(this.o.url, { headers });
    this.ws = ws;
    ws.on('open', () => {
      this.send({
        type: 'hello',
        ...(this.o.headerAuth ? {} : { key: this.o.key }),
        serial: this.o.serial,
        firmware: 'sim-1.0',
        diameters: this.o.diameters,
        memory: this.o.memory,
        protocol: 1,
      });
    });
    ws.on('message', (data) => {
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return;
      }
      this.messages.push(msg);
      this.onMessage(msg, first);
      if (this.o.dropRate > 0 && this.o.random() < this.o.dropRate) this.drop();
    });
    ws.on('close', (code) => {
      this.closes.push(code);
      clearInterval(this.statusTimer);
      first?.();
      first = undefined;
      // Bad key or replaced by another connection with the same key: do not fight it.
      if (code === 4003 || code === 4001 || this.stopped) return;
      this.scheduleReconnect();
    });
    ws.on('error', () => {});
  }

  /** The next attempt: reconnectMs, doubling per failed attempt up to reconnectMaxMs, ±20 %. */
  private scheduleReconnect() {
    const base = Math.min(this.o.reconnectMaxMs, this.o.reconnectMs * 2 ** Math.min(this.attempts, 20));
    this.attempts++;
    const delay = base * (0.8 + 0.4 * this.o.random());
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
    if (!this.o.keepAlive) this.reconnectTimer.unref();
  }

  private send(msg: object) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  private status() {
    this.send({ type: 'status', state: this.busy ? 'bending' : 'idle', ...(this.current ? { jobId: this.current.jobId } : {}) });
  }

  private onMessage(msg: Record<string, unknown>, first?: () => void) {
    switch (msg.type) {
      case 'welcome': {
        this.welcomed++;
        this.attempts = 0;
        this.deviceId = msg.deviceId as number;
        this.status();
        clearInterval(this.statusTimer);
        this.statusTimer = setInterval(() => this.status(), this.o.statusMs);
        this.statusTimer.unref();
        // The outcomes the server may have lost: those it lists as awaited, or (a server that does
        // not list them) every one this machine knows.
        const awaiting = Array.isArray(msg.awaiting) ? new Set(msg.awaiting.map(String)) : undefined;
        for (const job of this.jobs.values()) if (job.outcome && (!awaiting || awaiting.has(job.jobId))) this.send({ jobId: job.jobId, ...job.outcome });
        first?.();
        return;
      }
      case 'ping':
        this.send({ type: 'pong', t: msg.t });
        return;
      case 'job': {
        const jobId = String(msg.jobId);
        this.received.set(jobId, (this.received.get(jobId) ?? 0) + 1);
        const known = this.jobs.get(jobId);
        this.send({ type: 'ack', jobId });
        if (known) {
          // Already have it: acked again above; if it is finished, say so again.
          if (known.outcome) this.send({ jobId, ...known.outcome });
          return;
        }
        const steps = Array.isArray(msg.steps) ? msg.steps.length : 0;
        const job: SimJob = { jobId, steps, program: Array.isArray(msg.steps) ? (msg.steps as BendStep[]) : [], diameter: Number((msg.wire as { diameter?: unknown } | undefined)?.diameter) };
        this.jobs.set(jobId, job);
        this.queue.push(job);
        void this.work();
        return;
      }
      case 'cancel': {
        const job = this.jobs.get(String(msg.jobId));
        if (job && !job.outcome && this.queue.includes(job)) {
          job.cancelled = true;
          this.queue.splice(this.queue.indexOf(job), 1);
        }
        return;
      }
      default:
        return;
    }
  }

  private async work() {
    if (this.busy) return;
    this.busy = true;
    this.status();
    while (this.queue.length) {
      const job = this.queue.shift()!;
      if (job.cancelled) continue;
      this.bent.push(job.jobId);
      this.current = job;
      const t0 = Date.now();
      // A machine that knows its head does not bend into it: the sweep runs before the first step.
      const hit = await this.collision(job);
      for (let step = 1; step <= job.steps && !hit; step++) {
        await new Promise((r) => setTimeout(r, this.o.stepMs));
        this.send({ type: 'progress', jobId: job.jobId, step, steps: job.steps });
      }
      if (hit) this.collisions.set(job.jobId, hit);
      job.outcome = hit
        ? { type: 'failed', code: 'collision', message: `step ${hit.step + 1} would hit the bending head (${hit.phase})` }
        : this.o.random() < this.o.failRate
          ? { type: 'failed', code: 'collision', message: 'simulated failure: the bending head hit the wire' }
          : { type: 'done', ms: Date.now() - t0 };
      this.current = undefined;
      this.send({ jobId: job.jobId, ...job.outcome });
      this.o.log?.(`${this.o.serial}: ${job.outcome.type} ${job.jobId}`);
    }
    this.busy = false;
    this.status();
  }

  /** The first contact of a job's program with this machine's head, when its configuration is known. */
  private async collision(job: SimJob): Promise<BendCollision | null> {
    const config = this.config;
    if (!config || !job.program?.length) return null;
    const diameter = job.diameter && job.diameter > 0 ? job.diameter : 0.8;
    const table = config.springback.find((s) => Math.abs(s.diameter - diameter) < 1e-6)?.table;
    try {
      return bendCollision(await loadKernels(), job.program, { radius: config.dieRadius, diameter, head: config.head, ...(table ? { springback: table } : {}) });
    } catch {
      // A program the kernels cannot replay is not this check's to refuse.
      return null;
    }
  }

  /** The server's HTTP address, from the hub's WebSocket URL. */
  get httpBase(): string {
    return this.o.url.replace(/^ws/, 'http').replace(/\/ws\/device$/, '');
  }

  /** One HTTP call of the calibration app (JSON body for POST, query for GET). */
  async http<T = any>(method: 'GET' | 'POST', p: string, body?: unknown, token?: string): Promise<SimReply<T>> {
    const res = await fetch(this.httpBase + p, {
      method,
      headers: { 'Accept-Language': 'en', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...(token ? { Authorization: token } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as { code: number; message: string; data: T };
    return { status: res.status, ...json };
  }

  /** The calibration app's sign-in with this machine's key (deviceId: the welcome's, unless given). */
  calibrationLogin(key = this.o.key, deviceId = this.deviceId): Promise<SimReply<{ token: string; expire: number; deviceId: number }>> {
    return this.http('POST', '/admin/base/open/calibration/login', { deviceId, key });
  }

  /** Reads the machine's configuration with a calibration token and keeps it (its head, its tables). */
  async readConfig(token: string): Promise<SimReply<SimConfig>> {
    const r = await this.http<SimConfig>('GET', '/admin/device/info/config', undefined, token);
    if (r.code === 1000) this.config = r.data;
    return r;
  }

  /** Bends the calibration angles on the simulated wire and measures what it keeps. */
  measure(diameter: number, angles: readonly number[] = [10, 30, 45, 60, 90, 120, 150, 170]): SpringbackMeasurement[] {
    return angles.map((commanded) => ({ commanded, measured: Math.round(simulatedKept(commanded, diameter) * 100) / 100 }));
  }

  /** The whole calibration: sign in, read the configuration, upload the measured springback of each diameter, read it again. */
  async calibrate(diameters?: readonly number[]): Promise<SimConfig> {
    const login = await this.calibrationLogin();
    if (login.code !== 1000) throw new Error(`calibration login: ${login.message}`);
    const { token } = login.data;
    const before = await this.readConfig(token);
    if (before.code !== 1000) throw new Error(`device config: ${before.message}`);
    for (const diameter of diameters ?? before.data.diameterList) {
      const up = await this.http('POST', '/admin/device/config/calibrate', { diameter, points: this.measure(diameter) }, token);
      if (up.code !== 1000) throw new Error(`springback upload (${diameter} mm): ${up.message}`);
    }
    return (await this.readConfig(token)).data;
  }

  /** Cuts the connection without a close handshake; the machine reconnects. */
  drop() {
    this.ws?.terminate();
  }

  /** Sends a raw frame (tests of malformed input). */
  raw(data: string) {
    this.ws?.send(data);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.statusTimer);
    clearTimeout(this.reconnectTimer);
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.close(1000);
      setTimeout(() => {
        ws.terminate();
        resolve();
      }, 500).unref();
    });
  }

  /** Resolves once no job is waiting or being bent. */
  idle(): boolean {
    return !this.busy && this.queue.length === 0;
  }
}

// ---- CLI ----------------------------------------------------------------------------------

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function createKeys(httpBase: string, n: number, user: string, password: string): Promise<string[]> {
  const post = async (p: string, body: unknown, token?: string) => {
    const res = await fetch(httpBase + p, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; message: string; data: any };
    if (json.code !== 1000) throw new Error(`${p}: ${json.message}`);
    return json.data;
  };
  const { token } = await post('/admin/base/open/login', { username: user, password });
  const keys: string[] = [];
  const stamp = new Date().toISOString().slice(0, 19);
  for (let i = 0; i < n; i++) {
    const d = await post('/admin/device/info/add', { devicename: `Simulated ${stamp} #${i + 1}`, diameters: [0.7, 0.8, 0.9, 1], memory: 1000, remark: 'device:sim' }, token);
    keys.push(d.key ?? d.deviceKey);
  }
  return keys;
}

export async function main(argv = process.argv.slice(2)) {
  const n = Number(arg(argv, 'devices') ?? 1);
  const url = arg(argv, 'url') ?? process.env.DEVICE_HUB_URL ?? 'ws://127.0.0.1:8787/ws/device';
  const keysFile = arg(argv, 'keys');
  const speed = Number(arg(argv, 'speed') ?? 1);
  const failRate = Number(arg(argv, 'fail-rate') ?? 0);
  const dropRate = Number(arg(argv, 'drop-rate') ?? 0);
  const quiet = argv.includes('--quiet');
  const reconnectMaxMs = Number(arg(argv, 'reconnect-max-ms') ?? 10_000);
  let keys: string[] = keysFile && fs.existsSync(keysFile) ? fs.readFileSync(keysFile, 'utf8').split('\n').map((s) => s.trim()).filter(Boolean) : [];
  if (keys.length < n) {
    const user = arg(argv, 'admin-user') ?? process.env.ARCHWRIGHT_ADMIN_USER ?? 'admin';
    const password = arg(argv, 'admin-password') ?? process.env.ARCHWRIGHT_ADMIN_PASSWORD ?? process.env.ADMIN_PASSWORD;
    if (!password) throw new Error('Not enough keys: pass --keys <file> with one key per line, or admin credentials (--admin-password or ARCHWRIGHT_ADMIN_PASSWORD) to create devices');
    const httpBase = url.replace(/^ws/, 'http').replace(/\/ws\/device$/, '');
    keys = keys.concat(await createKeys(httpBase, n - keys.length, user, password));
    if (keysFile) fs.writeFileSync(path.resolve(keysFile), keys.join('\n') + '\n', { mode: 0o600 });
  }
  const devices = keys.slice(0, n).map(
    (key, i) =>
      new SimDevice({
        url, key, serial: `SIM-${String(i + 1).padStart(4, '0')}`, stepMs: 300 / speed, failRate, dropRate, reconnectMaxMs, keepAlive: true,
        log: quiet ? undefined : console.log,
      }),
  );
  // Connect in batches so a thousand machines do not all knock at once.
  for (let i = 0; i < devices.length; i += 50) await Promise.all(devices.slice(i, i + 50).map((d) => d.start()));
  console.log(`${devices.filter((d) => d.connected).length}/${devices.length} simulated devices connected to ${url}; they reconnect until stopped (Ctrl-C)`);
  // --calibrate: each signs in as its calibration app, uploads its measured springback and from
  // then on checks jobs against its own head.
  if (argv.includes('--calibrate')) {
    for (const d of devices.filter((x) => x.connected)) {
      const config = await d.calibrate();
      if (!quiet) console.log(`${d.deviceId}: calibrated ${config.springback.map((s) => `${s.diameter} mm`).join(', ')}; head ${config.headDefault ? 'default' : 'own'}`);
    }
  }
  const stop = async () => {
    await Promise.all(devices.map((d) => d.stop()));
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return devices;
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(path.resolve(entry)).href) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
