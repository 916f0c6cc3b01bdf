// Where uploaded bytes live: one blob per sha256, so equal bytes are stored once. Everything
// else goes through this interface, so an object store can replace the local folder later.
// Writes are staged: bytes stream to a temporary file (hashed on the way), are checked, and are
// then committed under their key or discarded.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

export interface StagedBlob {
  key: string;
  size: number;
  /** The temporary file holding the bytes until commit or discard. */
  path: string;
}

export interface BlobWriter {
  write(chunk: Uint8Array): Promise<void>;
  readonly size: number;
  finish(): Promise<StagedBlob>;
  /** Drops what was written (after an error). */
  abort(): Promise<void>;
}

export interface BlobStorage {
  writer(): BlobWriter;
  /** The staged bytes as a Blob read from disk (for checks), never loaded whole. */
  openStaged(staged: StagedBlob): Promise<Blob>;
  commit(staged: StagedBlob): Promise<void>;
  discard(staged: StagedBlob): Promise<void>;
  get(key: string): ReadableStream<Uint8Array>;
  has(key: string): boolean;
  remove(key: string): Promise<void>;
}

const KEY = /^[0-9a-f]{64}$/;
/** A staged file untouched this long belongs to no running upload (those write all the time). */
export const STALE_STAGING_MS = 60 * 1000;

/**
 * Removes staged files that no upload is writing any more: what a killed process left behind.
 * Recent ones are kept, since another process on the same folder may be writing them.
 */
export function sweepStaging(tmp: string, now = Date.now()): number {
  let removed = 0;
  for (const name of fs.readdirSync(tmp)) {
    const file = path.join(tmp, name);
    try {
      if (now - fs.statSync(file).mtimeMs < STALE_STAGING_MS) continue;
      fs.rmSync(file, { force: true, recursive: true });
      removed++;
    } catch {
      // Gone already (committed or discarded meanwhile).
    }
  }
  return removed;
}

/** Where the local storage under `root` keeps the blob `key` (a job thread reads it there). */
export function localBlobPath(root: string, key: string): string {
  if (!KEY.test(key)) throw new Error(`bad storage key ${key}`);
  return path.join(root, key.slice(0, 2), key.slice(2, 4), key);
}

export function localStorage(root: string): BlobStorage {
  const tmp = path.join(root, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  sweepStaging(tmp);
  const fileOf = (key: string) => localBlobPath(root, key);

  return {
    writer() {
      const hash = createHash('sha256');
      const temp = path.join(tmp, randomUUID());
      const out = fs.createWriteStream(temp, { flags: 'wx' });
      let failed: Error | null = null;
      out.on('error', (err) => (failed = err));
      let size = 0;
      return {
        get size() {
          return size;
        },
        async write(chunk) {
          if (failed) throw failed;
          hash.update(chunk);
          size += chunk.byteLength;
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        },
        async finish() {
          await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
          if (failed) throw failed;
          return { key: hash.digest('hex'), size, path: temp };
        },
        async abort() {
          // Wait until the file is closed: a stream destroyed while it is still opening creates
          // the file afterwards, which would outlive an earlier rm.
          if (!out.closed) await new Promise<void>((resolve) => (out.once('close', () => resolve()), out.destroy()));
          await fs.promises.rm(temp, { force: true });
        },
      };
    },
    openStaged: (staged) => fs.openAsBlob(staged.path),
    async commit(staged) {
      const target = fileOf(staged.key);
      if (fs.existsSync(target)) {
        await fs.promises.rm(staged.path, { force: true });
      } else {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.rename(staged.path, target);
      }
    },
    async discard(staged) {
      await fs.promises.rm(staged.path, { force: true });
    },
    get(key) {
      return Readable.toWeb(fs.createReadStream(fileOf(key))) as unknown as ReadableStream<Uint8Array>;
    },
    has(key) {
      return fs.existsSync(fileOf(key));
    },
    async remove(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
  };
}
