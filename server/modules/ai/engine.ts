// The automatic design's engine boundary: what the `autodesign` job hands the engine and what it
// answers. The engine runs in the job's worker thread (autodesign.thread.ts): the built-in one is
// runAutodesign (the kernels of workers/design/autodesign.ts, docs/autodesign.md); an outside AI
// service (vendor.ts, docs/ai-vendor.md) answers the same document by its callback instead. Tests run other thread code through
// autodesignKind({ module, fn }).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AiBaseReport, AiWireReport } from '../../../common/ai-report.ts';
import type { AutodesignBaseReport, AutodesignWireReport } from '../../../common/autodesign.ts';
import { localBlobPath } from '../space/storage.ts';
import type { BiteResult } from '../../../common/bite.ts';
import type { Prescription } from '../../../common/prescription.ts';
import type { Jaw, StoredTeeth } from '../../../common/teeth.ts';
import type { WireType } from '../../../common/wires.ts';
import type { WireAiMark } from '../../../common/ai.ts';

/** The kernels are not built (build/kernels.wasm missing): `npm run build` first. */
export const ENGINE_UNAVAILABLE = 'the built-in engine is not available';

/** One jaw model: its bytes' storage key (under `uploads`) and its stored teeth, if segmented. */
export interface AutodesignJaw {
  fileId: number;
  key: string;
  teeth: StoredTeeth | null;
}

export interface AutodesignInput {
  orderId: number;
  /** Where the models' bytes live (space/storage.ts localBlobPath). */
  uploads: string;
  upper: AutodesignJaw | null;
  lower: AutodesignJaw | null;
  /** The registered bite (order_bite), when the order has one. */
  bite: BiteResult | null;
  /** The order's prescription, else the lab's default. */
  prescription: Prescription;
}

/** A design document (common/design.ts format) whose wires the engine made carry `ai`. */
export interface AutodesignDocument {
  schemaVersion: number;
  wires: ({ id: string; type: WireType; ai: WireAiMark } & Record<string, unknown>)[];
  [key: string]: unknown;
}

export interface AutodesignResult {
  design: AutodesignDocument;
  /** Per prescribed wire (common/ai-report.ts); kept with the stored design (order_ai_report). */
  report: AiWireReport[];
  /** Per jaw whose prescription asks for a base. */
  bases: AiBaseReport[];
}

export type AutodesignEngine = (input: AutodesignInput, onProgress: (f: number) => void) => Promise<AutodesignResult>;

interface EngineModules {
  compileKernels(bytes: Uint8Array): Promise<object>;
  autodesign(
    module: object,
    input: { upper: Uint8Array | null; lower: Uint8Array | null; prescription: Prescription; bite: BiteResult | null },
    options?: { onProgress?: (f: number) => void },
  ): Promise<{ document: AutodesignDocument; report: AutodesignWireReport[]; bases: AutodesignBaseReport[] }>;
}

/** Worker code (workers/), loaded by URL in the job's thread: the server project does not type-check it. */
const workerUrl = (file: string) => new URL(`../../../workers/${file}`, import.meta.url).href;
const WASM_PATH = fileURLToPath(new URL('../../../build/kernels.wasm', import.meta.url));

/**
 * The built-in engine (workers/design/autodesign.ts, the same as `npm run autodesign`): the jaw
 * models read from storage, every prescribed wire placed and checked. Wires that fail are left out
 * with their reasons; when none could be made the run fails with them.
 */
export const runAutodesign: AutodesignEngine = async (input, onProgress) => {
  if (!fs.existsSync(WASM_PATH)) throw new Error(ENGINE_UNAVAILABLE);
  const read = (jaw: AutodesignJaw | null) => (jaw ? new Uint8Array(fs.readFileSync(localBlobPath(input.uploads, jaw.key))) : null);
  const abi = (await import(workerUrl('kernels/abi.ts'))) as Pick<EngineModules, 'compileKernels'>;
  const engine = (await import(workerUrl('design/autodesign.ts'))) as Pick<EngineModules, 'autodesign'>;
  const compiled = await abi.compileKernels(fs.readFileSync(WASM_PATH));
  // a jaw without its model is not designed (an order of one jaw, the lab's default for both)
  const prescription: Prescription = { upper: input.upper ? input.prescription.upper : null, lower: input.lower ? input.prescription.lower : null };
  // the jaws are designed where the editor draws them: in the registered bite, when there is one
  const out = await engine.autodesign(compiled, { upper: read(input.upper), lower: read(input.lower), prescription, bite: input.bite }, { onProgress });
  // The reports as the designer reviews them: the diagnostics (detail, the base's figures) stay behind.
  const report: AiWireReport[] = out.report.map((r) => ({
    ...(r.wireId ? { wireId: r.wireId } : {}),
    jaw: r.jaw,
    type: r.type,
    teeth: r.teeth,
    status: r.status,
    ...(r.code ? { code: r.code } : {}),
    ...(r.tooth !== undefined ? { tooth: r.tooth } : {}),
    ...(r.message ? { message: r.message } : {}),
    ...(r.tipUndercut !== undefined ? { tipUndercut: r.tipUndercut } : {}),
    ...(r.dieRadius !== undefined ? { dieRadius: r.dieRadius } : {}),
  }));
  const bases: AiBaseReport[] = out.bases.map((b) => ({
    jaw: b.jaw,
    status: b.status,
    ...(b.code ? { code: b.code } : {}),
    ...(b.message ? { message: b.message } : {}),
    slots: b.slots.map((s) => ({ wireId: s.wireId, status: s.status, ...(s.code ? { code: s.code } : {}) })),
    ...(b.tags ? { tags: b.tags } : {}),
  }));
  if (report.length > 0 && !report.some((r) => r.status === 'placed')) throw new Error(report.map((r) => r.message ?? `${r.type} failed`).join('; '));
  return { design: out.document, report, bases };
};
