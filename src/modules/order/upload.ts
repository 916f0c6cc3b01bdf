/**
 * The order form's uploads (kit/upload.ts: with progress), the authorised download of a file
 * URL (`/admin/base/comm/file/<id>` needs the Authorization header), and file sizes.
 */
import { t } from '@lingui/core/macro';
import { session } from '../../api/client.ts';
import { formatCount, formatNumber } from '../../i18n/format.ts';
import type { ModelHealth } from './modelHealth.ts';

import { uploadFiles as upload, type ProgressUploadOptions, type UploadedFile as KitUploadedFile } from '../../kit/upload.ts';

export { UPLOAD_URL, uploadLimit, UploadError, type UploadLimit, type ProgressUploadOptions as UploadOptions } from '../../kit/upload.ts';
/** A row of space_info as the upload answers it (STL files with their health). */
export type UploadedFile = KitUploadedFile<ModelHealth>;

/** Uploads files in one request, with progress; STL rows carry their health. */
export const uploadFiles = (files: File[], options: ProgressUploadOptions = {}) => upload<ModelHealth>(files, options);

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
