// Uploads under hostile use, through the real server on a free port: a client that hangs up
// mid-upload, floods of parts, nameless file parts, a body longer than any upload could be, and
// staged files a killed process left behind.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { silentLogger } from '../../server/core/logger.ts';
import { startServer, type RunningServer } from '../../server/index.ts';
import { cubeStl } from '../fixtures/stl.ts';
import { ADMIN_PASSWORD, tempDir, testEnv } from './helpers.ts';

let server: RunningServer;
let dataDir: string;
let token: string;
const staging = () => fs.readdirSync(path.join(dataDir, 'uploads', 'tmp'));

async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

beforeAll(async () => {
  dataDir = tempDir();
  // Left behind by a killed upload of an earlier run: swept at start.
  const tmp = path.join(dataDir, 'uploads', 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  fs.writeFileSync(path.join(tmp, 'left-by-a-killed-upload'), new Uint8Array(4096));
  const old = new Date(Date.now() - 60 * 60 * 1000);
  fs.utimesSync(path.join(tmp, 'left-by-a-killed-upload'), old, old);
  server = await startServer(loadConfig(testEnv({ PORT: '0', UPLOAD_MAX_MB: '1' }, dataDir)), { staticDir: tempDir(), logger: silentLogger });
  const login = await fetch(`${server.url}/admin/base/open/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  token = (await login.json()).data.token;
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const uploadCalls = () =>
  server.ctx.db.selectFrom('base_sys_log').select('id').where('action', '=', '/admin/base/comm/upload').execute();

const BOUNDARY = '----aw-test-boundary';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
const part = (name: string, filename: string | null, body: string | Uint8Array) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}\r\n` +
        (filename === null ? '' : 'Content-Type: application/octet-stream\r\n') +
        '\r\n',
    ),
    Buffer.from(body),
    Buffer.from('\r\n'),
  ]);
const closing = Buffer.from(`--${BOUNDARY}--\r\n`);

async function post(body: Buffer | ReadableStream<Uint8Array>) {
  const res = await fetch(`${server.url}/admin/base/comm/upload`, {
    method: 'POST',
    headers: { Authorization: token, 'Content-Type': TYPE, 'Accept-Language': 'en' },
    body,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: await res.json() };
}

describe('uploads under hostile use', () => {
  it('swept the staged files a killed upload left behind at start', () => {
    expect(staging()).toEqual([]);
  });

  it('removes the staged file when the client hangs up mid-upload', async () => {
    const head = part('file', 'half.bin', new Uint8Array(300 * 1024));
    const req = http.request(`${server.url}/admin/base/comm/upload`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': TYPE, 'Content-Length': String(head.length + 600 * 1024) },
    });
    req.on('error', () => {});
    req.write(head.subarray(0, head.length - 2));
    // The staged file exists while the upload runs...
    expect(await waitFor(() => staging().length === 1)).toBe(true);
    req.destroy();
    // ...and is gone once the client went away.
    expect(await waitFor(() => staging().length === 0)).toBe(true);
    const rows = await server.ctx.db.selectFrom('space_info').select('id').execute();
    expect(rows).toEqual([]);
  });

  it('leaves nothing staged when many clients hang up at every point of an upload', async () => {
    const first = part('file', 'a.bin', new Uint8Array(64 * 1024));
    const second = part('file', 'b.bin', new Uint8Array(64 * 1024));
    const body = Buffer.concat([first, second, closing]);
    const before = (await uploadCalls()).length;
    const cuts = [first.length - 200, first.length + 10, first.length + 150, first.length + 1000, body.length - 40];
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const req = http.request(`${server.url}/admin/base/comm/upload`, {
          method: 'POST',
          headers: { Authorization: token, 'Content-Type': TYPE, 'Content-Length': String(body.length) },
        });
        req.on('error', () => {});
        await new Promise<void>((resolve) => req.write(body.subarray(0, cuts[i % cuts.length]), () => resolve()));
        await new Promise((r) => setTimeout(r, i % 3));
        req.destroy();
      }),
    );
    // Every one of them is answered (and logged) once the server noticed the hang-up...
    let answered = 0;
    const until = Date.now() + 20_000;
    while (answered < before + 40 && Date.now() < until) {
      answered = (await uploadCalls()).length;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(answered).toBe(before + 40);
    // ...and none left a staged file.
    expect(staging()).toEqual([]);
  });

  it('still takes an ordinary upload, and ignores an empty file input', async () => {
    const res = await post(Buffer.concat([part('kind', null, 'model'), part('file', '', ''), part('file', 'cube.stl', cubeStl()), closing]));
    expect(res.body.code).toBe(1000);
    expect(res.body.data.map((r: { name: string }) => r.name)).toEqual(['cube.stl']);
    expect(staging()).toEqual([]);
  });

  it('refuses file parts without a name that carry bytes, without staging them', async () => {
    const nameless = Array.from({ length: 50 }, () => part('file', '', 'x'.repeat(100)));
    const res = await post(Buffer.concat([...nameless, part('file', 'cube.stl', cubeStl()), closing]));
    expect(res.body).toEqual({ code: 1001, message: 'Upload failed, please try again: a file was sent without a name' });
    expect(staging()).toEqual([]);
  });

  it('refuses more than 100 parts', async () => {
    const fields = Array.from({ length: 101 }, (_, i) => part(`f${i}`, null, 'v'));
    const res = await post(Buffer.concat([...fields, part('file', 'cube.stl', cubeStl()), closing]));
    expect(res.body).toEqual({ code: 1001, message: 'Upload failed, please try again: the form has more than 100 parts' });
    // Empty file inputs count too: they cannot make thousands of staged files.
    const empties = Array.from({ length: 200 }, () => part('file', '', ''));
    const again = await post(Buffer.concat([...empties, closing]));
    expect(again.body.code).toBe(1001);
    expect(staging()).toEqual([]);
  });

  it('caps the whole body, also when it streams without Content-Length', async () => {
    // 9 files of at most 1 MB each, plus form overhead: no upload needs more than 10 MB. Bytes that
    // make no part (a preamble before the first boundary, which multipart ignores) count too.
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 12 * 1024 * 1024) return controller.close();
        const pad = new Uint8Array(64 * 1024).fill(0x61);
        sent += pad.length;
        controller.enqueue(pad);
      },
    });
    const res = await post(stream);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 1001, message: 'Upload failed, please try again: the request is larger than 10 MB' });
    expect(staging()).toEqual([]);
  });
});
