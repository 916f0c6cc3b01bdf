// Tokens of a machine's calibration app (docs/devices.md, "Calibration"): the app signs in with its
// device's key (POST /admin/base/open/calibration/login) and gets a short-lived HS256 JWT of type
// 'calibration' naming that device. Such a token opens only CALIBRATION_PATHS, and only for its
// device (the routes read the device from the token, never from the request); every other route
// refuses it as it refuses any invalid token (verifyAccessToken takes only 'access' tokens). A new
// key (resetKey) ends the tokens issued under the old one: the token carries a digest of the key's
// hash, checked on every call.
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { decode, sign, verify } from 'hono/jwt';
import type { AppContext } from '../context.ts';
import type { AppEnv } from './env.ts';
import { sha256Hex } from './crypto.ts';
import { unauthorized } from './errors.ts';

/** Lifetime of a calibration token (seconds): one calibration session at the machine. */
export const CALIBRATION_TOKEN_SECONDS = 15 * 60;

/** The calls a calibration token may make (each for its own device only). */
export const CALIBRATION_PATHS: ReadonlySet<string> = new Set([
  '/admin/device/info/config',
  '/admin/device/config/calibrate',
  '/admin/device/config/history',
]);

interface CalibrationClaims {
  sub: number;
  /** sha256 of the device's key hash, cut: a reset key ends the token. */
  kd: string;
  typ: 'calibration';
  iat: number;
  exp: number;
}

const keyDigest = async (keyHash: string) => (await sha256Hex(`calibration:${keyHash}`)).slice(0, 24);

/** Equal hex strings, compared in constant time (a wrong key learns nothing from the timing). */
export function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function issueCalibrationToken(ctx: AppContext, device: { id: number; keyHash: string }): Promise<{ token: string; expire: number }> {
  const iat = Math.floor(ctx.clock.now() / 1000);
  const claims: CalibrationClaims = { sub: device.id, kd: await keyDigest(device.keyHash), typ: 'calibration', iat, exp: iat + CALIBRATION_TOKEN_SECONDS };
  return { token: await sign({ ...claims }, ctx.jwtSecret, 'HS256'), expire: CALIBRATION_TOKEN_SECONDS };
}

/** Whether a token says it is a calibration token (unverified: only to pick the check). */
export function isCalibrationToken(token: string): boolean {
  try {
    return (decode(token).payload as { typ?: unknown }).typ === 'calibration';
  } catch {
    return false;
  }
}

/** The device a calibration token is good for: signature, expiry (context clock), device and key checked. */
export async function verifyCalibrationToken(ctx: AppContext, token: string): Promise<{ deviceId: number }> {
  let claims: Partial<CalibrationClaims>;
  try {
    claims = (await verify(token, ctx.jwtSecret, { alg: 'HS256', exp: false, nbf: false, iat: false })) as Partial<CalibrationClaims>;
  } catch {
    throw unauthorized();
  }
  const { sub, kd, typ, exp } = claims;
  if (typ !== 'calibration' || typeof sub !== 'number' || typeof kd !== 'string' || typeof exp !== 'number') throw unauthorized();
  if (exp * 1000 <= ctx.clock.now()) throw unauthorized();
  const device = await ctx.db.selectFrom('device_info').select(['id', 'keyHash']).where('id', '=', sub).executeTakeFirst();
  if (!device || !sameHex(await keyDigest(device.keyHash), kd)) throw unauthorized();
  return { deviceId: device.id };
}

/** The calling machine's device, when the request carries a calibration token; else undefined. */
export function calibrationOf(c: Context<AppEnv>): { deviceId: number } | undefined {
  return c.get('calibration');
}
