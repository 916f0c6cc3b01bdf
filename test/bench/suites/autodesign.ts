// Autodesign suite: the automatic design of one order (workers/design/autodesign.ts) with the
// default prescription, on the generated jaws (test/fixtures/teeth-jaws.ts) and, when present, on
// the study models: in the file's pose and in POSES seeded random rigid poses, each jaw moved on
// its own and the order's bite moving it back (as a registration would). ours_ms: the median time
// per order (the welded meshes handed over: parsing not included; one core); the note has, over
// every pose, the wires placed and passing every check (collision sweep included), the clasp
// tips' undercut (goal 0.15-0.4 mm), the least gap between a wire and the teeth outside its tags
// (never below 0), and the labial bows' gap to each incisor's labial surface at its middle third
// (goal at most the clearance + 0.2 mm). The measures are test/bench/autodesign-measure.ts. A last
// row times the study models with every triangle split in four (about 1.4 million triangles per
// jaw, past the densest scans an order brings), in the file's pose. No peer.

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_PRESCRIPTION } from '../../../common/prescription.ts';
import { IDENTITY } from '../../../common/bite.ts';
import { compileKernels, instantiateModule } from '../../../workers/kernels/abi.ts';
import { parseStl } from '../../../workers/kernels/stl.ts';
import { autodesign, AUTODESIGN_CLEARANCE } from '../../../workers/design/autodesign.ts';
import { WASM_PATH } from '../../kernels/kernels.ts';
import { biteOf, posed, randomPose } from '../../fixtures/poses.ts';
import { teethJaw } from '../../fixtures/teeth-jaws.ts';
import { measureJaw, type WireFigures } from '../autodesign-measure.ts';
import { fixturesDir } from '../inputs.ts';
import { median } from '../measure.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

/** Random rigid poses per order besides the file's (seeds 1..POSES per jaw pair). */
const POSES = 5;

type Mesh = { positions: Float32Array; indices: Uint32Array; labels: Uint8Array | null };

async function welded(module: WebAssembly.Module, file: string): Promise<Mesh> {
  const parsed = await parseStl(instantiateModule(module), readFileSync(file), { sliceMs: 1e9, yieldToEventLoop: () => Promise.resolve() });
  if (!parsed.ok) throw new Error(`${file}: ${parsed.error.code}`);
  const labelsFile = file.replace(/\.stl$/, '.labels.bin');
  const labels = existsSync(labelsFile) ? new Uint8Array(readFileSync(labelsFile)) : null;
  return { positions: parsed.mesh.positions, indices: parsed.mesh.indices, labels: labels && labels.length * 3 === parsed.mesh.positions.length ? labels : null };
}

/** Every triangle split in four at its edges' midpoints: the same surface, four times the triangles (no labels). */
function splitInFour(m: Mesh): Mesh {
  const P = m.positions, I = m.indices;
  const n = P.length / 3;
  const edges = new Map<number, number>();
  const positions = new Float32Array(P.length + 3 * (I.length / 2));
  positions.set(P);
  let next = n;
  const mid = (a: number, b: number): number => {
    const key = Math.min(a, b) * n + Math.max(a, b);
    let v = edges.get(key);
    if (v === undefined) {
      v = next++;
      for (let k = 0; k < 3; k++) positions[3 * v + k] = (P[3 * a + k]! + P[3 * b + k]!) / 2;
      edges.set(key, v);
    }
    return v;
  };
  const indices = new Uint32Array(I.length * 4);
  for (let t = 0, o = 0; t < I.length; t += 3) {
    const a = I[t]!, b = I[t + 1]!, c = I[t + 2]!;
    const ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
    indices.set([a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca], o);
    o += 12;
  }
  return { positions: positions.slice(0, 3 * next), indices, labels: null };
}

const range = (xs: number[]): string => (xs.length ? `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}` : 'none');

export const autodesignSuite: BenchSuite = {
  name: 'autodesign',
  async run(ctx) {
    const module = await compileKernels(readFileSync(WASM_PATH));
    const gen = { upper: teethJaw({ jaw: 'upper' }), lower: teethJaw({ jaw: 'lower' }) };
    const orders: { input: string; upper: Mesh; lower: Mesh }[] = [{ input: 'generated jaws', upper: gen.upper, lower: gen.lower }];
    const dir = resolve(fixturesDir, 'study-models');
    if (existsSync(resolve(dir, 'upper-model.stl')) && existsSync(resolve(dir, 'lower-model.stl'))) {
      orders.push({ input: 'study models', upper: await welded(module, resolve(dir, 'upper-model.stl')), lower: await welded(module, resolve(dir, 'lower-model.stl')) });
    } else ctx.log(`autodesign: study models skipped, not in ${dir} (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`);
    const poses = ctx.quick ? 2 : POSES;
    const rows: BenchRow[] = [];
    for (const order of orders) {
      const times: number[] = [];
      let placed = 0, total = 0;
      const failures: string[] = [];
      const figures: WireFigures[] = [];
      for (let p = 0; p <= poses; p++) {
        const pu = p === 0 ? [...IDENTITY] : randomPose(2 * p - 1), pl = p === 0 ? [...IDENTITY] : randomPose(2 * p);
        const upper = p === 0 ? order.upper : posed(order.upper, pu), lower = p === 0 ? order.lower : posed(order.lower, pl);
        const out = await autodesign(module, { upper, lower, prescription: DEFAULT_PRESCRIPTION, ...(p === 0 ? {} : { bite: biteOf(pu, pl) }) });
        times.push(out.timings.totalMs);
        placed += out.report.filter((x) => x.status === 'placed').length;
        total += out.report.length;
        for (const x of out.report) if (x.status === 'failed') failures.push(`${x.jaw} ${x.type} ${x.code}`);
        for (const jaw of ['upper', 'lower'] as const) {
          const m = jaw === 'upper' ? upper : lower;
          const toothOf = new Map(out.report.filter((x) => x.wireId).map((x) => [x.wireId!, x.teeth[0]!]));
          if (m.labels) figures.push(...(await measureJaw(module, out.document, jaw, m, m.labels, toothOf)));
        }
        const pose = p === 0 ? 'file pose' : `pose ${p}`;
        ctx.log(
          `autodesign: ${order.input} ${pose}: ${out.report.filter((x) => x.status === 'placed').length}/${out.report.length} placed and passing, ` +
            `${out.timings.totalMs.toFixed(0)} ms (insertion ${out.timings.insertionMs.toFixed(0)} ms; ` +
            `${Object.entries(out.insertion).map(([j, v]) => `${j} ${v.angleDeg.toFixed(1)}°`).join(', ')})` +
            `${out.report.filter((x) => x.status === 'failed').map((x) => `; ${x.message}`).join('')}`,
        );
      }
      const tips = figures.filter((f) => f.tipUndercut !== undefined).map((f) => f.tipUndercut!);
      const inRange = tips.filter((t) => t >= 0.15 && t <= 0.4).length;
      const gapOf = (type: WireFigures['type']) => range(figures.filter((f) => f.type === type).map((f) => f.minGap));
      const incisor = figures.flatMap((f) => Object.values(f.incisorGaps ?? {}));
      const near = incisor.filter((g) => g <= AUTODESIGN_CLEARANCE + 0.2 + 1e-9).length;
      rows.push({
        name: 'autodesign/ours', input: `${order.input} (file pose + ${poses} poses)`, ours_ms: median(times), peer: '', peer_ms: NaN, ratio: NaN,
        note:
          `${placed}/${total} wires placed and passing with the collision sweep${failures.length ? ` (left out: ${[...new Set(failures)].join(', ')})` : ''}; ` +
          `clasp tips' undercut ${range(tips)} mm, ${inRange}/${tips.length} in 0.15-0.4; least gap to the model outside the tags: clasps ${gapOf('singleArmClasp')} mm, bows ${gapOf('labialBow')} mm; ` +
          `labial bow to incisors at mid-third ${range(incisor)} mm, ${near}/${incisor.length} within clearance + 0.2; slowest ${Math.max(...times).toFixed(0)} ms`,
      });
    }
    const study = orders.find((o) => o.input === 'study models');
    if (study) {
      const upper = splitInFour(study.upper), lower = splitInFour(study.lower);
      const out = await autodesign(module, { upper, lower, prescription: DEFAULT_PRESCRIPTION });
      const placed = out.report.filter((x) => x.status === 'placed').length;
      const bases = out.bases.filter((b) => b.status === 'generated');
      const slots = out.bases.flatMap((b) => b.slots);
      const t = out.timings;
      rows.push({
        name: 'autodesign/ours', input: `study models split in four (${upper.indices.length / 3} + ${lower.indices.length / 3} triangles), file pose`, ours_ms: t.totalMs, peer: '', peer_ms: NaN, ratio: NaN,
        note:
          `${placed}/${out.report.length} wires placed and passing; ${bases.length}/${out.bases.length} bases, ${slots.filter((x) => x.status !== 'failed').length}/${slots.length} slots; ` +
          `segmentation ${t.segmentMs.toFixed(0)} ms, insertion ${t.insertionMs.toFixed(0)} ms, wires ${t.wiresMs.toFixed(0)} ms, bases ${t.baseMs.toFixed(0)} ms`,
      });
    }
    return rows;
  },
};
