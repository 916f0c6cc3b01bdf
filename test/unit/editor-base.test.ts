// The base tool headless: NullEngine + the real geometry worker in process. The outline is
// drawn by pointer clicks on the generated palate jaw, the spec's rules refuse with their
// codes, the base is generated through the worker and exported as STL that parses closed.
import { describe, expect, it } from 'vitest';
import type { DesignDocument } from '../../src/editor/engine/document.ts';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import type { BaseTool } from '../../src/editor/features/base/tool.ts';
import { headlessEditor, headlessEditorEach, openPalateJaw, openPalateJaws, type Headless } from './editor-harness.ts';

let h: Headless;
let editor: EditorEngine;
headlessEditorEach((made) => ((h = made), (editor = made.editor)));



const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const straightened = (doc: DesignDocument): DesignDocument => ({ ...doc, straightening: { matrix: IDENTITY, jaw: 'lower' } }) as DesignDocument;

/** Canvas pixels over a ring on the palate (centre 0, 5; radius 12 mm), seen from the top. */
function ring(e: EditorEngine, n = 12): { x: number; y: number }[] {
  return Array.from({ length: n }, (_, i) => {
    const a = 0.1 + (2 * Math.PI * i) / n;
    return e.projectModelPoint('lower', [12 * Math.cos(a), 5 + 12 * Math.sin(a), -10])!;
  });
}

const click = async (p: { x: number; y: number }) => {
  await editor.pointer('down', { x: p.x, y: p.y, button: 0 });
  await editor.pointer('up', { x: p.x, y: p.y, button: 0 });
};

async function drawRing(n = 12): Promise<void> {
  expect(editor.actions.run('tool.base')).toBe(true);
  for (const p of ring(editor, n)) {
    await click(p);
    // Clicks in quick succession at different places: never a double click.
  }
}

describe('base tool (headless)', () => {
  it('draws the outline by clicks on the surface; Backspace, undo and redo; Enter closes', async () => {
    await openPalateJaw(editor);
    await drawRing();
    const base = editor.getState().document.bases!.lower!;
    expect(base.jaw).toBe('lower');
    expect(base.outline).toHaveLength(12);
    // Snapped to the palate's surface (between -8 and -16), not to the clicked plane.
    for (const p of base.outline) expect(p.point[2]).toBeLessThan(-7.9);
    expect(editor.getState().toolPhase).toBe('pointing');

    editor.undo();
    expect(editor.getState().document.bases!.lower!.outline).toHaveLength(11);
    editor.redo();
    expect(editor.getState().document.bases!.lower!.outline).toEqual(base.outline);

    const tool = editor.activeTool as BaseTool;
    expect(tool.key('Backspace')).toBe(true);
    expect(editor.getState().document.bases!.lower!.outline).toHaveLength(11);
    editor.undo();
    expect(editor.getState().document.bases!.lower!.outline).toHaveLength(12);

    // Measuring is refused while the outline is being drawn.
    expect(editor.actions.run('tool.measure')).toBe(true);
    expect(editor.getState().tool).toBe('base');
    expect(editor.base.view.problem?.code).toBe('MEASURE_WHILE_ACCESSORY');

    expect(tool.key('Enter')).toBe(true);
    expect(editor.getState().document.bases!.lower!.closed).toBe(true);
    expect(editor.getState().toolPhase).toBe('idle');
    editor.actions.run('tool.measure');
    expect(editor.getState().tool).toBe('measure');
  });

  it('a double click closes the outline', async () => {
    await openPalateJaw(editor);
    await drawRing(5);
    const last = ring(editor, 5)[4]!;
    await click(last);
    const base = editor.getState().document.bases!.lower!;
    expect(base.outline).toHaveLength(5);
    expect(base.closed).toBe(true);
  });

  it('dragging a point moves it along the surface in one undoable step', async () => {
    await openPalateJaw(editor);
    await drawRing(6);
    const before = editor.getState().document.bases!.lower!.outline;
    const from = editor.projectModelPoint('lower', before[0]!.point)!;
    const to = editor.projectModelPoint('lower', [12, 5, -10])!;
    await editor.pointer('down', { x: from.x, y: from.y, button: 0 });
    await editor.pointer('move', { x: to.x, y: to.y, button: 0, buttons: 1 });
    await editor.pointer('up', { x: to.x, y: to.y, button: 0 });
    const after = editor.getState().document.bases!.lower!.outline;
    expect(after).toHaveLength(6);
    expect(after[0]!.point[0]).toBeCloseTo(12, 0);
    expect(after[0]!.point[1]).toBeCloseTo(5, 0);
    expect(after.slice(1)).toEqual(before.slice(1));
    editor.undo();
    expect(editor.getState().document.bases!.lower!.outline).toEqual(before);
  });

  it('refuses by the rules, each with its code', async () => {
    await openPalateJaw(editor);
    await drawRing(3);
    expect(await editor.base.generate()).toBe(false);
    expect(editor.base.view.problem?.code).toBe('NOT_STRAIGHTENED');
    editor.changeDocument('straighten', straightened(editor.getState().document));
    expect(await editor.base.generate()).toBe(false);
    expect(editor.base.view.problem?.code).toBe('TOO_FEW_POINTS');
    await click(ring(editor, 12)[6]!);
    editor.base.setSettings({ height: 0.2 as never });
    expect(await editor.base.generate()).toBe(false);
    expect(editor.base.view.problem?.code).toBe('HEIGHT_TOO_LOW');
    editor.base.setSettings({ height: 2 as never });
    const wire = { id: 'w1', type: 'singleArmClasp', jaw: 'lower', diameter: 0.8, clearance: 0.1, points: [{ point: [0, 0, 0] }, { point: [20, 0, 0] }], anchors: [] };
    editor.changeDocument('wire', { ...editor.getState().document, wires: [wire] } as unknown as DesignDocument);
    expect(await editor.base.generate()).toBe(false);
    expect(editor.base.view.problem?.code).toBe('WIRE_EXISTS');
    expect(editor.base.view.status).toBe('none');
  });

  it('draws on the jaw clicked: the other jaw is ignored while an outline is open, then a click there starts its own base', async () => {
    await openPalateJaws(editor);
    // From the top the upper model is in front, from below the lower one.
    const at = (view: 'top' | 'bottom') => {
      editor.setView(view);
      editor.renderNow();
      return ring(editor, 4);
    };
    expect(editor.actions.run('tool.base')).toBe(true);
    const tool = editor.activeTool as BaseTool;
    const top = at('top');
    for (const p of top.slice(0, 3)) await click(p);
    expect(editor.base.jaw).toBe('upper');
    expect(editor.getState().document.bases!.upper!.outline).toHaveLength(3);
    const below = at('bottom');
    await click(below[0]!);
    expect(editor.getState().document.bases).not.toHaveProperty('lower');
    expect(tool.key('Enter')).toBe(true);
    expect(tool.hint).toBe('base.closed');

    await click(below[1]!);
    expect(editor.base.jaw).toBe('lower');
    const bases = editor.getState().document.bases!;
    expect(bases.lower!.jaw).toBe('lower');
    expect(bases.lower!.outline).toHaveLength(1);
    expect(bases.upper!.closed).toBe(true);
    expect(tool.hint).toBe('base.next');
    // The panel's fields, switch and removal act on the jaw worked on.
    editor.base.setSettings({ height: 3 as never });
    expect(editor.getState().document.bases!.lower!.height).toBe(3);
    expect(editor.getState().document.bases!.upper!.height).toBe(2);
    editor.base.setJaw('upper');
    expect(tool.hint).toBe('base.closed');
    editor.base.clear();
    expect(editor.getState().document.bases).toEqual({ lower: editor.getState().document.bases!.lower });
    editor.undo();
    expect(editor.getState().document.bases!.upper!.outline).toHaveLength(3);
  });

  it('a self-crossing outline fails with SPLIT_FAILED from the worker', async () => {
    await openPalateJaw(editor);
    editor.changeDocument('straighten', straightened(editor.getState().document));
    expect(editor.actions.run('tool.base')).toBe(true);
    const p = ring(editor, 4); // 0, 90, 180, 270 degrees: visiting 0, 180, 90, 270 crosses itself
    for (const q of [p[0]!, p[2]!, p[1]!, p[3]!]) await click(q);
    expect(await editor.base.generate()).toBe(false);
    expect(editor.base.view.problem?.code).toBe('SPLIT_FAILED');
  });

  it('generates the base, exports it as a closed STL, undoes and redoes, and regenerates it on reopening', async () => {
    await openPalateJaw(editor);
    editor.changeDocument('straighten', straightened(editor.getState().document));
    await drawRing();
    (editor.activeTool as BaseTool).key('Enter');
    const fractions: number[] = [];
    const observer = editor.base.onChanged.add((v) => v.progress !== null && fractions.push(v.progress));
    expect(await editor.base.generate()).toBe(true);
    editor.base.onChanged.remove(observer);
    expect(fractions.length).toBeGreaterThan(0);
    expect(editor.base.view).toMatchObject({ status: 'ready', problem: null });
    expect(editor.base.view.triangles).toBeGreaterThan(100);
    expect(editor.getState().document.bases!.lower!.generated).toBe(true);

    const stl = await editor.base.exportStl();
    expect(stl).not.toBeNull();
    const opened = await h.geometry.openStl(stl!.slice().buffer, {});
    const health = await h.geometry.healthReport(opened.handle);
    expect(health.openEdges).toBe(0);
    expect(health.nonManifoldEdges).toBe(0);
    await h.geometry.release(opened.handle);

    editor.undo();
    expect(editor.getState().document.bases!.lower!.generated).toBe(false);
    expect(editor.base.view.status).toBe('none');
    expect(editor.base.handle).toBeNull();
    editor.redo();
    await editor.base.settled();
    expect(editor.base.view.status).toBe('ready');
    expect(editor.base.handle).not.toBeNull();

    // Reopening: the saved document first, then the model: the base comes back.
    const saved = JSON.parse(JSON.stringify(editor.getState().document)) as DesignDocument;
    const again = await headlessEditor();
    try {
      again.editor.loadDocument(saved);
      await openPalateJaw(again.editor);
      await again.editor.base.settled();
      expect(again.editor.base.view.status).toBe('ready');
      expect(again.editor.base.view.triangles).toBe(editor.base.view.triangles);
    } finally {
      again.dispose();
    }
  });
});
