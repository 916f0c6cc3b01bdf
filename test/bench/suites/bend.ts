// Bend suite: bending programs (no peer). A 40-corner 3D wire (a polygonal helix), die
// radius 1 mm: bend-program/ours is design -> program (inverse kinematics) plus the replay that
// checks it (forward kinematics, corners placed on the design); bend-collision/ours is the
// sweep of the wire through every rotation and bend against the default head (2° increments).
// Tiny inputs: the figures say whether the editor can rerun them on every edit (well under a
// frame).

import { readFileSync } from 'node:fs';
import { instantiateKernels } from '../../../workers/kernels/abi.ts';
import { bendCollision, bendProgram, programDeviation, type Vec3 } from '../../../workers/kernels/bend.ts';
import { WASM_PATH } from '../../kernels/kernels.ts';
import { median } from '../measure.ts';
import type { BenchContext, BenchRow, BenchSuite } from '../suite.ts';

function helix(corners: number): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 0; i < corners; i++) {
    const a = (i * 25 * Math.PI) / 180;
    out.push([12 * Math.cos(a), 12 * Math.sin(a), 1.5 * i]);
  }
  return out;
}

export const bendSuite: BenchSuite = {
  name: 'bend',
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const k = await instantiateKernels(readFileSync(WASM_PATH));
    const design = helix(40);
    const options = { radius: 1 };
    const steps = bendProgram(k, design, options).steps;
    const reps = ctx.quick ? 20 : 200;
    const time = (fn: () => void): number => {
      const samples: number[] = [];
      for (let r = 0; r < ctx.runs; r++) {
        const t0 = performance.now();
        for (let i = 0; i < reps; i++) fn();
        samples.push((performance.now() - t0) / reps);
      }
      return median(samples);
    };
    const program = time(() => {
      const p = bendProgram(k, design, options);
      if (!(programDeviation(k, design, p.steps, options) < 0.01)) throw new Error('bend bench: the program does not replay to its design');
    });
    const collision = time(() => bendCollision(k, steps, { ...options, diameter: 0.8 }));
    const row = (name: string, ms: number, note: string): BenchRow => ({ name, input: 'helix 40 corners', ours_ms: ms, peer: '', peer_ms: NaN, ratio: NaN, note });
    return [
      row('bend-program/ours', program, 'design -> program -> replay check'),
      row('bend-collision/ours', collision, `sweep of ${steps.length} steps, 2° increments`),
    ];
  },
};
