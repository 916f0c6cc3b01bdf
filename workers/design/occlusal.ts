// Which crown vertices are on an occlusal surface: the goals judge a base by it (no base vertex
// on one) and the outline keeps the plate's tooth-side border off it.
import type { Xyz } from '../../common/pose.ts';
import { meshViews, type MeshRef } from '../kernels/mesh.ts';
import { vertexNormals } from '../kernels/slot.ts';

/** A crown vertex is occlusal when its normal is this close to the jaw's occlusal axis (cos)… */
export const OCCLUSAL_COS = 0.5;
/** …and it lies within this of its crown's highest point along that axis, mm. */
export const OCCLUSAL_BAND = 3;
/** Least plan distance (mm) of the base's rim from an occlusal crown vertex: the goals' 0.3 mm (a distance in plan is never more than the distance). */
export const OCCLUSAL_CLEAR = 0.3;

/**
 * Per model vertex, 1 where it is on a crown's occlusal surface: labelled (Universal number, 0
 * gum), its normal within acos(OCCLUSAL_COS) of `up` (the model-frame occlusal axis, towards the
 * opposing jaw) and within OCCLUSAL_BAND of its crown's highest point along `up`.
 */
export function occlusalMask(positions: Float32Array, indices: Uint32Array, labels: Uint8Array, up: Xyz): Uint8Array {
  const normals = vertexNormals(positions, indices);
  const level = (v: number): number => positions[3 * v]! * up[0] + positions[3 * v + 1]! * up[1] + positions[3 * v + 2]! * up[2];
  const top = new Map<number, number>();
  for (let v = 0; v < labels.length; v++) if (labels[v]) top.set(labels[v]!, Math.max(top.get(labels[v]!) ?? -Infinity, level(v)));
  const mask = new Uint8Array(labels.length);
  for (let v = 0; v < labels.length; v++) {
    const n = labels[v]!;
    if (!n) continue;
    const c = normals[3 * v]! * up[0] + normals[3 * v + 1]! * up[1] + normals[3 * v + 2]! * up[2];
    if (c >= OCCLUSAL_COS && level(v) >= top.get(n)! - OCCLUSAL_BAND) mask[v] = 1;
  }
  return mask;
}

/**
 * The crowns' occlusal surface of `mesh`: per vertex (occlusalMask) and per triangle (1 where its
 * three vertices are occlusal).
 */
export function occlusalSurface(mesh: MeshRef, labels: Uint8Array, up: Xyz): { vertices: Uint8Array; triangles: Uint8Array } {
  // Copies: views into the kernel's memory are detached when it grows.
  const views = meshViews(mesh);
  const indices = views.indices.slice();
  const vertices = occlusalMask(views.positions.slice(), indices, labels, up);
  const triangles = new Uint8Array(indices.length / 3);
  for (let t = 0; t < triangles.length; t++) triangles[t] = vertices[indices[3 * t]!]! & vertices[indices[3 * t + 1]!]! & vertices[indices[3 * t + 2]!]!;
  return { vertices, triangles };
}
