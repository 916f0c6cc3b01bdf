// The teeth in the headless editor (NullEngine, the real geometry worker in process, the
// scan-like generated jaws of test/fixtures/teeth-jaws.ts: one welded surface each, crowns
// meeting the gum on a margin, tooth numbers known by construction): the Teeth display on and
// off (tints, numbers, gum lines, the model's look restored), the segmentation run once per
// model, the server's stored result used first, a failure's message; every correction
// (renumber and its swap, merge, lasso add/remove, split) undone and redone; the corrections
// saved and reloaded; FDI and Universal numbers. Every expected number comes from the jaws'
// truth (their `teeth` and `labels`).
import { VertexBuffer } from '@babylonjs/core/Buffers/buffer';
import type { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import { parseDocument } from '../../src/editor/engine/document.ts';
import { documentLabels } from '../../src/editor/features/teeth/feature.ts';
import type { TeethTool } from '../../src/editor/features/teeth/tool.ts';
import { renumber, merge, split, assign, freeNumbers, insidePolygon, leftOf, numbersOf, toothName } from '../../src/editor/features/teeth/labels.ts';
import { getToothNumbering, setToothNumbering } from '../../src/ui/toothNumbering.ts';
import { decodeLabels, encodeLabels } from '../../common/teeth.ts';
import { universal } from '../fixtures/teeth-jaws.ts';
import { scoreLabels, formatScore } from '../bench/teeth-score.ts';
import { headlessEditor, headlessEditorEach, openTeethJaws, teethJaws, type Headless } from './editor-harness.ts';

let h: Headless;
let editor: EditorEngine;
headlessEditorEach((made) => ((h = made), (editor = made.editor)));
afterEach(() => {
  vi.restoreAllMocks();
  setToothNumbering('fdi');
});

const truth = teethJaws();
/** The generated jaws' teeth, Universal numbers ascending (the order the display lists them in). */
const LOWER = truth.lower.teeth.map((t) => t.number);
const UPPER = truth.upper.teeth.map((t) => t.number);
const names = (numbers: number[], numbering: 'fdi' | 'universal' = 'fdi'): string[] => numbers.map((n) => toothName(n, numbering));
/** FDI numbers of the lower jaw's crowns (in Universal order). */
const LOWER_FDI = names(LOWER);
/** The lower central incisor on the patient's left (FDI 31), its neighbour (32) and a premolar on that side (34). */
const CENTRAL = universal('lower', 1, 1);
const NEIGHBOUR = universal('lower', 1, 2);
const PREMOLAR = universal('lower', 1, 4);
/** The lower numbers no generated tooth has, in the picker's order (the third molars). */
const FREE = numbersOf('lower').filter((n) => !LOWER.includes(n));
/** A free number a tooth is moved to (FDI 38). */
const SPARE = FREE[FREE.length - 1]!;

async function openJaws(e: EditorEngine): Promise<void> {
  await openTeethJaws(e);
}

async function showTeeth(): Promise<void> {
  await openJaws(editor);
  editor.actions.run('teeth.toggle');
  await editor.teeth.settled();
}

const teethOf = (jaw: 'upper' | 'lower') => editor.teeth.getState().jaws[jaw].teeth;
const countOf = (jaw: 'upper' | 'lower', n: number) => teethOf(jaw).find((t) => t.number === n)?.vertexCount ?? 0;
const mesh = (jaw: 'upper' | 'lower') => editor['models'].meshOf(jaw)!;

/** The truth's label of each vertex of the opened model (its welded vertices in the editor's order, found by position). */
function truthOf(jaw: 'upper' | 'lower'): Uint8Array {
  const g = truth[jaw];
  const key = (p: ArrayLike<number>, v: number) => `${p[3 * v]},${p[3 * v + 1]},${p[3 * v + 2]}`;
  const byPosition = new Map<string, number>();
  const generated = Float32Array.from(g.positions);
  for (let v = 0; v < g.labels.length; v++) byPosition.set(key(generated, v), g.labels[v]!);
  const positions = Float32Array.from(mesh(jaw).getVerticesData(VertexBuffer.PositionKind)!);
  const out = new Uint8Array(positions.length / 3);
  for (let v = 0; v < out.length; v++) {
    const n = byPosition.get(key(positions, v));
    if (n === undefined) throw new Error(`vertex ${v} of the ${jaw} model is not the generated jaw's`);
    out[v] = n;
  }
  return out;
}

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
  it('the generated jaws have the teeth the tests name', () => {
    for (const n of [CENTRAL, NEIGHBOUR, PREMOLAR]) expect(LOWER).toContain(n);
    expect(FREE.length).toBeGreaterThanOrEqual(2);
    expect(UPPER.length).toBeGreaterThan(0);
    // the truth labels hold the same teeth as the list
    expect([...new Set(truth.lower.labels)].filter((n) => n > 0).sort((a, b) => a - b)).toEqual(LOWER);
  });

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
    expect(teethOf('upper').map((t) => t.number)).toEqual(UPPER);
    // the labels shown are the truth's, vertex by vertex (the model's vertices found by position)
    for (const jaw of ['lower', 'upper'] as const) {
      const score = scoreLabels(truthOf(jaw), editor.teeth.current(jaw)!);
      expect(score.numberingRight, formatScore(jaw, score)).toBe(true);
      expect(score.meanIou, formatScore(jaw, score)).toBeGreaterThanOrEqual(0.95);
    }
    // Each crown meets the gum on its margin: the gum lines are drawn.
    expect(view.jaws.lower.linePoints).toBeGreaterThan(LOWER.length * 3);
    expect(editor['scene']!.meshes.some((m) => m.name === 'teeth-gumlines-lower')).toBe(true);
    const colors = mesh('lower').getVerticesData(VertexBuffer.ColorKind)!;
    expect(colors).toBeTruthy();
    // distinct tints: a colour per tooth besides the gum's
    const tints = new Set<string>();
    for (let i = 0; i < colors.length; i += 4) tints.add(`${colors[i]!.toFixed(3)},${colors[i + 1]!.toFixed(3)},${colors[i + 2]!.toFixed(3)}`);
    expect(tints.size).toBeGreaterThanOrEqual(LOWER.length + 1);

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
    stored.fill(CENTRAL, 0, 30);
    editor.teeth.setPort({ loadStored: async (jaw) => (jaw === 'lower' ? { jaw, vertexCount, labels: encodeLabels(stored), teeth: [], arch: [] } : null) });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await editor.teeth.setShown(true);
    expect(editor.teeth.shownNumbers('lower')).toEqual(names([CENTRAL]));
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
    expect(editor.teeth.shownNumbers('lower')).toEqual(LOWER.map(String));
    expect(editor.teeth.shownNumbers('upper')).toEqual(UPPER.map(String));
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
    const centroid = teethOf('lower').find((t) => t.number === CENTRAL)!.centroid;
    // a click at a vertex of tooth 31 (Universal 24)
    const labels = editor.teeth.current('lower')!;
    const indices = mesh('lower').getIndices()!;
    let triangle = 0;
    while ([0, 1, 2].some((c) => labels[indices[3 * triangle + c]!] !== CENTRAL)) triangle++;
    tool.click({ model: 'lower', pick: { point: centroid, triangle } });
    expect(editor.teeth.getState().selected).toEqual({ jaw: 'lower', number: CENTRAL });
    expect(editor.getState().toolHint).toBe('teeth.picked');
    const before = countOf('lower', CENTRAL);
    const neighbour = countOf('lower', NEIGHBOUR);

    expect(editor.teeth.renumber('lower', CENTRAL, UPPER[0]!)).toBe(false); // an upper number
    expect(editor.teeth.getState().problem).toBe('TEETH_WRONG_JAW');
    expect(editor.teeth.renumber('lower', CENTRAL, NEIGHBOUR)).toBe(true); // 31 -> 32, which swaps with the 32 there
    await settled();
    expect(countOf('lower', NEIGHBOUR)).toBe(before);
    expect(countOf('lower', CENTRAL)).toBe(neighbour);
    expect(editor.teeth.getState().selected).toEqual({ jaw: 'lower', number: NEIGHBOUR });
    expect(editor.teeth.shownNumbers('lower')).toEqual(LOWER_FDI);
    expect(editor.teeth.getState().jaws.lower.corrected).toBe(true);
    expect(editor.document.teeth?.lower?.vertexCount).toBe(labels.length);

    expect(editor.teeth.renumber('lower', NEIGHBOUR, SPARE)).toBe(true); // 32 -> 38, free
    await settled();
    expect(editor.teeth.shownNumbers('lower')).toContain(toothName(SPARE, 'fdi'));
    expect(editor.teeth.shownNumbers('lower')).not.toContain(toothName(NEIGHBOUR, 'fdi'));
    editor.undo();
    await settled();
    expect(editor.teeth.shownNumbers('lower')).toEqual(LOWER_FDI);
    editor.undo();
    await settled();
    expect(countOf('lower', CENTRAL)).toBe(before);
    expect(editor.document.teeth).toBeUndefined();
    expect(editor.teeth.getState().jaws.lower.corrected).toBe(false);
    editor.redo();
    editor.redo();
    await settled();
    expect(editor.teeth.shownNumbers('lower')).toContain(toothName(SPARE, 'fdi'));
  });

  it('merges two teeth, undo and redo', async () => {
    await showTeeth();
    const a = countOf('lower', CENTRAL), b = countOf('lower', NEIGHBOUR);
    expect(editor.teeth.merge('lower', CENTRAL, NEIGHBOUR)).toBe(true);
    await settled();
    expect(countOf('lower', CENTRAL)).toBe(a + b);
    expect(teethOf('lower').map((t) => t.number)).toEqual(LOWER.filter((n) => n !== NEIGHBOUR));
    editor.undo();
    await settled();
    expect(teethOf('lower').map((t) => t.number)).toEqual(LOWER);
    editor.redo();
    await settled();
    expect(teethOf('lower')).toHaveLength(LOWER.length - 1);
  });

  it('lasso: removes the surface inside to the gum and adds it to the picked tooth', async () => {
    await showTeeth();
    topOfLower();
    editor.setTool('teeth');
    const c = editor.projectModelPoint('lower', teethOf('lower').find((t) => t.number === CENTRAL)!.centroid)!;
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
    const before = countOf('lower', CENTRAL);
    const lines = editor.teeth.getState().jaws.lower.linePoints;
    editor.teeth.setMode('remove');
    await stroke(square);
    const removed = before - countOf('lower', CENTRAL);
    expect(removed).toBeGreaterThan(0);
    expect(removed).toBeLessThan(before);
    // the crown's new edge against the gum (round the hole) is drawn too
    expect(editor.teeth.getState().jaws.lower.linePoints).toBeGreaterThan(lines);
    expect(editor['scene']!.meshes.some((m) => m.name === 'teeth-gumlines-lower')).toBe(true);
    expect(editor.getState().canUndo).toBe(true);

    editor.teeth.select({ jaw: 'lower', number: NEIGHBOUR });
    const neighbour = countOf('lower', NEIGHBOUR);
    editor.teeth.setMode('add');
    await stroke(square);
    expect(countOf('lower', NEIGHBOUR)).toBeGreaterThan(neighbour);
    editor.undo();
    await settled();
    editor.undo();
    await settled();
    expect(countOf('lower', CENTRAL)).toBe(before);
    editor.redo();
    await settled();
    expect(countOf('lower', CENTRAL)).toBe(before - removed);
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
    const tooth = teethOf('lower').find((t) => t.number === PREMOLAR)!; // FDI 34, a premolar on the patient's left
    const c = editor.projectModelPoint('lower', tooth.centroid)!;
    editor.teeth.select({ jaw: 'lower', number: PREMOLAR });
    editor.teeth.setMode('split');
    expect(editor.teeth.splitTarget()).toBe(FREE[0]); // the first free one, FDI 48
    expect(editor.teeth.splitTooth('lower', PREMOLAR, c, { x: c.x + 1, y: c.y }, CENTRAL)).toBe(false); // CENTRAL is on a tooth
    expect(editor.teeth.getState().problem).toBe('TEETH_NUMBER_USED');
    expect(editor.teeth.splitTooth('lower', PREMOLAR, c, { x: c.x + 1, y: c.y }, null)).toBe(false);
    expect(editor.teeth.getState().problem).toBe('TEETH_NO_FREE_NUMBER');
    editor.teeth.setSplitNumber(SPARE);
    await editor.pointer('down', { x: c.x - 40, y: c.y, button: 0, buttons: 1 });
    await editor.pointer('move', { x: c.x, y: c.y, button: 0, buttons: 1 });
    await editor.pointer('up', { x: c.x + 40, y: c.y, button: 0 });
    await settled();
    const kept = countOf('lower', PREMOLAR), other = countOf('lower', SPARE);
    expect(kept).toBeGreaterThan(0);
    expect(other).toBeGreaterThan(0);
    expect(kept + other).toBe(tooth.vertexCount);
    expect(editor.teeth.shownNumbers('lower')).toContain(toothName(SPARE, 'fdi'));
    editor.undo();
    await settled();
    expect(countOf('lower', SPARE)).toBe(0);
    editor.redo();
    await settled();
    expect(countOf('lower', SPARE)).toBe(other);
  });

  it('saves the corrections in the document; a reload shows them', async () => {
    await showTeeth();
    editor.teeth.renumber('lower', CENTRAL, SPARE);
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
      expect(other.editor.teeth.shownNumbers('lower')).toContain(toothName(SPARE, 'fdi'));
      expect(other.editor.teeth.shownNumbers('lower')).not.toContain(toothName(CENTRAL, 'fdi'));
      expect(other.editor.teeth.getState().jaws.lower.corrected).toBe(true);
      expect(other.editor.teeth.shownNumbers('upper')).toEqual(names(UPPER));
    } finally {
      other.dispose();
    }
  });
});
