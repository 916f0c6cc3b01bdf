import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { CONTENT_SECURITY_POLICY, KEEP_ALIVE_MS, startServer, type RunningServer } from '../../server/index.ts';
import { silentLogger } from '../../server/core/logger.ts';
import { ADMIN_PASSWORD, tempDir, testEnv } from './helpers.ts';

let server: RunningServer;
let dataDir: string;
let staticDir: string;

beforeAll(async () => {
  dataDir = tempDir();
  staticDir = tempDir();
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Archwright test</title>');
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-abc123.js'), 'export {};');
  fs.writeFileSync(path.join(staticDir, 'assets', 'kernels-abc123.wasm'), new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  server = await startServer(loadConfig(testEnv({ PORT: '0' }, dataDir)), { staticDir, logger: silentLogger });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(staticDir, { recursive: true, force: true });
});

function expectIsolation(res: Response) {
  expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(res.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toBe(CONTENT_SECURITY_POLICY);
}

describe('startServer', () => {
  it('listens on a free port and answers the API', async () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const res = await fetch(`${server.url}/admin/base/open/captcha`);
    expectIsolation(res);
    const body = await res.json();
    expect(body.code).toBe(1000);
    expect(body.data.captchaId).toBeTruthy();
  });

  it('keeps an idle connection open longer than its clients keep theirs idle, and says so', async () => {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.get(`${server.url}/version.json`, { agent: new http.Agent({ keepAlive: true }) }, resolve);
      req.on('error', reject);
    });
    res.resume();
    expect(res.headers.connection).toBe('keep-alive');
    expect(res.headers['keep-alive']).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
    expect(KEEP_ALIVE_MS).toBeGreaterThan(60_000);
    res.socket.destroy();
  });

  it('logs in over HTTP and takes the client IP from the socket', async () => {
    const login = await fetch(`${server.url}/admin/base/open/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '1.2.3.4' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const { code, data } = await login.json();
    expect(code).toBe(1000);
    const person = await fetch(`${server.url}/admin/base/comm/person`, { headers: { Authorization: data.token } });
    expect((await person.json()).data.username).toBe('admin');
    const row = await server.ctx.db
      .selectFrom('base_sys_log')
      .select('ip')
      .where('action', '=', '/admin/base/open/login')
      .executeTakeFirstOrThrow();
    // TRUST_PROXY is off: the forwarded header is ignored.
    expect(row.ip).toBe('127.0.0.1');
  });

  it('answers 401 as an envelope over HTTP', async () => {
    const res = await fetch(`${server.url}/admin/base/comm/permmenu`);
    expect(res.status).toBe(401);
    expectIsolation(res);
    expect((await res.json()).code).toBe(1001);
  });

  it('serves index.html for page navigations, with the isolation headers', async () => {
    for (const url of ['/', '/sys/user', '/bend']) {
      const res = await fetch(`${server.url}${url}`, { headers: { Accept: 'text/html,application/xhtml+xml' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expectIsolation(res);
      expect(await res.text()).toContain('Archwright test');
    }
  });

  it('sends a Content-Security-Policy without inline scripts or eval, that forbids framing', async () => {
    const res = await fetch(`${server.url}/`, { headers: { Accept: 'text/html' } });
    const csp = Object.fromEntries(
      res.headers.get('content-security-policy')!.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(csp['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['img-src']).toContain('data:');
    expect(csp['worker-src']).toContain("'self'");
  });

  it('keeps the stricter policy of a downloaded file', async () => {
    const login = await fetch(`${server.url}/admin/base/open/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    const { token } = (await login.json()).data;
    const form = new FormData();
    form.append('file', new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], 'x.svg'));
    const up = await fetch(`${server.url}/admin/base/comm/upload`, { method: 'POST', headers: { Authorization: token }, body: form });
    const { data } = await up.json();
    const file = await fetch(`${server.url}/admin/base/comm/file/${data[0].id}`, { headers: { Authorization: token } });
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });

  it('serves assets with long cache and the right MIME types', async () => {
    const js = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectIsolation(js);
    const wasm = await fetch(`${server.url}/assets/kernels-abc123.wasm`);
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect(new Uint8Array(await wasm.arrayBuffer())).toEqual(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  });

  it('does not fall back to index.html for missing assets or API paths', async () => {
    const asset = await fetch(`${server.url}/assets/missing.js`);
    expect(asset.status).toBe(404);
    const api = await fetch(`${server.url}/admin/base/open/missing`, { headers: { Accept: 'text/html' } });
    expect(api.status).toBe(404);
    expect((await api.json()).code).toBe(1001);
  });

  it('answers version.json', async () => {
    const res = await fetch(`${server.url}/version.json?t=${Date.now()}`);
    expect(await res.json()).toEqual({ gn: '1.0.0' });
  });
});
