// The design document: everything the designer decides, saved to the back end
// (design/save) and restored exactly on reopening. Plain JSON, immutable (every change makes a
// new document through a command), versioned by `schemaVersion`. Meshes are never in it: they are
// the order's models; the document refers to them by role.
import type { Millimetres } from './units.ts';
import { IDENTITY, isRigidMatrix, multiply, type Xyz } from './pose.ts';
import { DESIGN_SCHEMA_VERSION } from '../../../common/design.ts';
import { WIRE_TYPES, type WireType } from '../../../common/wires.ts';
import type { SurfacePick, WireDesign, WirePoint } from '../../../common/wires/types.ts';

/** The wire parts of the document (common/wires/types.ts: the wire geometry shares them). */
export type { SurfacePick, WireAi, WireDesign, WirePoint } from '../../../common/wires/types.ts';

/** The format written by this editor (common/design.ts); the server refuses newer ones it does not know. */
export { DESIGN_SCHEMA_VERSION } from '../../../common/design.ts';

export type ModelRole = 'upper' | 'lower' | 'occlusion';
export const MODEL_ROLES: readonly ModelRole[] = ['upper', 'lower', 'occlusion'];
/** The two jaws an appliance is designed on (each has its own base and insertion direction). */
export type Jaw = 'upper' | 'lower';
export const JAWS: readonly Jaw[] = ['upper', 'lower'];

export interface Measurement {
  id: string;
  model: ModelRole;
  a: SurfacePick;
  b: SurfacePick;
  /** Straight distance between a and b. */
  straight: Millimetres;
  /** Along the surface (worker geodesic); null when it could not be computed. */
  geodesic: Millimetres | null;
  /** The surface path from a to b, xyz per point in the model's frame (thinned for saving). */
  path: number[];
}

/** One smoothing operation, replayed in order on reopening: a brush stroke (its dabs) or the whole model. */
export interface SmoothOp {
  model: ModelRole;
  radius: Millimetres;
  strength: number;
  /** x, y, z, triangle per dab (model frame); absent for "Smooth all". */
  dabs?: number[];
  all?: boolean;
  /** The brush version of the dabs (features/smooth/brush.ts); absent: 1, the brush of the first documents. */
  brush?: 2;
}

/** The acrylic base: its outline (model frame of its jaw) and settings; the mesh is regenerated from them. */
export interface BaseDesign {
  jaw: 'upper' | 'lower';
  outline: SurfacePick[];
  /** The outline is closed (Enter or double-click): generation may start. */
  closed: boolean;
  thickness: Millimetres;
  height: Millimetres;
  /** A base was generated from this outline and these settings (reopening regenerates it). */
  generated: boolean;
}

/** The four wire types of the specification (common/wires.ts: the bend kernels, the slot worker and the server's). */
export { WIRE_TYPES, type WireType } from '../../../common/wires.ts';

/** A slot cut into the base for a wire's tag (applied in order after every base generation). */
export interface SlotDesign {
  wireId: string;
  /** 0: a closed tunnel round the tag; > 0: a channel this deep, open along the insertion direction. */
  depth: Millimetres;
  clearance: Millimetres;
}

export interface DesignDocument {
  schemaVersion: typeof DESIGN_SCHEMA_VERSION;
  measurements: Measurement[];
  /** The acrylic base of each jaw (a document of the first format held one `base`: parseDocument files it under its jaw). */
  bases?: { upper?: BaseDesign; lower?: BaseDesign };
  /** The smoothing brush's operations on the models, in order. */
  smoothing?: SmoothOp[];
  straightening?: Straightening;
  /**
   * Each jaw's insertion direction (unit, canonical frame, from the model towards the appliance);
   * absent: the jaw's default (upper -z, lower +z); features/analysis. A document of the first
   * format held one `insertionDirection`: parseDocument files it under the jaw it points to.
   */
  insertionDirections?: { upper?: [number, number, number]; lower?: [number, number, number] };
  /** The heatmap chosen in the analysis panel; absent: off. */
  heatmap?: HeatmapSettings;
  /** The appliance's wires, in the order they were made. */
  wires?: WireDesign[];
  /** Slots cut into the base, in order; reset removes them all. */
  slots?: SlotDesign[];
  /**
   * The bite the document's coordinates assume: each jaw's model → bite frame (the occlusion
   * scan's), column-major. When present it wins over the server's registration (features/bite).
   */
  bite?: BiteDesign;
  /**
   * The tooth labels as the designer corrected them, per jaw (features/teeth); absent: the
   * automatic segmentation's.
   */
  teeth?: Partial<Record<'upper' | 'lower', TeethDesign>>;
}

/**
 * One jaw's corrected tooth labels: one byte per welded vertex (Universal 1-32, 0 gum), encoded
 * with common/teeth.ts encodeLabels, and the vertex count of the model they belong to (labels for
 * another model are ignored).
 */
export interface TeethDesign {
  vertexCount: number;
  labels: string;
}

/** The registered bite a design was made in: automatic (the server's or a re-run) or manual (point pairs). */
export interface BiteDesign {
  upper: number[];
  lower: number[];
  source: 'auto' | 'manual';
}

/** The analysis heatmap shown: which map, and the jaw analysed for undercuts. */
export type HeatmapMode = 'off' | 'undercut' | 'occlusal' | 'thickness';
export interface HeatmapSettings {
  mode: HeatmapMode;
  /** The jaw whose undercuts are shown (the occlusal map is always upper to lower). */
  model: 'upper' | 'lower';
}

/** The models' pose: one rigid transform (column-major 4x4, model → canonical) for upper, lower and bite alike. */
export interface Straightening {
  matrix: number[];
  /** The jaw the automatic straightening analysed. */
  jaw: 'upper' | 'lower';
}

export function emptyDocument(): DesignDocument {
  return { schemaVersion: DESIGN_SCHEMA_VERSION, measurements: [] };
}

/** A jaw's base, or undefined. */
export function baseOf(doc: DesignDocument, jaw: Jaw): BaseDesign | undefined {
  return doc.bases?.[jaw];
}

/** The document with a jaw's base replaced (undefined: removed); the other jaw's is kept as it is. */
export function withBase(doc: DesignDocument, jaw: Jaw, base: BaseDesign | undefined): DesignDocument {
  const bases = { ...doc.bases };
  if (base) bases[jaw] = { ...base, jaw };
  else delete bases[jaw];
  const { bases: _old, ...rest } = doc;
  return bases.upper || bases.lower ? { ...rest, bases } : rest;
}

/** The document with a jaw's insertion direction replaced (undefined: back to the default). */
export function withInsertionDirection(doc: DesignDocument, jaw: Jaw, direction: [number, number, number] | undefined): DesignDocument {
  const directions = { ...doc.insertionDirections };
  if (direction) directions[jaw] = direction;
  else delete directions[jaw];
  const { insertionDirections: _old, ...rest } = doc;
  return directions.upper || directions.lower ? { ...rest, insertionDirections: directions } : rest;
}

/**
 * A saved document read back: unknown fields are dropped, missing lists become empty, so an
 * older or partial document opens instead of breaking the editor.
 */
export function parseDocument(data: unknown): DesignDocument {
  const doc = emptyDocument();
  if (!data || typeof data !== 'object') return doc;
  const raw = data as { measurements?: unknown; base?: unknown; bases?: unknown };
  if (Array.isArray(raw.measurements)) {
    doc.measurements = raw.measurements.filter(isMeasurement);
  }
  const bases = parseBases(raw.bases, raw.base);
  if (bases) doc.bases = bases;
  const smoothing = (data as { smoothing?: unknown }).smoothing;
  if (Array.isArray(smoothing)) doc.smoothing = smoothing.filter(isSmoothOp);
  const straightening = parseStraightening((data as { straightening?: unknown }).straightening);
  if (straightening) doc.straightening = straightening;
  const analysis = parseAnalysis(data as { insertionDirections?: unknown; insertionDirection?: unknown; heatmap?: unknown });
  Object.assign(doc, analysis);
  const wires = (data as { wires?: unknown }).wires;
  if (Array.isArray(wires)) doc.wires = wires.map(parseWire).filter((w): w is WireDesign => w !== null);
  const slots = (data as { slots?: unknown }).slots;
  if (Array.isArray(slots)) doc.slots = slots.filter(isSlot).map((v) => ({ wireId: v.wireId, depth: v.depth, clearance: v.clearance }));
  const bite = parseBite((data as { bite?: unknown }).bite);
  if (bite) doc.bite = bite;
  const teeth = parseTeeth((data as { teeth?: unknown }).teeth);
  if (teeth) doc.teeth = teeth;
  return doc;
}

/**
 * A model's frame → the canonical frame, as drawn: its bite (a jaw's model → the bite scan's
 * frame; the scan is in it) and then the straightening. What features that work "in the
 * canonical frame" (wire templates, insertion direction, straightening) map a jaw's points with.
 */
export function modelToCanonical(doc: DesignDocument, role: ModelRole): number[] {
  const straightening = doc.straightening?.matrix ?? IDENTITY;
  const bite = role === 'occlusion' ? null : doc.bite?.[role];
  return bite ? multiply(straightening, bite) : Array.from(straightening);
}

export function parseBite(v: unknown): BiteDesign | null {
  const b = v as Partial<BiteDesign> | null;
  if (!b || typeof b !== 'object' || !isRigidMatrix(b.upper) || !isRigidMatrix(b.lower)) return null;
  return { upper: [...b.upper], lower: [...b.lower], source: b.source === 'manual' ? 'manual' : 'auto' };
}

function parseTeeth(v: unknown): DesignDocument['teeth'] | null {
  if (!v || typeof v !== 'object') return null;
  const out: NonNullable<DesignDocument['teeth']> = {};
  for (const jaw of ['upper', 'lower'] as const) {
    const t = (v as Record<string, Partial<TeethDesign> | undefined>)[jaw];
    if (t && typeof t === 'object' && Number.isInteger(t.vertexCount) && (t.vertexCount as number) > 0 && typeof t.labels === 'string') out[jaw] = { vertexCount: t.vertexCount as number, labels: t.labels };
  }
  return out.upper || out.lower ? out : null;
}

const pickOf = (p: SurfacePick): SurfacePick => ({ point: [...p.point] as unknown as Xyz, triangle: p.triangle });

function parseWire(w: unknown): WireDesign | null {
  const v = w as Partial<WireDesign> | null;
  if (!v || typeof v !== 'object' || typeof v.id !== 'string' || !WIRE_TYPES.includes(v.type as WireType)) return null;
  if ((v.jaw !== 'upper' && v.jaw !== 'lower') || !Array.isArray(v.points)) return null;
  if (!(Number.isFinite(v.diameter) && (v.diameter as number) > 0)) return null;
  const points = v.points.filter((p): p is WirePoint => isPoint((p as WirePoint | null)?.point) && (p.surface === undefined || isPick(p.surface)));
  const out: WireDesign = {
    id: v.id,
    type: v.type as WireType,
    jaw: v.jaw,
    diameter: v.diameter as Millimetres,
    clearance: (Number.isFinite(v.clearance) && (v.clearance as number) >= 0 ? v.clearance : 0) as Millimetres,
    points: points.map((p) => (p.surface ? { point: [...p.point] as unknown as Xyz, surface: pickOf(p.surface) } : { point: [...p.point] as unknown as Xyz })),
    anchors: Array.isArray(v.anchors) ? v.anchors.filter(isPick).map(pickOf) : [],
  };
  const t = v.tag;
  const isTag = (g: unknown): g is [number, number] =>
    Array.isArray(g) && g.length === 2 && g.every((i) => Number.isInteger(i) && (i as number) >= 0 && (i as number) < points.length) && (g[0] as number) <= (g[1] as number);
  if (isTag(t)) out.tag = [t[0], t[1]];
  if (Array.isArray(v.tags)) {
    const tags = v.tags.filter(isTag).map((g): [number, number] => [g[0], g[1]]);
    if (tags.length > 0) out.tags = tags;
  }
  if (v.ai && typeof v.ai === 'object') out.ai = { accepted: v.ai.accepted === true };
  return out;
}

function isSlot(s: unknown): s is SlotDesign {
  const v = s as SlotDesign | null;
  return !!v && typeof v.wireId === 'string' && Number.isFinite(v.depth) && v.depth >= 0 && Number.isFinite(v.clearance) && v.clearance >= 0;
}

function isPoint(p: unknown): boolean {
  return Array.isArray(p) && p.length === 3 && p.every(Number.isFinite);
}

function parseDirection(d: unknown): [number, number, number] | null {
  if (!Array.isArray(d) || d.length !== 3 || !d.every((v) => typeof v === 'number' && Number.isFinite(v)) || Math.hypot(d[0], d[1], d[2]) <= 1e-6) return null;
  return [d[0], d[1], d[2]];
}

function parseAnalysis(raw: { insertionDirections?: unknown; insertionDirection?: unknown; heatmap?: unknown }): Pick<DesignDocument, 'insertionDirections' | 'heatmap'> {
  const out: Pick<DesignDocument, 'insertionDirections' | 'heatmap'> = {};
  const directions: NonNullable<DesignDocument['insertionDirections']> = {};
  const given = raw.insertionDirections as Record<string, unknown> | null | undefined;
  for (const jaw of JAWS) {
    const d = given && typeof given === 'object' ? parseDirection(given[jaw]) : null;
    if (d) directions[jaw] = d;
  }
  // The first format's one direction belongs to the jaw whose default it is nearer (upper -z, lower +z).
  const legacy = parseDirection(raw.insertionDirection);
  if (legacy) {
    const jaw: Jaw = legacy[2] >= 0 ? 'lower' : 'upper';
    directions[jaw] ??= legacy;
  }
  if (directions.upper || directions.lower) out.insertionDirections = directions;
  const h = raw.heatmap as Partial<HeatmapSettings> | null | undefined;
  if (h && typeof h === 'object' && ['off', 'undercut', 'occlusal', 'thickness'].includes(h.mode as string) && (h.model === 'upper' || h.model === 'lower')) {
    out.heatmap = { mode: h.mode as HeatmapMode, model: h.model };
  }
  return out;
}

function isSmoothOp(o: unknown): o is SmoothOp {
  const v = o as SmoothOp | null;
  return (
    !!v &&
    (v.model === 'upper' || v.model === 'lower' || v.model === 'occlusion') &&
    Number.isFinite(v.radius) &&
    Number.isFinite(v.strength) &&
    (v.brush === undefined || v.brush === 2) &&
    (v.all === true || (Array.isArray(v.dabs) && v.dabs.length % 4 === 0 && v.dabs.every(Number.isFinite)))
  );
}

/** Each jaw's base: `bases`, and the first format's one `base` under its jaw (when `bases` has none there). */
function parseBases(given: unknown, legacy: unknown): DesignDocument['bases'] | null {
  const out: NonNullable<DesignDocument['bases']> = {};
  for (const jaw of JAWS) {
    const b = given && typeof given === 'object' ? parseBase((given as Record<string, unknown>)[jaw], jaw) : null;
    if (b) out[jaw] = b;
  }
  const old = parseBase(legacy);
  if (old) out[old.jaw] ??= old;
  return out.upper || out.lower ? out : null;
}

/** A base; `jaw`: the one it is filed under (its own `jaw` field must agree or be absent). */
function parseBase(b: unknown, jaw?: Jaw): BaseDesign | null {
  const v = b as Partial<BaseDesign> | null;
  if (!v || typeof v !== 'object' || !Array.isArray(v.outline)) return null;
  const own = v.jaw === 'upper' || v.jaw === 'lower' ? v.jaw : undefined;
  const at = jaw ?? own;
  if (!at || (jaw && v.jaw !== undefined && own !== jaw)) return null;
  const num = (x: unknown, d: number): Millimetres => (typeof x === 'number' && Number.isFinite(x) ? x : d) as Millimetres;
  return {
    jaw: at,
    outline: v.outline.filter(isPick).map((p) => ({ point: [...p.point] as unknown as Xyz, triangle: p.triangle })),
    closed: v.closed === true,
    thickness: num(v.thickness, 2),
    height: num(v.height, 2),
    generated: v.generated === true,
  };
}

function parseStraightening(v: unknown): Straightening | null {
  const s = v as Partial<Straightening> | null;
  if (!s || typeof s !== 'object' || (s.jaw !== 'upper' && s.jaw !== 'lower') || !isRigidMatrix(s.matrix)) return null;
  return { matrix: [...s.matrix], jaw: s.jaw };
}

function isPick(p: unknown): p is SurfacePick {
  const v = p as SurfacePick | null;
  return !!v && isPoint(v.point) && Number.isInteger(v.triangle);
}

function isMeasurement(m: unknown): m is Measurement {
  const v = m as Measurement | null;
  return (
    !!v &&
    typeof v.id === 'string' &&
    (v.model === 'upper' || v.model === 'lower' || v.model === 'occlusion') &&
    isPick(v.a) &&
    isPick(v.b) &&
    Number.isFinite(v.straight) &&
    (v.geodesic === null || Number.isFinite(v.geodesic)) &&
    Array.isArray(v.path)
  );
}

/** At most `max` points of a polyline (first and last kept): a saved path stays small. */
export function thinPath(path: ArrayLike<number>, max = 256): number[] {
  const n = Math.floor(path.length / 3);
  if (n <= max) return Array.from(path, (v) => Math.round(v * 1e4) / 1e4);
  const out: number[] = [];
  for (let i = 0; i < max; i++) {
    const k = Math.round((i * (n - 1)) / (max - 1));
    for (let c = 0; c < 3; c++) out.push(Math.round(path[k * 3 + c]! * 1e4) / 1e4);
  }
  return out;
}
