// The single-arm clasp's tip in the undercut, for the automatic design: after the auto-fit the
// clasp's start straight (its free tip and the corner it starts from) is moved round the crown
// and along the insertion direction so that the tooth's point nearest the tip lies
// CLASP_TIP_UNDERCUT below the height of contour of the jaw's insertion direction (the crown's
// survey, teeth-landmarks.ts). The tip sits at most a little further off than the wire's radius
// plus its clearance; its corner may stand off the tooth, as a straight of at least 5 mm cannot
// follow a round crown. Places whose straights would pass the tooth closer than the templates
// allow (offset - tolerance), or whose start straight is too short to bend, are not taken.
// tangentTips lays the end as a technician does and comes first (then this search's places):
// the last straight resting on the buccal surface at a crown point in the undercut, its
// corner a straight's length on, the arm's corners it passes dropped (the rule's 5 mm end
// straight cannot follow a round crown, so it touches it where the tip is and leaves it towards
// its corner).
import { across, add, cross, dot, len, norm, scale, sub } from '../../common/pose.ts';
import type { Xyz } from '../../common/teeth.ts';
import { WIRE_END_MIN } from '../../common/bend-program.ts';
import { tangentLength } from '../../common/wires/local.ts';
import { tolerance } from '../../common/wires/templates.ts';
import type { SurfaceHits, SurfaceQuery } from '../../common/wires/surface.ts';
import type { WireDesign, WirePoint } from '../../common/wires/types.ts';
import type { CrownPatch, ToothSurvey } from '../kernels/teeth-landmarks.ts';

/** Undercut (mm) the clasp tip ends in below the height of contour; a clasp holds between 0.15 and 0.4 mm (an alloy arm 0.25). */
export const CLASP_TIP_UNDERCUT = 0.25;
/** The range a tip's undercut is accepted in (mm). */
export const CLASP_TIP_RANGE: readonly [number, number] = [0.15, 0.4];
/**
 * The inner band (mm) a tip is aimed into: the survey of a segmentation and the measure of
 * another labelling can differ by some hundredths (the crown's extent moves its height of
 * contour), so a tip near the range's ends may measure outside it.
 */
export const CLASP_TIP_BAND: readonly [number, number] = [0.2, 0.35];

/** The cost of a tip's undercut: its distance from CLASP_TIP_UNDERCUT, and much more outside CLASP_TIP_BAND. */
export function depthCost(depth: number): number {
  return Math.abs(depth - CLASP_TIP_UNDERCUT) * 10 + Math.max(0, CLASP_TIP_BAND[0] - depth, depth - CLASP_TIP_BAND[1]) * 40;
}
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


/** Index of the free tip and of the corner its straight starts from (the tag is at the other end). */
export function claspTip(wire: Pick<WireDesign, 'points' | 'tag'>): { tip: number; next: number; after: number } {
  const n = wire.points.length;
  return wire.tag && wire.tag[0] === 0 && wire.tag[1] < n - 1 ? { tip: n - 1, next: n - 2, after: n - 3 } : { tip: 0, next: 1, after: 2 };
}

export interface TipPlace {
  points: WirePoint[];
  /** The tag's corners when corners before it were dropped. */
  tag?: [number, number];
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
  const side = armSide(P, R, c, d);
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
      rays.set([...o, ...norm(across(sub(at, c), d))], i * 6);
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
  const cost = (x: { depth: number; move: number; standoff: number }): number => depthCost(x.depth) + x.standoff * 2 + x.move * 0.1;
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


/** Angles (degrees) the tip's straight rises from the crown's horizontal towards the occlusal. */
const RISES = [-30, -15, 0, 15, 30, 45];
/** Where along the tip's straight (mm from the free end) it rests on the crown. */
const RESTS = [0, 1];
/** How much further off than the offset (mm) the straight may pass its resting place (a crown's grooves). */
const LIFTS = [0, 0.15];
/** A dip (mm) between the coarse samples that the design's last pass lifts out (lift-off.ts): the dense look allows it. */
const LIFTABLE = 0.1;
/** Most crown points tried as the straight's resting place. */
const FEET = 100;
/** How far off the surface (mm, beyond the offset) the tip's corner may stand. */
const CORNER_OFF_MAX = 1.6;
/**
 * The wider search where the first finds no tip in CLASP_TIP_BAND (a crown with little undercut):
 * every crown point in the band, rises every 7.5°, resting up to 2 mm from the free end, the
 * corner up to 2 mm off (as the older search allows).
 */
const WIDE = { rises: Array.from({ length: 11 }, (_, i) => -30 + 7.5 * i), rests: [0, 1, 2], cornerOffMax: 2 };

/**
 * Tips laid as a technician lays the end of a clasp arm: the last straight (at least the rule's
 * 5 mm once its bend has taken its share) rests on the buccal surface where the crown's undercut
 * is within CLASP_TIP_RANGE (a crown point's survey), tangent to it at the wire's offset (or a
 * little further, over a groove), its free end there or 1 mm past it, running round the
 * crown towards the arm and rising from -30 to 45°; its corner stands off the round crown by at
 * most CORNER_OFF_MAX and the arm's corners it passes are dropped. Kept: places whose tip has an
 * undercut within CLASP_TIP_RANGE at the tooth's point nearest it, whose straights keep off the
 * tooth (offset - tolerance at 8 points each; then, for the best, every 0.4 mm or so with
 * LIFTABLE more, which the design's last pass lifts out) and that leave the checks' die room; the
 * undercut nearest CLASP_TIP_UNDERCUT (and within CLASP_TIP_BAND), the corner and the tip nearest
 * the tooth first (KEEP of them). Where none lies in the band, every crown point in it is tried
 * with more rises, rests and corner room (WIDE).
 */
export async function tangentTips(wire: WireDesign, crown: Pick<CrownPatch, 'centroid' | 'positions' | 'normals' | 'buccal'>, survey: ToothSurvey, surface: SurfaceQuery): Promise<TipPlace[]> {
  const { tip, after } = claspTip(wire);
  const n = wire.points.length;
  if (n < 4) return [];
  const fromTip = tip === 0 ? (i: number): number => i : (i: number): number => n - 1 - i;
  const d = survey.direction, c = crown.centroid;
  const offset = wire.diameter / 2 + wire.clearance;
  const keep = offset - tolerance(wire.clearance);
  const P = wire.points[tip]!.point as Xyz, R = wire.points[after]!.point as Xyz;
  // round the crown's axis towards the arm is +angle
  const side = armSide(P, R, c, d);
  const e1 = norm(across(crown.buccal as Xyz, d)), e2 = cross(d, e1);
  const angle = (p: Xyz): number => side * Math.atan2(dot(sub(p, c), e2), dot(sub(p, c), e1));
  // the arm's corners, from the tip on, to the crossing (the corner before its highest)
  let top = 1;
  for (let k = 1; k < n; k++) {
    const i = fromTip(k);
    if (wire.tag && i >= wire.tag[0] && i <= wire.tag[1]) break;
    if (dot(sub(wire.points[i]!.point as Xyz, c), d) > dot(sub(wire.points[fromTip(top)]!.point as Xyz, c), d)) top = k;
  }
  const arm: number[] = [];
  for (let k = 1; k < top - 1; k++) arm.push(fromTip(k));
  const rest = top >= 2 ? fromTip(top - 1) : -1;
  // feet: buccal crown points with an undercut near the goal's
  const feet: number[] = [];
  for (let i = 0; i < survey.depth.length; i++) {
    const p: Xyz = [crown.positions[3 * i]!, crown.positions[3 * i + 1]!, crown.positions[3 * i + 2]!];
    if (survey.depth[i]! >= CLASP_TIP_RANGE[0] - 0.05 && survey.depth[i]! <= CLASP_TIP_RANGE[1] + 0.05 && dot(sub(p, c), crown.buccal as Xyz) > 0) feet.push(i);
  }
  const stride = Math.max(1, Math.ceil(feet.length / FEET));
  const sampled = feet.filter((_, f) => f % stride === 0);
  const first = await restingOn(sampled, { rises: RISES, rests: RESTS, cornerOffMax: CORNER_OFF_MAX });
  // none in the band: every crown point in it is tried (a crown with little undercut has few)
  const inBand = (x: number): boolean => x >= CLASP_TIP_BAND[0] && x <= CLASP_TIP_BAND[1];
  const more = first.some((x) => inBand(x.depth)) ? [] : await restingOn(feet.filter((i) => inBand(survey.depth[i]!)), WIDE);
  return [...first, ...more]
    .sort((x, y) => x.cost - y.cost)
    .slice(0, KEEP)
    .map(({ points, depth, tag }) => ({ points, depth, ...(tag ? { tag } : {}) }));

  /** The places of the last straight resting on the crown at each of `use` (crown vertex indices). */
  async function restingOn(use: readonly number[], lay: typeof WIDE): Promise<(TipPlace & { cost: number })[]> {
    type Try = { t: Xyz; q: Xyz; k: number };
    const tries: Try[] = [];
    for (const i of use) {
      const foot: Xyz = [crown.positions[3 * i]!, crown.positions[3 * i + 1]!, crown.positions[3 * i + 2]!];
      const nv = norm([crown.normals[3 * i]!, crown.normals[3 * i + 1]!, crown.normals[3 * i + 2]!]);
      const up = norm(sub(d, scale(nv, dot(nv, d))) as Xyz);
      let round = norm(cross(nv, up));
      // towards the arm: the horizontal tangent whose way round the axis is +angle
      if (angle(add(foot, scale(round, 1)) as Xyz) < angle(foot)) round = scale(round, -1) as Xyz;
      for (const lift of LIFTS) {
        const on = add(foot, scale(nv, offset + lift)) as Xyz;
        for (const rise of lay.rises) {
          const a = (rise * Math.PI) / 180;
          const u = norm(add(scale(round, Math.cos(a)), scale(up, Math.sin(a))) as Xyz);
          for (const back of lay.rests) {
            const t = add(on, scale(u, -back)) as Xyz;
            // the first arm corner past the straight's corner (round the axis) follows it
            const ahead = angle(add(t, scale(u, WIRE_END_MIN + 1)) as Xyz) + (6 * Math.PI) / 180;
            const k = arm.find((j) => angle(wire.points[j]!.point as Xyz) > ahead) ?? rest;
            if (k < 0) continue;
            const K = wire.points[k]!.point as Xyz;
            const beyond = wire.points[tip === 0 ? k + 1 : k - 1]!.point as Xyz;
            // long enough once the first bend's arc (die DIE) has taken its share
            let L = WIRE_END_MIN + 0.4;
            for (let g = 0; g < 3; g++) L = WIRE_END_MIN + 0.4 + tangentLength(t, add(t, scale(u, L)) as Xyz, K, DIE);
            const q = add(t, scale(u, L)) as Xyz;
            if (len(sub(K, q)) < tangentLength(t, q, K, DIE) + tangentLength(q, K, beyond, DIE) + 0.5) continue;
            tries.push({ t, q, k });
          }
        }
      }
    }
    if (tries.length === 0) return [];
    // both straights (tip to corner, corner to the arm) clear of the tooth, first at a few points
    // then, for what passes, every 0.4 mm or so; the corner not far off
    const clear = async (list: Try[], S: number, least: number): Promise<{ ok: boolean[]; hits: SurfaceHits; per: number }> => {
      const pts: Xyz[] = [];
      for (const { t, q, k } of list) {
        const K = wire.points[k]!.point as Xyz;
        for (let s = 0; s <= S; s++) pts.push(add(t, scale(sub(q, t), s / S)) as Xyz);
        for (let s = 1; s < S; s++) pts.push(add(q, scale(sub(K, q), s / S)) as Xyz);
      }
      const hits = await surface.closest(new Float32Array(pts.flat()));
      const per = 2 * S;
      const ok = list.map((_, j) => {
        for (let s = 0; s < per; s++) {
          const m = j * per + s;
          if (hits.triangle[m]! >= 0 && len(sub(pts[m]!, [hits.point[3 * m]!, hits.point[3 * m + 1]!, hits.point[3 * m + 2]!])) < least) return false;
        }
        return true;
      });
      return { ok, hits, per };
    };
    const coarse = await clear(tries, 4, keep);
    type Place = Try & { depth: number; cost: number };
    const places: Place[] = [];
    tries.forEach((x, j) => {
      if (!coarse.ok[j]) return;
      const { hits, per } = coarse;
      const at = (m: number): Xyz => [hits.point[3 * m]!, hits.point[3 * m + 1]!, hits.point[3 * m + 2]!];
      const qOff = len(sub(x.q, at(j * per + 4))) - offset;
      if (qOff > lay.cornerOffMax) return;
      const tipFoot = at(j * per);
      const depth = survey.depthAt(tipFoot);
      if (depth < CLASP_TIP_RANGE[0] || depth > CLASP_TIP_RANGE[1]) return;
      // room for the checks' die between the first corners
      const near = [x.t, x.q, ...(tip === 0 ? wire.points.slice(x.k, x.k + 4) : wire.points.slice(Math.max(0, x.k - 3), x.k + 1).reverse()).map((p) => p.point as Xyz)];
      const arc = (i: number): number => (i > 0 && i + 1 < near.length ? tangentLength(near[i - 1]!, near[i]!, near[i + 1]!, 1) : 0);
      for (let i = 1; i + 2 < near.length; i++) if (len(sub(near[i + 1]!, near[i]!)) < arc(i) + arc(i + 1) + 0.3) return;
      places.push({ ...x, depth, cost: depthCost(depth) + qOff + (len(sub(x.t, tipFoot)) - offset) * 3 });
    });
    places.sort((x, y) => x.cost - y.cost);
    // the dense look at the best ones only
    const best = places.slice(0, 12 * KEEP);
    const fine = await clear(best, 2 * CHORD_SAMPLES, keep - LIFTABLE);
    const found: (TipPlace & { cost: number })[] = [];
    best.forEach(({ t, q, k, depth, cost }, j) => {
      if (!fine.ok[j]) return;
      // the straight's corner, then the arm from the first corner past it
      const order = tip === 0 ? [...wire.points.slice(k)] : [...wire.points.slice(0, k + 1)].reverse();
      const pointsFromTip = [{ point: t }, { point: q }, ...order.map((p) => ({ ...p }))];
      const points = tip === 0 ? pointsFromTip : pointsFromTip.reverse();
      // the tag (at the other end) moves with the corners dropped before it
      const shift = tip === 0 ? 2 - k : 0;
      const tag = wire.tag ? ([wire.tag[0] + shift, wire.tag[1] + shift] as [number, number]) : undefined;
      found.push({ points, depth, ...(tag ? { tag } : {}), cost });
    });
    return found;
  }
}

/** +1 when turning from the tip P towards the arm's corner R is positive about d through the crown's centroid c, else -1. */
function armSide(P: Xyz, R: Xyz, c: Xyz, d: Xyz): number {
  return Math.sign(dot(cross(across(sub(P, c), d), across(sub(R, c), d)), d)) || 1;
}
