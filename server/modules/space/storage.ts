// Where uploaded bytes live: one blob per sha256, so equal bytes are stored once. Everything
// else goes through this interface, so an object store can replace the local folder later.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

export interface BlobStorage {
  /** Streams the bytes to storage, hashing on the way; returns the key (sha256 hex). */
  put(data: ReadableStream<Uint8Array>): Promise<{ key: string; size: number }>;
  get(key: string): ReadableStream<Uint8Array>;
  has(key: string): boolean;
  remove(key: string): Promise<void>;
}

const KEY = /^[0-9a-f]{64}$/;

export function localStorage(root: string): BlobStorage {
  const tmp = path.join(root, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const fileOf = (key: string) => {
    if (!KEY.test(key)) throw new Error(`bad storage key ${key}`);
    return path.join(root, key.slice(0, 2), key.slice(2, 4), key);
  };

  return {
    async put(data) {
      const hash = createHash('sha256');
      const temp = path.join(tmp, randomUUID());
      const out = fs.createWriteStream(temp, { flags: 'wx' });
      let size = 0;
      try {
        for await (const chunk of Readable.fromWeb(data as any) as AsyncIterable<Uint8Array>) {
          hash.update(chunk);
          size += chunk.byteLength;
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
        const key = hash.digest('hex');
        const target = fileOf(key);
        if (fs.existsSync(target)) {
          await fs.promises.rm(temp, { force: true });
        } else {
          await fs.promises.mkdir(path.dirname(target), { recursive: true });
          await fs.promises.rename(temp, target);
        }
        return { key, size };
      } catch (err) {
        out.destroy();
        await fs.promises.rm(temp, { force: true });
        throw err;
      }
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
