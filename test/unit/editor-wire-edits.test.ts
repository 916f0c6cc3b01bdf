// The wires' document edits on their own: no scene, no worker (features/wires/edits.ts).
import { describe, expect, it } from 'vitest';
import { emptyDocument, type WireDesign, type WirePoint } from '../../src/editor/engine/document.ts';
import { mm } from '../../src/editor/engine/units.ts';
import type { Xyz } from '../../src/editor/engine/pose.ts';
import {
  cornerDeleted,
  cornerInserted,
  cornerMoved,
  placedWire,
  withoutWire,
  withWire,
  withWireAdded,
} from '../../src/editor/features/wires/edits.ts';

/** A point (model frame) as the document stores it. */
const xyz = (x: number, y: number, z: number): Xyz => [x, y, z];

const at = (x: number): WirePoint => ({ point: xyz(x, 0, 0) });

function wire(n: number, extra: Partial<WireDesign> = {}): WireDesign {
  return {
    id: 'w1',
    type: 'labialBow',
    jaw: 'upper',
    diameter: mm(0.8),
    clearance: mm(0.1),
    points: Array.from({ length: n }, (_, i) => at(i)),
    anchors: [],
    ...extra,
  };
}

describe('wire document edits', () => {
  it('adds, replaces and removes a wire without touching the rest of the document', () => {
    const doc = withWireAdded(emptyDocument(), wire(3));
    expect(doc.wires?.map((w) => w.id)).toEqual(['w1']);
    expect(doc.measurements).toEqual([]);
    const moved = cornerMoved(doc.wires![0]!, 1, at(9))!;
    const next = withWire(doc, moved);
    expect(next.wires![0]!.points[1]!.point[0]).toBe(9);
    expect(doc.wires![0]!.points[1]!.point[0]).toBe(1); // the old document is unchanged
    expect(withoutWire(next, 'w1')?.wires).toEqual([]);
    expect(withoutWire(next, 'nope')).toBeNull();
  });

  it('moves a corner only when the wire has it', () => {
    expect(cornerMoved(wire(2), 5, at(1))).toBeNull();
  });

  it('shifts the tags past an inserted corner', () => {
    const w = wire(4, { tag: [2, 3], tags: [[0, 1], [2, 3]] });
    const next = cornerInserted(w, 2, at(1.5));
    expect(next.points.map((p) => p.point[0])).toEqual([0, 1, 1.5, 2, 3]);
    expect(next.tag).toEqual([3, 4]);
    expect(next.tags).toEqual([[0, 1], [3, 4]]);
    // A wire without tags stays without them.
    const untagged = cornerInserted(wire(3), 1, at(0.5));
    expect(untagged.tag).toBeUndefined();
    expect(untagged.tags).toBeUndefined();
  });

  it('deletes a corner, dropping a tag it empties, and keeps at least two corners', () => {
    const w = wire(4, { tag: [3, 3], tags: [[0, 1], [3, 3]] });
    const next = cornerDeleted(w, 3);
    expect(next).not.toBe('MIN_CORNERS');
    const shaped = next as WireDesign;
    expect(shaped.points).toHaveLength(3);
    expect(shaped.tag).toBeUndefined();
    expect(shaped.tags).toEqual([[0, 1]]);
    expect(cornerDeleted(wire(2), 0)).toBe('MIN_CORNERS');
    expect(cornerDeleted(wire(3), 7)).toBeNull();
    // Deleting a corner before a tag shifts the tag down by one.
    expect((cornerDeleted(wire(4, { tag: [1, 2] }), 0) as WireDesign).tag).toEqual([0, 1]);
  });

  it('builds a placed wire from its template, with a second tag only for two', () => {
    const placed = placedWire('w2', 'lower', 'singleArmClasp', { diameter: 0.7, clearance: 0.2 }, [{ point: at(1).point, triangle: 4 }], {
      points: [at(0), at(1)],
      tag: [0, 0],
      tags: [[0, 0]],
    });
    expect(placed).toMatchObject({ id: 'w2', jaw: 'lower', type: 'singleArmClasp', diameter: 0.7, clearance: 0.2, tag: [0, 0] });
    expect(placed.tags).toBeUndefined();
    expect(placed.anchors).toEqual([{ point: at(1).point, triangle: 4 }]);
  });
});
