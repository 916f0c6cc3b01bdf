// The device hub's tests run the real server on a free port (startServer) with real `ws`
// clients; these are the small pieces they share.
import WebSocket from 'ws';
import { loadConfig } from '../../server/config.ts';
import { silentLogger } from '../../server/core/logger.ts';
import { startServer, type RunningServer, type StartOptions } from '../../server/index.ts';
import { ADMIN_PASSWORD, createRole, manualClock, removeDataDir, tempDir, testEnv, type ManualClock } from './helpers.ts';

export interface HubServer {
  server: RunningServer;
  dir: string;
  clock?: ManualClock;
  wsUrl: string;
  post<T = any>(path: string, body: unknown, token?: string): Promise<{ code: number; message: string; data: T }>;
  adminToken: string;
  close(keepDir?: boolean): Promise<void>;
}

export async function startHubServer(
  opts: { dir?: string; port?: number; manual?: boolean; options?: StartOptions; lang?: string } = {},
): Promise<HubServer> {
  const dir = opts.dir ?? tempDir();
  const clock = opts.manual === false ? undefined : manualClock(Date.UTC(2026, 0, 1, 8, 0, 0));
  const server = await startServer(loadConfig(testEnv({ PORT: String(opts.port ?? 0) }, dir)), {
    staticDir: dir,
    logger: silentLogger,
    ...(clock ? { clock, hub: { tickMs: 3_600_000 } } : {}),
    ...opts.options,
  });
  const post = async (p: string, body: unknown, token?: string) => {
    // fetch keeps connections alive; one to a server that restarted on this port fails once.
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(server.url + p, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Accept-Language': opts.lang ?? 'en', ...(token ? { Authorization: token } : {}) },
          body: JSON.stringify(body),
        });
        return await res.json();
      } catch (err) {
        if (attempt >= 2) throw err;
      }
    }
  };
  const login = await post('/admin/base/open/login', { username: 'admin', password: ADMIN_PASSWORD });
  return {
    server,
    dir,
    clock,
    wsUrl: `ws://127.0.0.1:${server.port}/ws/device`,
    post,
    adminToken: login.data.token,
    async close(keepDir = false) {
      await server.close();
      if (!keepDir) await removeDataDir(dir);
    },
  };
}

/** Adds a device as admin; returns its id and key. */
export async function addDevice(h: HubServer, extra: Record<string, unknown> = {}): Promise<{ id: number; key: string }> {
  const r = await h.post('/admin/device/info/add', { devicename: 'Bender', diameters: [0.7, 0.8], memory: 100, ...extra }, h.adminToken);
  if (r.code !== 1000) throw new Error(JSON.stringify(r));
  return { id: r.data.id, key: r.data.deviceKey };
}

/** A user with the seeded "Bend" permissions (not a devices admin); returns id and token. */
export async function addDesigner(h: HubServer, username: string): Promise<{ id: number; token: string }> {
  const roleId = await createRole(h.server.ctx, `role-${username}`, ['design:bend']);
  const password = 'designer-pass-1';
  const add = await h.post('/admin/base/sys/user/add', { username, password, name: username, nickName: username, status: 1, roleIdList: [roleId] }, h.adminToken);
  if (add.code !== 1000) throw new Error(JSON.stringify(add));
  const login = await h.post('/admin/base/open/login', { username, password });
  return { id: add.data.id, token: login.data.token };
}

export const WIRE = { type: 'labialBow', diameter: 0.8, material: 'ss' };
export const steps = (n: number) => Array.from({ length: n }, (_, i) => ({ feed: 5 + i, rotate: 10 * i, bend: 30 }));

/** A bare protocol client: every message kept, waits by predicate, the close code. */
export class RawClient {
  readonly ws: WebSocket;
  readonly messages: any[] = [];
  readonly closed: Promise<number>;
  private waiters: Array<() => void> = [];

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers });
    this.ws.on('message', (d) => {
      this.messages.push(JSON.parse(d.toString()));
      for (const w of this.waiters.splice(0)) w();
    });
    this.ws.on('error', () => {});
    this.closed = new Promise((r) => this.ws.on('close', (code) => {
      r(code);
      for (const w of this.waiters.splice(0)) w();
    }));
  }

  opened(): Promise<void> {
    return new Promise((r, j) => {
      if (this.ws.readyState === WebSocket.OPEN) return r();
      this.ws.once('open', () => r());
      this.ws.once('close', () => j(new Error('closed before open')));
    });
  }

  send(msg: unknown) {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  /** The first message (from `from` on) matching, waiting up to 5 s. */
  async next(pred: (m: any) => boolean, from = 0): Promise<any> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = this.messages.slice(from).find(pred);
      if (found) return found;
      if (Date.now() > deadline || this.ws.readyState === WebSocket.CLOSED) throw new Error(`no matching message; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  async hello(key: string | undefined, extra: Record<string, unknown> = {}) {
    await this.opened();
    this.send({ type: 'hello', ...(key ? { key } : {}), serial: 'T-1', firmware: 't', diameters: [0.7, 0.8], memory: 100, protocol: 1, ...extra });
  }

  close() {
    this.ws.terminate();
  }
}

/** A device connection that has said hello with `key` and been welcomed. */
export async function welcomed(url: string, key: string): Promise<RawClient> {
  const c = new RawClient(url);
  await c.hello(key);
  await c.next((m) => m.type === 'welcome');
  return c;
}

/** Polls until `check` is true (5 s at most; 15 s with `long`). */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function jobStatus(h: HubServer, jobId: string): Promise<string | undefined> {
  const row = await h.server.ctx.db.selectFrom('device_job').select('status').where('jobId', '=', jobId).executeTakeFirst();
  return row?.status;
}
