// The wire parts of the design document (src/editor/engine/document.ts re-exports them): what the
// wire geometry here reads and writes, in the model frame of the wire's jaw.
import type { Xyz } from '../pose.ts';
import type { Millimetres } from '../units.ts';
import type { WireType } from '../wires.ts';

export type { WireType } from '../wires.ts';

/** A picked point on a model's surface, in that model's frame. */
export interface SurfacePick {
  point: Xyz;
  triangle: number;
}

/** A corner of a wire's centreline, in the model frame of the wire's jaw. */
export interface WirePoint {
  point: Xyz;
  /**
   * The surface point this corner is kept off (by the wire's radius plus its clearance, along the
   * surface normal); absent for a free corner (a tag inside the base, a loop in the air).
   */
  surface?: SurfacePick;
}

/** A wire the automatic design made: kept marked until the designer accepts it. */
export interface WireAi {
  accepted: boolean;
}

/** A designed wire: its corners from the end the machine feeds first to the last. */
export interface WireDesign {
  id: string;
  type: WireType;
  jaw: 'upper' | 'lower';
  diameter: Millimetres;
  /** Gap between the wire's surface and the model's (mm). */
  clearance: Millimetres;
  points: WirePoint[];
  /** The designer's clicks on the teeth the template was placed on (model frame). */
  anchors: SurfacePick[];
  /** Corner indices [from, to] (inclusive) of the tag held in the base: what slotting cuts. */
  tag?: [number, number];
  /** Every tag, when the wire has more than one (the bows: one at each end); slotting cuts them all. Absent: `tag` alone. */
  tags?: [number, number][];
  /** Made by the automatic design (absent: drawn by a designer). */
  ai?: WireAi;
}

/** A wire's tags: `tags`, else its one `tag`, else none. */
export function wireTags(wire: Pick<WireDesign, 'tag' | 'tags'>): [number, number][] {
  return wire.tags ?? (wire.tag ? [wire.tag] : []);
}
