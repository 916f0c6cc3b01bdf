/** Calls that answer a file instead of an envelope (xlsx export), saved under a file name. */
import { session, errorMessage } from '../api/client.ts';
import { CODE_OK } from '../../common/codes.ts';
import { currentLocale } from '../i18n/index.ts';
import { toast } from '../ui/toast.tsx';

export async function downloadPost(url: string, body: unknown, filename: string): Promise<void> {
  return download(url, filename, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) });
}

/** A GET answering a file (an import template). */
export async function downloadGet(url: string, filename: string): Promise<void> {
  return download(url, filename, {});
}

async function download(url: string, filename: string, init: RequestInit): Promise<void> {
  try {
    const token = await session.validToken();
    const res = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: token, 'Accept-Language': currentLocale() } });
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('application/json')) {
      const reply = (await res.json()) as { message?: string };
      throw new Error(reply.message ?? `HTTP ${res.status}`);
    }
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    saveBlob(await res.blob(), filename);
  } catch (err) {
    toast.error(errorMessage(err));
    throw err;
  }
}

export function saveBlob(blob: Blob, filename: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** A multipart POST answering an envelope (xlsx import); resolves to `data`, rejects with its message. */
export async function postForm<T>(url: string, form: FormData): Promise<T> {
  try {
    const token = await session.validToken();
    const res = await fetch(url, { method: 'POST', headers: { Authorization: token, 'Accept-Language': currentLocale() }, body: form });
    const reply = (await res.json().catch(() => null)) as { code?: number; message?: string; data?: T } | null;
    if (!reply || reply.code !== CODE_OK) throw new Error(reply?.message ?? `HTTP ${res.status}`);
    return reply.data as T;
  } catch (err) {
    toast.error(errorMessage(err));
    throw err;
  }
}
