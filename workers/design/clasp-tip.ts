// The single-arm clasp's tip in the undercut, for the automatic design: after the auto-fit the
// clasp's start straight (its free tip and the corner it starts from) is moved round the crown
// and along the insertion direction so that the tooth's point nearest the tip lies
// CLASP_TIP_UNDERCUT below the height of contour of the jaw's insertion direction (the crown's
// survey, teeth-landmarks.ts). The tip sits at most a little further off than the wire's radius
// plus its clearance; its corner may stand off the tooth, as a straight of at least 5 mm cannot
// follow a round crown. Places whose straights would pass the tooth closer than the templates
// allow (offset - tolerance), or whose start straight is too short to bend, are not taken.
import { add, cross, dot, norm, scale, sub } from '../../common/pose.ts';
import type { Xyz } from '../../common/teeth.ts';
import { WIRE_END_MIN } from '../../common/bend-program.ts';
import { tangentLength } from '../../common/wires/local.ts';
import { tolerance } from '../../common/wires/templates.ts';
import type { SurfaceQuery } from '../../common/wires/surface.ts';
import type { WireDesign, WirePoint } from '../../common/wires/types.ts';
import type { CrownPatch, ToothSurvey } from '../kernels/teeth-landmarks.ts';

/** Undercut (mm) the clasp tip ends in below the height of contour; a clasp holds between 0.15 and 0.4 mm (an alloy arm 0.25). */
export const CLASP_TIP_UNDERCUT = 0.25;
/** The range a tip's undercut is accepted in (mm). */
export const CLASP_TIP_RANGE: readonly [number, number] = [0.15, 0.4];
/** Moves of the tip (mm) tried along the insertion direction. */
const ALONG_D = Array.from({ length: 41 }, (_, i) => -2 + i * 0.125);
/** Turns (degrees) of the start straight round the crown towards the arm. */
const TURNS = [0, 4, 8, 12, 16, 20, 24, 28];
/** How much further off the surface than the wire's offset (mm) the tip may stand. */
const STANDOFFS = [0, 0.1, 0.2, 0.3];
/** How much further (degrees) than the tip the start straight's corner may be turned towards the arm (a longer straight). */
const CORNER_TURNS = [0, 8, 16];
/** How much further off the tooth (mm) the start straight's corner may stand. */
const CORNER_STANDOFFS = [0, 0.3, 0.6, 0.9, 1.2, 1.6, 2];
/** Points along the start straight checked against the tooth. */
const CHORD_SAMPLES = 8;
/** Die radius (mm) the start straight's shortening by its first bend is reckoned with (the largest the engine makes room for). */
const DIE = 1.5;
/** How many places are handed back, best first. */
const KEEP = 4;

const len = (v: Xyz): number => Math.hypot(v[0], v[1], v[2]);
const unit = (v: Xyz): Xyz => scale(v, 1 / (len(v) || 1)) as Xyz;

/** Index of the free tip and of the corner its straight starts from (the tag is at the other end). */
export function claspTip(wire: Pick<WireDesign, 'points' | 'tag'>): { tip: number; next: number; after: number } {
  const n = wire.points.length;
  return wire.tag && wire.tag[0] === 0 && wire.tag[1] < n - 1 ? { tip: n - 1, next: n - 2, after: n - 3 } : { tip: 0, next: 1, after: 2 };
}

export interface TipPlace {
  points: WirePoint[];
  /** Undercut (mm) under the tip. */
  depth: number;
}

/**
 * The clasp with its tip moved into the undercut of `survey` (model frame, the wire's jaw) on
 * `crown`: the start straight (the tip and its corner) turned round the crown's axis towards the
 * arm by up to TURN_MAX, and the tip moved along the insertion direction. Up to KEEP places, the
 * undercut nearest CLASP_TIP_UNDERCUT and the smallest move first; none when no place gives an
 * undercut within CLASP_TIP_RANGE with the straights clear of the tooth and long enough to bend.
 */
export async function tipIntoUndercut(wire: WireDesign, crown: Pick<CrownPatch, 'centroid'>, survey: ToothSurvey, surface: SurfaceQuery): Promise<TipPlace[]> {
  const { tip, next, after } = claspTip(wire);
  if (wire.points.length < 4) return [];
  const P = wire.points[tip]!.point as Xyz, Q = wire.points[next]!.point as Xyz, R = wire.points[after]!.point as Xyz;
  const d = survey.direction;
  const offset = wire.diameter / 2 + wire.clearance;
  const c = crown.centroid;
  // turning about the axis through the centroid along d: towards the arm (the corner after)
  const across = (v: Xyz): Xyz => sub(v, scale(d, dot(v, d))) as Xyz;
  const side = Math.sign(dot(cross(across(sub(P, c)), across(sub(R, c))), d)) || 1;
  const turn = (p: Xyz, deg: number): Xyz => {
    const a = (side * deg * Math.PI) / 180, v = sub(p, c);
    const k = cross(d, v), along = dot(d, v);
    return add(c, add(add(scale(v, Math.cos(a)), scale(k, Math.sin(a))), scale(d, along * (1 - Math.cos(a))))) as Xyz;
  };
  const moves: { deg: number; a: number }[] = [];
  for (const deg of TURNS) for (const a of ALONG_D) moves.push({ deg, a });
  // a place round the crown: the first hit of a ray from its axis outwards (at the height and
  // angle asked), then the wire's radius plus its clearance off the surface there
  const place = async (targets: { at: Xyz; height: number }[]): Promise<{ p: Xyz; foot: Xyz }[]> => {
    const rays = new Float32Array(targets.length * 6);
    targets.forEach(({ at, height }, i) => {
      const o = add(c, scale(d, height));
      rays.set([...o, ...norm(across(sub(at, c)))], i * 6);
    });
    const hit = await surface.raycast(rays);
    const feet = targets.map((_, i): Xyz => [hit.point[3 * i]!, hit.point[3 * i + 1]!, hit.point[3 * i + 2]!]);
    const near = await surface.closest(new Float32Array(feet.flat()));
    return feet.map((foot, i) => {
      const n: Xyz = [near.normal[3 * i]!, near.normal[3 * i + 1]!, near.normal[3 * i + 2]!];
      return Number.isFinite(foot[0]) ? { p: add(foot, scale(n, offset)) as Xyz, foot } : { p: [NaN, NaN, NaN], foot };
    });
  };
  const h = (p: Xyz): number => dot(sub(p, c), d);
  const qHit = await surface.closest(new Float32Array(Q));
  const qOut = Number.isFinite(qHit.point[0]) ? norm(sub(Q, [qHit.point[0]!, qHit.point[1]!, qHit.point[2]!])) : ([0, 0, 0] as Xyz);
  // per move: the tip, its corner turned with it, and that corner lowered (raised) with the tip too
  const feet = await place(
    moves.flatMap(({ deg, a }) => [{ at: turn(P, deg), height: h(P) + a }, ...CORNER_TURNS.flatMap((e) => [{ at: turn(Q, deg + e), height: h(Q) }, { at: turn(Q, deg + e), height: h(Q) + a }])]),
  );
  const stride = 1 + 2 * CORNER_TURNS.length;
  // each tip over a foot in the undercut, at the wire's offset or standing a little further off (a
  // straight cannot follow a round crown), from the corner as it was or turned with it
  const tries: { t: Xyz; q: Xyz; depth: number; standoff: number }[] = [];
  moves.forEach((_, i) => {
    const f = feet[stride * i]!;
    // the corner as it was, turned, or turned and moved with the tip; each standing further off
    // the tooth by up to CORNER_STANDOFFS, so that the straight to the tip can clear the crown
    const bases = [{ p: Q, n: qOut }, ...feet.slice(stride * i + 1, stride * (i + 1)).filter((x) => Number.isFinite(x.p[0])).map((x) => ({ p: x.p, n: norm(sub(x.p, x.foot)) }))];
    const corners = bases.flatMap(({ p, n }) => CORNER_STANDOFFS.map((o) => (o === 0 ? p : (add(p, scale(n, o)) as Xyz))));
    if (!Number.isFinite(f.p[0])) return;
    // a first cut on the foot the tip was aimed at (the tip's own nearest point decides below)
    const depth = survey.depthAt(f.foot);
    if (depth < CLASP_TIP_RANGE[0] - 0.1 || depth > CLASP_TIP_RANGE[1] + 0.1) return;
    const n = norm(sub(f.p, f.foot));
    for (const standoff of STANDOFFS) {
      const t = add(f.foot, scale(n, offset + standoff)) as Xyz;
      for (const q of corners) {
        // long enough once the first bend's arc has taken its share
        if (len(sub(t, q)) - tangentLength(t, q, R, DIE) >= WIRE_END_MIN + 0.1) tries.push({ t, q, depth, standoff });
      }
    }
  });
  // the straights (tip to corner, corner to the next) clear of the tooth
  const samples: Xyz[] = [];
  for (const { t, q } of tries) for (let k = 1; k < CHORD_SAMPLES; k++) samples.push(add(q, scale(sub(t, q), k / CHORD_SAMPLES)) as Xyz, add(q, scale(sub(R, q), k / CHORD_SAMPLES)) as Xyz);
  const hits = samples.length ? await surface.closest(new Float32Array(samples.flat())) : null;
  const per = 2 * (CHORD_SAMPLES - 1);
  // the undercut under each tip: at the tooth's point nearest it (tipUndercut, what is measured)
  const near = tries.length ? await surface.closest(new Float32Array(tries.flatMap((x) => x.t))) : null;
  const found: (TipPlace & { move: number; standoff: number })[] = [];
  tries.forEach(({ t, q, standoff }, i) => {
    const depth = survey.depthAt([near!.point[3 * i]!, near!.point[3 * i + 1]!, near!.point[3 * i + 2]!]);
    if (depth < CLASP_TIP_RANGE[0] || depth > CLASP_TIP_RANGE[1]) return;
    for (let k = 0; k < per; k++) {
      const j = i * per + k;
      const foot: Xyz = [hits!.point[3 * j]!, hits!.point[3 * j + 1]!, hits!.point[3 * j + 2]!];
      if (Number.isFinite(foot[0]) && len(sub(samples[j]!, foot)) < offset - tolerance(wire.clearance)) return;
    }
    const points = wire.points.map((p) => ({ ...p }));
    points[tip] = { point: t };
    if (q !== Q) points[next] = { point: q };
    found.push({ points, depth, standoff, move: len(sub(t, P)) + 2 * len(sub(q, Q)) });
  });
  const cost = (x: { depth: number; move: number; standoff: number }): number => Math.abs(x.depth - CLASP_TIP_UNDERCUT) * 10 + x.standoff * 2 + x.move * 0.1;
  return found
    .sort((x, y) => cost(x) - cost(y))
    .slice(0, KEEP)
    .map(({ points, depth }) => ({ points, depth }));
}

/** Undercut (mm) under a clasp's tip along the survey's direction: at the tooth's closest point. */
export async function tipUndercut(wire: Pick<WireDesign, 'points' | 'tag'>, survey: ToothSurvey, surface: SurfaceQuery): Promise<number> {
  const P = wire.points[claspTip(wire).tip]!.point as Xyz;
  const h = await surface.closest(new Float32Array(P));
  return survey.depthAt([h.point[0]!, h.point[1]!, h.point[2]!]);
}

