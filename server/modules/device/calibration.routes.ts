// POST /admin/base/open/calibration/login: a machine's calibration app signs in with its device's
// key (the key the device connects to the hub with, device-protocol.md), and its id when it knows
// it, and gets a calibration token for that device only (core/calibration.ts). With an id, the key
// is compared in constant time against that device's stored hash, with the same work when the
// device does not exist; without one, the device is the one whose hash the key has (as the hub
// finds it). Attempts are counted before the key is looked at (core/rate-limit.ts: so a
// concurrent burst cannot all be tried): per address across devices, and, with an id, per device
// across addresses; a success forgets the device's failures and gives back its place among the
// address's.
import { Hono } from 'hono';
import { calibrationLoginSchema } from '../../../common/device-request.ts';
import type { AppContext } from '../../context.ts';
import { issueCalibrationToken, sameHex } from '../../core/calibration.ts';
import { clientIp } from '../../core/client-ip.ts';
import { sha256Hex } from '../../core/crypto.ts';
import { ok } from '../../core/envelope.ts';
import type { AppEnv } from '../../core/env.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { fail } from '../../core/errors.ts';
import { findDeviceByKey } from './keys.ts';
import { type Bucket, clear, counted, LOGIN_WINDOW_MS, release } from '../../core/rate-limit.ts';
import { validate } from '../../core/validate.ts';

const PREFIX = '/admin/base/open/calibration';
const CALIBRATION = epsGroup('device', PREFIX, 'DeviceCalibration');

/** Failed sign-ins a device takes in the window, from all addresses together. */
export const CALIBRATION_MAX_FAILURES = 10;
/** Failed sign-ins an address makes in the window, at all devices together. */
export const CALIBRATION_MAX_FAILURES_PER_IP = 20;

const deviceBucket = (deviceId: number): Bucket => ({ key: `calibration:${deviceId}`, max: CALIBRATION_MAX_FAILURES, windowMs: LOGIN_WINDOW_MS });
const ipBucket = (ip: string): Bucket => ({ key: `calibration-ip:${ip}`, max: CALIBRATION_MAX_FAILURES_PER_IP, windowMs: LOGIN_WINDOW_MS });

/** Compared against when there is no such device, so that the answer takes the same work. */
const NO_DEVICE_HASH = '0'.repeat(64);

export function calibrationRoutes(ctx: AppContext) {
  const doc = entryDoc(CALIBRATION);
  return new Hono<AppEnv>().post(
    `${PREFIX}/login`,
    doc("A machine's calibration app signs in ({ key, deviceId? }) -> { token, expire, deviceId, devicename }"),
    validate('json', calibrationLoginSchema),
    async (c) => {
      const { deviceId, key } = c.req.valid('json');
      const ip = clientIp(c, ctx.config.trustProxy);
      const device = await counted(
        ctx,
        deviceId !== undefined ? [ipBucket(ip), deviceBucket(deviceId)] : [ipBucket(ip)],
        'tooManyDeviceLogins',
        async () => {
          const keyHash = await sha256Hex(key);
          if (deviceId === undefined) {
            const found = await findDeviceByKey(ctx.db, key);
            if (!found) throw fail('badDeviceKey');
            return { ...found, keyHash };
          }
          const row = await ctx.db.selectFrom('device_info').select(['id', 'devicename', 'keyHash']).where('id', '=', deviceId).executeTakeFirst();
          const same = sameHex(keyHash, row?.keyHash ?? NO_DEVICE_HASH);
          if (!row || !same) throw fail('badDeviceKey');
          return row;
        },
        async ([ipAttempt, deviceAttempt]) => {
          if (deviceAttempt) await clear(ctx, deviceAttempt);
          await release(ctx, [ipAttempt!]);
        },
      );
      const { token, expire } = await issueCalibrationToken(ctx, device);
      ctx.logger.info(`calibration sign-in: device ${device.id} from ${ip}`);
      return ok(c, { token, expire, deviceId: device.id, devicename: device.devicename });
    },
  );
}
