// The automatic design of one order with the product's own kernels and wire geometry, outside
// the browser (a server job thread, the command line, tests): per jaw, the teeth segmented and
// the insertion direction of least undercut on the crowns chosen; in each jaw's canonical frame
// (the straightening of the set after the registered bite, as the editor composes them), each
// prescribed wire placed on its named teeth exactly as the editor's "on tooth" row does
// (anchorsOnTeeth + placeTemplate), the single-arm clasps auto-fitted and their tips put into the
// undercut, every wire's arms lifted to its clearance where a straight dips nearer the teeth
// (lift-off.ts), and every wire run through the bending checks with the collision sweep against the
// bending head. A wire that cannot be placed, fails its checks or collides is left out with its
// reason; the rest is kept. A jaw whose prescription asks for a base then gets its base and slots
// (autodesign-base.ts). The result is a design document in the editor's format, each wire marked
// AI-made and not yet accepted.
import { autodesignMessage, type AutodesignBaseReport, type AutodesignFailure, type AutodesignWireReport } from '../../common/autodesign.ts';
import { IDENTITY, type BiteResult } from '../../common/bite.ts';
import { DESIGN_SCHEMA_VERSION } from '../../common/design.ts';
import { DEFAULT_DEVICE } from '../../common/bend-program.ts';
import type { JawPrescription, Prescription } from '../../common/prescription.ts';
import { invertRigid, isRigidMatrix, multiply } from '../../common/pose.ts';
import { distalOf, type Xyz } from '../../common/teeth.ts';
import { mm } from '../../common/units.ts';
import { autoFit } from '../../common/wires/fit.ts';
import { placeTemplate, TemplateError, type ClaspCrossing } from '../../common/wires/templates.ts';
import { anchorsOnTeeth, ToothAnchorError } from '../../common/wires/tooth-anchors.ts';
import type { WireFrame } from '../../common/wires/local.ts';
import type { SurfaceQuery } from '../../common/wires/surface.ts';
import type { WireDesign } from '../../common/wires/types.ts';
import type { WireType } from '../../common/wires.ts';
import { instantiateModule } from '../kernels/abi.ts';
import type { HeadBox } from '../kernels/bend.ts';
import { checkBend } from '../kernels/bend-checks.ts';
import { KernelError } from '../kernels/job.ts';
import { meshFromArrays, meshViews, type MeshRef } from '../kernels/mesh.ts';
import { parseStl } from '../kernels/stl.ts';
import { straighten } from '../kernels/straighten.ts';
import { segmentTeeth, type ToothInfo } from '../kernels/teeth.ts';
import { buildBvh, type Bvh } from '../kernels/bvh.ts';
import { designJawBase, insertionInModel, type AutodesignBase, type AutodesignSlot } from './autodesign-base.ts';
import { surveyTooth, type CrownPatch, type ToothSurvey } from '../kernels/teeth-landmarks.ts';
import { CLASP_TIP_RANGE, tangentTips, tipIntoUndercut, tipUndercut } from './clasp-tip.ts';
import { insertionDirection, jawAxis } from './insertion.ts';
import { liftOff } from './lift-off.ts';
import { occlusalSurface } from './occlusal.ts';
import { roomyWays, TAG_ROOM, type KeepOff } from './tag-room.ts';
import { jawArchOrNone, toothSideRoom } from './base-outline.ts';
import { kernelSurface } from './surface.ts';

type Jaw = 'upper' | 'lower';

/** A jaw model: STL bytes, or a welded mesh (xyz per vertex, three indices per triangle, counter-clockwise outside). */
export type JawModel = Uint8Array | { positions: Float32Array; indices: Uint32Array };

export interface AutodesignInput {
  upper?: JawModel | null;
  lower?: JawModel | null;
  prescription: Prescription;
  /**
   * The order's registered bite (each jaw's model → the bite scan's frame): the jaws are designed
   * where the editor draws them. One with `error` or `code`, or without two rigid matrices, is
   * not used (the editor does not use it either).
   */
  bite?: Pick<BiteResult, 'upper' | 'lower' | 'error' | 'code'> | null;
}

/** The design document the editor opens (src/editor/engine/document.ts parseDocument reads it). */
export interface AutodesignDocument {
  schemaVersion: typeof DESIGN_SCHEMA_VERSION;
  measurements: [];
  straightening: { matrix: number[]; jaw: Jaw };
  /** The bite the coordinates assume (the editor's `bite`), when one was given. */
  bite?: { upper: number[]; lower: number[]; source: 'auto' };
  /** Per designed jaw: the insertion direction chosen (unit, canonical frame, from the model towards the appliance). */
  insertionDirections: Partial<Record<Jaw, [number, number, number]>>;
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
  /**
   * Per designed jaw: the insertion direction's angle to the jaw's axis (degrees), the crowns'
   * undercut (mm³) along it and along the axis, and the clasped teeth retentive along each (insertion.ts).
   */
  insertion: Partial<Record<Jaw, { angleDeg: number; undercut: number; axisUndercut: number; retentive: number[]; axisRetentive: number[] }>>;
  timings: { totalMs: number; straightenMs: number; segmentMs: number; insertionMs: number; wiresMs: number; baseMs: number };
}

/** The gap between the wire and the teeth the editor starts with (features/wires: DEFAULT_CLEARANCE). */
export const AUTODESIGN_CLEARANCE = 0.1;
/** The die radius of the editor's live checks (features/wires/checks.ts CHECK_RADIUS). */
const CHECK_RADIUS = 1;
/** Die radii the templates make room for, tried in turn until the wire passes the checks (mm). */
const ROOM_FOR_DIE = [1, 1.25, 1.5, 1.75, 2];

export interface AutodesignOptions {
  onProgress?: (fraction: number) => void;
  shouldCancel?: () => boolean;
  /** The bending head the collision sweep uses (default DEFAULT_HEAD). */
  head?: readonly HeadBox[];
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
  const bite = usableBite(input.bite);
  // One straightening for the set, as the editor's automatic straightening makes it: found on the
  // upper jaw when there is one, in that jaw's own frame, then its bite undone (the set is drawn
  // in the bite's frame); each jaw's canonical frame is then straightening · its bite.
  const analysed: Jaw = meshes.upper ? 'upper' : 'lower';
  let t = performance.now();
  const found = meshes[analysed] ? Array.from((await straighten(meshes[analysed], { jaw: analysed })).matrix) : [...IDENTITY];
  const straightening = { matrix: bite ? multiply(found, invertRigid(bite[analysed])) : found, jaw: analysed };
  const frameOf = (jaw: Jaw): number[] => (bite ? multiply(straightening.matrix, bite[jaw]) : straightening.matrix);
  const straightenMs = performance.now() - t;
  progress(0.1);

  const wires: WireDesign[] = [];
  const report: AutodesignWireReport[] = [];
  const teethFound: AutodesignResult['teeth'] = {};
  const bases: NonNullable<AutodesignDocument['bases']> = {};
  const slots: AutodesignSlot[] = [];
  const baseReport: AutodesignBaseReport[] = [];
  const insertion: AutodesignResult['insertion'] = {};
  const insertionDirections: AutodesignDocument['insertionDirections'] = {};
  let segmentMs = 0, insertionMs = 0, wiresMs = 0, baseMs = 0;
  for (const [n, jaw] of jaws.entries()) {
    cancelled();
    const mesh = meshes[jaw]!;
    t = performance.now();
    const seg = await segmentTeeth(mesh, { jaw, shouldCancel: options.shouldCancel, onProgress: (f) => progress(0.1 + (0.8 * (n + 0.8 * f)) / jaws.length) });
    segmentMs += performance.now() - t;
    teethFound[jaw] = seg.teeth.map((tooth) => tooth.number);
    t = performance.now();
    const frame = frameOf(jaw);
    const clasped = input.prescription[jaw]!.wires.filter((w) => w.type === 'singleArmClasp').map((w) => w.teeth[0]!);
    const dir = insertionDirection(mesh, seg.labels, frame, jaw, clasped);
    insertionDirections[jaw] = dir.canonical;
    insertion[jaw] = { angleDeg: dir.angleDeg, undercut: dir.undercut, axisUndercut: dir.axisUndercut, retentive: dir.retentive, axisRetentive: dir.axisRetentive };
    insertionMs += performance.now() - t;
    cancelled();
    t = performance.now();
    // the crowns' occlusal surface, which the tags' room and the base keep off
    const occlusal = occlusalSurface(mesh, seg.labels, insertionInModel(frame, jawAxis(jaw)));
    // one BVH of the jaw for its wires' surface queries and its base
    const bvh = buildBvh(mesh);
    // the jaw's arch coordinates, for the tags' room and the base's outlines
    const arch = jawArchOrNone({ jaw, positions: meshViews(mesh).positions.slice(), labels: seg.labels, occlusal: occlusal.vertices, teeth: seg.teeth, matrix: frame, direction: dir.canonical });
    const keepOff = { occlusal: occlusal.triangles, toothSide: toothSideRoom(arch) };
    const placed = await designJaw(mesh, bvh, jaw, input.prescription[jaw]!, seg.teeth, { frame, direction: dir.model, crowns: dir.crowns, head: options.head, keepOff }, cancelled);
    wiresMs += performance.now() - t;
    wires.push(...placed.wires);
    report.push(...placed.report);
    if (input.prescription[jaw]!.base) {
      cancelled();
      t = performance.now();
      const made = await designJawBase({ mesh, bvh, jaw, labels: seg.labels, occlusal: occlusal.vertices, teeth: seg.teeth, wires: placed.wires, matrix: frame, direction: dir.canonical, ...(arch ? { arch } : {}), shouldCancel: options.shouldCancel });
      baseMs += performance.now() - t;
      if (made.base) bases[jaw] = made.base;
      slots.push(...made.slots);
      baseReport.push(made.report);
    }
    progress(0.1 + (0.8 * (n + 1)) / jaws.length);
  }
  progress(1);
  return {
    document: {
      schemaVersion: DESIGN_SCHEMA_VERSION,
      measurements: [],
      straightening,
      ...(bite ? { bite: { upper: bite.upper, lower: bite.lower, source: 'auto' as const } } : {}),
      insertionDirections,
      wires,
      ...(baseReport.length > 0 ? { bases, slots } : {}),
    },
    report,
    bases: baseReport,
    teeth: teethFound,
    insertion,
    timings: { totalMs: performance.now() - t0, straightenMs, segmentMs, insertionMs, wiresMs, baseMs },
  };
}

/** The bite the editor would draw the jaws in (features/bite serverBite): transforms without an error, both rigid. */
function usableBite(b: AutodesignInput['bite']): { upper: number[]; lower: number[] } | null {
  if (!b || b.error || b.code || !isRigidMatrix([...b.upper]) || !isRigidMatrix([...b.lower])) return null;
  return { upper: [...b.upper], lower: [...b.lower] };
}

interface JawContext {
  /** Model → canonical of the jaw (straightening · bite). */
  frame: number[];
  /** Insertion direction in the model's frame. */
  direction: Xyz;
  crowns: readonly CrownPatch[];
  head?: readonly HeadBox[];
  /** What the base keeps off, so the tags' room does too: the crowns' occlusal surface and the tooth-side border's limit. */
  keepOff?: KeepOff;
}

/** Why a wire was left out. */
type Failure = { code: AutodesignFailure; tooth?: number; detail: string };

/** The failure reported of an earlier and a later one: a collision (the specification's own message) stays unless another collides. */
const keep = (old: Failure | null, next: Failure): Failure => (old?.code === 'COLLISION' && next.code !== 'COLLISION' ? old : next);

/** The prescribed wires of one jaw on its segmented teeth. */
async function designJaw(mesh: MeshRef, bvh: Bvh, jaw: Jaw, p: JawPrescription, teeth: readonly ToothInfo[], ctx: JawContext, cancelled: () => void): Promise<{ wires: WireDesign[]; report: AutodesignWireReport[] }> {
  const surface = kernelSurface(mesh, bvh);
  const frame = { matrix: ctx.frame, jaw };
  const wires: WireDesign[] = [];
  const report: AutodesignWireReport[] = [];
  for (const [i, w] of p.wires.entries()) {
    cancelled();
    const entry: AutodesignWireReport = { jaw, type: w.type, teeth: [...w.teeth], status: 'failed' };
    report.push(entry);
    const opts = { diameter: p.diameter, clearance: AUTODESIGN_CLEARANCE };
    let wire: WireDesign | null = null;
    let failed: Failure | null = null;
    const crown = w.type === 'singleArmClasp' ? ctx.crowns.find((c) => c.number === w.teeth[0]) : undefined;
    const tip = crown ? { crown, survey: surveyTooth(crown, ctx.direction, { edges: true }) } : undefined;
    // The template makes room for the die; where the surface's keep-off pulls two corners too close
    // for the checks' die, it is laid again with room for a larger one.
    for (const dieRadius of ROOM_FOR_DIE) {
      const ways = await laidWays(w, `ai-${jaw}-${i + 1}`, jaw, { ...opts, dieRadius }, teeth, frame, surface, ctx);
      if ('code' in ways) {
        failed = ways;
        break;
      }
      for (const laidOut of ways) {
        const passed = firstPassing(mesh, await layouts(laidOut, tip, surface), ctx.head, w.teeth[0]);
        if ('code' in passed) {
          failed = keep(failed, passed);
          continue;
        }
        wire = passed.wire;
        if (dieRadius !== ROOM_FOR_DIE[0]) entry.dieRadius = dieRadius;
        if (passed.depth !== undefined) entry.tipUndercut = Math.round(passed.depth * 1000) / 1000;
        break;
      }
      if (wire) break;
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

/** Room (mm) a clasp laid from its distal contact must gain over the usual one to go first. */
const MIRROR_GAIN = 0.25;

/**
 * The wire as placed, tried in this order through the checks: its tags moved where the base has
 * room round them along the insertion direction (tag-room.ts roomyWays: the further move, then
 * the nearer), then as the template laid them. A
 * single-arm clasp whose tags lack that room beside its mesial contact (a lower molar's narrow
 * strip of gum above a steep lingual wall) is also laid from its distal contact, when the tooth
 * behind it was detected, and goes first when it has MIRROR_GAIN more. A template that cannot be laid: why.
 */
async function laidWays(
  w: JawPrescription['wires'][number],
  id: string,
  jaw: Jaw,
  opts: { diameter: number; clearance: number; dieRadius: number },
  teeth: readonly ToothInfo[],
  frame: WireFrame,
  surface: SurfaceQuery,
  ctx: JawContext,
): Promise<WireDesign[] | Failure> {
  const behind = distalOf(w.teeth[0]!);
  const crossings = w.type === 'singleArmClasp' && behind !== null && teeth.some((t) => t.number === behind) ? (['mesial', 'distal'] as const) : ([undefined] as const);
  const laid: { ways: WireDesign[]; room: number }[] = [];
  let failed: Failure | null = null;
  for (const crossing of crossings) {
    let made: WireDesign;
    try {
      made = await placeOne(w.type, w.teeth, id, jaw, { ...opts, ...(crossing ? { crossing } : {}) }, teeth, frame, surface);
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      failed ??= { code: 'DETECTION_FAILED', tooth: e instanceof ToothAnchorError ? e.tooth : w.teeth[0], detail: e.message };
      continue;
    }
    const roomy = await roomyWays(made, ctx.direction, surface, CHECK_RADIUS, ctx.keepOff);
    laid.push({ ways: [...roomy.ways, made], room: roomy.room });
    if (roomy.room >= TAG_ROOM) break;
  }
  if (laid.length === 0) return failed!;
  // the clasp as designers lay it unless the other has clearly more room
  const rated = (l: (typeof laid)[number], i: number) => l.room + (i === 0 ? MIRROR_GAIN : 0);
  return laid.map((l, i) => ({ l, r: rated(l, i) })).sort((a, b) => b.r - a.r).flatMap(({ l }) => l.ways);
}

/** A way to lay a wire, with its clasp tip's undercut (mm) where the tip was put into one. */
type Layout = { wire: WireDesign; depth?: number };

/**
 * The ways to lay a placed wire, best first: a clasp's tip put into the undercut (the end laid on
 * the crown as a technician lays it, then the older search's places), then the wire as placed
 * (its fitted tip kept); each with its straights lifted where they dip nearer the teeth than the
 * clearance (a tip the lift moves out of the undercut's range is not taken), and each also bent
 * from its other end (its bending path may meet the machine one way only).
 */
async function layouts(wire: WireDesign, tip: { crown: CrownPatch; survey: ToothSurvey } | undefined, surface: SurfaceQuery): Promise<Layout[]> {
  const tipped = tip ? [...(await tangentTips(wire, tip.crown, tip.survey, surface)), ...(await tipIntoUndercut(wire, tip.crown, tip.survey, surface))] : [];
  const laid: Layout[] = [];
  for (const x of tipped) {
    const lifted = await liftOff({ ...wire, points: x.points, ...(x.tag ? { tag: x.tag } : {}) }, surface);
    const depth = lifted.points === x.points ? x.depth : await tipUndercut(lifted, tip!.survey, surface);
    if (depth >= CLASP_TIP_RANGE[0] && depth <= CLASP_TIP_RANGE[1]) laid.push({ wire: lifted, depth });
  }
  laid.push({ wire: await liftOff(wire, surface) });
  return [...laid, ...laid.map((x) => ({ ...x, wire: reversed(x.wire) }))];
}

/** The first layout passing the bending checks with the collision sweep against the default device, or why they failed. */
function firstPassing(mesh: MeshRef, tries: readonly Layout[], head: readonly HeadBox[] | undefined, tooth: number | undefined): Layout | Failure {
  let failed: Failure | null = null;
  for (const x of tries) {
    const check = checkBend(mesh.k, {
      points: x.wire.points.map((pt) => [pt.point[0], pt.point[1], pt.point[2]] as const),
      wire: { type: x.wire.type, diameter: x.wire.diameter },
      program: { radius: CHECK_RADIUS },
      device: DEFAULT_DEVICE,
      ...(head ? { head } : {}),
    });
    if (check.ok) return x;
    const errors = check.issues.filter((e) => e.severity === 'error');
    const code: AutodesignFailure = errors.every((e) => e.code === 'COLLISION') ? 'COLLISION' : 'CHECKS_FAILED';
    failed = keep(failed, { code, tooth, detail: errors.map((e) => e.message).join('; ') });
  }
  return failed!;
}

/** The same wire with its points the other way round (bent from its other end); tags re-indexed. */
function reversed(w: WireDesign): WireDesign {
  const last = w.points.length - 1;
  const flip = (g: [number, number]): [number, number] => [last - g[1], last - g[0]];
  return {
    ...w,
    points: w.points.slice().reverse(),
    ...(w.tag ? { tag: flip(w.tag) } : {}),
    ...(w.tags ? { tags: w.tags.map(flip).reverse() } : {}),
  };
}

/** One wire on its named teeth: the editor's "on tooth" placement, the clasp auto-fitted. Throws TemplateError. */
async function placeOne(
  type: WireType,
  numbers: readonly number[],
  id: string,
  jaw: Jaw,
  opts: { diameter: number; clearance: number; dieRadius: number; crossing?: ClaspCrossing },
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
