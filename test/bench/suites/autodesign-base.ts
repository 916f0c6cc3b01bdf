// Autodesign base suite: the automatic design's bases and slots (workers/design/autodesign-base.ts)
// against their goals (workers/design/autodesign-goals-base.ts) on both study models, in the
// file's pose and 5 seeded random rigid poses (both jaws moved together, so the bite is kept),
// and on the generated jaws (plinth and open scan). Per order and jaw: the worst tag corner's
// plan distance inside the base's rim, tag corners outside the solid, closed, least material
// height, base vertices on an occlusal surface, slots cut; ours_ms: the base and slots' share of
// the design (median over the poses). The truth labels (study models) or the generated ones
// judge the occlusal surfaces, not the engine's own segmentation.

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_PRESCRIPTION } from '../../../common/prescription.ts';
import { compileKernels, instantiateModule } from '../../../workers/kernels/abi.ts';
import { meshFromArrays } from '../../../workers/kernels/mesh.ts';
import { parseStl } from '../../../workers/kernels/stl.ts';
import { autodesign } from '../../../workers/design/autodesign.ts';
import { measureDocumentBase, type BaseGoals } from '../../../workers/design/autodesign-goals-base.ts';
import { WASM_PATH } from '../../kernels/kernels.ts';
import { centroid, randomPose, rng, transformed } from '../../fixtures/bite-poses.ts';
import { teethJaw } from '../../fixtures/teeth-jaws.ts';
import { fixturesDir } from '../inputs.ts';
import { median } from '../measure.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

type Jaw = 'upper' | 'lower';
interface JawModel { positions: Float32Array; indices: Uint32Array; labels: Uint8Array }

export const POSES = 5;

export const autodesignBaseSuite: BenchSuite = {
  name: 'autodesign-base',
  async run(ctx) {
    const module = await compileKernels(readFileSync(WASM_PATH));
    const orders: { input: string; models: Record<Jaw, JawModel>[] }[] = [
      { input: 'generated jaws, plinth', models: [{ upper: teethJaw({ jaw: 'upper' }), lower: teethJaw({ jaw: 'lower' }) }] },
      { input: 'generated jaws, open scan', models: [{ upper: teethJaw({ jaw: 'upper', base: 'open' }), lower: teethJaw({ jaw: 'lower', base: 'open' }) }] },
    ];
    const dir = resolve(fixturesDir, 'study-models');
    if (existsSync(resolve(dir, 'upper-model.labels.bin')) && existsSync(resolve(dir, 'lower-model.labels.bin'))) {
      const file = {} as Record<Jaw, JawModel>;
      for (const jaw of ['upper', 'lower'] as const) {
        const parsed = await parseStl(instantiateModule(module), readFileSync(resolve(dir, `${jaw}-model.stl`)));
        if (!parsed.ok) throw new Error(`the ${jaw} study model does not parse: ${parsed.error.code}`);
        file[jaw] = { positions: parsed.mesh.positions, indices: parsed.mesh.indices, labels: readFileSync(resolve(dir, `${jaw}-model.labels.bin`)) };
      }
      const poses = [file];
      const next = rng(1);
      for (let p = 0; p < POSES; p++) {
        const m = randomPose(next, centroid(file.lower.positions));
        poses.push({ upper: { ...file.upper, positions: transformed(m, file.upper.positions).positions }, lower: { ...file.lower, positions: transformed(m, file.lower.positions).positions } });
      }
      orders.push({ input: `study models, file pose + ${POSES} poses`, models: poses });
    } else ctx.log(`autodesign-base: study models skipped, not in ${dir} (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`);

    const rows: BenchRow[] = [];
    for (const order of orders) {
      const times: number[] = [];
      const goals: Record<Jaw, (BaseGoals | null)[]> = { upper: [], lower: [] };
      const slots: Record<Jaw, [number, number]> = { upper: [0, 0], lower: [0, 0] };
      const shapes: Record<Jaw, Set<string>> = { upper: new Set(), lower: new Set() };
      for (const [i, models] of order.models.entries()) {
        const out = await autodesign(module, { upper: models.upper, lower: models.lower, prescription: DEFAULT_PRESCRIPTION });
        times.push(out.timings.baseMs);
        for (const b of out.bases) {
          slots[b.jaw][0] += b.slots.filter((s) => s.status === 'cut').length;
          slots[b.jaw][1] += b.slots.length;
          shapes[b.jaw].add(b.status === 'generated' ? b.shape! : `failed ${b.code}`);
        }
        for (const jaw of ['upper', 'lower'] as const) {
          const m = models[jaw];
          const g = await measureDocumentBase(meshFromArrays(instantiateModule(module), m.positions, m.indices), m.labels, out.document, jaw);
          goals[jaw].push(g);
          ctx.log(`autodesign-base: ${order.input} #${i} ${jaw}: ${g ? summary(g) : 'no base'}`);
        }
      }
      for (const jaw of ['upper', 'lower'] as const) {
        const made = goals[jaw].filter((g): g is BaseGoals => g !== null);
        rows.push({
          name: 'autodesign-base/ours', input: `${order.input}, ${jaw}`, ours_ms: median(times), peer: '', peer_ms: NaN, ratio: NaN,
          note: `${made.length}/${goals[jaw].length} bases (${[...shapes[jaw]].join(', ')}); worst: ${made.length ? worst(made) : '-'}; slots cut ${slots[jaw][0]}/${slots[jaw][1]}`,
        });
      }
    }
    return rows;
  },
};

function summary(g: BaseGoals): string {
  return `tags ${g.tagRimDistance.toFixed(2)} mm inside the rim, ${g.tagsOutside}/${g.tagCorners} outside the solid; ${g.closed ? 'closed' : 'NOT closed'}, ${g.volume.toFixed(0)} mm³, height >= ${g.minHeight.toFixed(2)} mm; ${g.occlusalVertices} vertices on occlusal surfaces`;
}

function worst(gs: BaseGoals[]): string {
  return summary({
    tagRimDistance: Math.min(...gs.map((g) => g.tagRimDistance)),
    tagsOutside: Math.max(...gs.map((g) => g.tagsOutside)),
    tagCorners: Math.max(...gs.map((g) => g.tagCorners)),
    closed: gs.every((g) => g.closed),
    volume: Math.min(...gs.map((g) => g.volume)),
    minHeight: Math.min(...gs.map((g) => g.minHeight)),
    occlusalVertices: Math.max(...gs.map((g) => g.occlusalVertices)),
  });
}
