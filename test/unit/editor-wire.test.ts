// The wire tool headless: NullEngine + the real geometry worker in process, the generated jaws.
// A single-arm clasp is placed by a click on a lower molar, drawn as a tube of its radius,
// selected by a click on it, edited corner by corner (drag over the surface, insert, delete),
// each change one undoable command; auto-fit is for the clasp only; the live rules report a too
// short end straight; a reopened document draws the same wire.
import { describe, expect, it } from 'vitest';
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import { parseDocument, type WireDesign } from '../../src/editor/engine/document.ts';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import type { WireTool } from '../../src/editor/features/wires/tool.ts';
import { centreline } from '../../src/editor/features/wires/tube.ts';
import { headlessEditor, headlessEditorEach, openJaws, type Headless } from './editor-harness.ts';
import { toothOnArch } from '../fixtures/jaw.ts';

let h: Headless;
let editor: EditorEngine;
headlessEditorEach((made) => ((h = made), (editor = made.editor)));

/** Centre of tooth n (0..13, right second molar first) of the generated jaw (test/fixtures/jaw.ts) and its outward (buccal) direction. */
function tooth(n: number): { x: number; y: number; out: [number, number] } {
  const c = toothOnArch(n);
  return { x: c.x, y: c.y, out: [c.ty, -c.tx] };
}

/** The lower jaw alone, seen from the top (occlusal), projection rendered. */
async function openLower(e: EditorEngine): Promise<void> {
  await openJaws(e);
  e.setVisible('upper', false);
  e.setView('top');
  e.renderNow();
}

const press = (p: { x: number; y: number }) => editor.pointer('down', { x: p.x, y: p.y, button: 0 });
const release = (p: { x: number; y: number }) => editor.pointer('up', { x: p.x, y: p.y, button: 0 });
async function click(p: { x: number; y: number }): Promise<void> {
  await press(p);
  await release(p);
}
const at = (p: readonly number[]) => editor.projectModelPoint('lower', [p[0]!, p[1]!, p[2]!])!;
const wires = (): WireDesign[] => editor.getState().document.wires ?? [];
const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/** Distance of each point from the lower jaw's surface (the worker). */
async function surfaceDistance(points: readonly (readonly number[])[]): Promise<number[]> {
  const handle = editor.handleOf('lower')!;
  const r = await h.geometry.closestPoints(handle, Float32Array.from(points.flatMap((p) => [p[0]!, p[1]!, p[2]!])));
  return Array.from(r.distance);
}

/** Places a single-arm clasp by a click on the lower right first molar; returns it. */
async function placeClasp(): Promise<WireDesign> {
  expect(editor.actions.run('tool.wire')).toBe(true);
  expect(editor.getState().toolHint).toMatch(/^wire\.place\.singleArmClasp\./);
  // The buccal side of the molar's crown, seen from the top.
  const t = tooth(1);
  await click(at([t.x + 3.5 * t.out[0], t.y + 3.5 * t.out[1], -1]));
  await editor.wires.settled();
  expect(wires()).toHaveLength(1);
  return wires()[0]!;
}

describe('wire tool (headless)', () => {
  it('places a single-arm clasp by a click: one command, selected, drawn as a tube of its radius, kept off the teeth', async () => {
    await openLower(editor);
    const wire = await placeClasp();
    expect(wire).toMatchObject({ type: 'singleArmClasp', jaw: 'lower', diameter: 0.8, clearance: 0.1 });
    expect(wire.points.length).toBeGreaterThanOrEqual(3);
    expect(editor.wires.selectedId).toBe(wire.id);
    expect(editor.getState().wires.selectedId).toBe(wire.id);
    expect(editor.wires.selected()).toEqual(wire);
    expect(editor.wires.cornersInModelFrame(wire.id)).toEqual(wire.points.map((p) => [...p.point]));

    // The tube: every vertex at the wire's radius from the rounded centreline (the caps' centres on it).
    const tube = editor.wires.tubeOf(wire.id)!;
    expect(tube).not.toBeNull();
    expect(tube.parent?.name).toBe('lower');
    const path = centreline(wire.points.map((p) => p.point));
    const positions = tube.getVerticesData(VertexBuffer.PositionKind)!;
    let onRadius = 0;
    for (let i = 0; i < positions.length; i += 3) {
      const v = [positions[i]!, positions[i + 1]!, positions[i + 2]!];
      let d = Infinity;
      for (let k = 0; k + 1 < path.length; k++) d = Math.min(d, segmentDistance(v, path[k]!, path[k + 1]!));
      if (Math.abs(d - 0.4) < 0.01) onRadius++;
      else expect(d).toBeLessThan(1e-3);
    }
    expect(onRadius).toBeGreaterThan(positions.length / 3 - 4);
    // The selected wire shows its corner handles.
    expect(editor.wires.handlesOf(wire.id)).toHaveLength(wire.points.length);

    // Corners on the surface are its radius plus the clearance off it.
    const onSurface = wire.points.filter((p) => p.surface);
    expect(onSurface.length).toBeGreaterThan(0);
    for (const d of await surfaceDistance(onSurface.map((p) => p.point))) expect(d).toBeCloseTo(0.5, 1);

    editor.undo();
    expect(wires()).toHaveLength(0);
    expect(editor.wires.tubeOf(wire.id)).toBeNull();
    expect(editor.wires.selectedId).toBeNull();
    editor.redo();
    expect(wires()).toEqual([wire]);
    expect(editor.wires.tubeOf(wire.id)).not.toBeNull();
  });

  it('places a labial bow by two clicks on the canines; the hint asks for the second; Esc forgets the first', async () => {
    await openLower(editor);
    editor.actions.run('tool.wire');
    editor.wires.setType('labialBow');
    expect(editor.getState().toolHint).toBe('wire.place.labialBow.0.2');
    const canine = (n: number) => {
      const t = tooth(n);
      return at([t.x + 2.5 * t.out[0], t.y + 2.5 * t.out[1], -1]);
    };
    await click(canine(4));
    expect(editor.getState().toolHint).toBe('wire.place.labialBow.1.2');
    expect(editor.getState().toolPhase).toBe('pointing');
    expect(wires()).toHaveLength(0);
    const tool = editor.activeTool as WireTool;
    expect(tool.key('Escape')).toBe(true);
    expect(editor.getState().toolHint).toBe('wire.place.labialBow.0.2');
    await click(canine(4));
    // While the template is fitted in the worker the status bar says so.
    let busy = false;
    const off = editor.subscribe(() => {
      if (editor.getState().toolHint === 'wire.busy') busy = true;
    });
    await click(canine(9));
    off();
    expect(busy).toBe(true);
    expect(wires()).toHaveLength(1);
    const bow = wires()[0]!;
    expect(bow.type).toBe('labialBow');
    expect(bow.anchors).toHaveLength(2);
    expect(editor.wires.selectedId).toBe(bow.id);
    expect(editor.getState().toolHint).toBe('wire.edit');
    expect(editor.wires.canAutoFit()).toBe(false);
    await editor.wires.settled();
    expect(editor.wires.check(bow.id)?.program).not.toBeNull();
    // Both tags (one at each end) are kept, and follow an inserted corner.
    expect(bow.tags).toHaveLength(2);
    expect(bow.tag).toEqual(bow.tags![0]);
    expect(await editor.wires.insertCorner(bow.id, 0)).toBe(true);
    const shift = ([a, b]: [number, number]): [number, number] => [a >= 1 ? a + 1 : a, b >= 1 ? b + 1 : b];
    expect(wires()[0]!.tags).toEqual(bow.tags!.map(shift));
    expect(wires()[0]!.tag).toEqual(shift(bow.tag!));
  });

  it('places a clasp on the upper jaw too (seen from below): in the upper jaw\'s frame, drawn on it', async () => {
    await openJaws(editor);
    editor.setVisible('lower', false);
    editor.setView('bottom');
    editor.renderNow();
    editor.actions.run('tool.wire');
    // The upper jaw is the lower one turned about y: its right first molar is at x +24.3.
    const t = tooth(1);
    const p = editor.projectModelPoint('upper', [-(t.x + 3.5 * t.out[0]), t.y + 3.5 * t.out[1], 1.5])!;
    await click(p);
    expect(wires()).toHaveLength(1);
    const wire = wires()[0]!;
    expect(wire.jaw).toBe('upper');
    expect(editor.wires.tubeOf(wire.id)!.parent?.name).toBe('upper');
    const handle = editor.handleOf('upper')!;
    const on = wire.points.filter((q) => q.surface).map((q) => q.point);
    const r = await h.geometry.closestPoints(handle, Float32Array.from(on.flatMap((q) => [q[0], q[1], q[2]])));
    for (const d of r.distance) expect(d).toBeCloseTo(0.5, 1);
  });

  it('selects a wire by a click on it, and lets it go by a click beside it', async () => {
    await openLower(editor);
    const wire = await placeClasp();
    const tool = editor.activeTool as WireTool;
    expect(tool.key('Escape')).toBe(true);
    expect(editor.wires.selectedId).toBeNull();
    // No corner handles (rule marks only).
    expect(editor.wires.handlesOf(wire.id).filter((m) => !(m.metadata as { mark: string | null }).mark)).toHaveLength(0);
    const a = wire.points[1]!.point, b = wire.points[2]!.point;
    const mid = at([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2]);
    // Hovering shows it lighter.
    await editor.pointer('move', { x: mid.x, y: mid.y, button: 0, buttons: 0 });
    expect(editor.wires.tubeOf(wire.id)!.material?.name).toBe('wire-hover-material');
    await editor.pointer('move', { x: mid.x + 200, y: mid.y, button: 0, buttons: 0 });
    expect(editor.wires.tubeOf(wire.id)!.material?.name).toBe('wire-material');
    await click(mid);
    expect(editor.wires.selectedId).toBe(wire.id);
    expect(editor.wires.tubeOf(wire.id)!.material?.name).toBe('wire-selected-material');
    await click(at([0, 0, -14]));
    expect(editor.wires.selectedId).toBeNull();
    expect(wires()).toHaveLength(1); // the click beside let it go, it placed nothing
  });

  it('drags a surface corner over the tooth: kept off the surface, one command; Esc cancels a drag', async () => {
    await openLower(editor);
    const wire = await placeClasp();
    const index = wire.points.findIndex((p) => p.surface);
    const corner = wire.points[index]!;
    const { x, y } = tooth(1);
    const target = at([x + (corner.point[0] - x) * 0.6, y + (corner.point[1] - y) * 0.6, -1]);
    const from = at(corner.point);
    const tool = editor.activeTool as WireTool;

    // Esc during a drag: nothing changes.
    await press(from);
    await editor.pointer('move', { x: target.x, y: target.y, button: 0, buttons: 1 });
    await tool.settled();
    expect(editor.getState().toolPhase).toBe('dragging');
    expect(editor.wires.cornersInModelFrame(wire.id)[index]).not.toEqual([...corner.point]);
    expect(tool.key('Escape')).toBe(true);
    await release(target);
    expect(wires()[0]).toEqual(wire);
    expect(editor.wires.cornersInModelFrame(wire.id)[index]).toEqual([...corner.point]);

    const before = editor.commands.canUndo;
    await press(from);
    await editor.pointer('move', { x: target.x, y: target.y, button: 0, buttons: 1 });
    await release(target);
    const moved = wires()[0]!;
    expect(before).toBe(true);
    expect(dist(moved.points[index]!.point, corner.point)).toBeGreaterThan(0.3);
    expect(moved.points.filter((_, i) => i !== index)).toEqual(wire.points.filter((_, i) => i !== index));
    const [d] = await surfaceDistance([moved.points[index]!.point]);
    expect(d).toBeCloseTo(0.5, 1);
    expect(moved.points[index]!.surface).toBeDefined();
    editor.undo();
    expect(wires()[0]).toEqual(wire);
    editor.redo();
    expect(wires()[0]).toEqual(moved);
  });

  it('drags a tag corner in the view plane (it has no surface to follow)', async () => {
    await openLower(editor);
    const wire = await placeClasp();
    expect(wire.tag).toBeDefined();
    const index = wire.tag![0];
    const corner = wire.points[index]!;
    expect(corner.surface).toBeUndefined();
    const from = at(corner.point);
    await press(from);
    await editor.pointer('move', { x: from.x + 40, y: from.y, button: 0, buttons: 1 });
    await release({ x: from.x + 40, y: from.y });
    const moved = wires()[0]!.points[index]!;
    expect(moved.surface).toBeUndefined();
    // Seen from the top: it moved sideways on the screen, at the same depth (z).
    expect(moved.point[0] - corner.point[0]).toBeGreaterThan(1);
    expect(Math.abs(moved.point[1] - corner.point[1])).toBeLessThan(0.2);
    expect(moved.point[2]).toBeCloseTo(corner.point[2], 1);
    // A second drag follows the pointer too (the first one's follow has no await to end on).
    const again = at(moved.point);
    await press(again);
    await editor.pointer('move', { x: again.x, y: again.y + 40, button: 0, buttons: 1 });
    await editor.pointer('move', { x: again.x, y: again.y + 60, button: 0, buttons: 1 });
    await release({ x: again.x, y: again.y + 60 });
    const second = wires()[0]!.points[index]!;
    expect(Math.hypot(second.point[0] - moved.point[0], second.point[1] - moved.point[1])).toBeGreaterThan(1);
    editor.undo();
    editor.undo();
    expect(wires()[0]).toEqual(wire);
  });

  it('changes the selected wire\'s diameter and clearance (its corners move to the new distance) and deletes the wire, each undoable', async () => {
    await openLower(editor);
    const wire = await placeClasp();
    await editor.wires.setDiameter(1);
    const thick = wires()[0]!;
    expect(thick.diameter).toBe(1);
    for (const d of await surfaceDistance(thick.points.filter((q) => q.surface).map((q) => q.point))) expect(d).toBeCloseTo(0.6, 1);
    expect((editor.wires.tubeOf(wire.id)!.metadata as { radius: number }).radius).toBe(0.5);
    editor.undo();
    expect(wires()[0]).toEqual(wire);
    await editor.wires.setClearance(0.3);
    expect(wires()[0]!.clearance).toBe(0.3);
    for (const d of await surfaceDistance(wires()[0]!.points.filter((q) => q.surface).map((q) => q.point))) expect(d).toBeCloseTo(0.7, 1);
    editor.undo();
    expect(wires()[0]).toEqual(wire);

    editor.wires.remove(wire.id);
    expect(wires()).toHaveLength(0);
    expect(editor.wires.tubeOf(wire.id)).toBeNull();
    expect(editor.wires.selectedId).toBeNull();
    editor.undo();
    expect(wires()).toEqual([wire]);
  });

  it('inserts a corner by a double click on a segment and deletes the selected corner, never below two', async () => {
    await openLower(editor);
    const wire = await placeClasp();
    const n = wire.points.length;
    const a = wire.points[n - 2]!.point, b = wire.points[n - 1]!.point;
    const mid = at([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2]);
    await click(mid);
    await click(mid);
    expect(wires()[0]!.points).toHaveLength(n + 1);
    expect(editor.wires.getState().corner).toBe(n - 1);
    editor.undo();
    expect(wires()[0]).toEqual(wire);
    editor.redo();
    expect(wires()[0]!.points).toHaveLength(n + 1);

    // Select a corner by a click on its handle, Delete removes it.
    const tool = editor.activeTool as WireTool;
    const last = wires()[0]!.points[n]!.point;
    await click(at(last));
    expect(editor.wires.getState().corner).toBe(n);
    expect(tool.key('Delete')).toBe(true);
    expect(wires()[0]!.points).toHaveLength(n);
    editor.undo();
    expect(wires()[0]!.points).toHaveLength(n + 1);

    // Never below two corners.
    for (let k = wires()[0]!.points.length; k > 2; k--) expect(editor.wires.deleteCorner(wire.id, 0)).toBe(true);
    expect(editor.wires.deleteCorner(wire.id, 0)).toBe(false);
    expect(wires()[0]!.points).toHaveLength(2);
    expect(editor.wires.getState().problem).toBe('MIN_CORNERS');
  });

  it('auto-fits the single-arm clasp (one command) and refuses other types', async () => {
    await openLower(editor);
    const wire = await placeClasp();
    expect(editor.wires.canAutoFit()).toBe(true);
    // An arm corner pushed 1.5 mm away from the tooth; auto-fit puts the arm back on it.
    const k = wire.points.findIndex((p, i) => p.surface && i > 0 && i < wire.points.length - 1);
    const p = wire.points[k]!;
    const away = p.point.map((v, a) => v + ((v - p.surface!.point[a]!) / 0.5) * 1.5);
    editor.wires.moveCorner(wire.id, k, { point: away as unknown as typeof p.point, surface: p.surface! });
    const moved = wires()[0]!;
    expect((await surfaceDistance([moved.points[k]!.point]))[0]).toBeGreaterThan(1.5);
    expect(await editor.wires.autoFit(wire.id)).toBe(true);
    const fitted = wires()[0]!;
    expect(fitted.type).toBe('singleArmClasp');
    expect(fitted.tag).toBeDefined();
    for (const d of await surfaceDistance(fitted.points.filter((q) => q.surface).map((q) => q.point))) expect(d).toBeCloseTo(0.5, 1);
    editor.undo();
    expect(wires()[0]).toEqual(moved);
    editor.redo();
    expect(wires()[0]).toEqual(fitted);

    const bow: WireDesign = { ...wire, id: 'bow', type: 'labialBow' };
    editor.changeDocument('test', { ...editor.getState().document, wires: [...wires(), bow] });
    editor.wires.select('bow');
    expect(editor.wires.canAutoFit()).toBe(false);
    const doc = editor.getState().document;
    expect(await editor.wires.autoFit('bow')).toBe(false);
    expect(editor.wires.getState().problem).toBe('AUTOFIT_ONLY_CLASP');
    expect(editor.getState().document).toBe(doc);
  });

  it('reports a too short end straight with the rule message and marks its corners', async () => {
    await openLower(editor);
    const wire = await placeClasp();
    await editor.wires.settled();
    const n = wire.points.length;
    const a = wire.points[n - 2]!.point, b = wire.points[n - 1]!.point;
    const l = dist(a, b);
    // The last corner moved to 2 mm from the one before it, along the same line.
    const p = [a[0] + ((b[0] - a[0]) * 2) / l, a[1] + ((b[1] - a[1]) * 2) / l, a[2] + ((b[2] - a[2]) * 2) / l];
    expect(editor.wires.checkIsCurrent(wire.id)).toBe(true);
    editor.wires.moveCorner(wire.id, n - 1, { point: p as unknown as WireDesign['points'][number]['point'] });
    // Until the new check lands, the last result is of the old shape: the panel says "Checking…".
    expect(editor.wires.checkIsCurrent(wire.id)).toBe(false);
    await editor.wires.settled();
    expect(editor.wires.checkIsCurrent(wire.id)).toBe(true);
    const result = editor.wires.check(wire.id)!;
    const issue = result.issues.find((i) => i.code === 'END_LENGTH')!;
    expect(issue).toMatchObject({ severity: 'error', messageKey: 'valid number from 5 to 100' });
    expect(result.ok).toBe(false);
    const marked = editor.wires.handlesOf(wire.id).filter((m) => (m.metadata as { mark: string | null }).mark === 'error');
    expect(marked.map((m) => (m.metadata as { corner: number }).corner)).toContain(n - 1);
    editor.undo();
    await editor.wires.settled();
    expect(editor.wires.check(wire.id)!.issues.some((i) => i.code === 'END_LENGTH')).toBe(false);
  });

  it('checks the wire again after an undo, so its status is of the shape shown', async () => {
    await openLower(editor);
    const wire = await placeClasp();
    await editor.wires.settled();
    const placedLength = editor.wires.check(wire.id)!.program!.length;
    const p = wire.points[0]!;
    editor.wires.previewCorner(wire.id, 0, { ...p, point: [p.point[0] + 1.5, p.point[1] - 1, p.point[2]] as unknown as typeof p.point });
    expect(editor.wires.commitPreview()).toBe(true);
    await editor.wires.settled();
    expect(editor.wires.check(wire.id)!.program!.length).not.toBeCloseTo(placedLength, 3);
    editor.undo();
    await editor.wires.settled();
    expect(editor.wires.checkIsCurrent(wire.id)).toBe(true);
    expect(editor.wires.check(wire.id)!.program!.length).toBeCloseTo(placedLength, 6);
  });

  it('reopens a saved document with its wires', async () => {
    await openLower(editor);
    const wire = await placeClasp();
    const saved = JSON.parse(JSON.stringify(editor.getState().document));
    h.dispose();
    h = await headlessEditor();
    editor = h.editor;
    editor.loadDocument(parseDocument(saved));
    await openLower(editor);
    expect(wires()).toEqual([wire]);
    expect(editor.wires.tubeOf(wire.id)).not.toBeNull();
    await editor.wires.settled();
    expect(editor.wires.check(wire.id)?.program?.length).toBeGreaterThan(5);
  });
});

function segmentDistance(p: readonly number[], a: readonly number[], b: readonly number[]): number {
  const ab = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
  const ap = [p[0]! - a[0]!, p[1]! - a[1]!, p[2]! - a[2]!];
  const l2 = ab[0]! ** 2 + ab[1]! ** 2 + ab[2]! ** 2;
  const t = l2 > 0 ? Math.max(0, Math.min(1, (ap[0]! * ab[0]! + ap[1]! * ab[1]! + ap[2]! * ab[2]!) / l2)) : 0;
  return Math.hypot(ap[0]! - t * ab[0]!, ap[1]! - t * ab[1]!, ap[2]! - t * ab[2]!);
}
