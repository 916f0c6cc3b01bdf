// The editor's bite feature on the real bite kernel (the headless editor, the geometry worker in
// process): "Register again" places a jaw that its scanner left turned and moved back into the
// bite, and the point-pair alignment does the same from four picked pairs; both as undoable
// document changes. Runs where the kernel and its synthetic jaws (test/fixtures/bite-jaws.ts,
// the bite kernel's branch) are present; skipped otherwise.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import { multiply, transformPoint } from '../../src/editor/engine/pose.ts';
import { GeometryClient } from '../../src/geometry/client.ts';
import { rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';
import { headlessEditorEach, type Headless } from './editor-harness.ts';

type Mesh = { positions: Float32Array; indices: Uint32Array };
interface BiteGenerator {
  generatedBite(options: { seed?: number; sides?: 'both' | 'left' | 'right' }): { upper: Mesh; lower: Mesh; bite: Mesh };
}
const GENERATOR = new URL('../fixtures/bite-jaws.ts', import.meta.url);
const available = fs.existsSync(GENERATOR) && typeof (GeometryClient.prototype as unknown as Record<string, unknown>).registerBite === 'function';

let editor: EditorEngine;
headlessEditorEach((made: Headless) => (editor = made.editor));

/** Largest distance (mm) between the mesh's vertices mapped by `a` and by `b`. */
function spread(a: ArrayLike<number>, b: ArrayLike<number>, positions: Float32Array): number {
  let worst = 0;
  for (let i = 0; i < positions.length; i += 3 * 97) {
    const p = [positions[i]!, positions[i + 1]!, positions[i + 2]!] as const;
    const x = transformPoint(a, p);
    const y = transformPoint(b, p);
    worst = Math.max(worst, Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]));
  }
  return worst;
}

async function openTurnedUpper(): Promise<{ pose: Float64Array; g: { upper: Mesh; lower: Mesh; bite: Mesh } }> {
  const { generatedBite } = (await import(GENERATOR.href)) as BiteGenerator;
  const g = generatedBite({ seed: 3, sides: 'both' });
  // The upper as its scanner left it: bite frame → scanner frame.
  const pose = rigidMatrix([0.2, 1, 0.3], 25, [6, -4, 9]);
  const bytes = {
    upper: binaryStl(soupOf({ positions: transformPositions(g.upper.positions, pose), indices: g.upper.indices })).buffer,
    lower: binaryStl(soupOf(g.lower)).buffer,
    occlusion: binaryStl(soupOf(g.bite)).buffer,
  };
  await editor.openModels(
    (['upper', 'lower', 'occlusion'] as const).map((role) => ({ role, name: `${role}.stl`, source: async (_s: AbortSignal, p: (f: number) => void) => (p(1), bytes[role]) })),
  );
  return { pose, g };
}

describe.skipIf(!available)('the bite feature on the real kernel (headless)', () => {
  it('"Register again" brings a turned upper jaw back into the bite (one undo step)', async () => {
    const { pose, g } = await openTurnedUpper();
    expect(editor.actions.enabled('bite.rerun')).toBe(true);
    const depth = editor.commands.depth;
    expect(await editor.bite.rerun()).toBe(true);
    const bite = editor.document.bite!;
    expect(bite.source).toBe('auto');
    // Upper model → bite frame undoes the scanner's pose: the composition is the identity on the jaw.
    expect(spread(multiply(bite.upper, pose), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], g.upper.positions)).toBeLessThan(0.1);
    expect(editor.bite.getState().quality).toMatchObject({ source: 'rerun', error: null });
    expect(editor.commands.depth).toBe(depth + 1);
    editor.undo();
    expect(editor.document.bite).toBeUndefined();
  }, 60_000);

  it('four point pairs align the upper jaw with the scan', async () => {
    const { pose, g } = await openTurnedUpper();
    // Points of the scan (bite frame) and where they lie on the turned upper (its model frame).
    const n = g.bite.positions.length / 3;
    for (const k of [0.05, 0.3, 0.55, 0.8]) {
      const v = Math.floor(k * n) * 3;
      const p = [g.bite.positions[v]!, g.bite.positions[v + 1]!, g.bite.positions[v + 2]!] as const;
      editor.bite.addPair({ jaw: 'upper', jawPoint: transformPoint(pose, p), bitePoint: p });
    }
    expect(editor.bite.canAlign()).toBe(true);
    expect(await editor.bite.align()).toBe(true);
    const bite = editor.document.bite!;
    expect(bite.source).toBe('manual');
    expect(spread(multiply(bite.upper, pose), [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], g.upper.positions)).toBeLessThan(0.1);
    expect(editor.bite.getState().pairs).toEqual([]);
  }, 60_000);
});
