// The server's collision check of a program against the device's bending head: the same sweep
// the editor runs before sending (workers/kernels/bend.ts bendCollision), with the device's own
// head (or the default), die radius and springback table for the wire. A program queued through
// the API, not only through the editor, is held to it. The kernels are loaded once, lazily; where
// they are not built (build/kernels.wasm missing) the check is skipped and that is logged once.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BendStep } from '../../../common/bend-program.ts';
import { type SpringbackTable, springbackTableProblem } from '../../../common/springback.ts';
import type { Logger } from '../../core/logger.ts';
import type { Db } from '../../db/index.ts';
import { headOf } from './configuration.ts';

export interface HeadHit {
  /** 0-based step of the first contact. */
  step: number;
  phase: 'feed' | 'rotate' | 'bend';
}

interface BendKernels {
  exports: object;
  bendCollision(k: object, steps: readonly BendStep[], options: object): HeadHit | null;
}

/** Worker code (workers/), loaded by URL: the server project does not type-check it. */
const workerUrl = (file: string) => new URL(`../../../workers/${file}`, import.meta.url).href;
const WASM_PATH = fileURLToPath(new URL('../../../build/kernels.wasm', import.meta.url));

let loading: Promise<BendKernels | null> | undefined;

function kernels(logger: Logger): Promise<BendKernels | null> {
  loading ??= (async () => {
    if (!fs.existsSync(WASM_PATH)) {
      logger.warn('kernels.wasm is not built: programs are queued without the server-side collision check');
      return null;
    }
    const abi = (await import(workerUrl('kernels/abi.ts'))) as { instantiateKernels(bytes: Uint8Array): Promise<object> };
    const bend = (await import(workerUrl('kernels/bend.ts'))) as Pick<BendKernels, 'bendCollision'>;
    return { exports: await abi.instantiateKernels(fs.readFileSync(WASM_PATH)), bendCollision: bend.bendCollision };
  })();
  return loading;
}

/**
 * The first contact of `steps` (as sent: springback compensated) with the device's head, or null.
 * A program the kernels cannot replay (a feed shorter than its bend's arc) is not refused here:
 * the machine's limits are checked before this, and the device reports what it cannot bend.
 */
export async function headCollision(db: Db, logger: Logger, deviceId: number, steps: readonly BendStep[], diameter: number): Promise<HeadHit | null> {
  const k = await kernels(logger);
  if (!k) return null;
  const device = await db.selectFrom('device_info').select(['dieRadius', 'head']).where('id', '=', deviceId).executeTakeFirst();
  if (!device) return null;
  const config = await db.selectFrom('device_config').select('springback').where('deviceId', '=', deviceId).where('diameter', '=', diameter).executeTakeFirst();
  let springback: SpringbackTable | undefined;
  if (config) {
    const table = JSON.parse(config.springback) as SpringbackTable;
    if (!springbackTableProblem(table)) springback = table;
  }
  try {
    return k.bendCollision(k.exports, steps, { radius: device.dieRadius, diameter, head: headOf(device.head).head, ...(springback ? { springback } : {}) });
  } catch {
    return null;
  }
}
