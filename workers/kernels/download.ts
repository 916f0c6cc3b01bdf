// A model file downloaded by the worker itself: its body goes straight into wasm memory
// (parseStl's StlStream), so the bytes never touch the page's main thread, whose work
// (rendering, React) would otherwise hold up every chunk.
import type { StlStream } from './stl.ts';

/** What the worker needs to fetch a file: its URL, the request headers (the session token), its size. */
export interface RemoteStl {
  url: string;
  headers: Record<string, string>;
  /** Bytes expected (the stored file's size); the response's length when 0. */
  size: number;
}

/** A download that failed: the HTTP status, 0 for the network. */
export class DownloadFailure extends Error {
  readonly code = 'DOWNLOAD_FAILED';
  constructor(readonly status: number) {
    super(`download failed (${status})`);
  }
}

export function isRemoteStl(source: unknown): source is RemoteStl {
  return typeof source === 'object' && source !== null && typeof (source as Partial<RemoteStl>).url === 'string';
}

/** Starts the download; resolves once the response's headers are in (the body is read by parseStl). */
export async function startDownload(remote: RemoteStl, shouldCancel: () => boolean): Promise<StlStream> {
  const abort = new AbortController();
  // fetch() cannot be polled: check for a cancel while the headers are awaited.
  const poll = setInterval(() => shouldCancel() && abort.abort(), 50);
  let response: Response;
  try {
    response = await fetch(remote.url, { headers: remote.headers, signal: abort.signal });
  } catch (e) {
    if (abort.signal.aborted) throw e;
    throw new DownloadFailure(0);
  } finally {
    clearInterval(poll);
  }
  if (!response.ok || !response.body) {
    void response.body?.cancel().catch(() => {});
    throw new DownloadFailure(response.status);
  }
  const length = Number(response.headers.get('content-length')) || 0;
  const encoded = response.headers.get('content-encoding');
  // A compressed body's length is not the file's; the stored size is.
  const size = remote.size > 0 ? remote.size : encoded ? 0 : length;
  if (size <= 0) {
    void response.body.cancel().catch(() => {});
    throw new DownloadFailure(response.status);
  }
  return { stream: response.body, size };
}
