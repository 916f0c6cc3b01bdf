// Teeth segmentation against the study models' truth:
//   npx tsx test/bench/teeth-measure.ts [--poses=N] [--jaw=upper|lower] [--concave=X] [--passes=N] [--remove=N,M] [--noise=SIGMA_MM] [--coarse=FRACTION] [--radius=MM]
// Prints per-tooth IoU, numbering, gum accuracy and time per jaw, in the
// file's pose and in N random rigid poses. Needs ../shared/fixtures (or
// ARCHWRIGHT_FIXTURES); exits 0 with a message without them.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadKernels } from '../kernels/kernels.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { simplify } from '../../workers/kernels/simplify.ts';
import { invertRigid } from '../../workers/kernels/straighten.ts';
import { segmentTeeth } from '../../workers/kernels/teeth.ts';
import { fixturesDir } from './inputs.ts';
import { formatScore, scoreLabels } from './teeth-score.ts';
import { centroid, randomPose, transformed } from '../fixtures/bite-poses.ts';
import { random } from '../fixtures/random.ts';

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const poses = Number(opt('poses') ?? 0);
const coarse = Number(opt('coarse') ?? 0);
const noise = Number(opt('noise') ?? 0);
const removed = (opt('remove') ?? '').split(',').filter(Boolean).map(Number);
const jaws = opt('jaw') ? [opt('jaw') as 'upper' | 'lower'] : (['upper', 'lower'] as const);
const dir = resolve(fixturesDir, 'study-models');
if (!existsSync(resolve(dir, 'upper-model.labels.bin'))) {
  console.log(`teeth: SKIPPED, ${dir} has no labels (set ARCHWRIGHT_FIXTURES)`);
  process.exit(0);
}

// deterministic random rigid poses (up to 180 degrees about the jaw's centroid, up to 50 mm)
const rnd = random(12345);

const k0 = await loadKernels();
for (const jaw of jaws) {
  const parsed = await parseStl(k0, readFileSync(resolve(dir, `${jaw}-model.stl`)));
  if (!parsed.ok) throw new Error(parsed.error.code);
  let truth = readFileSync(resolve(dir, `${jaw}-model.labels.bin`));
  let { positions, indices } = parsed.mesh;
  if (coarse > 0) {
    // a coarser scan: decimated to `coarse` of the triangles; truth by the nearest original vertex
    const ks = await loadKernels();
    const sm = await simplify(meshFromArrays(ks, positions, indices), { targetTriangles: Math.round((indices.length / 3) * coarse) });
    const cell = 0.5, grid = new Map<string, number[]>();
    const key = (x: number, y: number, z: number): string => `${Math.floor(x / cell)},${Math.floor(y / cell)},${Math.floor(z / cell)}`;
    for (let v = 0; v < positions.length / 3; v++) {
      const kk = key(positions[3 * v]!, positions[3 * v + 1]!, positions[3 * v + 2]!);
      let b = grid.get(kk); if (!b) grid.set(kk, (b = [])); b.push(v);
    }
    const newTruth = new Uint8Array(sm.vertexCount);
    for (let v = 0; v < sm.vertexCount; v++) {
      const x = sm.positions[3 * v]!, y = sm.positions[3 * v + 1]!, z = sm.positions[3 * v + 2]!;
      let best = -1, bd = Infinity;
      for (let r = 1; best < 0 && r < 8; r++) {
        for (let dx = -r; dx <= r; dx++) for (let dy = -r; dy <= r; dy++) for (let dz = -r; dz <= r; dz++) {
          for (const w of grid.get(key(x + dx * cell, y + dy * cell, z + dz * cell)) ?? []) {
            const d = (positions[3 * w]! - x) ** 2 + (positions[3 * w + 1]! - y) ** 2 + (positions[3 * w + 2]! - z) ** 2;
            if (d < bd) { bd = d; best = w; }
          }
        }
      }
      newTruth[v] = best >= 0 ? truth[best]! : 0;
    }
    positions = sm.positions.slice(); indices = sm.indices.slice();
    truth = Buffer.from(newTruth);
  }
  if (removed.length) {
    // a missing tooth: its triangles cut away (a hole in the gum, as an open scan has), its truth gum
    const gone = new Set(removed);
    const keep: number[] = [];
    for (let t = 0; t < indices.length; t += 3) {
      if (gone.has(truth[indices[t]!]!) || gone.has(truth[indices[t + 1]!]!) || gone.has(truth[indices[t + 2]!]!)) continue;
      keep.push(indices[t]!, indices[t + 1]!, indices[t + 2]!);
    }
    indices = Uint32Array.from(keep);
    for (let v = 0; v < truth.length; v++) if (gone.has(truth[v]!)) truth[v] = 0;
  }
  if (truth.length !== positions.length / 3) throw new Error(`weld differs: ${positions.length / 3} vertices, ${truth.length} labels`);
  const truthTeeth = (JSON.parse(readFileSync(resolve(dir, `teeth-${jaw}.json`), 'utf8')) as { teeth: { number: number; crownCentroid: number[]; crownTip: number[]; faPoint: number[] }[] }).teeth;
  let lastPose: number[] = [];
  for (let p = 0; p <= poses; p++) {
    let pos = positions;
    if (noise > 0) {
      // a noisier scan: Gaussian noise (Box-Muller) of sigma `noise` mm on every coordinate
      pos = positions.map((x) => x + noise * Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd()));
    }
    if (p > 0) {
      const m = randomPose(rnd, centroid(pos));
      lastPose = m;
      pos = transformed(m, pos).positions;
    }
    const k = await loadKernels();
    const mesh = meshFromArrays(k, pos, indices);
    const t0 = performance.now();
    const r = await segmentTeeth(mesh, {
      jaw,
      concave: opt('concave') ? Number(opt('concave')) : undefined,
      smoothPasses: opt('passes') ? Number(opt('passes')) : undefined,
      denoise: opt('denoise') ? Number(opt('denoise')) : undefined,
      maxCrownRadius: opt('radius') ? Number(opt('radius')) : undefined,
      dilate: opt('dilate') ? Number(opt('dilate')) : undefined,
    });
    const ms = performance.now() - t0;
    const s = scoreLabels(truth, r.labels);
    // landmarks against teeth-<jaw>.json (the pose undone: compare in the file's frame)
    const inv = p > 0 ? invertRigid(lastPose) : undefined;
    const back = (q: [number, number, number]): number[] => (inv ? [0, 1, 2].map((r) => inv[r]! * q[0] + inv[4 + r]! * q[1] + inv[8 + r]! * q[2] + inv[12 + r]!) : q);
    const dc: number[] = [], dt: number[] = [], df: number[] = [];
    for (const t of r.teeth) {
      const want = truthTeeth.find((w) => w.number === t.number);
      if (!want) continue;
      const c = back(t.centroid), tip = back(t.tip);
      dc.push(Math.hypot(c[0]! - want.crownCentroid[0]!, c[1]! - want.crownCentroid[1]!, c[2]! - want.crownCentroid[2]!));
      dt.push(Math.hypot(tip[0]! - want.crownTip[0]!, tip[1]! - want.crownTip[1]!, tip[2]! - want.crownTip[2]!));
      if (t.faPoint) { const fa = back(t.faPoint); df.push(Math.hypot(fa[0]! - want.faPoint[0]!, fa[1]! - want.faPoint[1]!, fa[2]! - want.faPoint[2]!)); }
    }
    const stat = (a: number[]): string => `mean ${(a.reduce((x, y) => x + y, 0) / Math.max(1, a.length)).toFixed(3)} max ${Math.max(...a).toFixed(3)} mm`;
    console.log(`  centroid error ${stat(dc)}; crown tip error ${stat(dt)}; FA point error ${stat(df)}; arch ${r.arch.length} points; widths ${r.teeth.map((t) => `${t.number}:${t.mesioDistalWidth.toFixed(1)}`).join(' ')}`);
    console.log(formatScore(`${jaw}${p ? ` pose ${p}` : ''} (${indices.length / 3} triangles, ${ms.toFixed(0)} ms: ${Object.entries(r.timings).map(([a, b]) => `${a} ${b.toFixed(a === 'medianEdge' || a === 'noiseSigma' ? 3 : 0)}`).join(', ')})`, s));
  }
}
