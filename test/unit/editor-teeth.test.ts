// The teeth in the headless editor (NullEngine, the real geometry worker in process, the
// generated jaws of test/fixtures/jaw.ts, 14 crowns each): the Teeth display on and off (tints,
// numbers, gum lines, the model's look restored), the segmentation run once per model, the
// server's stored result used first, a failure's message; every correction (renumber and its
// swap, merge, lasso add/remove, split) undone and redone; the corrections saved and reloaded;
// FDI and Universal numbers.
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import type { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import { parseDocument } from '../../src/editor/engine/document.ts';
import { documentLabels } from '../../src/editor/features/teeth/feature.ts';
import type { TeethTool } from '../../src/editor/features/teeth/tool.ts';
import { renumber, merge, split, assign, freeNumbers, insidePolygon, leftOf } from '../../src/editor/features/teeth/labels.ts';
import { getToothNumbering, setToothNumbering } from '../../src/ui/toothNumbering.ts';
import { decodeLabels, encodeLabels } from '../../common/teeth.ts';
import { headlessEditor, headlessEditorEach, openJaws, type Headless } from './editor-harness.ts';

let h: Headless;
let editor: EditorEngine;
headlessEditorEach((made) => ((h = made), (editor = made.editor)));
afterEach(() => {
  vi.restoreAllMocks();
  setToothNumbering('fdi');
});

/** FDI numbers of the generated lower jaw's crowns (in Universal order). */
const LOWER_FDI = ['37', '36', '35', '34', '33', '32', '31', '41', '42', '43', '44', '45', '46', '47'];

async function showTeeth(): Promise<void> {
  await openJaws(editor);
  editor.actions.run('teeth.toggle');
  await editor.teeth.settled();
}

const teethOf = (jaw: 'upper' | 'lower') => editor.teeth.getState().jaws[jaw].teeth;
const countOf = (jaw: 'upper' | 'lower', n: number) => teethOf(jaw).find((t) => t.number === n)?.vertexCount ?? 0;
const mesh = (jaw: 'upper' | 'lower') => editor['models'].meshOf(jaw)!;

/** The lower jaw alone, seen from the top and rendered (the tool's strokes are aimed through that projection). */
function topOfLower(): void {
  editor.setVisible('upper', false);
  editor.setView('top');
  editor.renderNow();
}

/** A changed document settles: the display redrawn from it. */
async function settled(): Promise<void> {
  await editor.teeth.settled();
}

describe('labels', () => {
  it('renumbers with a swap, merges, assigns and splits without touching the input', () => {
    const l = Uint8Array.from([0, 24, 24, 25, 25, 0]);
    expect([...renumber(l, 24, 23)]).toEqual([0, 23, 23, 25, 25, 0]);
    expect([...renumber(l, 24, 25)]).toEqual([0, 25, 25, 24, 24, 0]);
    expect([...merge(l, 24, 25)]).toEqual([0, 24, 24, 24, 24, 0]);
    expect([...assign(l, [0, 3], 0)]).toEqual([0, 24, 24, 0, 25, 0]);
    expect([...split(l, 24, (v) => v === 1, 26)]).toEqual([0, 24, 26, 25, 25, 0]);
    expect([...l]).toEqual([0, 24, 24, 25, 25, 0]);
    expect(freeNumbers(l, 'lower')).not.toContain(24);
    expect(freeNumbers(l, 'lower')).toHaveLength(14);
    expect(insidePolygon(1, 1, [{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 2, y: 2 }, { x: 0, y: 2 }])).toBe(true);
    expect(insidePolygon(3, 1, [{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 2, y: 2 }, { x: 0, y: 2 }])).toBe(false);
    // y down on the screen: going right, "left" is up.
    expect(leftOf({ x: 1, y: -1 }, { x: 0, y: 0 }, { x: 2, y: 0 })).toBe(true);
  });
});

describe('Teeth display', () => {
  it('tints the teeth, numbers them and draws gum lines; off restores the look', async () => {
    await openJaws(editor);
    const diffuse = (mesh('lower').material as StandardMaterial).diffuseColor.clone();
    expect(editor.actions.enabled('teeth.toggle')).toBe(true);
    expect(editor.actions.enabled('tool.teeth')).toBe(false);
    editor.actions.run('teeth.toggle');
    await editor.teeth.settled();
    expect(editor.getState().teethShown).toBe(true);
    expect(editor.actions.active('teeth.toggle')).toBe(true);
    const view = editor.teeth.getState();
    expect(view.jaws.lower.status).toBe('ready');
    expect(editor.teeth.shownNumbers('lower')).toEqual(LOWER_FDI);
    expect(teethOf('upper')).toHaveLength(14);
    // The generated crowns are shells of their own (no gum on them): no seam to draw until a correction makes one.
    expect(view.jaws.lower.linePoints).toBe(0);
    const colors = mesh('lower').getVerticesData(VertexBuffer.ColorKind)!;
    expect(colors).toBeTruthy();
    // distinct tints: at least 14 colours besides the gum's
    const tints = new Set<string>();
    for (let i = 0; i < colors.length; i += 4) tints.add(`${colors[i]!.toFixed(3)},${colors[i + 1]!.toFixed(3)},${colors[i + 2]!.toFixed(3)}`);
    expect(tints.size).toBeGreaterThanOrEqual(15);

    editor.actions.run('teeth.toggle');
    await editor.teeth.settled();
    expect(editor.getState().teethShown).toBe(false);
    expect(mesh('lower').isVerticesDataPresent(VertexBuffer.ColorKind)).toBe(false);
    expect((mesh('lower').material as StandardMaterial).diffuseColor.equals(diffuse)).toBe(true);
    expect((mesh('lower').material as StandardMaterial).zOffset).toBe(0);
    expect(editor['scene']!.meshes.some((m) => m.name.startsWith('teeth-gumlines'))).toBe(false);
  });

  it('segments each model once; a tool switch or showing again keeps the result', async () => {
    const spy = vi.spyOn(h.geometry, 'segmentTeeth');
    await showTeeth();
    expect(spy).toHaveBeenCalledTimes(2);
    editor.setTool('teeth');
    editor.setTool('measure');
    editor.actions.run('teeth.toggle');
    editor.actions.run('teeth.toggle');
    await editor.teeth.settled();
    expect(editor.teeth.shownNumbers('lower')).toEqual(LOWER_FDI);
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it('shows progress while it runs, and cancels', async () => {
    await openJaws(editor);
    const progress: (number | null)[] = [];
    editor.teeth.subscribe(() => progress.push(editor.teeth.getState().jaws.lower.progress));
    void editor.teeth.setShown(true);
    expect(editor.teeth.getState().jaws.lower.status).toBe('running');
    expect(editor.teeth.busy()).toBe(true);
    editor.teeth.cancel();
    expect(editor.teeth.busy()).toBe(false);
    expect(editor.teeth.getState().shown).toBe(false);
    expect(progress).toContain(0);
    await editor.teeth.setShown(true);
    expect(editor.teeth.shownNumbers('lower')).toEqual(LOWER_FDI);
  });

  it('uses the stored result first, and says so when finding the teeth fails', async () => {
    await openJaws(editor);
    const spy = vi.spyOn(h.geometry, 'segmentTeeth').mockRejectedValue(new Error('KERNEL_FAILED: broken'));
    const vertexCount = mesh('lower').getTotalVertices();
    const stored = new Uint8Array(vertexCount).fill(0, 0);
    stored.fill(24, 0, 30);
    editor.teeth.setPort({ loadStored: async (jaw) => (jaw === 'lower' ? { jaw, vertexCount, labels: encodeLabels(stored), teeth: [], arch: [] } : null) });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await editor.teeth.setShown(true);
    expect(editor.teeth.shownNumbers('lower')).toEqual(['31']);
    expect(spy).toHaveBeenCalledTimes(1); // the upper jaw only
    expect(editor.teeth.getState().jaws.upper.status).toBe('error');
    expect(editor.teeth.getState().problem).toBe('TEETH_FAILED');
  });

  it('is shown instead of a heatmap, and a heatmap instead of it (both colour the vertices)', async () => {
    await openJaws(editor);
    editor.analysis.setMode('undercut');
    await editor.teeth.setShown(true);
    expect(editor.document.heatmap?.mode).toBe('off');
    expect(mesh('lower').isVerticesDataPresent(VertexBuffer.ColorKind)).toBe(true);
    editor.analysis.setMode('occlusal');
    expect(editor.getState().teethShown).toBe(false);
  });

  it('numbers in FDI or Universal, as the user chose', async () => {
    await showTeeth();
    expect(editor.teeth.getState().numbering).toBe('fdi');
    editor.teeth.setNumbering('universal');
    expect(editor.teeth.getState().numbering).toBe('universal');
    expect(editor.teeth.shownNumbers('lower')).toEqual(['18', '19', '20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '30', '31']);
    expect(editor.teeth.shownNumbers('upper')[0]).toBe('2');
    expect(getToothNumbering()).toBe('universal');
    editor.teeth.setNumbering('fdi');
    expect(editor.teeth.shownNumbers('lower')).toEqual(LOWER_FDI);
  });
});

describe('corrections', () => {
  it('renumbers a clicked tooth (a used number swaps), undo and redo', async () => {
    await showTeeth();
    editor.setTool('teeth');
    const tool = editor.activeTool as TeethTool;
    const centroid = teethOf('lower').find((t) => t.number === 24)!.centroid;
    // a click at a vertex of tooth 31 (Universal 24)
    const labels = editor.teeth.current('lower')!;
    const indices = mesh('lower').getIndices()!;
    let triangle = 0;
    while (labels[indices[3 * triangle]!] !== 24 || labels[indices[3 * triangle + 1]!] !== 24 || labels[indices[3 * triangle + 2]!] !== 24) triangle++;
    tool.click({ model: 'lower', pick: { point: centroid, triangle } });
    expect(editor.teeth.getState().selected).toEqual({ jaw: 'lower', number: 24 });
    expect(editor.getState().toolHint).toBe('teeth.picked');
    const before = countOf('lower', 24);

    expect(editor.teeth.renumber('lower', 24, 9)).toBe(false); // an upper number
    expect(editor.teeth.getState().problem).toBe('TEETH_WRONG_JAW');
    expect(editor.teeth.renumber('lower', 24, 23)).toBe(true); // 31 -> 32, which swaps with the 32 there
    await settled();
    expect(countOf('lower', 23)).toBe(before);
    expect(editor.teeth.getState().selected).toEqual({ jaw: 'lower', number: 23 });
    expect(editor.teeth.shownNumbers('lower')).toEqual(LOWER_FDI);
    expect(editor.teeth.getState().jaws.lower.corrected).toBe(true);
    expect(editor.document.teeth?.lower?.vertexCount).toBe(labels.length);

    expect(editor.teeth.renumber('lower', 23, 17)).toBe(true); // 32 -> 38, free
    await settled();
    expect(editor.teeth.shownNumbers('lower')).toContain('38');
    expect(editor.teeth.shownNumbers('lower')).not.toContain('32');
    editor.undo();
    await settled();
    expect(editor.teeth.shownNumbers('lower')).toEqual(LOWER_FDI);
    editor.undo();
    await settled();
    expect(countOf('lower', 24)).toBe(before);
    expect(editor.document.teeth).toBeUndefined();
    expect(editor.teeth.getState().jaws.lower.corrected).toBe(false);
    editor.redo();
    editor.redo();
    await settled();
    expect(editor.teeth.shownNumbers('lower')).toContain('38');
  });

  it('merges two teeth, undo and redo', async () => {
    await showTeeth();
    const a = countOf('lower', 24), b = countOf('lower', 23);
    expect(editor.teeth.merge('lower', 24, 23)).toBe(true);
    await settled();
    expect(countOf('lower', 24)).toBe(a + b);
    expect(teethOf('lower')).toHaveLength(13);
    editor.undo();
    await settled();
    expect(teethOf('lower')).toHaveLength(14);
    editor.redo();
    await settled();
    expect(teethOf('lower')).toHaveLength(13);
  });

  it('lasso: removes the surface inside to the gum and adds it to the picked tooth', async () => {
    await showTeeth();
    topOfLower();
    editor.setTool('teeth');
    const c = editor.projectModelPoint('lower', teethOf('lower').find((t) => t.number === 24)!.centroid)!;
    const square = [
      { x: c.x - 6, y: c.y - 6 },
      { x: c.x + 6, y: c.y - 6 },
      { x: c.x + 6, y: c.y + 6 },
      { x: c.x - 6, y: c.y + 6 },
    ];
    const stroke = async (points: { x: number; y: number }[]) => {
      await editor.pointer('down', { ...points[0]!, button: 0, buttons: 1 });
      for (const p of points.slice(1)) await editor.pointer('move', { ...p, button: 0, buttons: 1 });
      await editor.pointer('up', { ...points[points.length - 1]!, button: 0 });
      await settled();
    };
    const before = countOf('lower', 24);
    editor.teeth.setMode('remove');
    await stroke(square);
    const removed = before - countOf('lower', 24);
    expect(removed).toBeGreaterThan(0);
    // the crown's new edge against the gum is drawn
    expect(editor.teeth.getState().jaws.lower.linePoints).toBeGreaterThan(3);
    expect(editor['scene']!.meshes.some((m) => m.name === 'teeth-gumlines-lower')).toBe(true);
    expect(editor.getState().canUndo).toBe(true);

    editor.teeth.select({ jaw: 'lower', number: 23 });
    editor.teeth.setMode('add');
    await stroke(square);
    expect(countOf('lower', 23)).toBeGreaterThan(0);
    editor.undo();
    await settled();
    editor.undo();
    await settled();
    expect(countOf('lower', 24)).toBe(before);
    editor.redo();
    await settled();
    expect(countOf('lower', 24)).toBe(before - removed);
  });

  it('projects the vertices of a jaw at once as one at a time', async () => {
    await openJaws(editor);
    topOfLower();
    const positions = mesh('lower').getVerticesData(VertexBuffer.PositionKind)!;
    const many = editor['picking'].projectModelPoints('lower', positions)!;
    for (let v = 0; v < positions.length / 3; v += 97) {
      const one = editor.projectModelPoint('lower', [positions[3 * v]!, positions[3 * v + 1]!, positions[3 * v + 2]!])!;
      expect(many[2 * v]!).toBeCloseTo(one.x, 2);
      expect(many[2 * v + 1]!).toBeCloseTo(one.y, 2);
    }
  });

  it('splits a tooth along a drawn line; the other part gets the chosen free number', async () => {
    await showTeeth();
    topOfLower();
    editor.setTool('teeth');
    const tooth = teethOf('lower').find((t) => t.number === 21)!; // FDI 34, a premolar on the patient's left
    const c = editor.projectModelPoint('lower', tooth.centroid)!;
    editor.teeth.select({ jaw: 'lower', number: 21 });
    editor.teeth.setMode('split');
    expect(editor.teeth.splitTarget()).toBe(32); // the first free one, FDI 48
    expect(editor.teeth.splitTooth('lower', 21, c, { x: c.x + 1, y: c.y }, 24)).toBe(false); // 24 is on a tooth
    expect(editor.teeth.getState().problem).toBe('TEETH_NUMBER_USED');
    expect(editor.teeth.splitTooth('lower', 21, c, { x: c.x + 1, y: c.y }, null)).toBe(false);
    expect(editor.teeth.getState().problem).toBe('TEETH_NO_FREE_NUMBER');
    editor.teeth.setSplitNumber(17);
    await editor.pointer('down', { x: c.x - 40, y: c.y, button: 0, buttons: 1 });
    await editor.pointer('move', { x: c.x, y: c.y, button: 0, buttons: 1 });
    await editor.pointer('up', { x: c.x + 40, y: c.y, button: 0 });
    await settled();
    const kept = countOf('lower', 21), other = countOf('lower', 17);
    expect(kept).toBeGreaterThan(0);
    expect(other).toBeGreaterThan(0);
    expect(kept + other).toBe(tooth.vertexCount);
    expect(editor.teeth.shownNumbers('lower')).toContain('38');
    editor.undo();
    await settled();
    expect(countOf('lower', 17)).toBe(0);
    editor.redo();
    await settled();
    expect(countOf('lower', 17)).toBe(other);
  });

  it('saves the corrections in the document; a reload shows them', async () => {
    await showTeeth();
    editor.teeth.renumber('lower', 24, 17);
    await settled();
    const saved = parseDocument(JSON.parse(JSON.stringify(editor.document)));
    const labels = editor.teeth.current('lower')!;
    expect(documentLabels(saved, 'lower', labels.length)).toEqual(labels);
    expect(decodeLabels(saved.teeth!.lower!.labels, labels.length)).toEqual(labels);
    // labels for another model are not used
    expect(documentLabels(saved, 'lower', labels.length + 1)).toBeNull();

    const other = await headlessEditor();
    try {
      await openJaws(other.editor);
      other.editor.loadDocument(saved);
      await other.editor.teeth.setShown(true);
      expect(other.editor.teeth.shownNumbers('lower')).toContain('38');
      expect(other.editor.teeth.shownNumbers('lower')).not.toContain('31');
      expect(other.editor.teeth.getState().jaws.lower.corrected).toBe(true);
      expect(other.editor.teeth.shownNumbers('upper')).toHaveLength(14);
    } finally {
      other.dispose();
    }
  });
});
