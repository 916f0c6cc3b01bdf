// The templates' clicks from detected teeth: "a clasp on the 6" instead of a click on its buccal
// face. Each anchor is the point a designer would click (templates.ts): the buccal (labial) face
// of the named tooth at mid-crown, or the buccal embrasure between two named teeth for the arrow
// clasp, found by a ray from outside the arch towards the tooth. Works in the templates' local
// frame (local.ts: teeth up, incisors towards -y).
import type { SurfacePick, WireType } from './types.ts';
import { dot, norm, sub, type Xyz } from '../pose.ts';
import { LocalSurface, flat, type WireFrame } from './local.ts';
import type { SurfaceQuery } from './surface.ts';
import { TemplateError } from './templates.ts';

/** What the anchors need of a detected tooth (model coordinates; common/teeth.ts ToothRecord has it). */
export interface AnchorTooth {
  number: number;
  centroid: readonly number[];
  tip: readonly number[];
  /** Facial-axis point, when the landmarks are known: the anchor itself. */
  faPoint?: readonly number[];
}

/** How many teeth each template is named by (same order as its clicks: TEMPLATE_CLICKS). */
export const TEMPLATE_TEETH: Record<WireType, number> = {
  singleArmClasp: 1,
  arrowClasp: 2,
  labialBow: 2,
  wraparoundBow: 2,
};

/** How far outside the tooth the rays start (mm): beyond any crown's buccal bulge. */
const RAY_START = 15;
/** A hit farther than this from the tooth's centre line (mm, in the plane) is another tooth or the gum. */
const MAX_REACH = 8;
/** Depths below the tip (mm) tried for the buccal face: mid-crown first, then higher and lower. */
const DEPTHS = [3, 2, 4, 1.5];

export class ToothAnchorError extends TemplateError {
  constructor(
    readonly tooth: number,
    readonly reason: 'NOT_DETECTED' | 'NO_SURFACE' | 'NOT_NEIGHBOURS',
    message: string,
  ) {
    super('TEMPLATE_FAILED', message);
  }
}

/**
 * The clicks of a `type` template on the named teeth (Universal numbers): singleArmClasp [tooth],
 * arrowClasp [tooth, neighbour], labialBow [canine, canine], wraparoundBow [last molar, last molar].
 * Throws ToothAnchorError naming the tooth that is missing or has no buccal face.
 */
export async function anchorsOnTeeth(type: WireType, numbers: readonly number[], teeth: readonly AnchorTooth[], frame: WireFrame, surface: SurfaceQuery): Promise<SurfacePick[]> {
  if (numbers.length < TEMPLATE_TEETH[type]) throw new TemplateError('TEMPLATE_CLICKS', `the ${type} template needs ${TEMPLATE_TEETH[type]} teeth`);
  const local = new LocalSurface(surface, frame);
  const byNumber = new Map(teeth.map((t) => [t.number, t]));
  const get = (n: number): AnchorTooth => {
    const t = byNumber.get(n);
    if (!t) throw new ToothAnchorError(n, 'NOT_DETECTED', `tooth ${n} was not detected`);
    return t;
  };
  const centres = teeth.map((t) => local.local(t.centroid));
  const middle: Xyz = centres.length
    ? [centres.reduce((s, c) => s + c[0], 0) / centres.length, centres.reduce((s, c) => s + c[1], 0) / centres.length, 0]
    : [0, 0, 0];
  if (type === 'arrowClasp') {
    const a = get(numbers[0]!), b = get(numbers[1]!);
    const ca = local.local(a.centroid), cb = local.local(b.centroid);
    if (Math.hypot(ca[0] - cb[0], ca[1] - cb[1]) > 14) throw new ToothAnchorError(numbers[1]!, 'NOT_NEIGHBOURS', `teeth ${numbers[0]} and ${numbers[1]} do not touch`);
    const contact: Xyz = [(ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2, Math.min(local.local(a.tip)[2], local.local(b.tip)[2])];
    return [await buccalPick(local, contact, outward(contact, centres, middle), numbers[0]!, MAX_REACH)];
  }
  const picks: SurfacePick[] = [];
  for (const n of numbers.slice(0, TEMPLATE_TEETH[type])) {
    const t = get(n);
    if (t.faPoint) {
      const hits = await surface.closest(Float32Array.from(t.faPoint));
      if (hits.triangle[0]! >= 0) {
        picks.push({ point: [hits.point[0]!, hits.point[1]!, hits.point[2]!], triangle: hits.triangle[0]! });
        continue;
      }
    }
    const c = local.local(t.centroid);
    const top: Xyz = [c[0], c[1], local.local(t.tip)[2]];
    picks.push(await buccalPick(local, top, outward(c, centres, middle), n, MAX_REACH));
  }
  return picks;
}

/**
 * The outward (buccal) direction at a tooth, in the plane: across the arch's tangent through the
 * two nearest other crowns, turned away from the middle of the arch.
 */
function outward(c: Xyz, centres: readonly Xyz[], middle: Xyz): Xyz {
  const others = centres
    .filter((o) => Math.hypot(o[0] - c[0], o[1] - c[1]) > 2)
    .sort((a, b) => Math.hypot(a[0] - c[0], a[1] - c[1]) - Math.hypot(b[0] - c[0], b[1] - c[1]))
    .slice(0, 2);
  const radial = flat(sub(c, middle));
  if (others.length < 2) return radial[0] || radial[1] ? radial : [0, -1, 0];
  const tangent = flat(sub(others[0]!, others[1]!));
  let n: Xyz = [tangent[1], -tangent[0], 0];
  if (dot(n, radial) < 0) n = [-n[0], -n[1], 0];
  return norm(n);
}

/** The first surface hit of rays from outside towards the tooth at mid-crown (then other depths), as a model-frame pick. */
async function buccalPick(local: LocalSurface, top: Xyz, out: Xyz, tooth: number, reach: number): Promise<SurfacePick> {
  const rays = new Float32Array(DEPTHS.length * 6);
  DEPTHS.forEach((d, i) => rays.set([top[0] + out[0] * RAY_START, top[1] + out[1] * RAY_START, top[2] - d, -out[0], -out[1], 0], 6 * i));
  const hits = await local.raycast(rays);
  for (let i = 0; i < DEPTHS.length; i++) {
    const tri = hits.triangle[i]!;
    if (tri < 0 || !Number.isFinite(hits.t[i]!)) continue;
    const p: Xyz = [hits.point[3 * i]!, hits.point[3 * i + 1]!, hits.point[3 * i + 2]!];
    if (Math.hypot(p[0] - top[0], p[1] - top[1]) > reach) continue;
    return { point: local.modelPoint(p), triangle: tri };
  }
  throw new ToothAnchorError(tooth, 'NO_SURFACE', `no buccal surface found on tooth ${tooth}`);
}
