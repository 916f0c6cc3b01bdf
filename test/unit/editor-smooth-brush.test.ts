// The smoothing brush's two promises, headless (NullEngine + the real geometry worker in process):
// the camera stays still from the very press of a stroke, even while the worker's pick has not
// answered yet, and a press beside the models still orbits (also one inside a model's box that
// the pick then finds empty: the drag turns the view); and one pass at 100 % visibly smooths a
// fissure (to under half its depth) where 10 % is subtle, with saved strokes of the first brush
// still replayed as they were made.
//
// The camera is driven as Babylon's input manager drives it in the page: pointer events through
// the scene's onPointerObservable (which the camera's pointer input observes), the tool through
// engine.pointer(), in the page's order (Babylon's canvas listener first).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { PointerEventTypes, PointerInfo } from '@babylonjs/core/Events/pointerEvents';
import type { Scene } from '@babylonjs/core/scene';
import { parseDocument, type DesignDocument, type SmoothOp } from '../../src/editor/engine/document.ts';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import type { SmoothTool } from '../../src/editor/features/smooth/tool.ts';
import { heightFieldSolid } from '../fixtures/base-models.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';
import { headlessEditor, headlessEditorEach, openJaws, openPalateJaw, type Headless } from './editor-harness.ts';

let h: Headless;
let editor: EditorEngine;
headlessEditorEach((made) => ((h = made), (editor = made.editor)));

/** The camera's pointer input, attached as the page attaches it, and pointer events as Babylon's input manager sends them. */
function cameraInput(e: EditorEngine) {
  const scene = (e as unknown as { scene: Scene }).scene;
  (scene.activeCamera as ArcRotateCamera).attachControl();
  const send = (type: number, p: { x: number; y: number }): void => {
    const evt = { button: 0, buttons: type === PointerEventTypes.POINTERUP ? 0 : 1, clientX: p.x, clientY: p.y, pointerId: 1, pointerType: 'mouse', target: null, altKey: false, ctrlKey: false, shiftKey: false, metaKey: false, preventDefault() {} };
    scene.onPointerObservable.notifyObservers(new PointerInfo(type, evt as unknown as PointerEvent, null), type);
  };
  return {
    async down(p: { x: number; y: number }) {
      send(PointerEventTypes.POINTERDOWN, p);
      await e.pointer('down', { ...p, button: 0, buttons: 1 });
    },
    async move(p: { x: number; y: number }) {
      send(PointerEventTypes.POINTERMOVE, p);
      await e.pointer('move', { ...p, button: 0, buttons: 1 });
    },
    async up(p: { x: number; y: number }) {
      send(PointerEventTypes.POINTERUP, p);
      await e.pointer('up', { ...p, button: 0 });
    },
  };
}

/** Draws frames so that the camera applies what its input accumulated. */
function frames(e: EditorEngine): { alpha: number; beta: number } {
  for (let i = 0; i < 8; i++) e.renderNow();
  const { alpha, beta } = e.cameraAngles!;
  return { alpha, beta };
}

const turned = (a: { alpha: number; beta: number }, b: { alpha: number; beta: number }): number => Math.abs(a.alpha - b.alpha) + Math.abs(a.beta - b.beta);

describe('smoothing brush: the camera at the press', () => {
  it('a press on a model holds the camera at once: a drag begun before the pick answers does not turn the view', async () => {
    await openPalateJaw(editor);
    editor.actions.run('tool.smooth');
    editor.smoothing.setRadius(2);
    const input = cameraInput(editor);
    const start = frames(editor);
    const a = editor.projectModelPoint('lower', [0, 5, -10])!; // the palate
    const b = { x: a.x + 40, y: a.y + 25 };
    await input.down(a);
    await input.move(b); // the worker has not answered the press's pick yet
    expect(editor.getState().toolPhase).not.toBe('dragging');
    expect(turned(start, frames(editor))).toBe(0);
    await (editor.activeTool as SmoothTool).settled();
    expect(editor.getState().toolPhase).toBe('dragging');
    await input.move({ x: a.x + 60, y: a.y + 10 });
    await (editor.activeTool as SmoothTool).settled();
    await input.up(b);
    await editor.smoothing.settled();
    expect(turned(start, frames(editor))).toBe(0);
    expect(editor.getState().document.smoothing).toHaveLength(1);
    // Released: the next drag beside the model orbits again.
    expect(editor.mayHitModel(4, 4)).toBe(false);
    await input.down({ x: 4, y: 4 });
    await input.move({ x: 44, y: 24 });
    await input.up({ x: 44, y: 24 });
    expect(turned(start, frames(editor))).toBeGreaterThan(0.01);
  });

  it('a double click then a drag: the second press decides, the view holds, one stroke', async () => {
    await openPalateJaw(editor);
    editor.actions.run('tool.smooth');
    const input = cameraInput(editor);
    const start = frames(editor);
    const a = editor.projectModelPoint('lower', [0, 5, -10])!;
    const b = { x: a.x + 30, y: a.y + 30 };
    await input.down(a);
    const firstUp = input.up(a); // released before its pick answered (the page does not wait either)
    await input.down(a);
    await input.move(b);
    await firstUp;
    await (editor.activeTool as SmoothTool).settled();
    await input.move({ x: b.x + 10, y: b.y });
    await (editor.activeTool as SmoothTool).settled();
    await input.up(b);
    await editor.smoothing.settled();
    expect(turned(start, frames(editor))).toBe(0);
    expect(editor.getState().document.smoothing).toHaveLength(1);
  });

  it('a press beside the models orbits at once and smooths nothing', async () => {
    await openPalateJaw(editor);
    editor.actions.run('tool.smooth');
    const input = cameraInput(editor);
    const start = frames(editor);
    expect(editor.mayHitModel(4, 300)).toBe(false);
    await input.down({ x: 4, y: 300 });
    await input.move({ x: 44, y: 320 });
    expect(turned(start, frames(editor))).toBeGreaterThan(0.01);
    await input.up({ x: 44, y: 320 });
    await editor.smoothing.settled();
    expect(editor.getState().document.smoothing ?? []).toEqual([]);
  });

  it('a press inside a model box that the pick finds empty hands the drag to the camera, which turns the view from the press', async () => {
    await openJaws(editor); // the arch's middle is empty, inside both jaws' boxes
    editor.setVisible('upper', false);
    editor.setView('top');
    editor.renderNow();
    editor.actions.run('tool.smooth');
    const centre = editor.projectModelPoint('lower', [0, 5, 0])!;
    expect(editor.mayHitModel(centre.x, centre.y)).toBe(true);
    expect(await editor.pickAt(centre.x, centre.y)).toBeNull();
    await editor.pickAt(4, 4); // the pointer did not hover there before the press: nothing known of the centre
    expect(editor.mayHitModel(centre.x, centre.y)).toBe(true);

    // The same drag as a plain orbit, for comparison (its direction: frames apply it over time).
    const orbit = await headlessEditor();
    let expected: { alpha: number; beta: number };
    try {
      await openJaws(orbit.editor);
      orbit.editor.setVisible('upper', false);
      orbit.editor.setView('top');
      const plain = cameraInput(orbit.editor);
      const from = frames(orbit.editor);
      await plain.down(centre);
      await plain.move({ x: centre.x + 50, y: centre.y + 20 });
      const to = frames(orbit.editor);
      expected = { alpha: to.alpha - from.alpha, beta: to.beta - from.beta };
    } finally {
      orbit.dispose();
    }

    const input = cameraInput(editor);
    const start = frames(editor);
    await input.down(centre);
    await (editor.activeTool as SmoothTool).settled(); // the pick has missed: the camera has the press
    await input.move({ x: centre.x + 50, y: centre.y + 20 });
    const after = frames(editor);
    expect(turned(start, after)).toBeGreaterThan(0.01);
    expect(Math.sign(after.alpha - start.alpha)).toBe(Math.sign(expected.alpha));
    expect(Math.sign(after.beta - start.beta)).toBe(Math.sign(expected.beta));
    await input.up({ x: centre.x + 50, y: centre.y + 20 });
    await editor.smoothing.settled();
    expect(editor.getState().document.smoothing ?? []).toEqual([]);
  });

  it('a press where the hovering brush has just found no surface orbits at once', async () => {
    await openJaws(editor);
    editor.setVisible('upper', false);
    editor.setView('top');
    editor.renderNow();
    editor.actions.run('tool.smooth');
    const centre = editor.projectModelPoint('lower', [0, 5, 0])!; // the arch's empty middle
    await editor.pointer('move', { ...centre, button: -1, buttons: 0 });
    await (editor.activeTool as SmoothTool).settled();
    expect(editor.mayHitModel(centre.x, centre.y)).toBe(false);
    const input = cameraInput(editor);
    const start = frames(editor);
    await input.down(centre);
    await input.move({ x: centre.x + 40, y: centre.y + 20 }); // no pick answered since the press
    expect(turned(start, frames(editor))).toBeGreaterThan(0.01);
    await input.up({ x: centre.x + 40, y: centre.y + 20 });
    // Another view: the hover's answer no longer holds, the boxes decide again (the jaw faces us).
    editor.setView('front');
    expect(editor.mayHitModel(centre.x, centre.y)).toBe(true);
  });
});

// ------------------------------------------------------------------ strength

const FISSURE_DEPTH = 0.6;
/** A 12 × 12 mm block with a V fissure along y (1 mm wide, 0.6 mm deep) on a 0.2 mm grid, as on a scanned molar. */
function fissureStl(): ArrayBuffer {
  const block = heightFieldSolid((x) => -FISSURE_DEPTH * Math.max(0, 1 - Math.abs(x) / 0.5), -6, 6, -6, 6, 60, 60, -5);
  return binaryStl(soupOf(block)).buffer as ArrayBuffer;
}

async function openFissure(e: EditorEngine): Promise<void> {
  const bytes = fissureStl();
  await e.openModels([{ role: 'lower', name: 'lower.stl', source: async (_s, onProgress) => (onProgress(1), bytes) }]);
  e.setView('top');
  e.renderNow();
}

/** The vertex drawn nearest a point (the parser welds and renumbers). */
function vertexNear(p: Float32Array, x: number, y: number, z: number): number {
  let best = 0, bestD = Infinity;
  for (let v = 0; v < p.length / 3; v++) {
    const d = (p[v * 3]! - x) ** 2 + (p[v * 3 + 1]! - y) ** 2 + (p[v * 3 + 2]! - z) ** 2;
    if (d < bestD) [best, bestD] = [v, d];
  }
  return best;
}

/** The fissure's depth at y = 0 as drawn: the rims 1.5 mm either side minus the bottom. */
function fissureDepth(e: EditorEngine, ids: { bottom: number; left: number; right: number }): number {
  const p = e.smoothing.drawnPositions('lower')!;
  return (p[ids.left * 3 + 2]! + p[ids.right * 3 + 2]!) / 2 - p[ids.bottom * 3 + 2]!;
}

/**
 * The pixel over the fissure's bottom at y: exactly on its crease, an edge of the symmetric
 * generated mesh, which the worker's watertight ray test must not let a ray slip through.
 */
const overFissure = (e: EditorEngine, y: number) => e.projectModelPoint('lower', [0, y, -FISSURE_DEPTH])!;

/** One pass along the fissure, y from -3 to 3 mm, the pointer moving half a millimetre at a time. */
async function passAlongFissure(e: EditorEngine): Promise<void> {
  const at = (y: number) => overFissure(e, y);
  await e.pointer('down', { ...at(-3), button: 0, buttons: 1 });
  for (let y = -2.5; y <= 3.001; y += 0.5) {
    await e.pointer('move', { ...at(y), button: 0, buttons: 1 });
    await (e.activeTool as SmoothTool).settled();
  }
  await e.pointer('up', { ...at(3), button: 0 });
  await e.smoothing.settled();
}

async function depthAfterPass(strength: number): Promise<{ before: number; after: number }> {
  await openFissure(editor);
  const p = editor.smoothing.drawnPositions('lower')!;
  const ids = { bottom: vertexNear(p, 0, 0, -FISSURE_DEPTH), left: vertexNear(p, -1.5, 0, 0), right: vertexNear(p, 1.5, 0, 0) };
  const before = fissureDepth(editor, ids);
  editor.actions.run('tool.smooth');
  editor.smoothing.setRadius(2);
  editor.smoothing.setStrength(strength);
  await passAlongFissure(editor);
  return { before, after: fissureDepth(editor, ids) };
}

describe('smoothing brush: strength', () => {
  it('one pass at 100 % takes a fissure to under half its depth', async () => {
    const { before, after } = await depthAfterPass(1);
    expect(before).toBeCloseTo(FISSURE_DEPTH, 3);
    expect(after).toBeLessThan(before * 0.5);
    expect(after).toBeGreaterThan(0); // smoothed, not filled over
    expect(editor.getState().document.smoothing![0]).toMatchObject({ strength: 1, brush: 2 });
  });

  it('one pass at 10 % is subtle: the fissure keeps most of its depth (over 70 %)', async () => {
    const { before, after } = await depthAfterPass(0.1);
    expect(after).toBeLessThan(before * 0.95); // it does something
    expect(after).toBeGreaterThan(before * 0.7); // a 100 % pass takes more than twice as much (above)
  });

  it('a fast drag smooths the way between its picks: dabs are filled in half a radius apart', async () => {
    await openFissure(editor);
    const p0 = editor.smoothing.drawnPositions('lower')!;
    const ids = { bottom: vertexNear(p0, 0, 0, -FISSURE_DEPTH), left: vertexNear(p0, -1.5, 0, 0), right: vertexNear(p0, 1.5, 0, 0) };
    editor.actions.run('tool.smooth');
    editor.smoothing.setRadius(1);
    editor.smoothing.setStrength(1);
    const at = (y: number) => overFissure(editor, y);
    // One move from y = -2 to y = 2: without filling, nothing within 1 mm of y = 0 would be dabbed.
    await editor.pointer('down', { ...at(-2), button: 0, buttons: 1 });
    await editor.pointer('move', { ...at(2), button: 0, buttons: 1 });
    await (editor.activeTool as SmoothTool).settled();
    await editor.pointer('up', { ...at(2), button: 0 });
    await editor.smoothing.settled();
    const dabs = editor.getState().document.smoothing![0]!.dabs!;
    // 4 mm at 0.5 mm: 7 or 8 between (the pick lands a little off the aimed point), in order.
    expect(dabs.length / 4).toBeGreaterThanOrEqual(2 + 7);
    expect(dabs.length / 4).toBeLessThanOrEqual(2 + 8);
    const ys = Array.from({ length: dabs.length / 4 }, (_, i) => dabs[i * 4 + 1]!);
    for (let i = 0; i < ys.length - 1; i++) {
      expect(ys[i + 1]! - ys[i]!).toBeGreaterThan(0.3);
      expect(ys[i + 1]! - ys[i]!).toBeLessThan(0.55);
    }
    expect(fissureDepth(editor, ids)).toBeLessThan(FISSURE_DEPTH * 0.8);
  });

  it('the fissure is filled from its bottom: the flat top beside it stays where it was', async () => {
    await openFissure(editor);
    const p0 = editor.smoothing.drawnPositions('lower')!;
    const beside = [-1.5, -1, 1, 1.5].flatMap((x) => [-1, 0, 1].map((y) => vertexNear(p0, x, y, 0)));
    editor.actions.run('tool.smooth');
    editor.smoothing.setRadius(2);
    editor.smoothing.setStrength(1);
    await passAlongFissure(editor);
    const p = editor.smoothing.drawnPositions('lower')!;
    for (const v of beside) expect(Math.abs(p[v * 3 + 2]!)).toBeLessThan(0.05);
    // Below it: the fissure's bottom rose.
    expect(p[vertexNear(p0, 0, 0, -FISSURE_DEPTH) * 3 + 2]!).toBeGreaterThan(-FISSURE_DEPTH / 2);
  });

  it('strokes saved by the first brush replay with its dabs, those of the second with the new ones', async () => {
    await openFissure(editor);
    editor.actions.run('tool.smooth');
    editor.smoothing.setRadius(2);
    editor.smoothing.setStrength(1);
    await passAlongFissure(editor);
    const op = editor.getState().document.smoothing![0]!;
    const { brush: _, ...firstBrush } = op;
    const docOf = (ops: SmoothOp[]): DesignDocument => JSON.parse(JSON.stringify({ ...editor.getState().document, smoothing: ops })) as DesignDocument;

    // What the first brush made of these dabs: the worker's dab with its defaults (3 Taubin rounds).
    const direct = await headlessEditor();
    let firstSurface: string;
    try {
      await openFissure(direct.editor);
      const handle = direct.editor.handleOf('lower')!;
      const d = op.dabs!;
      for (let i = 0; i < d.length; i += 4) await h.geometry.smoothDab(handle, { center: [d[i]!, d[i + 1]!, d[i + 2]!], triangle: d[i + 3]!, radius: op.radius, strength: op.strength });
      firstSurface = createHash('sha256').update(await h.geometry.exportStl(handle)).digest('hex');
    } finally {
      direct.dispose();
    }

    const reopen = async (doc: DesignDocument): Promise<{ surface: string; drawn: Float32Array }> => {
      const again = await headlessEditor();
      try {
        again.editor.loadDocument(doc);
        await openFissure(again.editor);
        await again.editor.smoothing.settled();
        return {
          surface: createHash('sha256').update(await h.geometry.exportStl(again.editor.handleOf('lower')!)).digest('hex'),
          drawn: again.editor.smoothing.drawnPositions('lower')!,
        };
      } finally {
        again.dispose();
      }
    };
    const old = await reopen(docOf([firstBrush]));
    expect(old.surface).toBe(firstSurface);
    // The second brush's stroke comes back as it was drawn (its dabs are saved to 0.1 µm).
    const current = await reopen(docOf([op]));
    const live = editor.smoothing.drawnPositions('lower')!;
    let far = 0;
    for (let i = 0; i < live.length; i++) if (Math.abs(current.drawn[i]! - live[i]!) > 1e-3) far++;
    expect(far).toBe(0);
    expect(current.surface).not.toBe(old.surface);
  });

  it('a saved document keeps each stroke\'s brush; a stroke of an unknown brush is dropped, not replayed as another', () => {
    const stroke = { model: 'lower', radius: 2, strength: 1, dabs: [0, 0, 0, 5] };
    const doc = parseDocument({ schemaVersion: 1, measurements: [], smoothing: [stroke, { ...stroke, brush: 2 }, { ...stroke, brush: 3 }] });
    expect(doc.smoothing).toEqual([stroke, { ...stroke, brush: 2 }]);
  });
});
