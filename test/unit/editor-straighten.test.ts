// The straightening tool headless: a NullEngine scene and the real geometry worker in process.
// Jaws generated upright, then tilted by a known rotation, are straightened by the worker; the
// pose goes into the document, picks still land on the surface, a handle drag is one undo step
// and the reset brings the models back as they were in their files.
import type { Mesh } from '@babylonjs/core/Meshes/mesh';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { describe, expect, it } from 'vitest';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import { invertRigid, multiply, rotateVector, transformPoint, type Matrix4 } from '../../src/editor/engine/pose.ts';
import type { StraightenTool } from '../../src/editor/features/straighten/tool.ts';
import { parseDocument } from '../../src/editor/engine/document.ts';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';
import { headlessEditorEach, type Headless } from './editor-harness.ts';

/** Angle of the rotation part of a pose in degrees. */
function rotationDegrees(m: Matrix4): number {
  const trace = m[0]! + m[5]! + m[10]!;
  return (Math.acos(Math.max(-1, Math.min(1, (trace - 1) / 2))) * 180) / Math.PI;
}

let h: Headless;
let editor: EditorEngine;
headlessEditorEach((made) => ((h = made), (editor = made.editor)));

/** The tilt applied to both generated jaws (as a scanner might have left them). */
const TILT = rigidMatrix([1, 0.4, -0.2], 18, [6, -4, 9]);


async function openTiltedJaws(): Promise<void> {
  const lower = jawMesh({ detail: 0.5 });
  const upright = transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5]));
  const stl = (positions: Float32Array) => binaryStl(soupOf({ positions: transformPositions(positions, TILT), indices: lower.indices })).buffer;
  const bytes = { upper: stl(upright), lower: stl(lower.positions) };
  await editor.openModels(
    (['upper', 'lower'] as const).map((role) => ({ role, name: `${role}.stl`, source: async (_s: AbortSignal, p: (f: number) => void) => (p(1), bytes[role]) })),
  );
}

const pose = () => editor.getState().document.straightening?.matrix ?? null;

describe('straightening (headless)', () => {
  it('straightens tilted jaws: the models end upright in the world, saved in the document', async () => {
    await openTiltedJaws();
    editor.setTool('straighten');
    expect(editor.getState().tool).toBe('straighten');
    const depth = editor.commands.depth;
    await editor.straightening.auto();
    const state = editor.getState();
    expect(state.straighten).toMatchObject({ busy: false, error: null, method: 'arch' });
    expect(state.document.straightening?.jaw).toBe('upper');
    expect(editor.commands.depth).toBe(depth + 1);
    // World pose of the generated (upright) jaw: straightening after the tilt.
    const world = multiply(pose()!, TILT);
    expect(rotationDegrees(world)).toBeLessThan(3);
    expect(rotationDegrees(TILT)).toBeGreaterThan(15);
    // The saved document reads back the same.
    expect(parseDocument(JSON.parse(JSON.stringify(state.document))).straightening).toEqual(state.document.straightening);
  });

  it('a pick after straightening lands on the surface, in the model frame', async () => {
    await openTiltedJaws();
    await editor.straightening.auto();
    editor.setView('top');
    let hit = null;
    let at = { x: 0, y: 0 };
    // The arch is a U: walk a coarse grid to the first surface.
    for (let y = 60; y < 600 && !hit; y += 40) {
      for (let x = 60; x < 800 && !hit; x += 40) {
        hit = await editor.pickAt(x, y);
        at = { x, y };
      }
    }
    expect(hit).not.toBeNull();
    // On the mesh kept in the worker (its own frame)...
    const closest = await h.geometry.closestPoints(editor.handleOf(hit!.model)!, new Float32Array(hit!.pick.point));
    expect(closest.distance[0]!).toBeLessThan(1e-3);
    // ...and drawn under the cursor.
    const back = editor.projectModelPoint(hit!.model, hit!.pick.point)!;
    expect(Math.hypot(back.x - at.x, back.y - at.y)).toBeLessThan(0.5);
    // The mesh is drawn in the same pose as the picking assumes (bite closed: no offset).
    const mesh = (editor as unknown as { models: Map<string, { mesh: Mesh }> }).models.get(hit!.model)!.mesh;
    const drawn = Vector3.TransformCoordinates(Vector3.FromArray(hit!.pick.point), mesh.computeWorldMatrix(true));
    const expected = transformPoint(pose()!, hit!.pick.point);
    expect(Math.hypot(drawn.x - expected[0], drawn.y - expected[1], drawn.z - expected[2])).toBeLessThan(1e-3);
    // The same point without the straightening would be drawn elsewhere: the pose is in the picking.
    const unstraightened = transformPoint(invertRigid(pose()!), hit!.pick.point);
    expect(Math.hypot(...unstraightened.map((v, i) => v - hit!.pick.point[i]!))).toBeGreaterThan(1);
  });

  it('a drag of a rotate handle is one undo step; a nudge is one more; reset restores, undo brings it back', async () => {
    await openTiltedJaws();
    await editor.straightening.auto();
    const straightened = pose()!;
    editor.setView('top');
    editor.setTool('straighten');
    const tool = editor.activeTool as StraightenTool;
    const start = tool.handlePoint('rotate-2');
    expect(start).not.toBeNull();
    const depth = editor.commands.depth;
    const revision = editor.getState().revision;
    await editor.pointer('down', { ...start!, button: 0 });
    expect(editor.getState().toolPhase).toBe('dragging');
    // Swing around the centre of the view in a few moves: the document waits for the release.
    const center = { x: 400, y: 300 };
    for (const k of [1, 2, 3]) {
      const a = Math.atan2(start!.y - center.y, start!.x - center.x) + k * 0.08;
      const r = Math.hypot(start!.y - center.y, start!.x - center.x);
      await editor.pointer('move', { x: center.x + r * Math.cos(a), y: center.y + r * Math.sin(a), button: 0, buttons: 1 });
    }
    expect(editor.getState().revision).toBe(revision);
    await editor.pointer('up', { x: 0, y: 0, button: 0 });
    expect(editor.getState().toolPhase).toBe('idle');
    expect(editor.commands.depth).toBe(depth + 1);
    const turned = pose()!;
    const delta = multiply(turned, invertRigid(straightened));
    expect(rotationDegrees(delta)).toBeGreaterThan(5);
    expect(rotationDegrees(delta)).toBeLessThan(30);
    // About z (the occlusal view's axis): z stays put.
    expect(delta[10]).toBeCloseTo(1, 6);

    editor.straightening.rotate(0, 0.5);
    expect(editor.commands.depth).toBe(depth + 2);
    expect(rotationDegrees(multiply(pose()!, invertRigid(turned)))).toBeCloseTo(0.5, 3);
    const nudged = pose()!;
    editor.straightening.move(1, 0.1);
    expect(pose()![13]! - nudged[13]!).toBeCloseTo(0.1, 5);
    expect(pose()![12]! - nudged[12]!).toBeCloseTo(0, 5);

    editor.undo();
    editor.undo();
    editor.undo();
    expect(pose()).toEqual(straightened);
    editor.redo();
    expect(pose()).toEqual(turned);

    editor.straightening.reset();
    expect(pose()).toBeNull();
    expect(editor.getState().document.straightening).toBeUndefined();
    // The models are as in their files again: a model point is drawn where the camera puts it without a pose.
    editor.undo();
    expect(pose()).toEqual(turned);
  });

  it('arrow keys nudge: turn about z and tilt about x, Shift moves along the screen; one undo step per press', async () => {
    await openTiltedJaws();
    await editor.straightening.auto();
    const straightened = pose()!;
    editor.setView('front');
    editor.renderNow(); // the projection is the rendered one
    editor.setTool('straighten');
    const tool = editor.activeTool!;
    const depth = editor.commands.depth;
    const step = () => {
      const before = pose()!;
      return () => multiply(pose()!, invertRigid(before));
    };

    // Left: 0.5° counter-clockwise seen from above (x turns towards +y), z stays put.
    let delta = step();
    expect(tool.key('ArrowLeft')).toBe(true);
    expect(editor.commands.depth).toBe(depth + 1);
    expect(rotationDegrees(delta())).toBeCloseTo(0.5, 3);
    expect(delta()[10]).toBeCloseTo(1, 9);
    expect(delta()[1]).toBeGreaterThan(0);
    // Up: 0.5° about x, the front (incisors towards -y) goes up.
    delta = step();
    expect(tool.key('ArrowUp')).toBe(true);
    expect(rotationDegrees(delta())).toBeCloseTo(0.5, 3);
    expect(delta()[0]).toBeCloseTo(1, 9);
    expect(rotateVector(delta(), [0, -1, 0])[2]).toBeGreaterThan(0);
    expect(editor.commands.depth).toBe(depth + 2);

    // Shift: 0.1 mm, and the models move on screen the way the arrow points.
    const bounds = editor.getState().model!.bounds;
    const p: [number, number, number] = [0, 1, 2].map((a) => (bounds.min[a]! + bounds.max[a]!) / 2) as [number, number, number];
    const shifted = (key: string, dx: number, dy: number): number[] => {
      const a = editor.projectModelPoint('upper', p)!;
      const d = step();
      expect(tool.key(key, { shiftKey: true })).toBe(true);
      const b = editor.projectModelPoint('upper', p)!;
      expect((b.x - a.x) * dx + (b.y - a.y) * dy).toBeGreaterThan(0);
      expect(rotationDegrees(d())).toBeLessThan(0.01);
      expect(Math.hypot(d()[12]!, d()[13]!, d()[14]!)).toBeCloseTo(0.1, 6);
      return [d()[12]!, d()[13]!, d()[14]!];
    };
    // Seen from the front: right is +x, up is +z.
    expect(shifted('ArrowRight', 1, 0)[0]).toBeCloseTo(0.1, 6);
    expect(shifted('ArrowUp', 0, -1)[2]).toBeCloseTo(0.1, 6);
    shifted('ArrowLeft', -1, 0);
    shifted('ArrowDown', 0, 1);
    // Seen from above, up on screen is along y.
    editor.setView('top');
    editor.renderNow();
    expect(Math.abs(shifted('ArrowUp', 0, -1)[1]!)).toBeCloseTo(0.1, 6);
    expect(editor.commands.depth).toBe(depth + 7);

    // Other chords and keys are left alone (Ctrl+arrows, letters).
    expect(tool.key('ArrowLeft', { ctrlKey: true })).toBe(false);
    expect(tool.key('x')).toBe(false);
    expect(editor.commands.depth).toBe(depth + 7);

    for (let i = 0; i < 7; i++) editor.undo();
    expect(pose()).toEqual(straightened);
  });

  it('a worker failure is a clear status, not a crash', async () => {
    editor.setTool('straighten');
    await editor.straightening.auto();
    expect(editor.getState().straighten).toMatchObject({ busy: false, error: 'NO_MODEL' });
    await openTiltedJaws();
    await h.geometry.release(editor.handleOf('upper')!);
    await editor.straightening.auto();
    expect(editor.getState().straighten).toMatchObject({ busy: false, error: 'NO_SUCH_MESH' });
    expect(editor.getState().document.straightening).toBeUndefined();
  });
});
