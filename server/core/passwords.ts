// argon2id hashes. Cost comes from config so tests can run cheaper.
import { hash, verify, type Algorithm } from '@node-rs/argon2';

// Algorithm is an ambient const enum (unusable under verbatimModuleSyntax); 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;
import type { Config } from '../config.ts';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hashed: string, password: string): Promise<boolean>;
  /** Spend the time of a real check when there is no user, so timing does not reveal it. */
  verifyDummy(password: string): Promise<void>;
}

/** Runs at most `limit` jobs at once; the rest wait in order. */
export function gate(limit: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await job();
    } finally {
      // The slot passes straight to the next in line (running stays the same), or frees up.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

export function createPasswordHasher(config: Config): PasswordHasher {
  // A burst of sign-ins would otherwise take every thread of libuv's pool for seconds, and every
  // other request's token check (Web Crypto) and file I/O would wait behind them.
  const inTurn = gate(config.argon2.concurrency);
  const options = {
    algorithm: ARGON2ID,
    memoryCost: config.argon2.memoryCost,
    timeCost: config.argon2.timeCost,
    parallelism: 1,
  };
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => inTurn(() => hash(password, options)),
    verify: async (hashed, password) => {
      try {
        return await inTurn(() => verify(hashed, password));
      } catch {
        return false;
      }
    },
    verifyDummy: async (password) => {
      dummy ??= inTurn(() => hash('not a password', options));
      const hashed = await dummy;
      await inTurn(() => verify(hashed, password)).catch(() => false);
    },
  };
}
