// Measurements of an automatically designed base against its goals (tests and the bench): every
// tag corner at least 1 mm inside the base (in the plate's plan, away from its rim, and inside
// the solid), the base closed and of positive volume, its outer surface at least the set
// thickness above the inner one along the insertion direction, and no part of it over a crown's
// occlusal surface.
import { multiply, type Xyz } from '../../common/pose.ts';
import type { AutodesignDocument } from './autodesign.ts';
import { insertionInModel, tagCorners } from './autodesign-base.ts';
import { generateBase, type BaseMesh } from '../kernels/base.ts';
import { buildBvh, closestPoints } from '../kernels/bvh.ts';
import { tagPlaces } from './base-rim.ts';
import type { MeshRef } from '../kernels/mesh.ts';
import { occlusalSurface } from './occlusal.ts';

/** A base vertex is over the occlusal surface when the model's closest point to it, this near, is occlusal, mm. */
const OVER = 0.3;

export interface BaseGoals {
  /** Plan-view distance of the worst tag corner from the base's rim (positive: inside), mm. */
  tagRimDistance: number;
  /** Tag corners not inside the base's solid (an odd number of crossings along the insertion direction). */
  tagsOutside: number;
  tagCorners: number;
  /** Every edge shared by exactly two triangles, in opposite directions. */
  closed: boolean;
  volume: number;
  /** Least material height along the insertion direction over the inner surface (should be ≥ the set height), mm. */
  minHeight: number;
  /** Inner vertices of the base on a crown's occlusal surface. */
  occlusalVertices: number;
}

/** The goals of one base on its model: `labels` per model vertex (Universal numbers, 0 gum), `up` the model-frame occlusal axis (towards the opposing jaw). */
export function measureBaseGoals(model: MeshRef, labels: Uint8Array, up: Xyz, base: BaseMesh, tags: readonly (readonly Xyz[])[]): BaseGoals {
  const corners = tags.flat();
  return {
    ...tagGoals(model, base, corners),
    tagCorners: corners.length,
    closed: isClosed(base.indices),
    volume: base.volume,
    minHeight: minHeight(base),
    occlusalVertices: occlusalVertices(model, labels, up, base),
  };
}

function tagGoals(model: MeshRef, base: BaseMesh, corners: readonly Xyz[]): { tagRimDistance: number; tagsOutside: number } {
  const places = tagPlaces(model.k, base, corners);
  return { tagRimDistance: places.length ? Math.min(...places.map((p) => p.rim)) : Infinity, tagsOutside: places.filter((p) => !p.inSolid).length };
}

function isClosed(indices: Uint32Array): boolean {
  const edges = new Map<string, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]!, b = indices[t + ((e + 1) % 3)]!;
      const key = `${a},${b}`;
      edges.set(key, (edges.get(key) ?? 0) + 1);
    }
  }
  for (const [key, n] of edges) {
    const [a, b] = key.split(',');
    if (n !== 1 || edges.get(`${b},${a}`) !== 1) return false;
  }
  return true;
}

/** Least outer − inner level along d over the inner vertices (outer vertex v + V pairs with inner v). */
function minHeight(base: BaseMesh): number {
  const V = base.innerVertexCount, P = base.positions, d = base.direction;
  let least = Infinity;
  for (let v = 0; v < V; v++) {
    const h = (P[3 * (V + v)]! - P[3 * v]!) * d[0] + (P[3 * (V + v) + 1]! - P[3 * v + 1]!) * d[1] + (P[3 * (V + v) + 2]! - P[3 * v + 2]!) * d[2];
    least = Math.min(least, h);
  }
  return least;
}

/** Inner base vertices whose closest model point (within OVER) is on a crown's occlusal surface (occlusal.ts). */
function occlusalVertices(model: MeshRef, labels: Uint8Array, up: Xyz, base: BaseMesh): number {
  const occlusal = occlusalSurface(model, labels, up).triangles;
  const near = closestPoints(buildBvh(model), base.positions.slice(0, 3 * base.innerVertexCount), { maxDistance: OVER });
  let over = 0;
  for (let i = 0; i < base.innerVertexCount; i++) if (occlusal[near.triangle[i]!] === 1) over++;
  return over;
}

/**
 * The goals of a designed document's base of `jaw`, regenerated from its outline as the editor
 * does: `model` in a kernel instance, `labels` its teeth (the truth, or a segmentation's).
 */
export async function measureDocumentBase(model: MeshRef, labels: Uint8Array, doc: AutodesignDocument, jaw: 'upper' | 'lower'): Promise<BaseGoals | null> {
  const b = doc.bases?.[jaw];
  if (!b) return null;
  const axis: Xyz = jaw === 'upper' ? [0, 0, -1] : [0, 0, 1];
  // The jaw's model → canonical frame, as the editor draws it: its bite, then the straightening.
  const frame = doc.bite ? multiply(doc.straightening.matrix, doc.bite[jaw]) : doc.straightening.matrix;
  const up = insertionInModel(frame, axis);
  const direction = insertionInModel(frame, doc.insertionDirections[jaw] ?? axis);
  const base = await generateBase(model, buildBvh(model), b.outline, { direction, thickness: b.thickness, height: b.height, straightened: true });
  return measureBaseGoals(model, labels, up, base, tagCorners(doc.wires.filter((w) => w.jaw === jaw)));
}
