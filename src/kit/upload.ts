/**
 * File upload through `POST /admin/base/comm/upload` (multipart, field `file`). The JSON client
 * cannot send multipart bodies, so this call uses fetch with the session's token directly.
 * The reply's `data` may be a URL string, `{ url }`, or rows with `url`: `uploadUrls` reads all.
 */
import { useEffect, useState } from 'react';
import { t } from '@lingui/core/macro';
import { session } from '../api/client.ts';
import { isEnvelope, CODE_OK } from '../api/http.ts';
import { currentLocale } from '../i18n/index.ts';

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

export interface UploadOptions {
  /** The server's file kind (image, video, audio, word, excel, ppt, pdf, rar, model, file). */
  kind?: string;
  signal?: AbortSignal;
}

/** Uploads one file; resolves to its URL. Rejects with a user-facing message. */
export async function uploadFile(file: File, opts: UploadOptions = {}): Promise<string> {
  const { kind, signal } = opts;
  const body = new FormData();
  if (kind) body.append('kind', kind);
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

/** Object URLs of files fetched with the token, by their server URL (kept for the session). */
const fetched = new Map<string, string>();
const pendingFiles = new Map<string, Promise<string>>();

/**
 * Same-origin API files need the token (an <img> cannot send it): such URLs are fetched. Open
 * URLs (`/admin/base/open/...`, e.g. signed file links) and external ones load as they are.
 */
export function needsToken(url: string): boolean {
  return url.startsWith('/admin/') && !url.startsWith('/admin/base/open/');
}

async function fetchFile(url: string): Promise<string> {
  const token = await session.validToken();
  const reply = await window.fetch(url, { headers: { Authorization: token } });
  if (!reply.ok) throw new Error(`HTTP ${reply.status}`);
  const objectUrl = URL.createObjectURL(await reply.blob());
  fetched.set(url, objectUrl);
  return objectUrl;
}

/**
 * A URL an <img> can show: external and data URLs as they are; `/admin/...` files (the upload
 * call's URLs) fetched with the session's token into an object URL. '' while loading or failed.
 */
export function useFileUrl(url: string | null | undefined): string {
  const src = url ?? '';
  const [state, setState] = useState(() => ({ src, shown: needsToken(src) ? (fetched.get(src) ?? '') : src }));
  const current = state.src === src ? state.shown : needsToken(src) ? (fetched.get(src) ?? '') : src;
  useEffect(() => {
    if (!needsToken(src)) {
      setState({ src, shown: src });
      return;
    }
    const known = fetched.get(src);
    if (known) {
      setState({ src, shown: known });
      return;
    }
    let live = true;
    let job = pendingFiles.get(src);
    if (!job) {
      job = fetchFile(src).finally(() => pendingFiles.delete(src));
      pendingFiles.set(src, job);
    }
    job.then(
      (shown) => live && setState({ src, shown }),
      () => live && setState({ src, shown: '' }),
    );
    return () => {
      live = false;
    };
  }, [src]);
  return current;
}
