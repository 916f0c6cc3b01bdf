// Teeth suite: segmentTeeth on each study model in the file's pose
// and in random rigid poses (10; 3 with --quick), scored against the truth
// labels (test/bench/teeth-score.ts). Goals: mean per-tooth IoU >= 0.95, every
// tooth numbered right, gum >= 98 % right in every pose; <= 1.5 s per
// 360k-triangle jaw on one core (ours_ms: median over the poses, straightening
// included, parsing not). No peer. Skipped without the fixtures.

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { meshFromArrays } from '../../../workers/kernels/mesh.ts';
import { parseStl } from '../../../workers/kernels/stl.ts';
import { segmentTeeth } from '../../../workers/kernels/teeth.ts';
import { loadKernels } from '../../kernels/kernels.ts';
import { fixturesDir } from '../inputs.ts';
import { median } from '../measure.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';
import { scoreLabels } from '../teeth-score.ts';

function randomPose(next: () => number): number[] {
  let q = [next() - 0.5, next() - 0.5, next() - 0.5, next() - 0.5];
  const l = Math.hypot(...q); q = q.map((v) => v / l);
  const [w, x, y, z] = q as [number, number, number, number];
  return [1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y), 0,
    2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x), 0,
    2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y), 0,
    (next() - 0.5) * 100, (next() - 0.5) * 100, (next() - 0.5) * 100, 1];
}

export const teethSuite: BenchSuite = {
  name: 'teeth',
  async run(ctx) {
    const dir = resolve(fixturesDir, 'study-models');
    if (!existsSync(resolve(dir, 'upper-model.labels.bin'))) {
      ctx.log(`teeth: skipped, ${dir} has no labels (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`);
      return [];
    }
    const poses = ctx.quick ? 3 : 10;
    let seed = 16;
    const next = (): number => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 4294967296; };
    const rows: BenchRow[] = [];
    for (const jaw of ['upper', 'lower'] as const) {
      const k0 = await loadKernels();
      const parsed = await parseStl(k0, readFileSync(resolve(dir, `${jaw}-model.stl`)));
      if (!parsed.ok) throw new Error(`${jaw}-model.stl: ${parsed.error.code}`);
      const truth = readFileSync(resolve(dir, `${jaw}-model.labels.bin`));
      const { positions, indices } = parsed.mesh;
      const times: number[] = [];
      let worstIou = Infinity, worstGum = Infinity, allNumbered = true;
      for (let p = 0; p <= poses; p++) {
        let pos = positions;
        if (p > 0) {
          const m = randomPose(next);
          pos = new Float32Array(positions.length);
          for (let i = 0; i < pos.length; i += 3) {
            const x = positions[i]!, y = positions[i + 1]!, z = positions[i + 2]!;
            pos[i] = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
            pos[i + 1] = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
            pos[i + 2] = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
          }
        }
        const k = await loadKernels();
        const mesh = meshFromArrays(k, pos, indices);
        const t0 = performance.now();
        const r = await segmentTeeth(mesh, { jaw });
        times.push(performance.now() - t0);
        const s = scoreLabels(truth, r.labels);
        worstIou = Math.min(worstIou, s.meanIou);
        worstGum = Math.min(worstGum, s.gumAccuracy);
        allNumbered &&= s.numberingRight;
        ctx.log(`teeth: ${jaw} pose ${p}: IoU ${s.meanIou.toFixed(4)}, numbering ${s.numberingRight ? 'right' : 'WRONG'}, gum ${(100 * s.gumAccuracy).toFixed(2)} %, ${times[p]!.toFixed(0)} ms`);
      }
      rows.push({
        name: 'teeth/ours', input: `${jaw}-model.stl (${indices.length / 3} tri)`, ours_ms: median(times), peer: '', peer_ms: NaN, ratio: NaN,
        note: `file pose + ${poses} poses: worst mean IoU ${worstIou.toFixed(4)} (goal 0.95), numbering ${allNumbered ? 'right' : 'WRONG'}, worst gum ${(100 * worstGum).toFixed(2)} % (goal 98); goal 1500 ms`,
      });
    }
    return rows;
  },
};
