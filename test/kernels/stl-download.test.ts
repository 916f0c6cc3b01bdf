// The geometry worker downloads an order's model itself (a RemoteStl): the real worker code in a
// Node worker thread, against a real HTTP server on a free port. What the editor shows depends on
// it: a file that opens, a status for a refused or missing file, the network's failure for a
// body cut off, and a cancel that stops the download.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sphereCounts, sphereStl } from '../fixtures/stl.ts';
import { startGeometryWorker, type WorkerThread } from './stl-worker-thread.ts';

let w: WorkerThread;
let server: Server;
let base = '';
let nextJob = 1;
const seenAuth: string[] = [];
const sphere = sphereStl({ segments: 64, rings: 33, radius: 10, binary: true });
const big = sphereStl({ segments: 600, rings: 301, radius: 30, binary: true });

beforeAll(async () => {
  w = startGeometryWorker();
  server = createServer((req, res) => {
    seenAuth.push(String(req.headers.authorization));
    if (req.headers.authorization !== 'token-1') return void res.writeHead(401).end();
    if (req.url === '/sphere.stl') return void res.writeHead(200, { 'content-length': sphere.byteLength }).end(Buffer.from(sphere));
    if (req.url === '/cut.stl') {
      // Promises the whole file, sends half, then drops the connection.
      res.writeHead(200, { 'content-length': sphere.byteLength });
      res.write(Buffer.from(sphere.subarray(0, sphere.byteLength >> 1)), () => res.destroy());
      return;
    }
    if (req.url === '/slow.stl') {
      // The big file in small pieces, slowly: long enough to be cancelled on the way.
      res.writeHead(200, { 'content-length': big.byteLength });
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed || at >= big.byteLength) return clearInterval(timer);
        res.write(Buffer.from(big.subarray(at, at + 65536)));
        at += 65536;
      }, 20);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await w.terminate();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const remote = (path: string, token = 'token-1', size = sphere.byteLength) => ({ url: `${base}${path}`, headers: { Authorization: token }, size });

describe('models the worker downloads itself', () => {
  it('opens a file from the server with the session token, reporting the download, then the parse', async () => {
    const stages: string[] = [];
    const r = await w.api.openStl(remote('/sphere.stl'), {}, nextJob++, Comlink.proxy((_f: number, stage?: string) => void stages.push(stage ?? '')));
    if (!r.ok) throw new Error(r.error.detail);
    expect(r.value.triangleCount).toBe(sphereCounts(64, 33).triangles);
    expect(r.value.format).toBe('binary');
    expect(seenAuth.at(-1)).toBe('token-1');
    // Progress comes through its own port; the worker waits for its last report before it answers.
    expect(stages[0]).toBe('download');
    expect(stages.at(-1)).toBe('parse');
    expect(await w.api.release(r.value.handle)).toBe(true);
  });

  it('fails with DOWNLOAD_FAILED and the HTTP status for a missing file or a refused token', async () => {
    expect(await w.api.openStl(remote('/gone.stl'), {}, nextJob++)).toMatchObject({ ok: false, error: { code: 'DOWNLOAD_FAILED', status: 404 } });
    expect(await w.api.openStl(remote('/sphere.stl', 'stale'), {}, nextJob++)).toMatchObject({ ok: false, error: { code: 'DOWNLOAD_FAILED', status: 401 } });
  });

  it('fails with the network status 0 when the body is cut off or the server cannot be reached', async () => {
    expect(await w.api.openStl(remote('/cut.stl'), {}, nextJob++)).toMatchObject({ ok: false, error: { code: 'DOWNLOAD_FAILED', status: 0 } });
    const closed = { url: 'http://127.0.0.1:9/none.stl', headers: {}, size: 100 };
    expect(await w.api.openStl(closed, {}, nextJob++)).toMatchObject({ ok: false, error: { code: 'DOWNLOAD_FAILED', status: 0 } });
  });

  it('stops a download on cancel, and opens the next file', async () => {
    const jobId = nextJob++;
    let downloaded = 0;
    const pending = w.api.openStl(remote('/slow.stl', 'token-1', big.byteLength), {}, jobId, Comlink.proxy((f: number) => void (downloaded = f)));
    while (downloaded === 0) await new Promise((r) => setTimeout(r, 20));
    await w.api.cancel(jobId);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'ABORTED' } });
    expect(downloaded).toBeLessThan(1);
    expect((await w.api.stats()).runningJobs).toBe(0);
    const next = await w.api.openStl(remote('/sphere.stl'), {}, nextJob++);
    expect(next.ok).toBe(true);
  });
});
