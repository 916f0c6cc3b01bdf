// The editor engine headless: a NullEngine scene and the real geometry worker module in this
// process; the measure tool is driven by pointer events like the canvas sends them.
import { describe, expect, it } from 'vitest';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import type { MeasureTool } from '../../src/editor/features/measure/tool.ts';
import { headlessEditorEach, openJaws, type Headless } from './editor-harness.ts';

let h: Headless;
let editor: EditorEngine;
headlessEditorEach((made) => ((h = made), (editor = made.editor)));

/** Canvas pixels where the worker's BVH finds a model, on a coarse grid. */
async function hits(model: 'upper' | 'lower'): Promise<{ x: number; y: number }[]> {
  const found: { x: number; y: number }[] = [];
  for (let y = 20; y < 600; y += 40) {
    for (let x = 20; x < 800; x += 40) {
      const hit = await editor.pickAt(x, y);
      if (hit?.model === model) found.push({ x, y });
    }
  }
  return found;
}

const click = async (p: { x: number; y: number }) => {
  await editor.pointer('down', { x: p.x, y: p.y, button: 0 });
  await editor.pointer('up', { x: p.x, y: p.y, button: 0 });
};

describe('editor engine (headless)', () => {
  it('opens an order\'s models through the worker, with handles and per-model state', async () => {
    const stages = new Set<string>();
    const observer = editor.onStateChanged.add((s) => s.models.forEach((m) => m.progress && stages.add(m.progress.stage)));
    await openJaws(editor);
    editor.onStateChanged.remove(observer);
    const { models } = editor.getState();
    expect(models[0]!.error).toBeNull();
    expect(models.map((m) => [m.role, m.status, m.name])).toEqual([
      ['upper', 'ready', 'upper.stl'],
      ['lower', 'ready', 'lower.stl'],
    ]);
    expect(models[0]!.triangles).toBeGreaterThan(1000);
    expect(editor.handleOf('upper')).not.toBeNull();
    expect(editor.handleOf('upper')).not.toBe(editor.handleOf('lower'));
    expect(stages.has('download')).toBe(true);
  });

  it('a broken model fails on its own with its code; the other one opens', async () => {
    const lower = (await import('./editor-harness.ts')).jawStls().lower;
    await editor.openModels([
      { role: 'upper', name: 'photo.stl', source: async () => new TextEncoder().encode('not a mesh at all, just some text. '.repeat(40)).buffer },
      { role: 'lower', name: 'lower.stl', source: async () => lower },
    ]);
    const [upper, low] = editor.getState().models;
    expect(upper).toMatchObject({ status: 'error', error: { code: 'STL_NOT_STL', fileName: 'photo.stl' } });
    expect(low).toMatchObject({ status: 'ready' });
  });

  it('view presets turn the camera; actions run from the registry; visibility decides picking', async () => {
    await openJaws(editor);
    editor.actions.run('view.top');
    expect(editor.getState().view).toBe('top');
    const top = editor.cameraAngles!;
    expect(top.beta).toBeLessThan(0.01);
    editor.actions.run('view.left');
    expect(editor.cameraAngles!.alpha).toBeCloseTo(0);
    expect(editor.cameraAngles!.beta).toBeCloseTo(Math.PI / 2);

    editor.actions.run('view.top'); // from above, the upper jaw covers most of the lower one
    const upperHits = await hits('upper');
    expect(upperHits.length).toBeGreaterThan(5);
    editor.setOpacity('lower', 0.3);
    editor.setOpacity('upper', 0);
    expect(editor.getState().models.map((m) => m.opacity)).toEqual([0.05, 0.3]);
    editor.setOpacity('upper', 1);
    editor.setVisible('upper', false);
    expect(editor.getState().models[0]!.visible).toBe(false);
    expect(await hits('upper')).toEqual([]);
    // Where the upper jaw was hit, the lower one is hit now.
    const below = await Promise.all(upperHits.map((p) => editor.pickAt(p.x, p.y)));
    expect(below.filter((hit) => hit?.model === 'lower').length).toBeGreaterThan(5);
  });

  it('measure tool: two clicks on a model make one undoable measurement; Escape forgets the first point', async () => {
    await openJaws(editor);
    editor.actions.run('view.top');
    const onUpper = await hits('upper');
    const a = onUpper[0]!;
    const b = onUpper.reduce((far, p) => (Math.hypot(p.x - a.x, p.y - a.y) > Math.hypot(far.x - a.x, far.y - a.y) ? p : far), a);
    expect(editor.actions.run('tool.measure')).toBe(true);
    expect(editor.getState()).toMatchObject({ tool: 'measure', toolPhase: 'idle', toolHint: 'measure.first' });

    await click(a);
    expect(editor.getState().toolPhase).toBe('pointing');
    expect(editor.activeTool!.key('Escape')).toBe(true);
    expect(editor.getState().toolPhase).toBe('idle');
    // A drag is the camera's, not a click.
    await editor.pointer('down', { x: a.x, y: a.y, button: 0 });
    await editor.pointer('move', { x: a.x + 30, y: a.y, button: 0 });
    await editor.pointer('up', { x: a.x + 30, y: a.y, button: 0 });
    expect(editor.getState().toolPhase).toBe('idle');

    await click(a);
    // Hovering shows a rubber band to the surface under the cursor; a drag (camera) does not.
    await editor.pointer('move', { x: b.x, y: b.y, button: -1, buttons: 0 });
    await (editor.activeTool as MeasureTool).settled();
    const preview = editor.getState().measurePreview;
    expect(preview).toBeGreaterThan(10);
    await click(b);
    expect(editor.getState().measurePreview).toBeNull();
    const { measurements } = editor.getState().document;
    expect(measurements).toHaveLength(1);
    const m = measurements[0]!;
    expect(m.model).toBe('upper');
    const straight = Math.hypot(m.a.point[0] - m.b.point[0], m.a.point[1] - m.b.point[1], m.a.point[2] - m.b.point[2]);
    expect(m.straight).toBeCloseTo(straight, 2);
    expect(preview).toBeCloseTo(m.straight, 2); // the band ended where the second click landed
    expect(straight).toBeGreaterThan(10);
    expect(m.geodesic).not.toBeNull();
    expect(m.geodesic!).toBeGreaterThanOrEqual(m.straight - 1e-3);
    expect(m.path.length).toBeGreaterThanOrEqual(6);
    expect(editor.getState()).toMatchObject({ toolPhase: 'idle', canUndo: true, canRedo: false });

    const revision = editor.getState().revision;
    editor.actions.run('undo');
    expect(editor.getState().document.measurements).toHaveLength(0);
    expect(editor.getState().canRedo).toBe(true);
    editor.actions.run('redo');
    expect(editor.getState().document.measurements).toEqual([m]);
    expect(editor.getState().revision).toBe(revision + 2);

    editor.removeMeasurement(m.id);
    expect(editor.getState().document.measurements).toHaveLength(0);
    editor.undo();
    expect(editor.getState().document.measurements).toEqual([m]);

    // Drawn with the measure tool only (a label must not sit over the design in other tools) ...
    expect(editor.shownMeasurements()).toEqual([m.id]);
    editor.actions.run('tool.base');
    expect(editor.shownMeasurements()).toEqual([]);
    editor.setTool(null);
    expect(editor.shownMeasurements()).toEqual([]);
    // ... while the side panel's list points at one ...
    editor.focusMeasurement(m.id);
    expect(editor.shownMeasurements()).toEqual([m.id]);
    editor.focusMeasurement(null);
    expect(editor.shownMeasurements()).toEqual([]);
    // ... or in every tool with "Show measurements"; a hidden model hides its measurements still.
    editor.setMeasurementsShown(true);
    expect(editor.getState().measurementsView.shown).toBe(true);
    expect(editor.shownMeasurements()).toEqual([m.id]);
    editor.setVisible('upper', false);
    expect(editor.shownMeasurements()).toEqual([]);
    editor.setVisible('upper', true);
    expect(editor.shownMeasurements()).toEqual([m.id]);
    editor.setMeasurementsShown(false);
    editor.actions.run('tool.measure');
    expect(editor.shownMeasurements()).toEqual([m.id]);
  });

  it('a loaded design replaces the document and starts a fresh history', async () => {
    await openJaws(editor);
    const doc = { schemaVersion: 1 as const, measurements: [] };
    editor.changeDocument('x', { ...doc });
    expect(editor.getState().canUndo).toBe(true);
    editor.loadDocument(doc);
    expect(editor.getState()).toMatchObject({ canUndo: false, canRedo: false, document: doc });
  });

  it('bite opens and closes (the lower jaw moves down and back); clipping clamps its offset', async () => {
    await openJaws(editor);
    const before = await editor.pickAt(400, 300);
    editor.actions.run('bite.toggle');
    expect(editor.getState().biteOpen).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    editor.renderNow();
    editor.renderNow();
    expect(editor.modelOffset('lower')[2]).toBeCloseTo(-12);
    expect(editor.modelOffset('upper')[2]).toBe(0);
    editor.actions.run('bite.toggle');
    await new Promise((r) => setTimeout(r, 400));
    editor.renderNow();
    editor.renderNow();
    expect(editor.modelOffset('lower')[2]).toBeCloseTo(0);
    void before;

    // From the front, the clipping plane hides what lies in front of it: picks go through to behind it.
    editor.actions.run('view.front');
    const front = await hits('upper');
    const p = front[Math.floor(front.length / 2)]!;
    const near = (await editor.pickAt(p.x, p.y))!;
    const cut = near.pick.point[1] + 3;
    editor.setClipping(true, cut);
    const through = await editor.pickAt(p.x, p.y);
    if (through) expect(through.pick.point[1]).toBeGreaterThanOrEqual(cut - 1e-3);
    // From the back, nothing in front of the plane (y < cut) is hit either.
    editor.actions.run('view.back');
    let behind = 0;
    for (let y = 20; y < 600; y += 40) {
      for (let x = 20; x < 800; x += 40) {
        const hit = await editor.pickAt(x, y);
        if (!hit) continue;
        behind++;
        expect(hit.pick.point[1]).toBeGreaterThanOrEqual(cut - 1e-3);
      }
    }
    expect(behind).toBeGreaterThan(5);
    editor.setClipping(false);
    editor.actions.run('view.front');
    expect((await editor.pickAt(p.x, p.y))!.pick.point[1]).toBeCloseTo(near.pick.point[1], 3);

    editor.actions.run('clip.toggle');
    const clip = editor.getState().clipping;
    expect(clip.enabled).toBe(true);
    expect(clip.min).toBeLessThan(clip.max);
    editor.setClipping(true, 10_000);
    expect(editor.getState().clipping.offset).toBe(clip.max);
  });
});
