// Device keys: 32 random bytes, shown once (add, resetKey), stored as sha256 only. A key of this
// entropy needs no slow hash: nobody can guess one, and the hash alone does not open a device.
import { randomToken, sha256Hex } from '../../core/crypto.ts';
import type { Db } from '../../db/index.ts';

export const KEY_PREFIX = 'awd_';

export async function newDeviceKey(): Promise<{ key: string; keyHash: string; keyHint: string }> {
  const key = KEY_PREFIX + randomToken(32);
  return { key, keyHash: await sha256Hex(key), keyHint: `${KEY_PREFIX}…${key.slice(-4)}` };
}

/** The device a presented key belongs to (for the device hub), or undefined. */
export async function findDeviceByKey(db: Db, key: string): Promise<{ id: number; devicename: string } | undefined> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return undefined;
  return db.selectFrom('device_info').select(['id', 'devicename']).where('keyHash', '=', await sha256Hex(key)).executeTakeFirst();
}
