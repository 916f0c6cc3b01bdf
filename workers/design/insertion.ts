// The insertion direction of one jaw for the automatic design: the direction, within a cone round
// the jaw's axis, along which the crowns (the segmentation's tooth labels) have the least
// undercut, traded against a retentive band on each clasped tooth, as a technician tilts a model
// on the surveyor until the clasped teeth show their undercut. Each direction is scored by
// the survey of every crown (teeth-landmarks.ts surveyTooth): the undercut depth of each crown
// vertex times its area, summed (mm³); the gum and the model's plinth take no part, as the
// appliance is held by the teeth.
import { dot, invertRigid, rotateVector, sub } from '../../common/pose.ts';
import type { Xyz } from '../../common/teeth.ts';
import { crownPatches, surveyTooth, type CrownPatch } from '../kernels/teeth-landmarks.ts';
import type { MeshRef } from '../kernels/mesh.ts';
import { CLASP_TIP_BAND } from './clasp-tip.ts';

/**
 * Half-angle (degrees) of the cone round the jaw's axis that the direction is chosen in: a
 * removable appliance is put in by hand roughly along the teeth's long axes; past about 20° the
 * patient cannot find the path, and the base would have to be blocked out on the far side.
 */
export const INSERTION_CONE_DEG = 18;
/** Rings of the search (degrees off the axis) and the directions on each; then one refinement round. */
const RINGS: readonly [number, number][] = [[6, 8], [12, 12], [18, 16]];
/** Two directions that score within this share of the axis's score are equal: the one nearer the axis wins. */
const TIE = 0.02;

/**
 * A clasped tooth is retentive along a direction when its buccal surface (further than
 * RETENTION_BUCCAL out of the crown's centroid, within RETENTION_MESIAL of its middle, where a
 * clasp's end lies) has at least RETENTION_AREA of crown in the undercut band a clasp tip is aimed
 * into (CLASP_TIP_BAND): about a 2 × 1 mm patch, room for the tip's search.
 */
export const RETENTION_AREA = 2;
const RETENTION_BUCCAL = 2;
const RETENTION_MESIAL = 4;
/**
 * What a clasped tooth without that band costs, as a share of the undercut along the axis (in
 * proportion to the band's missing area): a direction with up to this much more undercut that
 * gives the tooth its band is preferred. A jaw without undercut along its axis is not tilted for it.
 */
export const RETENTION_TRADE = 0.25;

/** The jaw's default insertion direction in the canonical frame (from the model towards the appliance). */
export const jawAxis = (jaw: 'upper' | 'lower'): Xyz => (jaw === 'upper' ? [0, 0, -1] : [0, 0, 1]);

export interface InsertionResult {
  /** Unit, canonical frame (the document's `insertionDirections[jaw]`). */
  canonical: Xyz;
  /** The same in the jaw model's frame (where the crowns and the wires are). */
  model: Xyz;
  /** Angle to the jaw's axis, degrees. */
  angleDeg: number;
  /** Undercut (mm³, area × depth over the crowns) along it, and along the axis. */
  undercut: number;
  axisUndercut: number;
  /** The crowns, for the surveys of the clasps. */
  crowns: CrownPatch[];
  /** The clasped teeth asked for that are retentive along it, and along the axis. */
  retentive: number[];
  axisRetentive: number[];
}

const unit = (v: Xyz): Xyz => {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
};

/** `count` directions at `deg` off unit `c`, evenly round it. */
function ring(c: Xyz, deg: number, count: number, phase = 0): Xyz[] {
  const a: Xyz = Math.abs(c[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const u = unit([c[1] * a[2] - c[2] * a[1], c[2] * a[0] - c[0] * a[2], c[0] * a[1] - c[1] * a[0]]);
  const w: Xyz = [c[1] * u[2] - c[2] * u[1], c[2] * u[0] - c[0] * u[2], c[0] * u[1] - c[1] * u[0]];
  const s = Math.sin((deg * Math.PI) / 180), k = Math.cos((deg * Math.PI) / 180);
  return Array.from({ length: count }, (_, i) => {
    const phi = phase + (2 * Math.PI * i) / count;
    return unit([c[0] * k + s * (u[0] * Math.cos(phi) + w[0] * Math.sin(phi)), c[1] * k + s * (u[1] * Math.cos(phi) + w[1] * Math.sin(phi)), c[2] * k + s * (u[2] * Math.cos(phi) + w[2] * Math.sin(phi))]);
  });
}

/** Vertices per crown the search scores (a molar crown of a study model has about 8,000). */
const SCORE_VERTICES = 1200;

/** The crown with every k-th vertex, each standing for the area of k (what surveyTooth reads). */
function thin(c: CrownPatch): CrownPatch {
  const k = Math.max(1, Math.ceil(c.vertices.length / SCORE_VERTICES));
  if (k === 1) return c;
  const n = Math.ceil(c.vertices.length / k);
  const vertices = new Uint32Array(n), positions = new Float64Array(3 * n), normals = new Float64Array(3 * n), areas = new Float64Array(n);
  for (let i = 0, j = 0; i < c.vertices.length; i += k, j++) {
    vertices[j] = c.vertices[i]!;
    positions.set(c.positions.subarray(3 * i, 3 * i + 3), 3 * j);
    normals.set(c.normals.subarray(3 * i, 3 * i + 3), 3 * j);
    areas[j] = c.areas[i]! * k;
  }
  return { ...c, vertices, positions, normals, areas, triangles: new Uint32Array(0) };
}

const angle = (a: Xyz, b: Xyz): number => (Math.acos(Math.min(1, Math.max(-1, a[0] * b[0] + a[1] * b[1] + a[2] * b[2]))) * 180) / Math.PI;

/** The crowns' undercut along `d` (model frame: depth × area summed over their vertices), which of the `retain` teeth are retentive along it, and the band area they lack (mm²). */
function scoreDirection(crowns: readonly CrownPatch[], d: Xyz, retain: readonly number[]): { undercut: number; retentive: number[]; shortfall: number } {
  let undercut = 0, shortfall = 0;
  const retentive: number[] = [];
  for (const c of crowns) {
    const s = surveyTooth(c, d);
    for (let i = 0; i < s.depth.length; i++) undercut += s.depth[i]! * c.areas[i]!;
    if (!retain.includes(c.number)) continue;
    let band = 0;
    for (let i = 0; i < s.depth.length; i++) {
      const depth = s.depth[i]!;
      if (depth < CLASP_TIP_BAND[0] || depth > CLASP_TIP_BAND[1]) continue;
      const v = sub([c.positions[3 * i]!, c.positions[3 * i + 1]!, c.positions[3 * i + 2]!], c.centroid);
      if (dot(v, c.buccal) > RETENTION_BUCCAL && Math.abs(dot(v, c.mesial)) < RETENTION_MESIAL) band += c.areas[i]!;
    }
    if (band >= RETENTION_AREA) retentive.push(c.number);
    shortfall += Math.max(0, RETENTION_AREA - band);
  }
  return { undercut, retentive, shortfall };
}

/**
 * The insertion direction of a jaw within INSERTION_CONE_DEG of its axis: the least undercut,
 * where each of the `retain` teeth (its single-arm clasps' teeth) without a retentive band along
 * it counts RETENTION_TRADE of the axis's undercut more. `toCanonical`: the jaw model → canonical
 * frame (straightening · bite); `labels`: the segmentation's per-vertex tooth numbers.
 */
export function insertionDirection(mesh: MeshRef, labels: Uint8Array, toCanonical: readonly number[], jaw: 'upper' | 'lower', retain: readonly number[] = []): InsertionResult {
  const inverse = invertRigid(toCanonical);
  const crowns = crownPatches(mesh, labels, { matrix: toCanonical, inverse }, jaw);
  // the search scores every crown at about SCORE_VERTICES vertices (an even stride, areas scaled)
  const coarse = crowns.map(thin);
  const axis = jawAxis(jaw);
  const toModel = (c: Xyz): Xyz => unit(rotateVector(inverse, c));
  const atAxis = scoreDirection(coarse, toModel(axis), retain);
  const perArea = (RETENTION_TRADE * atAxis.undercut) / RETENTION_AREA;
  const cost = (x: { undercut: number; shortfall: number }): number => x.undercut + perArea * x.shortfall;
  const tie = TIE * atAxis.undercut;
  let best = { d: axis, score: cost(atAxis), angle: 0, at: atAxis };
  const consider = (d: Xyz): void => {
    const a = angle(d, axis);
    if (a > INSERTION_CONE_DEG + 1e-6) return;
    const at = scoreDirection(coarse, toModel(d), retain);
    const score = cost(at);
    if (score < best.score - tie || (Math.abs(score - best.score) <= tie && a < best.angle)) best = { d, score, angle: a, at };
  };
  for (const [deg, count] of RINGS) for (const d of ring(axis, deg, count)) consider(d);
  // one round round the best, at half the rings' spacing
  const centre = best.d;
  for (const d of ring(centre, 3, 8, Math.PI / 8)) consider(d);
  return { canonical: best.d, model: toModel(best.d), angleDeg: best.angle, undercut: best.at.undercut, axisUndercut: atAxis.undercut, crowns, retentive: best.at.retentive, axisRetentive: atAxis.retentive };
}
