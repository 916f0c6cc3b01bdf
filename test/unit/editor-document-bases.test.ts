// The document's bases and insertion directions, one per jaw: parsing the format (and the first
// format's single `base` and `insertionDirection`, filed under their jaw), the helpers that
// replace one jaw's without touching the other's, and the base rules and frames per jaw.
import { describe, expect, it } from 'vitest';
import { emptyDocument, parseDocument, withBase, withInsertionDirection, type BaseDesign, type DesignDocument } from '../../src/editor/engine/document.ts';
import { checkBaseRules, insertionInModelFrame } from '../../src/editor/features/base/rules.ts';

const pick = (x: number) => ({ point: [x, 0, 0] as never, triangle: 1 });
const base = (jaw: 'upper' | 'lower', n = 4): BaseDesign => ({ jaw, outline: Array.from({ length: n }, (_, i) => pick(i)), closed: true, thickness: 2 as never, height: 2 as never, generated: true });
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

describe('document bases and insertion directions per jaw', () => {
  it('reads both jaws of the format and writes them back as they are', () => {
    const doc: DesignDocument = { ...emptyDocument(), bases: { upper: base('upper'), lower: base('lower', 5) }, insertionDirections: { upper: [0, 0.1, -1], lower: [0, 0, 1] } };
    const again = parseDocument(JSON.parse(JSON.stringify(doc)));
    expect(again.bases).toEqual(doc.bases);
    expect(again.insertionDirections).toEqual(doc.insertionDirections);
    expect(again).not.toHaveProperty('base');
    expect(again).not.toHaveProperty('insertionDirection');
  });

  it('files a base under the jaw it is stored at (a missing jaw field is that jaw; a contradicting one is dropped)', () => {
    const { jaw: _jaw, ...noJaw } = base('lower');
    const doc = parseDocument({ schemaVersion: 1, measurements: [], bases: { lower: noJaw, upper: { ...base('upper'), jaw: 'lower' } } });
    expect(doc.bases).toEqual({ lower: base('lower') });
    expect(parseDocument({ schemaVersion: 1, measurements: [], bases: { upper: { jaw: 'upper' } } })).not.toHaveProperty('bases');
  });

  it('reads a document of the first format: its base under its jaw, its direction under the jaw it points to', () => {
    const lower = parseDocument({ schemaVersion: 1, measurements: [], base: base('lower'), insertionDirection: [0.1, 0, 0.99] });
    expect(lower.bases).toEqual({ lower: base('lower') });
    expect(lower.insertionDirections).toEqual({ lower: [0.1, 0, 0.99] });
    expect(lower).not.toHaveProperty('base');
    expect(lower).not.toHaveProperty('insertionDirection');

    const upper = parseDocument({ schemaVersion: 1, measurements: [], base: base('upper'), insertionDirection: [0, 0.2, -0.98] });
    expect(upper.bases).toEqual({ upper: base('upper') });
    expect(upper.insertionDirections).toEqual({ upper: [0, 0.2, -0.98] });
    // Sideways (dot with +z is 0): the lower jaw's.
    expect(parseDocument({ schemaVersion: 1, measurements: [], insertionDirection: [1, 0, 0] }).insertionDirections).toEqual({ lower: [1, 0, 0] });
    // The new fields win over the old ones for the same jaw.
    const both = parseDocument({ schemaVersion: 1, measurements: [], base: base('lower', 6), bases: { lower: base('lower') }, insertionDirection: [0, 0, 1], insertionDirections: { lower: [0, 0.1, 1] } });
    expect(both.bases!.lower!.outline).toHaveLength(4);
    expect(both.insertionDirections).toEqual({ lower: [0, 0.1, 1] });
  });

  it('replaces one jaw and keeps the other; the last one removed drops the field', () => {
    const one = withBase(emptyDocument(), 'upper', base('upper'));
    const two = withBase(one, 'lower', base('lower'));
    expect(two.bases).toEqual({ upper: base('upper'), lower: base('lower') });
    expect(withBase(two, 'upper', undefined).bases).toEqual({ lower: base('lower') });
    expect(withBase(withBase(two, 'upper', undefined), 'lower', undefined)).not.toHaveProperty('bases');
    const d = withInsertionDirection(withInsertionDirection(emptyDocument(), 'upper', [0, 0, -1]), 'lower', [0, 0.1, 1]);
    expect(d.insertionDirections).toEqual({ upper: [0, 0, -1], lower: [0, 0.1, 1] });
    expect(withInsertionDirection(withInsertionDirection(d, 'lower', undefined), 'upper', undefined)).not.toHaveProperty('insertionDirections');
  });

  it('the base rules and the insertion direction are the jaw’s own', () => {
    const ready = { status: 'ready' as const };
    let doc: DesignDocument = { ...emptyDocument(), straightening: { matrix: IDENTITY, jaw: 'lower' }, bases: { lower: base('lower'), upper: base('upper', 2) } };
    expect(checkBaseRules(doc, 'lower', ready)).toBeNull();
    expect(checkBaseRules(doc, 'upper', ready)?.code).toBe('TOO_FEW_POINTS');
    // A wire on the upper jaw refuses the upper base only.
    doc = { ...doc, wires: [{ id: 'w', type: 'singleArmClasp', jaw: 'upper', diameter: 0.8 as never, clearance: 0 as never, points: [], anchors: [] }] };
    expect(checkBaseRules(doc, 'upper', ready)?.code).toBe('WIRE_EXISTS');
    expect(checkBaseRules(doc, 'lower', ready)).toBeNull();

    expect(insertionInModelFrame(doc, 'upper')).toEqual([0, 0, -1]);
    expect(insertionInModelFrame(doc, 'lower')).toEqual([0, 0, 1]);
    doc = withInsertionDirection(doc, 'lower', [0, 0.6, 0.8]);
    expect(insertionInModelFrame(doc, 'upper')).toEqual([0, 0, -1]);
    insertionInModelFrame(doc, 'lower').forEach((v, i) => expect(v).toBeCloseTo([0, 0.6, 0.8][i]!, 9));
    // With a bite the jaw's model is turned into the bite's frame first: here the lower one by
    // 90° about x (model y → bite z), so the occlusal axis is the model's +y.
    const quarter = [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1];
    doc = withInsertionDirection({ ...doc, bite: { upper: IDENTITY, lower: quarter, source: 'auto' } }, 'lower', undefined);
    insertionInModelFrame(doc, 'lower').forEach((v, i) => expect(v).toBeCloseTo([0, 1, 0][i]!, 9));
    expect(insertionInModelFrame(doc, 'upper')).toEqual([0, 0, -1]);
  });
});
