// Bend programs of a design's wires on the server: the same kernels as the editor's worker
// (workers/kernels/bend.ts over build/kernels.wasm), loaded once on first use. A wire has tens
// of corners, so one program is well under a millisecond: computed here, not in a job. The
// device-independent program is for the default die (1 mm) without springback; a device's is
// for its die radius, compensated with its springback table for the wire's diameter.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BendStep } from '../../../common/bend-program.ts';
import type { SpringbackTable } from '../../../common/springback.ts';
import type { Db } from '../../db/index.ts';

/** The die radius of programs for no device in particular (the editor's default). */
export const DEFAULT_DIE_RADIUS_MM = 1;

type Xyz = readonly [number, number, number];
/** An opaque kernel instance (the wrappers are worker code: imported by URL, typed by what is used). */
type Kernels = object;
interface BendModules {
  compileKernels(bytes: Uint8Array): Promise<object>;
  instantiateModule(module: object): Kernels;
  bendProgram(k: Kernels, points: readonly Xyz[], options: { radius: number; springback?: SpringbackTable }): { steps: BendStep[]; length: number; capped: number[] };
}

const WASM_PATH = fileURLToPath(new URL('../../../build/kernels.wasm', import.meta.url));
const moduleUrl = (file: string) => new URL(`../../../workers/kernels/${file}`, import.meta.url).href;

let loaded: Promise<{ k: Kernels; m: BendModules } | null> | undefined;

function kernels() {
  loaded ??= (async () => {
    if (!fs.existsSync(WASM_PATH)) return null;
    const abi = (await import(moduleUrl('abi.ts'))) as Pick<BendModules, 'compileKernels' | 'instantiateModule'>;
    const bend = (await import(moduleUrl('bend.ts'))) as Pick<BendModules, 'bendProgram'>;
    const m = { ...abi, ...bend };
    // One instance: every call releases the arena memory it used.
    return { k: m.instantiateModule(await m.compileKernels(fs.readFileSync(WASM_PATH))), m };
  })();
  return loaded;
}

export interface WireProgram {
  steps: BendStep[];
  /** Developed length of the wire (mm). */
  length: number;
  /** Corners bent at the 160° cap. */
  capped: number[];
}

export type ProgramResult = { ok: true; program: WireProgram } | { ok: false; reason: string };

/** The program of a wire's corners for a die radius and an optional springback table. */
export async function wireProgram(points: readonly Xyz[], radius: number, springback?: SpringbackTable): Promise<ProgramResult> {
  const kit = await kernels();
  if (!kit) return { ok: false, reason: 'kernels' };
  try {
    const p = kit.m.bendProgram(kit.k, points, { radius, ...(springback ? { springback } : {}) });
    return { ok: true, program: { steps: p.steps, length: p.length, capped: p.capped } };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message.replace(/^BAD_INPUT: /, '') : String(err) };
  }
}

/** The device's springback table for a diameter, if calibrated. */
export async function springbackOf(db: Db, deviceId: number, diameter: number): Promise<SpringbackTable | undefined> {
  const rows = await db.selectFrom('device_config').select(['diameter', 'springback']).where('deviceId', '=', deviceId).execute();
  const row = rows.find((r) => Math.abs(Number(r.diameter) - diameter) < 1e-6);
  if (!row) return undefined;
  try {
    return JSON.parse(String(row.springback)) as SpringbackTable;
  } catch {
    return undefined;
  }
}

/** A designed wire as the design document holds it (the fields the open API reads). */
export interface StoredWire {
  id: string;
  type: string;
  jaw: string | null;
  diameter: number | null;
  points: Xyz[];
  ai: { accepted: boolean } | null;
}

/** The wires of a stored design document (anything unreadable left out). */
export function designWires(data: string | null | undefined): StoredWire[] {
  if (!data) return [];
  let doc: { wires?: unknown };
  try {
    doc = JSON.parse(data) as { wires?: unknown };
  } catch {
    return [];
  }
  if (!Array.isArray(doc.wires)) return [];
  return doc.wires.flatMap((raw: unknown, i) => {
    if (!raw || typeof raw !== 'object') return [];
    const w = raw as Record<string, unknown>;
    const points = Array.isArray(w.points)
      ? w.points.flatMap((p) => {
          const xyz = (p as { point?: unknown } | null)?.point;
          return Array.isArray(xyz) && xyz.length === 3 && xyz.every((v) => typeof v === 'number' && Number.isFinite(v)) ? [xyz as unknown as Xyz] : [];
        })
      : [];
    const ai = w.ai && typeof w.ai === 'object' ? { accepted: Boolean((w.ai as { accepted?: unknown }).accepted) } : null;
    return [{
      id: typeof w.id === 'string' || typeof w.id === 'number' ? String(w.id) : `#${i}`,
      type: String(w.type ?? ''),
      jaw: typeof w.jaw === 'string' ? w.jaw : null,
      diameter: typeof w.diameter === 'number' && Number.isFinite(w.diameter) ? w.diameter : null,
      points,
      ai,
    }];
  });
}
