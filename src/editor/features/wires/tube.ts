// A wire drawn as a tube of its diameter along its corners, each corner rounded by an arc of the
// bending die's radius (what the machine makes of it), plus the handles of the selected wire.
// Pure geometry first (centreline and tube buffers: testable, cheap to rebuild on every drag
// move: a wire has tens of corners), then the Babylon meshes.
import { Color3 } from '@babylonjs/core/Maths/math.color';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData';
import { CreateSphere } from '@babylonjs/core/Meshes/Builders/sphereBuilder';
import type { Scene } from '@babylonjs/core/scene';
import { add, cross, dot, len, scale, sub, type Xyz } from '../../engine/pose.ts';

/** Radius of the bending die's arcs (the centreline's), mm: the corners are drawn this round. */
const BEND_RADIUS = 1;
const SIDES = 10;
/** Arc samples: one per this many radians of turn. */
const ARC_STEP = Math.PI / 12;

/** The unit vector along a; the zero vector for one too short to have a direction (a repeated corner). */
const unit = (a: Xyz): Xyz => {
  const l = len(a);
  return l > 1e-12 ? scale(a, 1 / l) : [0, 0, 0];
};

/**
 * The wire's centreline as drawn: straight between the corners, an arc of `radius` at each
 * interior corner (smaller where the neighbouring straights are too short for it).
 */
export function centreline(corners: readonly Xyz[], radius = BEND_RADIUS): Xyz[] {
  const pts: Xyz[] = [];
  for (const c of corners) {
    const last = pts[pts.length - 1];
    if (!last || len(sub(c, last)) > 1e-6) pts.push([c[0], c[1], c[2]]);
  }
  if (pts.length < 3) return pts;
  const out: Xyz[] = [pts[0]!];
  for (let i = 1; i < pts.length - 1; i++) {
    const a = pts[i - 1]!, p = pts[i]!, b = pts[i + 1]!;
    const u = unit(sub(p, a)), v = unit(sub(b, p));
    const turn = Math.acos(Math.max(-1, Math.min(1, dot(u, v))));
    if (turn < 1e-3 || turn > Math.PI - 1e-3) {
      out.push(p);
      continue;
    }
    // Tangent length of the arc, at most half of each neighbouring straight.
    const t = Math.min(radius * Math.tan(turn / 2), 0.5 * len(sub(p, a)), 0.5 * len(sub(b, p)));
    const r = t / Math.tan(turn / 2);
    const start = sub(p, scale(u, t));
    const centre = add(p, scale(unit(sub(v, u)), r / Math.cos(turn / 2)));
    const from = sub(start, centre);
    // The arc turns about n = u x v by `turn`.
    const n = unit(cross(u, v));
    const steps = Math.max(2, Math.ceil(turn / ARC_STEP));
    for (let s = 0; s <= steps; s++) {
      const a = (turn * s) / steps;
      // Rodrigues (from is perpendicular to n).
      const rotated = add(scale(from, Math.cos(a)), scale(cross(n, from), Math.sin(a)));
      out.push(add(centre, rotated));
    }
  }
  out.push(pts[pts.length - 1]!);
  return out;
}

export interface TubeBuffers {
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
}

/** Rings of `sides` points round a polyline (normals carried along by parallel transport), the
 * outward normal of each point, and the tangents; null for a path without a direction. */
function tubeRings(path: readonly Xyz[], radius: number, sides: number): { positions: number[]; normals: number[]; tangents: Xyz[] } | null {
  const n = path.length;
  if (n < 2) return null;
  const tangents: Xyz[] = path.map((_, i) => unit(sub(path[Math.min(n - 1, i + 1)]!, path[Math.max(0, i - 1)]!)));
  if (tangents.some((t) => len(t) === 0)) return null;
  // A first normal perpendicular to the first tangent, then carried along.
  const t0 = tangents[0]!;
  let normal = unit(cross(t0, Math.abs(t0[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0]));
  const positions: number[] = [];
  const normals: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = tangents[i]!;
    normal = unit(sub(normal, scale(t, dot(normal, t))));
    if (len(normal) === 0) normal = unit(cross(t, Math.abs(t[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0]));
    const binormal = cross(t, normal);
    for (let s = 0; s < sides; s++) {
      const a = (2 * Math.PI * s) / sides;
      const d = add(scale(normal, Math.cos(a)), scale(binormal, Math.sin(a)));
      positions.push(path[i]![0] + radius * d[0], path[i]![1] + radius * d[1], path[i]![2] + radius * d[2]);
      normals.push(d[0], d[1], d[2]);
    }
  }
  return { positions, normals, tangents };
}

/** The side of a tube between its rings, counter-clockwise seen from outside. */
function sideIndices(rings: number, sides: number): number[] {
  const indices: number[] = [];
  for (let i = 0; i < rings - 1; i++) {
    for (let s = 0; s < sides; s++) {
      const a = i * sides + s, b = i * sides + ((s + 1) % sides), c = a + sides, d = b + sides;
      indices.push(a, b, c, b, d, c);
    }
  }
  return indices;
}

/** A closed tube of `radius` round a polyline (rings by parallel transport, flat end caps). */
function tubeBuffers(path: readonly Xyz[], radius: number, sides = SIDES): TubeBuffers | null {
  const rings = tubeRings(path, radius, sides);
  if (!rings) return null;
  const { positions, normals, tangents } = rings;
  const n = path.length;
  const indices = sideIndices(n, sides);
  // End caps: a centre vertex facing out of each end (the rim repeated with the cap's normal).
  for (const [ring, sign] of [[0, -1], [n - 1, 1]] as const) {
    const t = tangents[ring]!;
    const first = positions.length / 3;
    for (let s = 0; s < sides; s++) {
      const k = (ring * sides + s) * 3;
      positions.push(positions[k]!, positions[k + 1]!, positions[k + 2]!);
      normals.push(t[0] * sign, t[1] * sign, t[2] * sign);
    }
    const centre = positions.length / 3;
    positions.push(path[ring]![0], path[ring]![1], path[ring]![2]);
    normals.push(t[0] * sign, t[1] * sign, t[2] * sign);
    for (let s = 0; s < sides; s++) {
      const a = first + s, b = first + ((s + 1) % sides);
      if (sign < 0) indices.push(centre, b, a);
      else indices.push(centre, a, b);
    }
  }
  return { positions: new Float32Array(positions), normals: new Float32Array(normals), indices: new Uint32Array(indices) };
}

/** Sides of an exported tube: rounder than the drawn one. */
const EXPORT_SIDES = 24;

/**
 * A wire as a solid for printing (model frame of its jaw): a tube of its diameter along its
 * centreline, closed by flat caps that share the rims' vertices, so that every edge belongs to
 * exactly two triangles, all wound counter-clockwise seen from outside. Null for a wire without
 * two distinct corners.
 */
export function wireSolid(corners: readonly Xyz[], diameter: number, sides = EXPORT_SIDES): { positions: Float32Array; indices: Uint32Array } | null {
  const path = centreline(corners);
  const rings = tubeRings(path, diameter / 2, sides);
  if (!rings) return null;
  const { positions } = rings;
  const n = path.length;
  const indices = sideIndices(n, sides);
  for (const [ring, sign] of [[0, -1], [n - 1, 1]] as const) {
    const centre = positions.length / 3;
    positions.push(path[ring]![0], path[ring]![1], path[ring]![2]);
    for (let s = 0; s < sides; s++) {
      const a = ring * sides + s, b = ring * sides + ((s + 1) % sides);
      if (sign < 0) indices.push(centre, b, a);
      else indices.push(centre, a, b);
    }
  }
  return { positions: new Float32Array(positions), indices: new Uint32Array(indices) };
}

// ---------------------------------------------------------------- scene

const WIRE_COLOR = new Color3(0.62, 0.66, 0.72);
const SELECTED_COLOR = new Color3(0.1, 0.45, 0.95);
const HOVER_COLOR = new Color3(0.5, 0.68, 0.95);
const HANDLE_COLOR = new Color3(1, 1, 1);
const ACTIVE_HANDLE_COLOR = new Color3(1, 0.65, 0.1);
const ISSUE_COLOR = new Color3(0.92, 0.15, 0.2);
const WARNING_COLOR = new Color3(0.95, 0.6, 0.05);

/** Materials shared by every wire of a scene (a disposed mesh never takes one with it). */
export class WireMaterials {
  readonly wire: StandardMaterial;
  readonly selected: StandardMaterial;
  readonly hover: StandardMaterial;
  readonly handle: StandardMaterial;
  readonly activeHandle: StandardMaterial;
  readonly issue: StandardMaterial;
  readonly warning: StandardMaterial;

  constructor(scene: Scene) {
    const lit = (name: string, color: Color3): StandardMaterial => {
      const m = new StandardMaterial(name, scene);
      m.diffuseColor = color;
      m.specularColor = new Color3(0.8, 0.8, 0.8);
      m.specularPower = 48;
      m.backFaceCulling = false;
      return m;
    };
    const flat = (name: string, color: Color3): StandardMaterial => {
      const m = new StandardMaterial(name, scene);
      m.emissiveColor = color;
      m.diffuseColor = Color3.Black();
      m.specularColor = Color3.Black();
      m.disableLighting = true;
      return m;
    };
    this.wire = lit('wire-material', WIRE_COLOR);
    this.selected = lit('wire-selected-material', SELECTED_COLOR);
    this.selected.emissiveColor = new Color3(0.05, 0.15, 0.35);
    this.hover = lit('wire-hover-material', HOVER_COLOR);
    this.handle = flat('wire-handle-material', HANDLE_COLOR);
    this.activeHandle = flat('wire-handle-active-material', ACTIVE_HANDLE_COLOR);
    this.issue = flat('wire-issue-material', ISSUE_COLOR);
    this.warning = flat('wire-warning-material', WARNING_COLOR);
  }

  dispose(): void {
    for (const m of [this.wire, this.selected, this.hover, this.handle, this.activeHandle, this.issue, this.warning]) m.dispose();
  }
}

/** The tube mesh of a wire (model frame of its jaw; the caller parents it to the jaw's mesh). */
export function buildTube(scene: Scene, name: string, corners: readonly Xyz[], diameter: number): Mesh | null {
  const buffers = tubeBuffers(centreline(corners), diameter / 2);
  if (!buffers) return null;
  const mesh = new Mesh(name, scene);
  const data = new VertexData();
  data.positions = buffers.positions;
  data.normals = buffers.normals;
  data.indices = buffers.indices;
  data.applyToMesh(mesh, false);
  mesh.isPickable = false;
  return mesh;
}

/** A corner's handle: a small sphere drawn over the models. */
export function buildHandle(scene: Scene, name: string, at: Xyz, diameter: number): Mesh {
  const dot = CreateSphere(name, { diameter, segments: 8 }, scene);
  dot.position.set(at[0], at[1], at[2]);
  dot.isPickable = false;
  dot.renderingGroupId = 1;
  return dot;
}
