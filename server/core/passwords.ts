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

export function createPasswordHasher(config: Config): PasswordHasher {
  const options = {
    algorithm: ARGON2ID,
    memoryCost: config.argon2.memoryCost,
    timeCost: config.argon2.timeCost,
    parallelism: 1,
  };
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, options),
    verify: async (hashed, password) => {
      try {
        return await verify(hashed, password);
      } catch {
        return false;
      }
    },
    verifyDummy: async (password) => {
      dummy ??= hash('not a password', options);
      await verify(await dummy, password).catch(() => false);
    },
  };
}
