/**
 * File upload through `POST /admin/base/comm/upload` (multipart, field `file`). The JSON client
 * cannot send multipart bodies, so this call uses fetch with the session's token directly.
 * The reply's `data` may be a URL string, `{ url }`, or rows with `url`: `uploadUrls` reads all.
 */
import { t } from '@lingui/core/macro';
import { session } from '../api/client';
import { isEnvelope, CODE_OK } from '../api/http';
import { currentLocale } from '../i18n';

export const UPLOAD_URL = '/admin/base/comm/upload';

/** The URLs in an upload reply's data. */
export function uploadUrls(data: unknown): string[] {
  if (typeof data === 'string') return [data];
  if (Array.isArray(data)) return data.flatMap(uploadUrls);
  if (data && typeof data === 'object') {
    const o = data as Record<string, unknown>;
    if (typeof o.url === 'string') return [o.url];
    if (Array.isArray(o.list)) return uploadUrls(o.list);
  }
  return [];
}

/** Uploads one file; resolves to its URL. Rejects with a user-facing message. */
export async function uploadFile(file: File, signal?: AbortSignal): Promise<string> {
  const body = new FormData();
  body.append('file', file);
  const token = await session.validToken();
  let reply: Response;
  try {
    reply = await window.fetch(UPLOAD_URL, {
      method: 'POST',
      headers: { Authorization: token, 'Accept-Language': currentLocale(), Accept: 'application/json' },
      body,
      ...(signal ? { signal } : {}),
    });
  } catch {
    throw new Error(t`Upload failed, please try again`);
  }
  let parsed: unknown = null;
  try {
    parsed = await reply.json();
  } catch {
    // not JSON
  }
  if (isEnvelope(parsed)) {
    if (parsed.code === CODE_OK) {
      const url = uploadUrls(parsed.data)[0];
      if (url) return url;
    } else if (parsed.message) {
      throw new Error(parsed.message);
    }
  }
  if (reply.status === 413) throw new Error(t`The file is too large`);
  throw new Error(t`Upload failed, please try again`);
}
