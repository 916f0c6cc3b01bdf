// The wires' design changes as pure edits of the document and of one wire: no scene, no worker,
// no undo stack (the feature makes each one command). Tested on their own
// (test/unit/editor-wire-edits.test.ts).
import type { DesignDocument, SurfacePick, WireDesign, WirePoint, WireType } from '../../engine/document.ts';
import { mm } from '../../engine/units.ts';

/** A wire's corners with its tag (the first-fed) and every tag (the bows have two). */
export type Shaped = { points: WirePoint[]; tag?: [number, number] | undefined; tags?: [number, number][] | undefined };

let counter = 0;
/** A new wire id, unique in this page. */
export function newWireId(): string {
  counter++;
  return `w${Date.now().toString(36)}${counter.toString(36)}`;
}

/** A wire placed by a template on the clicked teeth. */
export function placedWire(
  id: string,
  jaw: 'upper' | 'lower',
  type: WireType,
  opts: { diameter: number; clearance: number },
  anchors: readonly SurfacePick[],
  placed: Shaped,
): WireDesign {
  return {
    id,
    type,
    jaw,
    diameter: mm(opts.diameter),
    clearance: mm(opts.clearance),
    points: placed.points,
    anchors: anchors.map((a) => ({ point: a.point, triangle: a.triangle })),
    ...(placed.tag ? { tag: placed.tag } : {}),
    ...(placed.tags && placed.tags.length > 1 ? { tags: placed.tags } : {}),
  };
}

/** The document with a wire added last. */
export function withWireAdded(doc: DesignDocument, wire: WireDesign): DesignDocument {
  return { ...doc, wires: [...(doc.wires ?? []), wire] };
}

/** The document with the wire of the same id replaced. */
export function withWire(doc: DesignDocument, wire: WireDesign): DesignDocument {
  return { ...doc, wires: (doc.wires ?? []).map((w) => (w.id === wire.id ? wire : w)) };
}

/** The document without a wire; null when there is no such wire. */
export function withoutWire(doc: DesignDocument, id: string): DesignDocument | null {
  if (!doc.wires?.some((w) => w.id === id)) return null;
  return { ...doc, wires: doc.wires.filter((w) => w.id !== id) };
}

/** The wire with new corners and tags (absent ones dropped). */
export function reshaped(wire: WireDesign, points: WirePoint[], tag: [number, number] | undefined, tags: [number, number][] | undefined): WireDesign {
  const next: WireDesign = { ...wire, points };
  if (tag) next.tag = tag;
  else delete next.tag;
  if (tags && tags.length > 0) next.tags = tags;
  else delete next.tags;
  return next;
}

/** Shifts a tag for a corner inserted at `at` (the new corner's index). */
function tagAfterInsert(tag: [number, number] | undefined, at: number): [number, number] | undefined {
  if (!tag) return undefined;
  const [a, b] = tag;
  return [a >= at ? a + 1 : a, b >= at ? b + 1 : b];
}

/** Shifts a tag for the corner `at` removed; a tag left empty goes. */
function tagAfterDelete(tag: [number, number] | undefined, at: number): [number, number] | undefined {
  if (!tag) return undefined;
  let [a, b] = tag;
  if (a === at && b === at) return undefined;
  if (a > at) a--;
  if (b >= at) b--;
  return a <= b ? [a, b] : undefined;
}

/** The wire with one corner moved; null without such a corner. */
export function cornerMoved(wire: WireDesign, index: number, point: WirePoint): WireDesign | null {
  if (!wire.points[index]) return null;
  return { ...wire, points: wire.points.map((p, i) => (i === index ? point : p)) };
}

/** The wire with a corner inserted at `at` (its tags shifted past it). */
export function cornerInserted(wire: WireDesign, at: number, corner: WirePoint): WireDesign {
  const points = [...wire.points.slice(0, at), corner, ...wire.points.slice(at)];
  return reshaped(wire, points, tagAfterInsert(wire.tag, at), wire.tags?.map((g) => tagAfterInsert(g, at)!));
}

/**
 * The wire without corner `index` (its tags shifted, an emptied tag dropped); 'MIN_CORNERS' when
 * it has only two, null without such a corner.
 */
export function cornerDeleted(wire: WireDesign, index: number): WireDesign | 'MIN_CORNERS' | null {
  if (!wire.points[index]) return null;
  if (wire.points.length <= 2) return 'MIN_CORNERS';
  const tags = wire.tags?.map((g) => tagAfterDelete(g, index)).filter((g): g is [number, number] => !!g);
  return reshaped(wire, wire.points.filter((_, i) => i !== index), tagAfterDelete(wire.tag, index), tags);
}
