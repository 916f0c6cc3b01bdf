// The design document: everything the designer decides, saved to the back end
// (design/save) and restored exactly on reopening. Plain JSON, immutable (every change makes a
// new document through a command), versioned by `schemaVersion`. Meshes are never in it: they are
// the order's models; the document refers to them by role.
import type { Millimetres, ModelPoint } from './units.ts';
import { isRigidMatrix } from './pose.ts';

/** The format written by this editor; the server refuses newer ones it does not know. */
export const DESIGN_SCHEMA_VERSION = 1;

export type ModelRole = 'upper' | 'lower' | 'occlusion';
export const MODEL_ROLES: readonly ModelRole[] = ['upper', 'lower', 'occlusion'];

/** A picked point on a model's surface, in that model's frame. */
export interface SurfacePick {
  point: ModelPoint;
  triangle: number;
}

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

export interface DesignDocument {
  schemaVersion: typeof DESIGN_SCHEMA_VERSION;
  measurements: Measurement[];
  base?: BaseDesign;
  /** The smoothing brush's operations on the models, in order. */
  smoothing?: SmoothOp[];
  straightening?: Straightening;
  /** Insertion direction (unit, canonical frame, from the model towards the appliance); absent: the jaw's default (±z). Helper "analysis". */
  insertionDirection?: [number, number, number];
  /** The heatmap chosen in the analysis panel; absent: off. */
  heatmap?: HeatmapSettings;
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

/**
 * A saved document read back: unknown fields are dropped, missing lists become empty, so an
 * older or partial document opens instead of breaking the editor.
 */
export function parseDocument(data: unknown): DesignDocument {
  const doc = emptyDocument();
  if (!data || typeof data !== 'object') return doc;
  const raw = data as { measurements?: unknown; base?: unknown };
  if (Array.isArray(raw.measurements)) {
    doc.measurements = raw.measurements.filter(isMeasurement);
  }
  const base = parseBase(raw.base);
  if (base) doc.base = base;
  const smoothing = (data as { smoothing?: unknown }).smoothing;
  if (Array.isArray(smoothing)) doc.smoothing = smoothing.filter(isSmoothOp);
  const straightening = parseStraightening((data as { straightening?: unknown }).straightening);
  if (straightening) doc.straightening = straightening;
  const analysis = parseAnalysis(data as { insertionDirection?: unknown; heatmap?: unknown });
  Object.assign(doc, analysis);
  return doc;
}

function parseAnalysis(raw: { insertionDirection?: unknown; heatmap?: unknown }): Pick<DesignDocument, 'insertionDirection' | 'heatmap'> {
  const out: Pick<DesignDocument, 'insertionDirection' | 'heatmap'> = {};
  const d = raw.insertionDirection;
  if (Array.isArray(d) && d.length === 3 && d.every((v) => typeof v === 'number' && Number.isFinite(v)) && Math.hypot(d[0], d[1], d[2]) > 1e-6) {
    out.insertionDirection = [d[0], d[1], d[2]];
  }
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
    (v.all === true || (Array.isArray(v.dabs) && v.dabs.length % 4 === 0 && v.dabs.every(Number.isFinite)))
  );
}

function parseBase(b: unknown): BaseDesign | null {
  const v = b as Partial<BaseDesign> | null;
  if (!v || typeof v !== 'object' || (v.jaw !== 'upper' && v.jaw !== 'lower') || !Array.isArray(v.outline)) return null;
  const num = (x: unknown, d: number): Millimetres => (typeof x === 'number' && Number.isFinite(x) ? x : d) as Millimetres;
  return {
    jaw: v.jaw,
    outline: v.outline.filter(isPick).map((p) => ({ point: [...p.point] as unknown as ModelPoint, triangle: p.triangle })),
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
  return !!v && Array.isArray(v.point) && v.point.length === 3 && v.point.every(Number.isFinite) && Number.isInteger(v.triangle);
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
