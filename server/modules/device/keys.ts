// Device keys: 32 random bytes, shown once (add, resetKey), stored as sha256 only. A key of this
// entropy needs no slow hash: nobody can guess one, and the hash alone does not open a device.
import { randomToken, sha256Hex } from '../../core/crypto.ts';

export const KEY_PREFIX = 'awd_';

export async function newDeviceKey(): Promise<{ key: string; keyHash: string; keyHint: string }> {
  const key = KEY_PREFIX + randomToken(32);
  return { key, keyHash: await sha256Hex(key), keyHint: `${KEY_PREFIX}…${key.slice(-4)}` };
}

/** The device a presented key belongs to (for the device hub). */
export async function deviceKeyHash(key: string): Promise<string> {
  return sha256Hex(key);
}
