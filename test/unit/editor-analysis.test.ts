// Undercut analysis and heatmaps, headless: a NullEngine scene and the real geometry worker
// module in this process. The colours are read back from the Babylon meshes themselves.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnalysisController } from '../../src/editor/features/analysis/feature.ts';
import { BEST_DIRECTION_CONE_DEG, UNDERCUT_RANGE } from '../../src/editor/features/analysis/feature.ts';
import { parseDocument } from '../../src/editor/engine/document.ts';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import { palateJaw } from '../fixtures/base-models.ts';
import { binaryStl, sphereStl } from '../fixtures/stl.ts';
import { headlessEditor, openJaws, type Headless } from './editor-harness.ts';

let h: Headless;
let editor: EditorEngine;
let analysis: AnalysisController;

beforeEach(async () => {
  h = await headlessEditor();
  editor = h.editor;
  analysis = editor.analysis;
  analysis.debounceMs = 0;
});
afterEach(() => h.dispose());

const RADIUS = 10;

async function openSphere(): Promise<void> {
  const bytes = sphereStl({ radius: RADIUS, segments: 64, rings: 32 });
  await editor.openModels([{ role: 'upper', name: 'sphere.stl', source: async (_s, onProgress) => (onProgress(1), bytes.buffer) }]);
}

function isRed(c: Float32Array, i: number): boolean {
  return c[i * 4]! > 0.95 && c[i * 4 + 1]! < 0.05 && c[i * 4 + 2]! < 0.05;
}
function isGrey(c: Float32Array, i: number): boolean {
  return Math.abs(c[i * 4]! - 0.6) < 0.01 && Math.abs(c[i * 4 + 1]! - 0.6) < 0.01 && Math.abs(c[i * 4 + 2]! - 0.6) < 0.01;
}
const angleDeg = (a: readonly number[], b: readonly number[]) =>
  (Math.acos(Math.min(1, Math.max(-1, (a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!) / Math.hypot(...a) / Math.hypot(...b)))) * 180) / Math.PI;

describe('undercut heatmap', () => {
  it('colours a sphere: about half red (the half facing the insertion direction), the rest grey', async () => {
    await openSphere();
    expect(analysis.meshColors('upper')!.colors).toBeNull();
    editor.analysis.setMode('undercut');
    await analysis.settled();
    const s = analysis.getState();
    expect(s.status).toBe('ready');
    expect(s.direction).toEqual([0, 0, -1]); // the upper jaw's default: the appliance comes from below
    expect(s.legend).toEqual({ mode: 'undercut', ...UNDERCUT_RANGE });
    const { colors, positions } = analysis.meshColors('upper')!;
    expect(colors).not.toBeNull();
    const n = positions!.length / 3;
    expect(colors!.length).toBe(n * 4);
    let red = 0;
    for (let i = 0; i < n; i++) {
      const z = positions![i * 3 + 2]!;
      if (isRed(colors!, i)) {
        red++;
        // Looking along -z, the upper half hangs over: depth 2z, red from 1 mm.
        expect(z).toBeGreaterThan(0.4);
      }
      if (z < -0.5) expect(isGrey(colors!, i)).toBe(true);
    }
    expect(red / n).toBeGreaterThan(0.4);
    expect(red / n).toBeLessThan(0.55);
    expect(s.undercutArea! / s.totalArea!).toBeCloseTo(0.5, 1);
    expect(s.maxValue).toBeCloseTo(2 * RADIUS, 0);
  });

  it('a direction change is one undo step and recomputes the map; undo restores it', async () => {
    await openSphere();
    analysis.setMode('undercut');
    await analysis.settled();
    const before = analysis.meshColors('upper')!.colors!;
    const computed = analysis.getState().computed;
    const history = editor.commands;
    const undoable = () => history.canUndo;
    expect(undoable()).toBe(true); // the heatmap choice itself

    analysis.setTilts(30, 0);
    await analysis.settled();
    const tilted = analysis.getState();
    expect(tilted.directionSet).toBe(true);
    const stored = editor.getState().document.insertionDirections!.upper!;
    stored.forEach((v, i) => expect(v).toBeCloseTo(tilted.direction[i]!, 5));
    expect(angleDeg(tilted.direction, [0, 0, -1])).toBeCloseTo(30, 3);
    expect(tilted.computed).toBe(computed + 1);
    const after = analysis.meshColors('upper')!.colors!;
    expect(after).not.toEqual(before);

    editor.undo();
    await analysis.settled();
    expect(editor.getState().document.insertionDirections).toBeUndefined();
    expect(analysis.getState().direction).toEqual([0, 0, -1]);
    expect(analysis.getState().computed).toBe(computed + 2);
    expect(analysis.meshColors('upper')!.colors).toEqual(before);
    // One more undo removes the heatmap choice: the direction took exactly one step.
    editor.undo();
    await analysis.settled();
    expect(analysis.getState().mode).toBe('off');
  });

  it('each jaw has its own direction: switching the analysed jaw keeps the other one, reset and undo touch the analysed jaw only', async () => {
    await openJaws(editor);
    analysis.setMode('undercut');
    analysis.setTilts(10, 0);
    const upper = editor.getState().document.insertionDirections!.upper!;
    analysis.setModel('lower');
    expect(analysis.getState()).toMatchObject({ model: 'lower', direction: [0, 0, 1], directionSet: false });
    analysis.setTilts(0, 20);
    const lower = editor.getState().document.insertionDirections!.lower!;
    expect(lower[2]).toBeGreaterThan(0.9);
    expect(editor.getState().document.insertionDirections).toEqual({ upper, lower });
    analysis.setModel('upper');
    expect(analysis.getState().directionSet).toBe(true);
    analysis.getState().direction.forEach((v, i) => expect(v).toBeCloseTo(upper[i]!, 5));
    analysis.resetDirection();
    expect(editor.getState().document.insertionDirections).toEqual({ lower });
    editor.undo();
    expect(editor.getState().document.insertionDirections).toEqual({ upper, lower });
    await analysis.settled();
  });

  it('quick direction changes compute once, for the last one (older work cancelled)', async () => {
    await openSphere();
    analysis.debounceMs = 40;
    analysis.setMode('undercut');
    await analysis.settled();
    const computed = analysis.getState().computed;
    analysis.setTilts(10, 0);
    analysis.setTilts(20, 0);
    analysis.setTilts(20, 15);
    await analysis.settled();
    expect(analysis.getState().computed).toBe(computed + 1);
    // The map on screen is the last direction's: the same as a map computed for it alone.
    const shown = analysis.meshColors('upper')!.colors!;
    const direction = analysis.getState().direction;
    const fresh = await h.geometry.undercut(editor.handleOf('upper')!, [direction[0], direction[1], direction[2]], { colors: { ...UNDERCUT_RANGE } });
    expect(shown).toEqual(fresh.colors);
  });

  it('heatmap off restores the normal shading', async () => {
    await openSphere();
    analysis.setMode('undercut');
    await analysis.settled();
    expect(analysis.isPainted('upper')).toBe(true);
    analysis.setMode('off');
    await analysis.settled();
    expect(analysis.isPainted('upper')).toBe(false);
    expect(analysis.meshColors('upper')!.colors).toBeNull();
    expect(analysis.getState().legend).toBeNull();
  });
});

describe('insertion direction', () => {
  it('best direction searches a cone around the current direction and sets the result (one undo step)', async () => {
    await openJaws(editor);
    analysis.setModel('lower');
    analysis.setTilts(12, -8);
    const hint = analysis.getState().direction;
    await analysis.findBestDirection();
    const s = analysis.getState();
    expect(s.best?.running).toBe(false);
    expect(s.best?.progress).toBe(1);
    expect(angleDeg(s.direction, hint)).toBeLessThanOrEqual(BEST_DIRECTION_CONE_DEG + 1e-3);
    expect(s.best!.area!).toBeLessThanOrEqual(s.best!.hintArea! + 1e-6);
    editor.undo();
    expect(analysis.getState().direction.map((v) => v.toFixed(5))).toEqual(hint.map((v) => v.toFixed(5)));
  });

  it('best direction can be cancelled: the direction stays', async () => {
    await openJaws(editor);
    const before = editor.getState().document;
    const running = analysis.findBestDirection();
    expect(analysis.getState().best?.running).toBe(true);
    analysis.cancelBest();
    await running;
    expect(analysis.getState().best).toBeNull();
    expect(editor.getState().document).toBe(before);
  });

  it('the aim tool sets the direction along the view, towards the viewer', async () => {
    await openJaws(editor);
    editor.setView('bottom');
    editor.setTool('direction');
    let spot: { x: number; y: number } | null = null;
    for (let y = 100; y < 600 && !spot; y += 25)
      for (let x = 100; x < 800 && !spot; x += 25) if ((await editor.pickAt(x, y))?.model === 'upper') spot = { x, y };
    expect(spot).not.toBeNull();
    await editor.pointer('down', { ...spot!, button: 0 });
    await editor.pointer('up', { ...spot!, button: 0 });
    const d = analysis.getState().direction;
    expect(analysis.getState().directionSet).toBe(true);
    expect(d[2]).toBeLessThan(-0.99); // seen from below: the upper jaw's appliance comes from -z
  });

  it('direction and heatmap choice are saved in the document and come back when it is opened', async () => {
    await openJaws(editor);
    analysis.setMode('undercut');
    analysis.setTilts(10, 5);
    await analysis.settled();
    const saved = JSON.parse(JSON.stringify(editor.getState().document));
    const reopened = parseDocument(saved);
    expect(reopened.insertionDirections).toEqual(saved.insertionDirections);
    expect(Object.keys(saved.insertionDirections)).toEqual(['upper']);
    expect(reopened.heatmap).toEqual({ mode: 'undercut', model: 'upper' });
    expect(parseDocument({ ...saved, insertionDirections: { upper: [0, 0, 0] }, heatmap: { mode: 'rainbow', model: 'upper' } })).not.toHaveProperty('heatmap');
    expect(parseDocument({ ...saved, insertionDirections: { upper: [0, 0, 0] } })).not.toHaveProperty('insertionDirections');

    const h2 = await headlessEditor();
    try {
      h2.editor.analysis.debounceMs = 0;
      h2.editor.loadDocument(reopened);
      await openJaws(h2.editor);
      await h2.editor.analysis.settled();
      expect(h2.editor.analysis.getState().status).toBe('ready');
      expect(h2.editor.analysis.isPainted('upper')).toBe(true);
      expect(h2.editor.analysis.meshColors('upper')!.colors).toEqual(analysis.meshColors('upper')!.colors);
    } finally {
      h2.dispose();
    }
  });
});

describe('occlusal distance and base thickness', () => {
  it('colours the upper jaw by its distance to the lower one; opening the bite changes nothing', async () => {
    await openJaws(editor);
    analysis.setMode('occlusal');
    await analysis.settled();
    const s = analysis.getState();
    expect(s.status).toBe('ready');
    expect(s.legend).toMatchObject({ mode: 'occlusal', min: -0.5, max: 3 });
    expect(analysis.isPainted('upper')).toBe(true);
    expect(analysis.isPainted('lower')).toBe(false);
    const colors = analysis.meshColors('upper')!.colors!;
    let coloured = 0;
    for (let i = 0; i < colors.length / 4; i++) if (!isGrey(colors, i)) coloured++;
    expect(coloured).toBeGreaterThan(0); // the cusps meet the lower jaw
    editor.setBiteOpen(true);
    await analysis.settled();
    expect(analysis.getState().computed).toBe(s.computed);
    expect(analysis.meshColors('upper')!.colors).toEqual(colors);
  });

  it('the base thickness map needs a base: without one it cannot be chosen', async () => {
    await openJaws(editor);
    expect(analysis.getState().thicknessAvailable).toBe(false);
    analysis.setMode('thickness');
    expect(analysis.getState().mode).toBe('off');
    expect(editor.commands.canUndo).toBe(false);
  });
});

describe('base thickness heatmap', () => {
  it('once a base is generated, colours it by its distance to the jaw: fit side blue, the outside about the thickness', async () => {
    const jaw = palateJaw();
    const tris = new Float32Array(jaw.indices.length * 3);
    for (let i = 0; i < jaw.indices.length; i++) tris.set(jaw.positions.subarray(jaw.indices[i]! * 3, jaw.indices[i]! * 3 + 3), i * 3);
    const bytes = binaryStl(tris).buffer;
    await editor.openModels([{ role: 'lower', name: 'lower.stl', source: async (_s, onProgress) => (onProgress(1), bytes) }]);
    editor.setView('top');
    editor.renderNow();
    const doc = editor.getState().document;
    editor.changeDocument('straighten', { ...doc, straightening: { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], jaw: 'lower' } });
    expect(editor.actions.run('tool.base')).toBe(true);
    for (let i = 0; i < 12; i++) {
      const a = 0.1 + (2 * Math.PI * i) / 12;
      const p = editor.projectModelPoint('lower', [12 * Math.cos(a), 5 + 12 * Math.sin(a), -10])!;
      await editor.pointer('down', { ...p, button: 0 });
      await editor.pointer('up', { ...p, button: 0 });
    }
    editor.activeTool!.key('Enter');
    expect(await editor.base.generate()).toBe(true);
    expect(analysis.getState().thicknessAvailable).toBe(true);

    analysis.setMode('thickness');
    await analysis.settled();
    const s = analysis.getState();
    expect(s.status).toBe('ready');
    expect(s.legend).toMatchObject({ mode: 'thickness', min: 0, max: 4 });
    expect(analysis.isPainted('base')).toBe(true);
    expect(analysis.isPainted('lower')).toBe(false);
    const colors = analysis.meshColors('base')!.colors!;
    const n = colors.length / 4;
    let blue = 0;
    for (let i = 0; i < n; i++) if (colors[i * 4 + 2]! > 0.9 && colors[i * 4]! < 0.1) blue++;
    expect(blue / n).toBeGreaterThan(0.3); // the inner surface lies on the jaw
    expect(s.maxValue!).toBeGreaterThan(1.8); // the outer one about the thickness (2 mm) away
    expect(s.maxValue!).toBeLessThan(4);

    analysis.setMode('off');
    await analysis.settled();
    expect(analysis.meshColors('base')!.colors).toBeNull();
  });
});
