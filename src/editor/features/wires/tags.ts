// Where a wire's tags lie in its jaw's base, measured live like the bending rules (checks.ts):
// each tag's corners against the base as generated (before slots), in the geometry worker. A
// tag is held when every corner is at least TAG_INSIDE_MM inside the plate's rim, in plan along
// the insertion direction, and inside the acrylic; the automatic design aims at the same.
import type { MeshHandle, TagPlace } from '../../../geometry/client.ts';
import { wireTags } from '../../../../common/wires/types.ts';
import type { Jaw, WireDesign, WirePoint } from '../../engine/document.ts';
import { LiveChecks } from './checks.ts';

/** How far inside the base's rim a tag's corners should lie (mm). */
export const TAG_INSIDE_MM = 1;

export interface TagGeometry {
  tagPlaces(baseHandle: MeshHandle, corners: Float32Array): Promise<TagPlace[] | null>;
}

/** One tag of a wire in the base: its worst corner's plan distance from the rim (negative outside), and its corners outside the acrylic. */
export interface TagFit {
  inside: number;
  outside: number;
  /** The wire's corners (indices into its points) of this tag that are not held: marked in the view. */
  short?: number[];
}

/** Whether a tag lies as it should. */
export const isHeld = (t: TagFit): boolean => t.inside >= TAG_INSIDE_MM && t.outside === 0;

/** Each tag's first corner's index and its corners (model frame) of a wire shaped as `points`. */
function tagCorners(wire: WireDesign, points: readonly WirePoint[]): { from: number; corners: WirePoint['point'][] }[] {
  return wireTags(wire)
    .filter(([from, to]) => to >= from && to < points.length)
    .map(([from, to]) => ({ from, corners: points.slice(from, to + 1).map((p) => p.point) }));
}

/** The wires' tags in the bases: a result per wire (one TagFit per tag), while its jaw shows a base. */
export class TagChecks extends LiveChecks<TagFit[]> {
  constructor(geometry: Partial<TagGeometry>, baseOf: (jaw: Jaw) => MeshHandle | null, measured: (id: string) => void, delayMs: number) {
    super(
      {
        key: (w, points) => {
          const base = baseOf(w.jaw);
          const tags = tagCorners(w, points);
          return base === null || tags.length === 0 || !geometry.tagPlaces ? null : JSON.stringify([base, tags.map((t) => t.corners)]);
        },
        run: async (w, points) => {
          const tags = tagCorners(w, points);
          const base = baseOf(w.jaw);
          if (base === null) return []; // the base went since: no figures (the key no longer matches either)
          const places = await geometry.tagPlaces!(base, new Float32Array(tags.flatMap((t) => t.corners.flat())));
          if (!places) throw new Error('not a generated base');
          let at = 0;
          return tags.map((tag) => {
            const own = places.slice(at, (at += tag.corners.length));
            const short = own.flatMap((p, k) => (p.rim < TAG_INSIDE_MM || !p.inSolid ? [tag.from + k] : []));
            return { inside: Math.min(...own.map((p) => p.rim)), outside: own.filter((p) => !p.inSolid).length, short };
          });
        },
      },
      measured,
      delayMs,
    );
  }
}
