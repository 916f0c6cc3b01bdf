// Auto-fit of the single-arm clasp (spec: "Auto-fit supports only the single-arm clasp"): the
// arm is put back round its tooth, evenly spaced, so that it hugs the tooth; the tag in the base
// stays where it is. Deterministic, and a second fit changes little (within 0.1 mm in the tests).
import type { WireDesign, WirePoint } from './types.ts';
import { add, dot, scale, sub, type Xyz } from '../pose.ts';
import { LocalSurface, type WireFrame } from './local.ts';
import { clamp, DIE_RADIUS, finish, mirrored, placeOff, probeTooth, type Corner } from './shape.ts';
import type { SurfaceQuery } from './surface.ts';
import { cornersToPoints, tolerance } from './templates.ts';

export class AutoFitError extends Error {
  readonly code = 'AUTO_FIT_UNSUPPORTED';
  constructor() {
    super('Auto-fit supports only the single-arm clasp');
  }
}

export interface FittedWire {
  points: WirePoint[];
  /** The tag's corner indices after the fit (the tag's corners themselves are unchanged). */
  tag?: [number, number];
  /** The same as the design's `tags` (a clasp has one tag). */
  tags?: [number, number][];
}

/**
 * Fits a single-arm clasp to its tooth: every corner with a surface pick goes back to the wire's
 * radius plus its clearance off the surface; the buccal arm's corners (between the free tip and
 * the crossing over the contact) are re-placed about 20° apart round the tooth with heights rising
 * evenly, so the turns between them are alike; the tip is the free end of a start straight that
 * does not cut into the tooth; straights are kept out of the tooth and bendable as in the
 * templates; the tag's corners are kept as they are (`tag` re-indexed when the corner count
 * changed). Other wire types: AutoFitError (`code` AUTO_FIT_UNSUPPORTED).
 */
export async function autoFit(wire: WireDesign, frame: WireFrame, surface: SurfaceQuery, options: { dieRadius?: number } = {}): Promise<FittedWire> {
  if (wire.type !== 'singleArmClasp') throw new AutoFitError();
  const offset = wire.diameter / 2 + wire.clearance;
  const local = new LocalSurface(surface, { matrix: frame.matrix, jaw: wire.jaw });
  const n = wire.points.length;
  // Work from the tag's far end: the arm is the run of corners before the tag (reversed when the tag is first).
  const tag = wire.tag;
  const reversed = tag !== undefined && tag[0] === 0 && tag[1] < n - 1;
  const order = reversed ? [...Array(n).keys()].reverse() : [...Array(n).keys()];
  const inTag = (i: number): boolean => tag !== undefined && i >= tag[0] && i <= tag[1];
  let corners: Corner[] = order.map((i) => {
    const p = wire.points[i]!;
    return { p: local.local(p.point), on: !!p.surface, tag: inTag(i) };
  });
  const armEnd = corners.findIndex((c) => c.tag);
  let arm = armEnd < 0 ? corners.length : armEnd;
  if (arm < 3) return { points: wire.points.map((p) => ({ ...p })), ...(tag ? { tag } : {}) };

  // The tooth: from the designer's click when there is one, else from the arm's middle.
  const click = wire.anchors[0] ? local.local(wire.anchors[0].point) : corners[Math.floor(arm / 2)]!.p;
  const probed = await probeTooth(local, click);
  // A clasp crossing its distal contact (the corner before the tag lies distal of the crown's centre) is fitted as its mirror image.
  const crossesDistal = armEnd > 0 && dot(sub(corners[armEnd - 1]!.p, probed.centre), probed.mesial) < 0;
  const tooth = crossesDistal ? mirrored(probed) : probed;
  const r = tooth.width / 2 + offset;
  const tol = tolerance(wire.clearance);
  // The buccal arm: the tip and the corners after it that lie below the marginal ridges on the
  // buccal side; the crossing over the contact and the lingual part follow.
  const buccalArm = (c: Corner): boolean => c.p[2] < tooth.top - 1.8 && dot(sub(c.p, tooth.centre), tooth.buccal) > 0;
  let last = 0;
  while (last + 1 < arm - 1 && corners[last + 1]!.on && buccalArm(corners[last + 1]!)) last++;
  // Round the tooth by angle (from buccal towards mesial) and height: from the first arm corner
  // (the tip a start straight before it, within the distobuccal line angle) to the last, evenly.
  const angleOf = (p: Xyz): number => {
    const d = sub(p, tooth.centre);
    return (Math.atan2(dot(d, tooth.mesial), dot(d, tooth.buccal)) * 180) / Math.PI;
  };
  if (last >= 1) {
    // Everything follows from the first arm corner and the last (the tip is the free end of the
    // start straight, which clearChords may have moved out: its own angle is not kept).
    const chord = (2 * Math.asin(Math.min(1, 3.1 / r)) * 180) / Math.PI;
    const endAngle = angleOf(corners[last]!.p);
    const firstAngle = Math.min(endAngle, clamp(angleOf(corners[1]!.p), -85 + chord, endAngle));
    const tipAngle = firstAngle - chord;
    const zEnd = clamp(corners[last]!.p[2], tooth.top - 6.5, tooth.top - 1.8);
    const zFirst = clamp(corners[1]!.p[2], tooth.top - 6.5, zEnd);
    // Corners at most 20° apart (as the template), closer on a small tooth: a straight between
    // two of them sags at most half the chord tolerance towards a round crown, so the clearing of
    // straights (finish) has nothing to add, and a second fit finds the same arm.
    const step = Math.min(20, (2 * Math.acos(1 - tol / 2 / r) * 180) / Math.PI);
    const spread = (endAngle: number, zEnd: number): { angle: number; z: number }[] => {
      const count = Math.max(1, Math.round((endAngle - firstAngle) / step) + 1);
      return Array.from({ length: count + 1 }, (_, i) => ({
        angle: i === 0 ? tipAngle : count === 1 ? endAngle : firstAngle + ((endAngle - firstAngle) * (i - 1)) / (count - 1),
        z: i === 0 ? zFirst - 0.3 : count === 1 ? zEnd : zFirst + ((zEnd - zFirst) * (i - 1)) / (count - 1),
      }));
    };
    // Placing a corner off the surface moves it a little round the tooth and in height: aim so
    // that it lands on its target (then a second fit finds the same targets and changes nothing).
    const land = async (targets: { angle: number; z: number }[]): Promise<{ placed: Corner[]; worst: number }> => {
      const aim = targets.map((t) => ({ ...t }));
      let placed: Corner[] = [];
      let worst = 0;
      for (let round = 0; round < 4; round++) {
        const guesses = aim.map(({ angle, z }): Xyz => {
          const rad = (angle * Math.PI) / 180;
          const d = add(scale(tooth.buccal, Math.cos(rad)), scale(tooth.mesial, Math.sin(rad)));
          return [tooth.centre[0] + d[0] * r, tooth.centre[1] + d[1] * r, z];
        });
        placed = await placeOff(local, guesses, offset, { soft: true });
        worst = 0;
        placed.forEach((c, i) => {
          const da = targets[i]!.angle - angleOf(c.p), dz = targets[i]!.z - c.p[2];
          worst = Math.max(worst, Math.abs(da), Math.abs(dz) * 10);
          aim[i]!.angle += da;
          aim[i]!.z += dz;
        });
        if (worst < 0.2) break;
      }
      return { placed, worst };
    };
    let { placed, worst } = await land(spread(endAngle, zEnd));
    if (worst >= 0.2) {
      // The last corner's target cannot be reached (the surface pushes it off, say towards the
      // contact): spread the arm to where it did land instead, which a second fit would do.
      const end = placed[placed.length - 1]!.p;
      ({ placed } = await land(spread(Math.max(firstAngle, angleOf(end)), clamp(end[2], zFirst, tooth.top - 1.8))));
    }
    corners.splice(0, last + 1, ...placed);
    arm += placed.length - (last + 1);
    last = placed.length - 1;
  }
  // The crossing and the lingual corners: back off the surface.
  corners = await reproject(local, corners, arm, offset, last + 1);
  corners[0] = { ...corners[0]!, on: false, soft: false };
  corners = await finish(local, corners, offset, tol, options.dieRadius ?? DIE_RADIUS);
  const points = await cornersToPoints(local, corners, offset, surface);
  // Tag corners are written back exactly as they were.
  const tagStart = corners.findIndex((c) => c.tag);
  if (tag && tagStart >= 0) {
    const tagPoints = wire.points.slice(tag[0], tag[1] + 1);
    const fromEnd = reversed ? tagPoints.slice().reverse() : tagPoints;
    fromEnd.forEach((p, k) => (points[tagStart + k] = { point: p.point }));
  }
  const out = reversed ? points.reverse() : points;
  const tagLength = tag ? tag[1] - tag[0] : 0;
  const newTag: [number, number] | undefined = tag ? (reversed ? [0, tagLength] : [out.length - 1 - tagLength, out.length - 1]) : undefined;
  return { points: out, ...(newTag ? { tag: newTag, tags: [newTag] } : {}) };
}

/** Puts the surface corners from index `from` up to (not including) `arm` back off the surface. */
async function reproject(local: LocalSurface, corners: Corner[], arm: number, offset: number, from: number): Promise<Corner[]> {
  const idx = corners.map((c, i) => (i >= from && i < arm && c.on ? i : -1)).filter((i) => i >= 0);
  const placed = await placeOff(local, idx.map((i) => corners[i]!.p), offset);
  const out = corners.slice();
  idx.forEach((i, k) => (out[i] = { ...placed[k]!, soft: true, tag: false }));
  return out;
}

