// The automatic design's acrylic base and slots for one jaw (workers/design/autodesign.ts calls
// it after the jaw's wires are placed): the outline from the segmented teeth (base-outline.ts),
// the base generated with the editor's defaults along the jaw's insertion direction (made again
// with more margin round a tag it left less than 1 mm inside its rim) and checked closed, then
// one slot per slottable wire tag, cut in order into the base with manifold-3d as the editor cuts
// the document's slots. A base that cannot be made is reported and leaves the
// wires as they are; a slot whose cut fails is reported and left out of the document.
import { autodesignBaseMessage, type AutodesignBaseFailure, type AutodesignBaseReport } from '../../common/autodesign.ts';
import type { Xyz } from '../../common/pose.ts';
import { SLOTTABLE_WIRE_TYPES } from '../../common/wires.ts';
import { slotPaths } from '../../common/wires/slot-paths.ts';
import { wireTags, type WireDesign } from '../../common/wires/types.ts';
import { BaseError, generateBase, type BaseMesh } from '../kernels/base.ts';
import type { Bvh } from '../kernels/bvh.ts';
import { meshViews, type MeshRef } from '../kernels/mesh.ts';
import { cutSlot, loadManifold, SlotError, type SlotBase } from '../kernels/slot.ts';
import { baseOutline, jawArchOrNone, OutlineError, TAG_MARGIN, type BaseOutline, type JawArch } from './base-outline.ts';
import { tagPlaces, type TagPlace } from './base-rim.ts';
import { jawAxis } from './insertion.ts';
import { occlusalMask } from './occlusal.ts';

type Jaw = 'upper' | 'lower';

/** The editor's defaults for a new base (features/base/tool.ts) and a new slot (features/slots/feature.ts). */
export const AUTODESIGN_BASE_THICKNESS = 2;
export const AUTODESIGN_BASE_HEIGHT = 2;
export const AUTODESIGN_SLOT_DEPTH = 0;
export const AUTODESIGN_SLOT_CLEARANCE = 0.1;
/** Least plan distance (mm) of a tag corner inside the base's rim: the acrylic holds the tag. */
export const TAG_INSIDE = 1;
/** A tag is grown towards a little more than TAG_INSIDE (the rim moves with the outline's 2 mm spacing). */
const TAG_SLACK = 0.15;
/** Bases made again with more margin round the tags that came out short. */
const TAG_ROUNDS = 2;

/** A jaw's base as the design document holds it (the editor's BaseDesign). */
export interface AutodesignBase {
  jaw: Jaw;
  /** Surface picks on the jaw's model, its own frame; closed. */
  outline: { point: [number, number, number]; triangle: number }[];
  closed: true;
  thickness: number;
  height: number;
  generated: true;
}

/** A slot as the design document holds it (the editor's SlotDesign). */
export interface AutodesignSlot {
  wireId: string;
  depth: number;
  clearance: number;
}

export interface JawBaseInput {
  mesh: MeshRef;
  bvh: Bvh;
  jaw: Jaw;
  labels: Uint8Array;
  /** Per model vertex, 1 on a crown's occlusal surface (occlusal.ts, along the jaw's axis); made from `labels` when absent. */
  occlusal?: Uint8Array;
  teeth: readonly { number: number; centroid: Xyz }[];
  /** The jaw's placed wires. */
  wires: readonly WireDesign[];
  /** The design's straightening, model → canonical, column-major. */
  matrix: ArrayLike<number>;
  /** Insertion direction, canonical frame; default the jaw's occlusal axis (upper -z, lower +z). */
  direction?: Xyz;
  /** The jaw's arch coordinates made from these fields (base-outline.ts jawArch), when the caller has them; made here when absent. */
  arch?: JawArch;
  shouldCancel?: () => boolean;
}

export interface JawBaseResult {
  /** Absent when the base failed (see the report). */
  base?: AutodesignBase;
  slots: AutodesignSlot[];
  report: AutodesignBaseReport;
  /** The base as generated, and after the slots were cut (tests, the bench). */
  mesh?: BaseMesh;
  slotted?: SlotBase;
}

/** The insertion direction in the model's frame: the canonical one turned back by the straightening's rotation. */
export function insertionInModel(matrix: ArrayLike<number>, d: Xyz): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0];
  for (let j = 0; j < 3; j++) out[j] = matrix[j * 4]! * d[0] + matrix[j * 4 + 1]! * d[1] + matrix[j * 4 + 2]! * d[2];
  const l = Math.hypot(...out) || 1;
  return [out[0] / l, out[1] / l, out[2] / l];
}

/** The tag corners of each tag of the wires (model frame), for the outline to take in. */
export function tagCorners(wires: readonly WireDesign[]): Xyz[][] {
  return tagsOf(wires).map((t) => t.corners);
}

/** Each tag's corners with its wire's id. */
function tagsOf(wires: readonly WireDesign[]): { wireId: string; corners: Xyz[] }[] {
  return wires.flatMap((w) => wireTags(w).map(([from, to]) => ({ wireId: w.id, corners: w.points.slice(from, to + 1).map((p) => p.point) })));
}

/** The base and slots of one jaw. Throws only KernelError (ABORTED, BAD_INPUT); the rest is reported. */
export async function designJawBase(input: JawBaseInput): Promise<JawBaseResult> {
  const { jaw, mesh, bvh } = input;
  const report: AutodesignBaseReport = { jaw, status: 'failed', slots: [] };
  const failed = (code: AutodesignBaseFailure, detail: string): JawBaseResult => {
    Object.assign(report, { code, message: autodesignBaseMessage(jaw), detail });
    return { slots: [], report };
  };
  const canonical = input.direction ?? jawAxis(jaw);
  // The crowns' occlusal surfaces, judged as the goals judge them (the views copied: the kernel's memory may grow).
  const views = meshViews(mesh);
  const positions = views.positions.slice();
  const occlusal = input.occlusal ?? occlusalMask(positions, views.indices.slice(), input.labels, insertionInModel(input.matrix, jawAxis(jaw)));
  const tagged = tagsOf(input.wires);
  const tags = tagged.map((t) => t.corners);
  const corners = tags.flat();
  // The outline and the base; where a tag corner ends up less than TAG_INSIDE inside the rim (the
  // rim follows the surface, not the outline's arch coordinates), its tag's margin grows by what it
  // lacks and the base is made again: the better of the tries is kept.
  const margins = tags.map(() => TAG_MARGIN);
  // one arch for every try (none: each try's outline fails with the reason)
  const arch = input.arch ?? jawArchOrNone({ jaw, positions, labels: input.labels, occlusal, teeth: input.teeth, matrix: input.matrix, direction: canonical }) ?? undefined;
  let made: { outline: BaseOutline; generated: BaseMesh; worst: number; places: TagPlace[] } | null = null;
  for (let round = 0; round <= TAG_ROUNDS; round++) {
    let outline: BaseOutline, generated: BaseMesh;
    try {
      outline = baseOutline(bvh, { jaw, positions, labels: input.labels, occlusal, teeth: input.teeth, matrix: input.matrix, direction: canonical, tags, tagMargins: margins, ...(arch ? { arch } : {}) });
      generated = await generateBase(mesh, bvh, outline.outline, {
        direction: insertionInModel(input.matrix, canonical),
        thickness: AUTODESIGN_BASE_THICKNESS,
        height: AUTODESIGN_BASE_HEIGHT,
        straightened: true,
        shouldCancel: input.shouldCancel,
      });
    } catch (e) {
      if (!(e instanceof OutlineError || e instanceof BaseError)) throw e;
      if (made) break;
      return e instanceof OutlineError ? failed('OUTLINE_FAILED', e.message) : failed(e.code, e.detail);
    }
    if (!(generated.volume > 0) || generated.triangleCount === 0) {
      if (made) break;
      return failed('GENERATION_FAILED', `the base has no volume (${generated.volume} mm³)`);
    }
    const places = tagPlaces(mesh.k, generated, corners);
    const worst = places.reduce((m, p) => Math.min(m, p.inSolid ? p.rim : -Infinity), Infinity);
    if (!made || worst > made.worst) made = { outline, generated, worst, places };
    let short = false;
    for (const [g, own] of perTag(tags, places).entries()) {
      const least = Math.min(...own.map((p) => p.rim));
      if (least >= TAG_INSIDE + TAG_SLACK) continue;
      margins[g] = margins[g]! + TAG_INSIDE + TAG_SLACK - least;
      short = true;
    }
    if (!short) break;
  }
  const { outline, generated, places } = made!;
  report.shape = outline.shape;
  report.outlinePoints = outline.outline.length;
  report.status = 'generated';
  report.volume = generated.volume;
  const held = heldTags(tagged.map((t) => t.wireId), perTag(tags, places));
  if (held.length > 0) report.tags = held;
  const base: AutodesignBase = {
    jaw,
    outline: outline.outline.map((p) => ({ point: [p.point[0], p.point[1], p.point[2]], triangle: p.triangle })),
    closed: true,
    thickness: AUTODESIGN_BASE_THICKNESS,
    height: AUTODESIGN_BASE_HEIGHT,
    generated: true,
  };

  // The slots, cut in order as the editor applies them; the first cut also checks the base is a closed manifold.
  const slots: AutodesignSlot[] = [];
  let slotted: SlotBase = { positions: generated.positions, indices: generated.indices };
  const openDirection = insertionInModel(input.matrix, canonical);
  const wasm = input.wires.some((w) => SLOTTABLE_WIRE_TYPES.includes(w.type)) ? await loadManifold() : null;
  for (const wire of input.wires) {
    if (!wasm || !SLOTTABLE_WIRE_TYPES.includes(wire.type)) continue;
    const paths = slotPaths(wire);
    if (paths.length === 0) continue;
    try {
      let result = slotted;
      for (const path of paths) {
        const cut = await cutSlot(wasm, result, { type: wire.type, path, diameter: wire.diameter, clearance: AUTODESIGN_SLOT_CLEARANCE, depth: AUTODESIGN_SLOT_DEPTH, openDirection }, { shouldCancel: input.shouldCancel, yieldToEventLoop: () => Promise.resolve() });
        result = { positions: cut.positions, indices: cut.indices };
      }
      slotted = result;
      slots.push({ wireId: wire.id, depth: AUTODESIGN_SLOT_DEPTH, clearance: AUTODESIGN_SLOT_CLEARANCE });
      report.slots.push({ wireId: wire.id, status: 'cut' });
    } catch (e) {
      if (!(e instanceof SlotError)) throw e;
      report.slots.push({ wireId: wire.id, status: 'failed', code: e.code, detail: e.detail });
    }
  }
  return { base, slots, report, mesh: generated, slotted };
}

/** Each tag's corners' places, from `places` in the order of all the tags' corners. */
function perTag(tags: readonly (readonly Xyz[])[], places: readonly TagPlace[]): TagPlace[][] {
  let at = 0;
  return tags.map((tag) => places.slice(at, (at += tag.length)));
}

/** The tags (their wires' ids, and each one's places) less than TAG_INSIDE inside the rim or with corners outside the solid. */
function heldTags(wireIds: readonly string[], places: readonly TagPlace[][]): NonNullable<AutodesignBaseReport['tags']> {
  const out: NonNullable<AutodesignBaseReport['tags']> = [];
  for (const [g, own] of places.entries()) {
    const wireId = wireIds[g]!;
    const inside = Math.min(...own.map((p) => p.rim));
    const outside = own.filter((p) => !p.inSolid).length;
    if (inside < TAG_INSIDE || outside > 0) out.push({ wireId, inside: Math.round(inside * 100) / 100, outside });
  }
  return out;
}
