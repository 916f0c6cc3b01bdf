// The automatic design of one order with the product's own kernels and wire geometry, outside
// the browser (a server job thread, the command line, tests): per jaw, the teeth segmented; on
// the straightening of the set, each prescribed wire placed on its named teeth exactly as the
// editor's "on tooth" row does (anchorsOnTeeth + placeTemplate), the single-arm clasps
// auto-fitted, and every wire run through the editor's live bending checks. A wire that cannot
// be placed or fails its checks is left out with its reason; the rest is kept. The result is a
// design document in the editor's format, each wire marked AI-made and not yet accepted.
// A jaw whose prescription asks for a base then gets its base and slots (autodesign-base.ts).
import { autodesignMessage, type AutodesignBaseReport, type AutodesignWireReport } from '../../common/autodesign.ts';
import { DESIGN_SCHEMA_VERSION } from '../../common/design.ts';
import type { JawPrescription, Prescription } from '../../common/prescription.ts';
import { mm } from '../../common/units.ts';
import { autoFit } from '../../common/wires/fit.ts';
import { placeTemplate, TemplateError } from '../../common/wires/templates.ts';
import { anchorsOnTeeth, ToothAnchorError } from '../../common/wires/tooth-anchors.ts';
import type { WireFrame } from '../../common/wires/local.ts';
import type { SurfaceQuery } from '../../common/wires/surface.ts';
import type { WireDesign } from '../../common/wires/types.ts';
import type { WireType } from '../../common/wires.ts';
import { instantiateModule } from '../kernels/abi.ts';
import { checkBend } from '../kernels/bend-checks.ts';
import { KernelError } from '../kernels/job.ts';
import { meshFromArrays, type MeshRef } from '../kernels/mesh.ts';
import { parseStl } from '../kernels/stl.ts';
import { straighten } from '../kernels/straighten.ts';
import { segmentTeeth, type ToothInfo } from '../kernels/teeth.ts';
import { buildBvh } from '../kernels/bvh.ts';
import { designJawBase, type AutodesignBase, type AutodesignSlot } from './autodesign-base.ts';
import { kernelSurface } from './surface.ts';

type Jaw = 'upper' | 'lower';

/** A jaw model: STL bytes, or a welded mesh (xyz per vertex, three indices per triangle, counter-clockwise outside). */
export type JawModel = Uint8Array | { positions: Float32Array; indices: Uint32Array };

export interface AutodesignInput {
  upper?: JawModel | null;
  lower?: JawModel | null;
  prescription: Prescription;
}

/** The design document the editor opens (src/editor/engine/document.ts parseDocument reads it). */
export interface AutodesignDocument {
  schemaVersion: typeof DESIGN_SCHEMA_VERSION;
  measurements: [];
  straightening: { matrix: number[]; jaw: Jaw };
  wires: WireDesign[];
  /** Per jaw whose prescription asks for one and whose base was generated. */
  bases?: { upper?: AutodesignBase; lower?: AutodesignBase };
  slots?: AutodesignSlot[];
}

export interface AutodesignResult {
  document: AutodesignDocument;
  /** One entry per prescribed wire, in the prescription's order (upper first). */
  report: AutodesignWireReport[];
  /** One entry per jaw whose prescription asks for a base. */
  bases: AutodesignBaseReport[];
  /** Teeth detected per segmented jaw (Universal numbers). */
  teeth: Partial<Record<Jaw, number[]>>;
  timings: { totalMs: number; straightenMs: number; segmentMs: number; wiresMs: number; baseMs: number };
}

/** The gap between the wire and the teeth the editor starts with (features/wires: DEFAULT_CLEARANCE). */
export const AUTODESIGN_CLEARANCE = 0.1;
/** The die radius of the editor's live checks (features/wires/checks.ts CHECK_RADIUS). */
const CHECK_RADIUS = 1;
/** Die radii the templates make room for, tried in turn until the wire passes the checks (mm). */
const ROOM_FOR_DIE = [1, 1.25, 1.5];

export interface AutodesignOptions {
  onProgress?: (fraction: number) => void;
  shouldCancel?: () => boolean;
}

/**
 * Designs the wires of one order. `module`: build/kernels.wasm compiled. Throws KernelError
 * BAD_INPUT for an unreadable model or a prescribed jaw without one; a wire that fails is reported,
 * not thrown.
 */
export async function autodesign(module: WebAssembly.Module, input: AutodesignInput, options: AutodesignOptions = {}): Promise<AutodesignResult> {
  const t0 = performance.now();
  const progress = options.onProgress ?? (() => {});
  const cancelled = (): void => {
    if (options.shouldCancel?.()) throw new KernelError('ABORTED', 'the design was cancelled');
  };
  const jaws = (['upper', 'lower'] as const).filter((j) => input.prescription[j] && (input.prescription[j]!.wires.length > 0 || input.prescription[j]!.base));
  for (const j of jaws) if (!input[j]) throw new KernelError('BAD_INPUT', `the ${j} model is missing but its wires are prescribed`);

  const meshes: Partial<Record<Jaw, MeshRef>> = {};
  for (const j of ['upper', 'lower'] as const) {
    const model = input[j];
    if (model) meshes[j] = await meshOf(module, model, j);
  }
  // One straightening for the set (the editor's: the lower jaw when there is one), so that the bite is kept.
  const analysed: Jaw = meshes.lower ? 'lower' : 'upper';
  let t = performance.now();
  const straightening = meshes[analysed]
    ? { matrix: Array.from((await straighten(meshes[analysed], { jaw: analysed })).matrix), jaw: analysed }
    : { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], jaw: analysed };
  const straightenMs = performance.now() - t;
  progress(0.1);

  const wires: WireDesign[] = [];
  const report: AutodesignWireReport[] = [];
  const teethFound: AutodesignResult['teeth'] = {};
  const bases: NonNullable<AutodesignDocument['bases']> = {};
  const slots: AutodesignSlot[] = [];
  const baseReport: AutodesignBaseReport[] = [];
  let segmentMs = 0, wiresMs = 0, baseMs = 0;
  for (const [n, jaw] of jaws.entries()) {
    cancelled();
    const mesh = meshes[jaw]!;
    t = performance.now();
    const seg = await segmentTeeth(mesh, { jaw, shouldCancel: options.shouldCancel, onProgress: (f) => progress(0.1 + (0.8 * (n + 0.8 * f)) / jaws.length) });
    segmentMs += performance.now() - t;
    teethFound[jaw] = seg.teeth.map((tooth) => tooth.number);
    t = performance.now();
    const placed = await designJaw(mesh, jaw, input.prescription[jaw]!, seg.teeth, straightening.matrix, cancelled);
    wiresMs += performance.now() - t;
    wires.push(...placed.wires);
    report.push(...placed.report);
    if (input.prescription[jaw]!.base) {
      cancelled();
      t = performance.now();
      const made = await designJawBase({ mesh, bvh: buildBvh(mesh), jaw, labels: seg.labels, teeth: seg.teeth, wires: placed.wires, matrix: straightening.matrix, shouldCancel: options.shouldCancel });
      baseMs += performance.now() - t;
      if (made.base) bases[jaw] = made.base;
      slots.push(...made.slots);
      baseReport.push(made.report);
    }
    progress(0.1 + (0.8 * (n + 1)) / jaws.length);
  }
  progress(1);
  return {
    document: { schemaVersion: DESIGN_SCHEMA_VERSION, measurements: [], straightening, wires, ...(baseReport.length > 0 ? { bases, slots } : {}) },
    report,
    bases: baseReport,
    teeth: teethFound,
    timings: { totalMs: performance.now() - t0, straightenMs, segmentMs, wiresMs, baseMs },
  };
}

/** The prescribed wires of one jaw on its segmented teeth. */
async function designJaw(mesh: MeshRef, jaw: Jaw, p: JawPrescription, teeth: readonly ToothInfo[], matrix: number[], cancelled: () => void): Promise<{ wires: WireDesign[]; report: AutodesignWireReport[] }> {
  const surface = kernelSurface(mesh);
  const frame = { matrix, jaw };
  const wires: WireDesign[] = [];
  const report: AutodesignWireReport[] = [];
  for (const [i, w] of p.wires.entries()) {
    cancelled();
    const entry: AutodesignWireReport = { jaw, type: w.type, teeth: [...w.teeth], status: 'failed' };
    report.push(entry);
    const opts = { diameter: p.diameter, clearance: AUTODESIGN_CLEARANCE };
    let wire: WireDesign | null = null;
    let failed: { code: 'DETECTION_FAILED' | 'CHECKS_FAILED'; tooth?: number; detail: string } | null = null;
    // The template makes room for the die; where the surface's keep-off pulls two corners too close
    // for the checks' die, it is laid again with room for a larger one.
    for (const dieRadius of ROOM_FOR_DIE) {
      let made: WireDesign;
      try {
        made = await placeOne(w.type, w.teeth, `ai-${jaw}-${i + 1}`, jaw, { ...opts, dieRadius }, teeth, frame, surface);
      } catch (e) {
        if (!(e instanceof TemplateError)) throw e;
        failed = { code: 'DETECTION_FAILED', tooth: e instanceof ToothAnchorError ? e.tooth : w.teeth[0], detail: e.message };
        break;
      }
      const check = checkBend(mesh.k, {
        points: made.points.map((pt) => [pt.point[0], pt.point[1], pt.point[2]] as const),
        wire: { type: made.type, diameter: made.diameter },
        program: { radius: CHECK_RADIUS },
        skipCollision: true,
      });
      if (check.ok) {
        wire = made;
        if (dieRadius !== ROOM_FOR_DIE[0]) entry.dieRadius = dieRadius;
        break;
      }
      failed = { code: 'CHECKS_FAILED', tooth: w.teeth[0], detail: check.issues.filter((x) => x.severity === 'error').map((x) => x.message).join('; ') };
    }
    if (!wire) {
      Object.assign(entry, { code: failed!.code, tooth: failed!.tooth, message: autodesignMessage(failed!.code, w.type, failed!.tooth), detail: failed!.detail });
      continue;
    }
    wires.push(wire);
    Object.assign(entry, { status: 'placed', wireId: wire.id });
  }
  return { wires, report };
}

/** One wire on its named teeth: the editor's "on tooth" placement, the clasp auto-fitted. Throws TemplateError. */
async function placeOne(
  type: WireType,
  numbers: readonly number[],
  id: string,
  jaw: Jaw,
  opts: { diameter: number; clearance: number; dieRadius: number },
  teeth: readonly ToothInfo[],
  frame: WireFrame,
  surface: SurfaceQuery,
): Promise<WireDesign> {
  const anchors = await anchorsOnTeeth(type, numbers, teeth, frame, surface);
  const shape = await placeTemplate(type, anchors, frame, surface, opts);
  let wire: WireDesign = {
    id,
    type,
    jaw,
    diameter: mm(opts.diameter),
    clearance: mm(opts.clearance),
    points: shape.points,
    anchors: anchors.map((a) => ({ point: a.point, triangle: a.triangle })),
    tag: shape.tag,
    ...(shape.tags.length > 1 ? { tags: shape.tags } : {}),
    ai: { accepted: false },
  };
  if (type === 'singleArmClasp') {
    const fitted = await autoFit(wire, frame, surface, { dieRadius: opts.dieRadius });
    wire = { ...wire, points: fitted.points, ...(fitted.tag ? { tag: fitted.tag } : {}) };
  }
  return wire;
}

/** The model in a fresh kernel instance (one per jaw, as the geometry worker keeps them). */
async function meshOf(module: WebAssembly.Module, model: JawModel, jaw: Jaw): Promise<MeshRef> {
  const k = instantiateModule(module);
  if (!(model instanceof Uint8Array)) return meshFromArrays(k, model.positions, model.indices);
  const parsed = await parseStl(k, model, { sliceMs: 1e9, yieldToEventLoop: () => Promise.resolve() });
  if (!parsed.ok) throw new KernelError('BAD_INPUT', `the ${jaw} model is not a readable STL (${parsed.error.code}${parsed.error.detail ? `: ${parsed.error.detail}` : ''})`);
  if (!parsed.mesh.indices.length) throw new KernelError('BAD_INPUT', `the ${jaw} model has no triangles`);
  return meshFromArrays(k, parsed.mesh.positions, parsed.mesh.indices);
}
