/**
 * File upload through `POST /admin/base/comm/upload` (multipart, field `file`). The JSON client
 * cannot send multipart bodies, so this call uses fetch with the session's token directly.
 * The reply's `data` may be a URL string, `{ url }`, or rows with `url`: `uploadUrls` reads all.
 * `uploadFiles` sends through XMLHttpRequest instead, for upload progress (fetch reports none).
 */
import { useEffect, useState } from 'react';
import { t } from '@lingui/core/macro';
import { request, session } from '../api/client.ts';
import { isEnvelope, CODE_OK } from '../api/http.ts';
import { currentLocale } from '../i18n/index.ts';

export const UPLOAD_URL = '/admin/base/comm/upload';
/** Most files one upload takes (spec §9, the server's limit too); thumbnails are 120 px. */
export const MAX_UPLOAD_FILES = 9;
export const THUMBNAIL_PX = 120;

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


/** A row of space_info as the upload answers it. */
export interface UploadedFile<H = unknown> {
  id: number;
  url: string;
  name: string;
  size: number;
  kind: string;
  triangleCount: number | null;
  /** STL files: the model's health (null when the server could not analyse it). */
  health?: H | null;
}

export interface ProgressUploadOptions {
  /** The server's kind check: `model` takes only .stl files. */
  kind?: string;
  classifyId?: number | null;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** A refused upload: the server's message, and the HTTP status (413: a file over the limit). */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** What `GET /admin/base/comm/uploadLimit` answers. */
export interface UploadLimit {
  /** Largest file the upload takes, bytes (the server's UPLOAD_MAX_MB). */
  maxBytes: number;
  maxFiles: number;
}

let limit: Promise<UploadLimit | null> | undefined;

/**
 * The server's upload limit, asked once per page (again with `fresh`, or after a failed call).
 * Null when it cannot be had: the upload then goes ahead and the server's 413 tells.
 */
export function uploadLimit(fresh = false): Promise<UploadLimit | null> {
  if (!limit || fresh) {
    const asked = request<UploadLimit>({ url: '/admin/base/comm/uploadLimit', method: 'GET', silent: true }).then(
      (l) => (Number.isFinite(l?.maxBytes) && l.maxBytes > 0 ? l : null),
      () => null,
    );
    limit = asked;
    void asked.then((l) => {
      if (!l && limit === asked) limit = undefined;
    });
  }
  return limit;
}

/** Uploads files in one request; resolves to their rows, rejects with a user-facing message (an UploadError when the server refused). */
export async function uploadFiles<H = unknown>(files: File[], options: ProgressUploadOptions = {}): Promise<UploadedFile<H>[]> {
  const token = await session.validToken();
  const body = new FormData();
  if (options.kind) body.append('kind', options.kind);
  if (options.classifyId) body.append('classifyId', String(options.classifyId));
  for (const f of files) body.append('file', f);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', UPLOAD_URL);
    xhr.setRequestHeader('Authorization', token);
    xhr.setRequestHeader('Accept-Language', currentLocale());
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(e.total ? e.loaded / e.total : 0);
    };
    const failed = () => reject(new Error(t`Upload failed, please try again`));
    xhr.onerror = failed;
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if (isEnvelope(parsed)) {
        if (parsed.code === CODE_OK && Array.isArray(parsed.data)) {
          options.onProgress?.(1);
          resolve(parsed.data as UploadedFile<H>[]);
          return;
        }
        if (parsed.message) {
          reject(new UploadError(parsed.message, xhr.status));
          return;
        }
      }
      if (xhr.status === 413) reject(new UploadError(t`Upload failed, please try again`, 413));
      else failed();
    };
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
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
