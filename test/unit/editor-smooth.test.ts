// The smoothing brush headless: NullEngine + the real geometry worker in process. A stroke
// dragged over the jaw moves vertices in the worker and in the vertex buffers, one undo puts
// both back exactly (the worker's setVertices), redo and reopening bring the stroke back.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { DesignDocument } from '../../src/editor/engine/document.ts';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import type { SmoothTool } from '../../src/editor/features/smooth/tool.ts';
import { headlessEditor, headlessEditorEach, openPalateJaw, type Headless } from './editor-harness.ts';

let h: Headless;
let editor: EditorEngine;
headlessEditorEach((made) => ((h = made), (editor = made.editor)));


/** The model's positions as the renderer has them (a copy). */
function drawn(e: EditorEngine): Float32Array {
  return e.smoothing.drawnPositions('lower')!;
}

/** The worker's mesh, as its STL export writes it (hex digest: big arrays compare slowly). */
async function kept(e: EditorEngine): Promise<string> {
  const bytes = await h.geometry.exportStl(e.handleOf('lower')!);
  return createHash('sha256').update(bytes).digest('hex');
}

function movedCount(a: Float32Array, b: Float32Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 3) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
  return n;
}

/** Pixels of a short drag over the teeth at the front of the arch. */
function strokePath(e: EditorEngine): { x: number; y: number }[] {
  return [-6, -3, 0, 3, 6].map((x) => e.projectModelPoint('lower', [x, -12, 2])!);
}

async function stroke(e: EditorEngine): Promise<void> {
  const path = strokePath(e);
  await e.pointer('down', { ...path[0]!, button: 0, buttons: 1 });
  for (const p of path.slice(1)) {
    await e.pointer('move', { ...p, button: 0, buttons: 1 });
    await (e.activeTool as SmoothTool).settled();
  }
  await e.pointer('up', { ...path.at(-1)!, button: 0 });
  await e.smoothing.settled();
}

describe('smoothing brush (headless)', () => {
  it('shows the brush ring on the surface under the pointer, sized by the radius', async () => {
    await openPalateJaw(editor);
    expect(editor.actions.run('tool.smooth')).toBe(true);
    editor.smoothing.setRadius(3);
    const p = editor.projectModelPoint('lower', [0, 5, -10])!;
    await editor.pointer('move', { ...p, button: -1, buttons: 0 });
    await (editor.activeTool as SmoothTool).settled();
    const cursor = editor.smoothing.cursor!;
    expect(cursor.radius).toBe(3);
    const surface = (await editor.pickAt(p.x, p.y))!.pick.point;
    for (let a = 0; a < 3; a++) expect(cursor.point[a]).toBeCloseTo(surface[a]!, 3);
    expect(cursor.point[2]).toBeLessThan(-7.9); // on the palate, not the aimed plane
    // The pointer leaves the viewport: the ring goes, even with a pick still under way.
    await editor.pointer('move', { ...p, x: p.x + 3, button: -1, buttons: 0 });
    (editor.activeTool as SmoothTool).pointerLeave();
    await (editor.activeTool as SmoothTool).settled();
    await Promise.resolve();
    expect(editor.smoothing.cursor).toBeNull();
  });

  it('a stroke moves vertices in the worker and the buffers; undo restores both exactly, redo and reopening bring it back', async () => {
    await openPalateJaw(editor);
    const before = drawn(editor);
    const keptBefore = await kept(editor);
    editor.actions.run('tool.smooth');
    editor.smoothing.setRadius(2.5);
    editor.smoothing.setStrength(1);
    await stroke(editor);
    const after = drawn(editor);
    const keptAfter = await kept(editor);
    expect(movedCount(before, after)).toBeGreaterThan(20);
    expect(keptAfter).not.toEqual(keptBefore);
    const ops = editor.getState().document.smoothing!;
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ model: 'lower', radius: 2.5, strength: 1 });
    expect(ops[0]!.dabs!.length).toBeGreaterThanOrEqual(4 * 3);
    expect(editor.getState().canUndo).toBe(true);

    editor.undo();
    await editor.smoothing.settled();
    expect(editor.getState().document.smoothing ?? []).toEqual([]);
    expect(movedCount(before, drawn(editor))).toBe(0);
    expect(await kept(editor)).toEqual(keptBefore);

    editor.redo();
    await editor.smoothing.settled();
    expect(movedCount(after, drawn(editor))).toBe(0);
    expect(await kept(editor)).toEqual(keptAfter);

    // Reopening replays the saved dabs on the fresh model: the same surface.
    const saved = JSON.parse(JSON.stringify(editor.getState().document)) as DesignDocument;
    const again = await headlessEditor();
    try {
      again.editor.loadDocument(saved);
      await openPalateJaw(again.editor);
      await again.editor.smoothing.settled();
      const replayed = drawn(again.editor);
      let far = 0;
      for (let i = 0; i < after.length; i++) if (Math.abs(replayed[i]! - after[i]!) > 1e-3) far++;
      expect(far).toBe(0);
    } finally {
      again.dispose();
    }
  });

  it('"Smooth all" smooths the whole model with progress, in one undoable step', async () => {
    await openPalateJaw(editor);
    const before = drawn(editor);
    const keptBefore = await kept(editor);
    const progress: number[] = [];
    const o = editor.smoothing.onChanged.add((v) => v.progress !== null && progress.push(v.progress));
    expect(await editor.smoothing.smoothAll('lower')).toBe(true);
    editor.smoothing.onChanged.remove(o);
    expect(progress.length).toBeGreaterThan(0);
    expect(movedCount(before, drawn(editor))).toBeGreaterThan(before.length / 3 / 4);
    expect(editor.getState().document.smoothing).toEqual([{ model: 'lower', radius: 0, strength: 1, all: true }]);
    editor.undo();
    await editor.smoothing.settled();
    expect(movedCount(before, drawn(editor))).toBe(0);
    expect(await kept(editor)).toEqual(keptBefore);
  });

  it('the worker writes listed vertices back (setVertices) and refuses ids out of range', async () => {
    await openPalateJaw(editor);
    const handle = editor.handleOf('lower')!;
    const keptBefore = await kept(editor);
    const original = drawn(editor);
    await h.geometry.setVertices(handle, Uint32Array.of(0, 5), Float32Array.of(100, 100, 100, -100, -100, -100));
    expect(await kept(editor)).not.toEqual(keptBefore);
    await h.geometry.setVertices(handle, Uint32Array.of(0, 5), Float32Array.of(...original.subarray(0, 3), ...original.subarray(15, 18)));
    expect(await kept(editor)).toEqual(keptBefore);
    await expect(h.geometry.setVertices(handle, Uint32Array.of(1e9), Float32Array.of(0, 0, 0))).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });
});
