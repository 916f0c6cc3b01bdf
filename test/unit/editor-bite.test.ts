// The registered bite in the headless editor (NullEngine, the real geometry worker in process):
// the server's result places the jaws, a document's own transforms win (and undo gives the
// server's back), a save writes the server's bite into the document, picks land on the moved
// jaw; the point-pair tool's state machine and "Align" (alignByPairs stood in), and a re-run.
import { Matrix } from '@babylonjs/core/Maths/math.vector';
import { afterEach, describe, expect, it } from 'vitest';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import { cleanRigid, multiply, transformPoint, type Matrix4 } from '../../src/editor/engine/pose.ts';
import { modelToCanonical, parseDocument } from '../../src/editor/engine/document.ts';
import { alignableJaws, effectiveBite, pairsOf, serverBite, withBite, type BiteGeometry } from '../../src/editor/features/bite/feature.ts';
import type { BiteAlignTool } from '../../src/editor/features/bite/tool.ts';
import type { OcclusalModelData } from '../../common/order-lifecycle.ts';
import type { BiteResult } from '../../common/bite.ts';
import { rigidMatrix } from '../fixtures/jaw.ts';
import { headlessEditorEach, jawStls, type Headless } from './editor-harness.ts';

let h: Headless;
let editor: EditorEngine;
headlessEditorEach((made) => ((h = made), (editor = made.editor)));

const UPPER = cleanRigid(rigidMatrix([0, 0, 1], 4, [0.5, -1, 2]));
const LOWER = cleanRigid(rigidMatrix([1, 0, 0], -3, [0, 0.8, -1.5]));

function server(bite: Partial<BiteResult> | null = { upper: UPPER, lower: LOWER }): OcclusalModelData {
  return {
    orderId: 7,
    occlusion: { id: 3, name: 'bite.stl', url: '/x' },
    job: null,
    bite: bite ? { upper: UPPER, lower: LOWER, rms: 0.08, overlap: 0.91, penetration: 0.3, resolved: 0.2, source: 'auto', updateTime: '2026-11-27 20:00:00', ...bite } : null,
  };
}

async function openWithScan(): Promise<void> {
  const { upper, lower } = jawStls();
  const scan = lower.slice(0);
  await editor.openModels([
    { role: 'upper', name: 'upper.stl', source: async (_s, p) => (p(1), upper) },
    { role: 'lower', name: 'lower.stl', source: async (_s, p) => (p(1), lower) },
    { role: 'occlusion', name: 'bite.stl', source: async (_s, p) => (p(1), scan) },
  ]);
}

/** The drawn mesh's model → world matrix, column-major like ours. */
function worldOf(role: 'upper' | 'lower' | 'occlusion'): number[] {
  const mesh = editor['models'].meshOf(role)!;
  const m: Matrix = mesh.computeWorldMatrix(true);
  return Array.from(m.asArray());
}

function expectMatrix(actual: ArrayLike<number>, expected: Matrix4): void {
  for (let i = 0; i < 16; i++) expect(actual[i]!).toBeCloseTo(expected[i]!, 5);
}

/** The geometry client with the bite kernel's calls stood in on the instance (the file's one client: removed after each test). */
function standIn(calls: BiteGeometry): void {
  Object.assign(h.geometry, calls);
}
afterEach(() => {
  const g = h.geometry as unknown as Record<string, unknown>;
  delete g.registerBite;
  delete g.alignByPairs;
});

describe('bite registration in the editor (headless)', () => {
  it("the server's bite places the jaws, the scan stays in the bite frame; the document's own transforms win, and undo brings the server's back", async () => {
    await openWithScan();
    expectMatrix(worldOf('upper'), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    editor.bite.setServer(server());
    expectMatrix(editor.modelBite('upper')!, UPPER);
    expectMatrix(worldOf('upper'), UPPER);
    expectMatrix(worldOf('lower'), LOWER);
    expect(editor.modelBite('occlusion')).toBeNull();
    expect(editor.bite.getState().quality).toMatchObject({ source: 'server', rms: 0.08, overlap: 0.91, penetration: 0.3, resolved: 0.2, error: null });

    const own = cleanRigid(rigidMatrix([0, 1, 0], 2, [1, 1, 1]));
    const doc = editor.document;
    editor.changeDocument('bite.manual', { ...doc, bite: { upper: own, lower: LOWER, source: 'manual' } });
    expectMatrix(worldOf('upper'), own);
    editor.undo();
    expectMatrix(worldOf('upper'), UPPER);
  });

  it("a save writes the server's bite into a document without one; a failed registration is no bite", () => {
    const doc = parseDocument({ schemaVersion: 1, measurements: [] });
    expect(withBite(doc, server()).bite).toEqual({ upper: UPPER, lower: LOWER, source: 'auto' });
    const own = { ...doc, bite: { upper: LOWER, lower: UPPER, source: 'manual' as const } };
    expect(withBite(own, server())).toBe(own);
    const failed = server({ error: 'The bite scan does not overlap the models', code: 'BITE_NO_OVERLAP', upper: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] });
    expect(serverBite(failed)).toBeNull();
    expect(effectiveBite(doc, failed)).toBeNull();
    // The document keeps its bite through JSON.
    expect(parseDocument(JSON.parse(JSON.stringify(own))).bite).toEqual(own.bite);
    // A jaw's frame → canonical is its bite, then the straightening (wire templates, insertion direction); the scan has no bite.
    const S = cleanRigid(rigidMatrix([1, 0, 0], 10, [0, 0, 3]));
    const straight = { ...own, straightening: { matrix: S, jaw: 'upper' as const } };
    expectMatrix(modelToCanonical(straight, 'upper'), multiply(S, LOWER));
    expectMatrix(modelToCanonical(straight, 'occlusion'), S);
    expectMatrix(modelToCanonical(doc, 'lower'), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('picks land on the jaw as it is placed in the bite', async () => {
    await openWithScan();
    editor.setVisible('occlusion', false);
    editor.setVisible('lower', false);
    editor.bite.setServer(server());
    editor.setView('top');
    editor.renderNow();
    // The arch is a U: walk a coarse grid to the first surface.
    let hit = null;
    let at = { x: 0, y: 0 };
    for (let y = 60; y < 600 && !hit; y += 40) {
      for (let x = 60; x < 800 && !hit; x += 40) {
        hit = await editor.pickAt(x, y);
        at = { x, y };
      }
    }
    expect(hit?.model).toBe('upper');
    // On the mesh kept in the worker (its own frame), and drawn under the cursor with the bite applied.
    const closest = await h.geometry.closestPoints(editor.handleOf('upper')!, new Float32Array(hit!.pick.point));
    expect(closest.distance[0]!).toBeLessThan(1e-3);
    const p = editor.projectModelPoint('upper', hit!.pick.point)!;
    expect(Math.hypot(p.x - at.x, p.y - at.y)).toBeLessThan(1.5);
  });

  it('the point-pair tool: jaw point, then scan point, makes a pair; Escape, Backspace; Enter aligns the jaws with enough pairs as one undoable change', async () => {
    await openWithScan();
    const aligned = cleanRigid(rigidMatrix([0, 0, 1], 1, [0.2, 0, 0]));
    const calls: unknown[][] = [];
    standIn({
      alignByPairs: async (...args) => {
        calls.push(args);
        return { matrix: aligned, rms: 0.05, points: args[2].length };
      },
    });
    editor.bite.setServer(server());
    editor.setTool('bite');
    const tool = editor.activeTool as BiteAlignTool;
    expect(tool.hint).toBe('bite.jaw');
    const pick = (model: 'upper' | 'lower' | 'occlusion', x: number) => ({ model, pick: { point: [x, 1, 2] as const, triangle: 0 } });
    // A scan point first is ignored; a jaw point waits for its partner; Escape forgets it.
    tool.click(pick('occlusion', 0));
    expect(tool.phase).toBe('idle');
    tool.click(pick('upper', 0));
    expect(tool.phase).toBe('pointing');
    expect(tool.hint).toBe('bite.scan');
    expect(tool.key('Escape')).toBe(true);
    expect(tool.phase).toBe('idle');
    expect(editor.bite.getState().pairs).toHaveLength(0);
    // Three pairs on the upper jaw, one on the lower; Backspace takes the last back.
    for (const x of [1, 2, 3]) {
      tool.click(pick('upper', x));
      tool.click(pick('occlusion', x + 10));
    }
    tool.click(pick('lower', 9));
    tool.click(pick('occlusion', 19));
    tool.click(pick('lower', 8));
    tool.click(pick('occlusion', 18));
    expect(editor.bite.getState().pairs).toHaveLength(5);
    expect(tool.key('Backspace')).toBe(true);
    expect(editor.bite.getState().pairs).toHaveLength(4);
    expect(alignableJaws(editor.bite.getState().pairs)).toEqual(['upper']);
    expect(pairsOf(editor.bite.getState().pairs, 'upper')[0]).toEqual({ jaw: [1, 1, 2], bite: [11, 1, 2] });
    expect(tool.hint).toBe('bite.ready');
    expect(editor.actions.enabled('bite.align')).toBe(true);

    const depth = editor.commands.depth;
    expect(tool.key('Enter')).toBe(true);
    await expect.poll(() => editor.document.bite?.source).toBe('manual');
    expect(tool.phase).toBe('idle');
    expect(calls).toHaveLength(1);
    expect(calls[0]![3]).toEqual(UPPER); // started from the bite shown
    expect(editor.document.bite).toEqual({ upper: aligned, lower: LOWER, source: 'manual' });
    expect(editor.commands.depth).toBe(depth + 1);
    expectMatrix(worldOf('upper'), aligned);
    // The upper pairs were used; the lower one waits for more.
    expect(editor.bite.getState().pairs.map((p) => p.jaw)).toEqual(['lower']);
    expect(editor.bite.getState().quality).toMatchObject({ source: 'manual', rms: 0.05 });
    editor.undo();
    // Back to the server's bite, written into the document when it arrived (no undo step of its own).
    expect(editor.document.bite).toEqual({ upper: UPPER, lower: LOWER, source: 'auto' });
    expectMatrix(worldOf('upper'), UPPER);
  });

  it('re-running the registration: a result becomes the document\'s bite (undoable); a failure shows its reason and changes nothing', async () => {
    await openWithScan();
    let answer: BiteResult = { upper: UPPER, lower: LOWER, rms: 0.1, overlap: 0.8, penetration: 0.4, resolved: 0.3 };
    standIn({ registerBite: async (_u, _l, _b, opts) => (opts?.onProgress?.(0.5), answer) });
    expect(editor.actions.enabled('bite.rerun')).toBe(true);
    expect(await editor.bite.rerun()).toBe(true);
    expect(editor.document.bite).toEqual({ upper: UPPER, lower: LOWER, source: 'auto' });
    expect(editor.bite.getState()).toMatchObject({ running: null, quality: { source: 'rerun', rms: 0.1 } });
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    answer = { upper: identity, lower: identity, rms: NaN, overlap: 0, penetration: 0, error: 'The bite scan does not overlap the models', code: 'BITE_NO_OVERLAP' };
    const depth = editor.commands.depth;
    expect(await editor.bite.rerun()).toBe(false);
    expect(editor.commands.depth).toBe(depth);
    expect(editor.bite.getState().quality).toMatchObject({ error: 'The bite scan does not overlap the models', code: 'BITE_NO_OVERLAP' });
    expectMatrix(worldOf('upper'), UPPER);
    expect(transformPoint(worldOf('occlusion'), [1, 2, 3])).toEqual([1, 2, 3]);
  });
});
