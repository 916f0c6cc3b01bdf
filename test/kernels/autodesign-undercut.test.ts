// The automatic design's clasp tips on generated jaws whose premolars and molars narrow below a
// height of contour (test/fixtures/teeth-jaws.ts `undercut`; the plain generated jaws have no
// undercut): the jaw's default prescription designed in the generator's pose and in seeded
// random rigid poses, each held to what a user checks: every wire placed and passing the bending
// checks, each clasp tip ending in 0.15-0.4 mm of undercut at the tooth's nearest point (measured
// as the autodesign bench measures it, on the generator's labels, and against a brute-force
// reference: how far the crown reaches beyond that point across the insertion direction), and no
// clasp inside the tooth outside its tag.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESCRIPTION } from '../../common/prescription.ts';
import { invertRigid, rotateVector } from '../../common/pose.ts';
import { modelToCanonical, type DesignDocument } from '../../src/editor/engine/document.ts';
import { compileKernels, instantiateModule } from '../../workers/kernels/abi.ts';
import { checkBend } from '../../workers/kernels/bend-checks.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { autodesign, type AutodesignResult } from '../../workers/design/autodesign.ts';
import { claspTip, CLASP_TIP_RANGE } from '../../workers/design/clasp-tip.ts';
import { kernelSurface } from '../../workers/design/surface.ts';
import { measureJaw } from '../bench/autodesign-measure.ts';
import { posed, randomPose } from '../fixtures/poses.ts';
import { teethJaw, type TeethJaw } from '../fixtures/teeth-jaws.ts';
import { WASM_PATH } from './kernels.ts';

let module: WebAssembly.Module;
beforeAll(async () => {
  module = await compileKernels(readFileSync(WASM_PATH));
});

type Jaw = 'upper' | 'lower';

/**
 * Undercut (mm) at the model's point nearest the clasp's tip, brute force: across the insertion
 * direction `d` (model frame), how much farther from the crown's centre its farthest vertex
 * (the generator's labels) lies within 2 degrees of that point's bearing; 0 above that vertex.
 */
async function referenceUndercut(module: WebAssembly.Module, model: TeethJaw, tooth: number, tip: readonly number[], d: readonly number[]): Promise<number> {
  const hit = await kernelSurface(meshFromArrays(instantiateModule(module), model.positions, model.indices)).closest(new Float32Array(tip));
  const q = [hit.point[0]!, hit.point[1]!, hit.point[2]!];
  const along = (p: readonly number[]): number => p[0]! * d[0]! + p[1]! * d[1]! + p[2]! * d[2]!;
  const c = [0, 0, 0];
  let n = 0;
  for (let v = 0; v < model.labels.length; v++) if (model.labels[v] === tooth) { for (let i = 0; i < 3; i++) c[i]! += model.positions[3 * v + i]!; n++; }
  const flat = (p: readonly number[]): number[] => { const r = [p[0]! - c[0]! / n, p[1]! - c[1]! / n, p[2]! - c[2]! / n]; const h = along(r); return r.map((x, i) => x - h * d[i]!); };
  const fq = flat(q), rq = Math.hypot(fq[0]!, fq[1]!, fq[2]!);
  let far = 0, farH = 0;
  for (let v = 0; v < model.labels.length; v++) {
    if (model.labels[v] !== tooth) continue;
    const p = [model.positions[3 * v]!, model.positions[3 * v + 1]!, model.positions[3 * v + 2]!];
    const fp = flat(p), rp = Math.hypot(fp[0]!, fp[1]!, fp[2]!);
    const cos = (fp[0]! * fq[0]! + fp[1]! * fq[1]! + fp[2]! * fq[2]!) / (rp * rq);
    if (cos > Math.cos((2 * Math.PI) / 180) && rp > far) { far = rp; farH = along(p); }
  }
  return along(q) < farH ? far - rq : 0;
}

/** The jaw's default prescription (its base left out: the base has tests of its own) designed on `model`. */
const design = (model: TeethJaw, jaw: Jaw): Promise<AutodesignResult> =>
  autodesign(module, { [jaw]: model, prescription: { upper: null, lower: null, [jaw]: { ...DEFAULT_PRESCRIPTION[jaw]!, base: false } } });

describe('automatic design on jaws with undercuts', () => {
  it('the generated jaws narrow below the height of contour without folding: the premolars\' and molars\' walls between 3.8 and 5.8 mm below the occlusal plane face out and towards the gum', () => {
    for (const [jaw, crowding] of [['lower', 0], ['upper', 0.5]] as const) {
      const g = teethJaw({ jaw, undercut: 0.25, crowding, seed: 2 });
      const P = g.positions, I = g.indices, up = jaw === 'upper' ? -1 : 1;
      // premolars and molars: Universal 1-5 and 12-16 (upper), 17-21 and 28-32 (lower)
      const back = (n: number): boolean => (jaw === 'upper' ? n <= 5 || n >= 12 : n <= 21 || n >= 28);
      let walls = 0, outwards = 0, gumwards = 0;
      for (let t = 0; t < I.length; t += 3) {
        const [a, b, c] = [I[t]!, I[t + 1]!, I[t + 2]!];
        const n = g.labels[a]!;
        if (n === 0 || !back(n) || g.labels[b] !== n || g.labels[c] !== n) continue;
        const m = [0, 1, 2].map((i) => (P[3 * a + i]! + P[3 * b + i]! + P[3 * c + i]!) / 3);
        if (up * m[2]! > -3.8 || up * m[2]! < -5.8) continue;
        const e = [0, 1, 2].map((i) => P[3 * b + i]! - P[3 * a + i]!), f = [0, 1, 2].map((i) => P[3 * c + i]! - P[3 * a + i]!);
        const nx = e[1]! * f[2]! - e[2]! * f[1]!, ny = e[2]! * f[0]! - e[0]! * f[2]!, nz = e[0]! * f[1]! - e[1]! * f[0]!;
        const centre = g.teeth.find((x) => x.number === n)!.center;
        walls++;
        if (nx * (m[0]! - centre[0]) + ny * (m[1]! - centre[1]) > 0) outwards++;
        if (up * nz < 0) gumwards++;
      }
      expect(walls).toBeGreaterThan(5000);
      expect(outwards).toBe(walls);
      expect(gumwards / walls).toBeGreaterThan(0.97);
    }
  });

  // the lower jaw (the upper one with 0.3-0.75 mm: BENCHMARKS.md, 'Automatic design')
  const jaw: Jaw = 'lower';
  const own = teethJaw({ jaw, undercut: 0.5 });
  it.each([
    ['its own pose', null],
    ['random pose 21', 21],
    ['random pose 22', 22],
  ] as const)('lower jaw with 0.5 mm undercuts in %s: every wire placed and passing the checks, each clasp tip in 0.15-0.4 mm of undercut and outside the tooth', async (_, seed) => {
    const model = seed === null ? own : posed(own, randomPose(seed));
    const r = await design(model, jaw);
    expect(r.report.map((x) => [x.type, x.teeth, x.status]), JSON.stringify(r.report)).toEqual(DEFAULT_PRESCRIPTION[jaw]!.wires.map((w) => [w.type, w.teeth, 'placed']));
    const k = instantiateModule(module);
    for (const w of r.document.wires) {
      const check = checkBend(k, { points: w.points.map((p) => p.point), wire: { type: w.type, diameter: w.diameter }, program: { radius: 1 } });
      expect(check.ok, JSON.stringify(check.issues)).toBe(true);
    }
    const toothOf = new Map(r.report.map((x) => [x.wireId!, x.teeth[0]!]));
    const figures = await measureJaw(module, r.document, jaw, model, model.labels, toothOf);
    const d = rotateVector(invertRigid(modelToCanonical(r.document as unknown as DesignDocument, jaw)), r.document.insertionDirections[jaw]!);
    const clasps = figures.filter((f) => f.type === 'singleArmClasp');
    expect(clasps).toHaveLength(2);
    for (const f of clasps) {
      const w = r.document.wires.find((x) => x.id === f.id)!;
      const reference = await referenceUndercut(module, model, toothOf.get(f.id)!, w.points[claspTip(w).tip]!.point, d);
      const msg = JSON.stringify({ figures, reference, report: r.report });
      expect(f.tipUndercut!, msg).toBeGreaterThanOrEqual(CLASP_TIP_RANGE[0]);
      expect(f.tipUndercut!, msg).toBeLessThanOrEqual(CLASP_TIP_RANGE[1]);
      expect(Math.abs(reference - f.tipUndercut!), msg).toBeLessThan(0.05);
      expect(f.minGap, msg).toBeGreaterThanOrEqual(0);
    }
  }, 60_000);
});
