// Teeth suite: segmentTeeth on each study model in the file's pose
// and in random rigid poses (10; 3 with --quick), scored against the truth
// labels (test/bench/teeth-score.ts). Goals: mean per-tooth IoU >= 0.95, every
// tooth numbered right, gum >= 98 % right in every pose; <= 1.5 s per
// 360k-triangle jaw on one core (ours_ms: median over the poses, straightening
// included, parsing not). No peer. Skipped without the fixtures.
// Row teeth/landmarks: the landmarks' share of that time (gum lines, axes, FA
// points, cusp tips: segmentTeeth's `landmarks` timing) plus a survey of every
// crown along the occlusal normal with a 0.25 mm clasp point per crown
// (median over the poses).

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { meshFromArrays } from '../../../workers/kernels/mesh.ts';
import { parseStl } from '../../../workers/kernels/stl.ts';
import { segmentTeeth } from '../../../workers/kernels/teeth.ts';
import { crownPatches, surveyTooth, undercutPoint } from '../../../workers/kernels/teeth-landmarks.ts';
import { loadKernels } from '../../kernels/kernels.ts';
import { fixturesDir } from '../inputs.ts';
import { median } from '../measure.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';
import { scoreLabels } from '../teeth-score.ts';
import { centroid, randomPose, transformed } from '../../fixtures/bite-poses.ts';
import { random } from '../../fixtures/random.ts';

export const teethSuite: BenchSuite = {
  name: 'teeth',
  async run(ctx) {
    const dir = resolve(fixturesDir, 'study-models');
    if (!existsSync(resolve(dir, 'upper-model.labels.bin'))) {
      ctx.log(`teeth: skipped, ${dir} has no labels (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`);
      return [];
    }
    const poses = ctx.quick ? 3 : 10;
    const next = random(16);
    const rows: BenchRow[] = [];
    for (const jaw of ['upper', 'lower'] as const) {
      const k0 = await loadKernels();
      const parsed = await parseStl(k0, readFileSync(resolve(dir, `${jaw}-model.stl`)));
      if (!parsed.ok) throw new Error(`${jaw}-model.stl: ${parsed.error.code}`);
      const truth = readFileSync(resolve(dir, `${jaw}-model.labels.bin`));
      const { positions, indices } = parsed.mesh;
      const times: number[] = [], marks: number[] = [], surveys: number[] = [];
      let claspPoints = 0, crowns = 0;
      let worstIou = Infinity, worstGum = Infinity, allNumbered = true;
      for (let p = 0; p <= poses; p++) {
        let pos = positions;
        if (p > 0) pos = transformed(randomPose(next, centroid(positions)), positions).positions;
        const k = await loadKernels();
        const mesh = meshFromArrays(k, pos, indices);
        const t0 = performance.now();
        const r = await segmentTeeth(mesh, { jaw });
        times.push(performance.now() - t0);
        marks.push(r.timings.landmarks ?? NaN);
        const t1 = performance.now();
        const patches = crownPatches({ positions: pos, indices }, r.labels, r.frame, jaw);
        claspPoints = 0; crowns = patches.length;
        for (const c of patches) if (undercutPoint(c, surveyTooth(c), 0.25, 'buccal', 'mesial').point) claspPoints++;
        surveys.push(performance.now() - t1);
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
      rows.push({
        name: 'teeth/landmarks', input: `${jaw}-model.stl (${indices.length / 3} tri)`, ours_ms: median(marks) + median(surveys), peer: '', peer_ms: NaN, ratio: NaN,
        note: `landmarks inside segmentTeeth ${median(marks).toFixed(0)} ms (included in teeth/ours) + survey of ${crowns} crowns with a 0.25 mm mesio-buccal clasp point ${median(surveys).toFixed(0)} ms (found on ${claspPoints})`,
      });
    }
    return rows;
  },
};
