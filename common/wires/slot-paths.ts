// The paths a wire's slot follows, shared by the editor's slotting and the automatic design.
import { wireTags, type WireDesign } from './types.ts';

/**
 * The paths a wire's slot follows (model frame, xyz per corner), one per tag (`tags`, else
 * `tag`): the tag's corners and the corner before and after it, so the cut takes in the segments
 * where the wire enters the acrylic. A tag wholly inside the base would otherwise be a sealed
 * cavity the wire could never reach (the kernel refuses it), and the wire does pass there. Tags
 * without two distinct corners are left out; an empty list: nothing to slot.
 */
export function slotPaths(wire: Pick<WireDesign, 'points' | 'tag' | 'tags'>): Float32Array[] {
  const out: Float32Array[] = [];
  for (const [from, to] of wireTags(wire)) {
    if (to <= from) continue;
    const points = wire.points.slice(Math.max(0, from - 1), Math.min(wire.points.length, to + 2)).map((p) => p.point);
    const distinct = points.filter((p, i) => i === 0 || Math.hypot(p[0] - points[i - 1]![0], p[1] - points[i - 1]![1], p[2] - points[i - 1]![2]) > 1e-3);
    if (distinct.length >= 2) out.push(new Float32Array(distinct.flatMap((p) => [p[0], p[1], p[2]])));
  }
  return out;
}
