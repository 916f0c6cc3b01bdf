// Wires placed on named teeth (common/wires/tooth-anchors.ts) on the generated
// jaws (test/fixtures/jaw.ts), headless with the real worker: the anchors are the clicks a
// designer would make (the buccal face of the named tooth, the embrasure between two), the
// template placed from them wraps the named tooth, and a tooth that was not detected is named
// in the error; through the editor, the wire tool finds the teeth by the segmentation and places
// one command per wire.
import { describe, expect, it } from 'vitest';
import { anchorsOnTeeth, ToothAnchorError, type AnchorTooth } from '../../common/wires/tooth-anchors.ts';
import { surfaceQuery } from '../../common/wires/surface.ts';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import { headlessEditorEach, openJaws, type Headless } from './editor-harness.ts';
import { toothOnArch } from '../fixtures/jaw.ts';
import { teethJaw } from '../fixtures/teeth-jaws.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';

let h: Headless;
let editor: EditorEngine;
headlessEditorEach((made) => ((h = made), (editor = made.editor)));

/** Universal number of the generated lower jaw's tooth i (0: right second molar .. 13: left second molar). */
const universal = (i: number): number => (i < 7 ? 31 - i : 17 + (i - 6));
const index = (n: number): number => (n >= 25 ? 31 - n : n - 17 + 6);
/** The generated teeth as detected teeth (tips touch z = 0, crowns ~5.5 mm tall). */
const detected = (skip: number[] = []): AnchorTooth[] =>
  Array.from({ length: 14 }, (_, i) => {
    const c = toothOnArch(i);
    return { number: universal(i), centroid: [c.x, c.y, -2.5], tip: [c.x, c.y, 0] };
  }).filter((t) => !skip.includes(t.number));
const FRAME = { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], jaw: 'lower' as const };

/** Distance in the occlusal plane from tooth n's centre, and how far out (buccal) along its arch normal. */
function relative(n: number, p: readonly number[]): { reach: number; out: number } {
  const c = toothOnArch(index(n));
  const dx = p[0]! - c.x, dy = p[1]! - c.y;
  return { reach: Math.hypot(dx, dy), out: dx * c.ty - dy * c.tx };
}

describe('wires on named teeth (headless)', () => {
  it('a single-arm clasp on the lower right first molar: the anchor on its buccal face, the clasp round that tooth', async () => {
    await openJaws(editor);
    const surface = surfaceQuery(h.geometry, editor.handleOf('lower')!);
    const [pick] = await anchorsOnTeeth('singleArmClasp', [30], detected(), FRAME, surface);
    const at = relative(30, pick!.point);
    expect(at.out).toBeGreaterThan(3); // on the buccal side, at its bulge
    expect(at.reach).toBeLessThan(6.5);
    expect(pick!.point[2]).toBeGreaterThan(-5);
    expect(pick!.point[2]).toBeLessThan(-0.5);

    const id = await editor.wires.place('lower', 'singleArmClasp', [pick!]);
    expect(id).not.toBeNull();
    const wire = editor.getState().document.wires!.find((w) => w.id === id)!;
    const onTooth = wire.points.filter((p) => p.surface).map((p) => relative(30, p.point).reach);
    expect(onTooth.length).toBeGreaterThan(0);
    for (const r of onTooth) expect(r).toBeLessThan(8);
  });

  it('labial bow on both canines, arrow clasp between two premolars: anchors on those teeth, wires placed', async () => {
    await openJaws(editor);
    const surface = surfaceQuery(h.geometry, editor.handleOf('lower')!);
    const bow = await anchorsOnTeeth('labialBow', [27, 22], detected(), FRAME, surface);
    expect(bow.map((p, i) => relative([27, 22][i]!, p.point).out).every((o) => o > 2)).toBe(true);
    expect(await editor.wires.place('lower', 'labialBow', bow)).not.toBeNull();

    const [arrow] = await anchorsOnTeeth('arrowClasp', [29, 28], detected(), FRAME, surface);
    const a = toothOnArch(index(29)), b = toothOnArch(index(28));
    const contact = [(a.x + b.x) / 2, (a.y + b.y) / 2];
    expect(Math.hypot(arrow!.point[0] - contact[0]!, arrow!.point[1] - contact[1]!)).toBeLessThan(5.5);
  });

  it('a tooth that was not detected, or two teeth that do not touch, are named in the error', async () => {
    await openJaws(editor);
    const surface = surfaceQuery(h.geometry, editor.handleOf('lower')!);
    const missing = await anchorsOnTeeth('singleArmClasp', [30], detected([30]), FRAME, surface).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ToothAnchorError);
    expect(missing).toMatchObject({ tooth: 30, reason: 'NOT_DETECTED' });
    const apart = await anchorsOnTeeth('arrowClasp', [30, 19], detected(), FRAME, surface).catch((e: unknown) => e);
    expect(apart).toMatchObject({ tooth: 19, reason: 'NOT_NEIGHBOURS' });
    await expect(anchorsOnTeeth('labialBow', [27], detected(), FRAME, surface)).rejects.toMatchObject({ code: 'TEMPLATE_CLICKS' });
  });

  it('through the editor: the teeth segmented, a clasp on the 46 and a wraparound bow round the last molars, each one undoable command; a missing tooth named', async () => {
    const g = teethJaw({ jaw: 'lower', seed: 3, missing: [19] });
    const bytes = binaryStl(soupOf(g)).buffer as ArrayBuffer;
    await editor.openModels([{ role: 'lower', name: 'lower.stl', source: async (_s, onProgress) => (onProgress(1), bytes.slice(0)) }]);
    const centre = (n: number): [number, number] => g.teeth.find((t) => t.number === n)!.center;
    const near = (n: number, p: readonly number[]): number => Math.hypot(p[0]! - centre(n)[0], p[1]! - centre(n)[1]);

    const clasp = await editor.wires.placeOnTeeth('singleArmClasp', { tooth: 30 });
    expect(clasp).not.toBeNull();
    const wire = editor.getState().document.wires!.find((w) => w.id === clasp)!;
    const onTooth = wire.points.filter((p) => p.surface);
    expect(onTooth.length).toBeGreaterThan(0);
    // the corners resting on teeth: round the 46 (the arm ends over its contact with the 45)
    const mid = [0, 1].map((a) => onTooth.reduce((s, p) => s + p.point[a]!, 0) / onTooth.length);
    expect(near(30, mid)).toBeLessThan(Math.min(near(29, mid), near(31, mid)));
    for (const p of onTooth) expect(near(30, p.point)).toBeLessThan(8);

    const bow = await editor.wires.placeOnTeeth('wraparoundBow', { jaw: 'lower' });
    expect(bow).not.toBeNull();
    expect(editor.getState().document.wires).toHaveLength(2);
    editor.undo();
    expect(editor.getState().document.wires).toHaveLength(1);

    expect(await editor.wires.placeOnTeeth('singleArmClasp', { tooth: 19 })).toBeNull();
    expect(editor.wires.getState()).toMatchObject({ problem: 'TOOTH_NOT_FOUND', problemTooth: 19 });
    expect(editor.getState().document.wires).toHaveLength(1);
  });

  it('a single-arm clasp laid across its distal contact: its tag on along the distal neighbour, the mesial one by default', async () => {
    await openJaws(editor);
    editor.wires.setTeethSource(async () => detected());
    const tagNear = (id: string): { mesial: number; distal: number } => {
      const w = editor.getState().document.wires!.find((x) => x.id === id)!;
      const [from, to] = w.tag!;
      const corners = w.points.slice(from, to + 1).map((p) => p.point);
      const mid = [0, 1].map((a) => corners.reduce((sum, p) => sum + p[a]!, 0) / corners.length);
      const d = (n: number): number => relative(n, [mid[0]!, mid[1]!]).reach;
      return { mesial: d(29), distal: d(31) };
    };
    const mesial = tagNear((await editor.wires.placeOnTeeth('singleArmClasp', { tooth: 30 }))!);
    expect(mesial.mesial).toBeLessThan(mesial.distal);
    const distal = tagNear((await editor.wires.placeOnTeeth('singleArmClasp', { tooth: 30 }, 'distal'))!);
    expect(distal.distal).toBeLessThan(distal.mesial);
    expect(editor.getState().document.wires).toHaveLength(2);
    editor.undo();
    expect(editor.getState().document.wires).toHaveLength(1);
    // The option of the next wire: named teeth and clicks alike.
    editor.wires.setCrossing('distal');
    const optioned = tagNear((await editor.wires.placeOnTeeth('singleArmClasp', { tooth: 30 }))!);
    expect(optioned.distal).toBeLessThan(optioned.mesial);
    editor.undo();
    const [click] = await anchorsOnTeeth('singleArmClasp', [30], detected(), FRAME, surfaceQuery(h.geometry, editor.handleOf('lower')!));
    const clicked = await editor.wires.addAnchor('lower', click!);
    const byClick = tagNear(clicked!);
    expect(byClick.distal).toBeLessThan(byClick.mesial);
    editor.wires.setCrossing('mesial');
  });

  it('an AI-generated wire is the designer\'s once accepted or edited, each one undoable command', async () => {
    await openJaws(editor);
    editor.wires.setTeethSource(async () => detected());
    const id = (await editor.wires.placeOnTeeth('singleArmClasp', { tooth: 30 }))!;
    const other = (await editor.wires.placeOnTeeth('singleArmClasp', { tooth: 19 }))!;
    const doc = editor.getState().document;
    editor.loadDocument({ ...doc, wires: doc.wires!.map((w) => ({ ...w, ai: { accepted: false } })) });
    expect(editor.wires.unaccepted().map((w) => w.id)).toEqual([id, other]);

    expect(editor.wires.accept(id)).toBe(true);
    expect(editor.wires.unaccepted().map((w) => w.id)).toEqual([other]);
    expect(editor.wires.accept(id)).toBe(false); // already the designer's
    editor.undo();
    expect(editor.wires.unaccepted().map((w) => w.id)).toEqual([id, other]);
    editor.redo();

    // an edit (a corner moved) accepts it too, and keeps the mark in the saved document
    const wire = editor.getState().document.wires!.find((w) => w.id === other)!;
    editor.wires.moveCorner(other, 0, { point: [wire.points[0]!.point[0] + 0.2, wire.points[0]!.point[1], wire.points[0]!.point[2]] });
    expect(editor.wires.unaccepted()).toEqual([]);
    expect(editor.getState().document.wires!.map((w) => w.ai)).toEqual([{ accepted: true }, { accepted: true }]);
  });
});
