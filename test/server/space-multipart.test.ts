import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundaryOf, readMultipart } from '../../server/modules/space/multipart.ts';
import { cubeStl, garbage } from '../fixtures/stl.ts';
import { setup, type TestServer } from './helpers.ts';
import { download, upload } from './space-helpers.ts';

/** The bytes and content type a browser's FormData produces. */
async function encode(form: FormData) {
  const res = new Response(form);
  return { type: res.headers.get('content-type')!, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function chunked(bytes: Uint8Array, sizes: number[]): ReadableStream<Uint8Array> {
  let at = 0;
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const n = sizes[i++ % sizes.length]!;
      controller.enqueue(bytes.slice(at, at + n));
      at += n;
    },
  });
}

async function parse(body: ReadableStream<Uint8Array>, type: string) {
  const fields: Record<string, string> = {};
  const files: { field: string; filename: string | null; bytes: Uint8Array }[] = [];
  await readMultipart(body, boundaryOf(type)!, {
    field: (name, value) => void (fields[name] = value),
    file(part) {
      const chunks: Uint8Array[] = [];
      return {
        write: async (c) => void chunks.push(c),
        end: async () => void files.push({ field: part.field, filename: part.filename, bytes: new Uint8Array(Buffer.concat(chunks)) }),
      };
    },
  });
  return { fields, files };
}

describe('streaming multipart reader', () => {
  it('gives back exactly the parts, however the body is cut into chunks', async () => {
    const tricky = new TextEncoder().encode('a\r\n--not-the-boundary\r\n\r\n--\r\n-');
    const binary = garbage(3000, 99);
    const form = new FormData();
    form.append('kind', 'model');
    form.append('file', new File([tricky], 'Ober "v2" 上颌.stl'));
    form.append('file', new File([binary], 'b.bin'));
    form.append('note', 'zwei\r\nZeilen');
    const { type, bytes } = await encode(form);
    for (const sizes of [[1], [7, 1, 300], [bytes.length], [64, 65, 63]]) {
      const { fields, files } = await parse(chunked(bytes, sizes), type);
      expect(fields).toEqual({ kind: 'model', note: 'zwei\r\nZeilen' });
      expect(files.map((f) => f.filename)).toEqual(['Ober "v2" 上颌.stl', 'b.bin']);
      expect(Buffer.from(files[0]!.bytes).equals(Buffer.from(tricky))).toBe(true);
      expect(Buffer.from(files[1]!.bytes).equals(Buffer.from(binary))).toBe(true);
    }
  });

  it('refuses a body cut off before the closing boundary', async () => {
    const form = new FormData();
    form.append('file', new File([garbage(500)], 'x.bin'));
    const { type, bytes } = await encode(form);
    await expect(parse(chunked(bytes.slice(0, bytes.length - 10), [100]), type)).rejects.toThrow(/closing boundary|malformed/);
  });
});

describe('uploads stream to disk', () => {
  let t: TestServer;
  let admin: string;
  beforeAll(async () => {
    t = await setup({ UPLOAD_MAX_MB: '1' });
    admin = (await t.login()).token;
  });
  afterAll(() => t.close());
  const staging = () => fs.readdirSync(path.join(t.dir, 'uploads', 'tmp'));

  it('a body without Content-Length is limited while it streams, and leaves nothing behind', async () => {
    const form = new FormData();
    form.append('file', new File([cubeStl()], 'small.stl'));
    form.append('file', new File([new Uint8Array(1024 * 1024 + 10)], 'huge.bin'));
    const { type, bytes } = await encode(form);
    const res = await t.app.request('/admin/base/comm/upload', {
      method: 'POST',
      headers: { Authorization: admin, 'Content-Type': type, 'Accept-Language': 'en' },
      body: chunked(bytes, [4096]),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).message).toBe('Upload failed, please try again: huge.bin is larger than 1 MB');
    expect(staging()).toEqual([]);
    expect(await t.ctx.db.selectFrom('space_info').select('id').execute()).toEqual([]);
  });

  it('rejected files leave no staged bytes; accepted ones keep their names and bytes', async () => {
    expect((await upload(t, admin, [{ name: 'bad.stl', bytes: garbage(900) }])).body.code).toBe(1001);
    expect(staging()).toEqual([]);
    const bytes = cubeStl({ size: 4 });
    const ok = await upload(t, admin, [{ name: 'Ober "v2" 上颌.stl', bytes }]);
    expect(ok.body.data[0].name).toBe('Ober "v2" 上颌.stl');
    const back = await download(t, admin, ok.body.data[0].url);
    expect(Buffer.from(back.bytes).equals(Buffer.from(bytes))).toBe(true);
    expect(staging()).toEqual([]);
  });

  it('a body that is not multipart is refused with a clear message', async () => {
    const res = await t.call('POST', '/admin/base/comm/upload', { token: admin, lang: 'en', body: { file: 'x' } });
    expect(res.body).toEqual({ code: 1001, message: 'Upload failed, please try again: no file was sent' });
  });
});
