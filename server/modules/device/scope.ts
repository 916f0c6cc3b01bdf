// Which devices a user sees: all for a devices admin, else those they own or are bound to.
import type { Db } from '../../db/index.ts';
import { SEE_ALL, seesAll } from '../../core/access.ts';

export async function visibleDeviceIds(db: Db, userId: number): Promise<number[] | undefined> {
  if (await seesAll(db, userId, SEE_ALL.devices)) return undefined;
  const bound = await db.selectFrom('device_user').select('deviceId').where('userId', '=', userId).execute();
  const owned = await db.selectFrom('device_info').select('id').where('personnelId', '=', userId).execute();
  return [...new Set([...bound.map((r) => r.deviceId), ...owned.map((r) => r.id)])];
}

