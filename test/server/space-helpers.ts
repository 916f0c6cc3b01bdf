// Multipart uploads through app.request, the way a browser's FormData sends them.
import type { UploadedFile } from '../../src/modules/order/upload.ts';
import type { TestServer } from './helpers.ts';

export interface UploadFile {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

export async function upload(
  t: TestServer,
  token: string,
  files: UploadFile[],
  fields: Record<string, string> = {},
  lang = 'en',
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('file', new File([f.bytes as Uint8Array<ArrayBuffer>], f.name, { type: f.type ?? 'application/octet-stream' }));
  const res = await t.app.request('/admin/base/comm/upload', {
    method: 'POST',
    headers: { Authorization: token, 'Accept-Language': lang },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data?: any } };
}

/** Uploads one file and returns its row, failing loudly otherwise. */
export async function uploadOne(t: TestServer, token: string, file: UploadFile, fields: Record<string, string> = {}) {
  const res = await upload(t, token, [file], fields);
  if (res.body.code !== 1000) throw new Error(`upload failed: ${JSON.stringify(res.body)}`);
  return res.body.data[0] as UploadedFile;
}

export async function download(t: TestServer, token: string, url: string) {
  const res = await t.app.request(url, { headers: { Authorization: token } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}
