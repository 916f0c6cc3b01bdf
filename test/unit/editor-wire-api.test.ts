// The shared pieces the wire tools build on: the wire and slot parts of the design document,
// and the geometry worker's bending calls (the real worker module, in process).
import { afterAll, describe, expect, it } from 'vitest';
import { checkInput } from '../../src/editor/device/bendFlow.ts';
import { parseDocument, type WireDesign } from '../../src/editor/engine/document.ts';
import type { UserDevice } from '../../src/editor/device/types.ts';
import { headlessEditor, type Headless } from './editor-harness.ts';

const pick = (x: number, y: number, z: number, triangle = 3) => ({ point: [x, y, z], triangle });

describe('wires in the design document', () => {
  it('keeps valid wires and slots and drops broken ones', () => {
    const wire = {
      id: 'w1',
      type: 'singleArmClasp',
      jaw: 'upper',
      diameter: 0.8,
      clearance: 0.1,
      points: [{ point: [0, 0, 0] }, { point: [1, 2, 3], surface: pick(1, 2, 2.5) }, { point: [4, 5, 6] }],
      anchors: [pick(1, 1, 1)],
      tag: [0, 1],
    };
    const doc = parseDocument({
      schemaVersion: 1,
      measurements: [],
      wires: [wire, { ...wire, id: 'w2', type: 'paperclip' }, { ...wire, id: 'w3', diameter: -1 }, { ...wire, id: 'w4', tag: [2, 9] }],
      slots: [{ wireId: 'w1', depth: 0, clearance: 0.1 }, { wireId: 'w1', depth: -2, clearance: 0 }],
    });
    expect(doc.wires?.map((w) => w.id)).toEqual(['w1', 'w4']);
    expect(doc.wires?.[0]).toEqual(wire);
    expect(doc.wires?.[1]?.tag).toBeUndefined();
    expect(doc.slots).toEqual([{ wireId: 'w1', depth: 0, clearance: 0.1 }]);
  });

  it('opens a document saved before wires existed', () => {
    const doc = parseDocument({ schemaVersion: 1, measurements: [] });
    expect(doc.wires).toBeUndefined();
    expect(doc.slots).toBeUndefined();
  });
});

describe('bending calls of the geometry worker', () => {
  let h: Headless;
  afterAll(() => h?.dispose());

  it('checks a U-bend against a device and replays its program', async () => {
    h = await headlessEditor();
    // docs/device-bridge.md "Worked example": straights 9, 4, 9 mm, two 90° bends, R = 1.
    const points = [[0, 0, 0], [10, 0, 0], [10, 6, 0], [0, 6, 0]] as const;
    const result = await h.geometry.bendCheck({
      points,
      wire: { type: 'singleArmClasp', diameter: 0.8 },
      program: { radius: 1 },
      device: { diameters: [0.7, 0.9], memory: 2 },
    });
    expect(result.program?.steps.map((s) => Math.round(s.feed * 1e4) / 1e4)).toEqual([10.5708, 5.5708, 9]);
    const codes = result.issues.map((i) => i.code);
    expect(codes).toContain('DIAMETER_MISMATCH');
    expect(codes).toContain('OVER_MEMORY');
    expect(result.ok).toBe(false);

    const states = await h.geometry.bendStates(result.program!.steps, { radius: 1 });
    expect(states).toHaveLength(3);
    const last = states[2]!.corners;
    // Four corners come back (tip, two bends, end), the U's legs 10 mm apart from its base 6 mm.
    expect(last.length / 3).toBe(4);
    const d = (i: number, j: number) => Math.hypot(last[i * 3]! - last[j * 3]!, last[i * 3 + 1]! - last[j * 3 + 1]!, last[i * 3 + 2]! - last[j * 3 + 2]!);
    expect(d(0, 1)).toBeCloseTo(10, 3);
    expect(d(1, 2)).toBeCloseTo(6, 3);
    expect(d(2, 3)).toBeCloseTo(10, 3);
  });

  it("computes a device's programs for its own die radius (1 mm when it names none)", async () => {
    const wire = {
      id: 'u',
      type: 'singleArmClasp',
      jaw: 'upper',
      diameter: 0.8,
      clearance: 0.1,
      points: [[0, 0, 0], [10, 0, 0], [10, 6, 0], [0, 6, 0]].map((p) => ({ point: p })),
      anchors: [],
    } as unknown as WireDesign;
    const device: UserDevice = { id: 1, devicename: 'B', online: true, state: 'idle', detail: null, diameterList: [0.8], memory: 100, pending: 0, dieRadius: 2 };
    const feeds = async (d: UserDevice) => (await h.geometry.bendCheck(checkInput(wire, d))).program!.steps.map((s) => Math.round(s.feed * 1e4) / 1e4);
    // R = 2: tangent lengths 2, straights 8, 2, 8, arcs of π mm.
    expect(await feeds(device)).toEqual([11.1416, 5.1416, 8]);
    const { dieRadius: _, ...older } = device;
    expect(await feeds(older)).toEqual([10.5708, 5.5708, 9]);
  });

  it('fails a wire the kernel cannot read with a code', async () => {
    await expect(h.geometry.bendCheck({ points: [[0, 0, 0]], wire: { type: 'labialBow', diameter: 0.8 }, program: { radius: 1 } })).resolves.toMatchObject({ ok: false });
  });
});
