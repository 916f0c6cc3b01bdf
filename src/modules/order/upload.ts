/**
 * Uploads with progress: `POST /admin/base/comm/upload` through XMLHttpRequest (fetch reports no
 * upload progress), the session's token, the UI language. Also the authorised download of a
 * file URL (`/admin/base/comm/file/<id>` needs the Authorization header).
 */
import { t } from '@lingui/core/macro';
import { request, session } from '../../api/client.ts';
import { CODE_OK, isEnvelope } from '../../api/http.ts';
import { currentLocale } from '../../i18n/index.ts';
import { formatCount, formatNumber } from '../../i18n/format.ts';
import type { ModelHealth } from './modelHealth.ts';

export const UPLOAD_URL = '/admin/base/comm/upload';

/** A row of space_info as the upload answers it. */
export interface UploadedFile {
  id: number;
  url: string;
  name: string;
  size: number;
  kind: string;
  triangleCount: number | null;
  /** STL files: the model's health (null when the server could not analyse it). */
  health?: ModelHealth | null;
}

export interface UploadOptions {
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
export async function uploadFiles(files: File[], options: UploadOptions = {}): Promise<UploadedFile[]> {
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
          resolve(parsed.data as UploadedFile[]);
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

/** Fetches a file URL with the token and saves it under its name. */
export async function downloadFile(url: string, name: string): Promise<void> {
  const token = await session.validToken();
  const res = await window.fetch(url, { headers: { Authorization: token } });
  if (!res.ok) throw new Error(t`Download failed`);
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** A file size in the active language's number format ("1,5 MB" in German). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${formatCount(bytes)} B`;
  if (bytes < 1024 * 1024) return `${formatNumber(bytes / 1024, { fixed: 1 })} KB`;
  return `${formatNumber(bytes / 1024 / 1024, { fixed: 1 })} MB`;
}
