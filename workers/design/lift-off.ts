// The last pass of the automatic design over a wire's arms: a straight between two corners kept
// off the teeth can still dip into them between its corners (over a contact or a marginal ridge,
// where the templates' tolerance lets it sag). Every segment outside the tags is sampled; where a
// sample comes nearer the model than the wire's clearance, the segment's free corners are raised
// along the surface normal there, as little as moves that sample out to the clearance (a tag's
// corners stay where the base holds them; the other corner then takes the whole lift, levered).
// Repeated, as a raised corner can bring its other segment nearer elsewhere.
import type { Xyz } from '../../common/pose.ts';
import type { SurfaceQuery } from '../../common/wires/surface.ts';
import { wireTags, type WireDesign } from '../../common/wires/types.ts';

/** Distance (mm) between samples along a segment. */
const STEP = 0.25;
/** A sample is lifted when its gap is this much (mm) under the clearance. */
const SLACK = 0.005;
/** Most a corner is moved (mm) in one round (a corner levered over a long segment). */
const MAX_MOVE = 0.4;
const ROUNDS = 6;

/** Segments [i, i+1] that lie in a tag (held in the base, not lifted) and whether corner i is a tag's. */
function tagParts(w: Pick<WireDesign, 'tag' | 'tags'>): { segmentInTag: (i: number) => boolean; cornerInTag: (i: number) => boolean } {
  const tags = wireTags(w);
  return {
    segmentInTag: (i) => tags.some(([a, b]) => i >= a && i < b),
    cornerInTag: (i) => tags.some(([a, b]) => i >= a && i <= b),
  };
}

/**
 * The least signed gap (mm) between the wire's surface and the model outside its tags (negative:
 * inside), sampled every STEP along each segment; also per segment.
 */
export async function armGaps(w: Pick<WireDesign, 'points' | 'tag' | 'tags' | 'diameter'>, surface: SurfaceQuery): Promise<{ least: number; segments: { i: number; s: number; gap: number; normal: Xyz }[] }> {
  const { segmentInTag } = tagParts(w);
  const at: { i: number; s: number; p: Xyz }[] = [];
  for (let i = 0; i + 1 < w.points.length; i++) {
    if (segmentInTag(i)) continue;
    const a = w.points[i]!.point, b = w.points[i + 1]!.point;
    const n = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) / STEP));
    for (let k = 0; k <= n; k++) {
      const s = k / n;
      at.push({ i, s, p: [a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s, a[2] + (b[2] - a[2]) * s] });
    }
  }
  const segments: { i: number; s: number; gap: number; normal: Xyz }[] = [];
  if (!at.length) return { least: Infinity, segments };
  const hits = await surface.closest(new Float32Array(at.flatMap((x) => x.p)));
  let least = Infinity;
  at.forEach(({ i, s, p }, m) => {
    if (hits.triangle[m]! < 0) return;
    const v: Xyz = [p[0] - hits.point[3 * m]!, p[1] - hits.point[3 * m + 1]!, p[2] - hits.point[3 * m + 2]!];
    const normal: Xyz = [hits.normal[3 * m]!, hits.normal[3 * m + 1]!, hits.normal[3 * m + 2]!];
    const d = Math.hypot(v[0], v[1], v[2]);
    const gap = (v[0] * normal[0] + v[1] * normal[1] + v[2] * normal[2] < 0 ? -d : d) - w.diameter / 2;
    least = Math.min(least, gap);
    const worst = segments.find((x) => x.i === i);
    if (!worst) segments.push({ i, s, gap, normal });
    else if (gap < worst.gap) Object.assign(worst, { s, gap, normal });
  });
  return { least, segments };
}

/**
 * The wire with its arms lifted off the model to its clearance where a straight dips nearer
 * (a segment's worst sample, along the surface normal there); the tags' corners are not moved and
 * the points keep their surface picks. The same wire when nothing comes nearer.
 */
export async function liftOff<W extends Pick<WireDesign, 'points' | 'tag' | 'tags' | 'diameter' | 'clearance'>>(w: W, surface: SurfaceQuery): Promise<W> {
  const { cornerInTag } = tagParts(w);
  let points = w.points;
  for (let round = 0; round < ROUNDS; round++) {
    const { segments } = await armGaps({ ...w, points }, surface);
    const moves = new Map<number, Xyz>();
    const push = (i: number, v: Xyz): void => {
      const was = moves.get(i);
      if (!was || Math.hypot(...v) > Math.hypot(...was)) moves.set(i, v);
    };
    for (const { i, s, gap, normal } of segments) {
      const need = w.clearance - gap;
      if (need <= SLACK) continue;
      const freeA = !cornerInTag(i), freeB = !cornerInTag(i + 1);
      // the least corner moves that raise the sample at s by `need` (a + s (b - a))
      const wa = freeA ? 1 - s : 0, wb = freeB ? s : 0;
      const q = wa * wa + wb * wb;
      if (q < 1e-3) continue;
      const lift = (weight: number): Xyz => {
        const k = Math.min(MAX_MOVE, (need * weight) / q);
        return [normal[0] * k, normal[1] * k, normal[2] * k];
      };
      if (wa > 0) push(i, lift(wa));
      if (wb > 0) push(i + 1, lift(wb));
    }
    if (!moves.size) break;
    points = points.map((p, i) => {
      const v = moves.get(i);
      return v ? { ...p, point: [p.point[0] + v[0], p.point[1] + v[1], p.point[2] + v[2]] as Xyz } : p;
    });
  }
  return points === w.points ? w : { ...w, points };
}
