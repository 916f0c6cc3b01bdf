// Teeth segmentation on generated jaws (test/fixtures/teeth-jaws.ts) against their truth:
//   npx tsx test/bench/teeth-generated.ts [--jaw=upper|lower] [--seeds=N] [--crowding=MM] [--missing=N,M]
//     [--hole] [--third] [--mirrored] [--open] [--plinth=MM] [--noise=SIGMA_MM] [--edge=MM] [--pose]
// Prints per-tooth IoU, numbering, gum accuracy and time for seeds 1..N (default 3) of each jaw. Needs no
// fixtures; the figures in docs/teeth-notes.md ("Generated jaws") come from it.
import { loadKernels } from '../kernels/kernels.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { segmentTeeth } from '../../workers/kernels/teeth.ts';
import { formatScore, scoreLabels } from './teeth-score.ts';
import { centroid, randomPose, transformed } from '../fixtures/bite-poses.ts';
import { random } from '../fixtures/random.ts';
import { teethJaw } from '../fixtures/teeth-jaws.ts';

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const flag = (name: string): boolean => argv.includes(`--${name}`);
const seeds = Number(opt('seeds') ?? 3);
const jaws = opt('jaw') ? [opt('jaw') as 'upper' | 'lower'] : (['upper', 'lower'] as const);

for (const jaw of jaws) {
  for (let seed = 1; seed <= seeds; seed++) {
    const g = teethJaw({
      jaw, seed,
      crowding: Number(opt('crowding') ?? 0),
      missing: (opt('missing') ?? '').split(',').filter(Boolean).map(Number),
      missingAs: flag('hole') ? 'hole' : 'ridge',
      thirdMolars: flag('third'),
      mirrored: flag('mirrored'),
      base: flag('open') ? 'open' : 'plinth',
      plinthDepth: opt('plinth') ? Number(opt('plinth')) : undefined,
      noise: Number(opt('noise') ?? 0),
      edge: opt('edge') ? Number(opt('edge')) : undefined,
    });
    const positions = flag('pose') ? transformed(randomPose(random(seed), centroid(g.positions)), g.positions).positions : g.positions;
    const k = await loadKernels();
    const t0 = performance.now();
    const r = await segmentTeeth(meshFromArrays(k, positions, g.indices), { jaw });
    const ms = performance.now() - t0;
    const s = scoreLabels(g.labels, r.labels);
    console.log(formatScore(`${jaw} seed ${seed} (${g.indices.length / 3} triangles, ${ms.toFixed(0)} ms)`, s));
    console.log(`  widths ${r.teeth.map((t) => `${t.number}:${t.mesioDistalWidth.toFixed(1)}`).join(' ')}`);
  }
}
