// A device's configuration as its calibration app and the editor read it: the wire diameters,
// memory, die radius, bending head (its own or the default) and the springback tables. Nothing of
// its key or of any other device.
import { DEFAULT_HEAD, type HeadBox } from '../../../common/bend-program.ts';
import { parseHead } from '../../../common/device-request.ts';
import type { Db } from '../../db/index.ts';

/** The head the device's programs are checked against: its own, else the default. */
export function headOf(stored: string | null | undefined): { head: HeadBox[]; headDefault: boolean } {
  const own = parseHead(stored);
  return own ? { head: own, headDefault: false } : { head: DEFAULT_HEAD.map((b) => ({ min: b.min, max: b.max }) as HeadBox), headDefault: true };
}

export async function deviceConfiguration(db: Db, id: number) {
  const d = await db
    .selectFrom('device_info')
    .select(['id', 'devicename', 'status', 'diameters', 'memory', 'dieRadius', 'head', 'updateTime'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!d) return undefined;
  const tables = await db
    .selectFrom('device_config')
    .select(['id', 'diameter', 'springback', 'remark', 'updateTime'])
    .where('deviceId', '=', id)
    .orderBy('diameter')
    .execute();
  return {
    id: d.id,
    devicename: d.devicename,
    status: d.status,
    diameterList: d.diameters.split(',').map(Number),
    memory: d.memory,
    dieRadius: d.dieRadius,
    ...headOf(d.head),
    springback: tables.map((t) => ({ id: t.id, diameter: t.diameter, table: JSON.parse(t.springback) as [number, number][], remark: t.remark, updateTime: t.updateTime })),
    updateTime: d.updateTime,
  };
}
