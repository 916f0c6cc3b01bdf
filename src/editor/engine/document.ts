// The design document: everything the designer decides, saved to the back end
// (design/save) and restored exactly on reopening. Plain JSON, immutable (every change makes a
// new document through a command), versioned by `schemaVersion`. Meshes are never in it: they are
// the order's models; the document refers to them by role.
import type { Millimetres, ModelPoint } from './units.ts';

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

export interface DesignDocument {
  schemaVersion: typeof DESIGN_SCHEMA_VERSION;
  measurements: Measurement[];
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
  const raw = data as { measurements?: unknown };
  if (Array.isArray(raw.measurements)) {
    doc.measurements = raw.measurements.filter(isMeasurement);
  }
  return doc;
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
