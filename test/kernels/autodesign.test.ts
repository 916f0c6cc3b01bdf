// The automatic design of an order (workers/design/autodesign.ts, docs/autodesign.md) with the
// default prescription on generated jaws with known tooth numbers (test/fixtures/teeth-jaws.ts),
// designed once and read by every test of it: every wire placed, each passing the bending checks
// (collision sweep included), the clasps on their named teeth and the labial bow in front of the
// incisors; the insertion direction of least undercut within the cone round each jaw's axis; the
// editor opens the result; the jaws moved apart in their registered bite are designed where the
// unmoved ones were (straightening · bite); a closed base on each jaw with its tags inside and the
// clasps' slots cut. A jaw without its first molars has its clasps reported with the
// specification's reason and keeps its bow and base. The study models: autodesign-study.test.ts.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESCRIPTION } from '../../common/prescription.ts';
import { invertRigid, multiply, transformPoint } from '../../common/pose.ts';
import { modelToCanonical, parseDocument } from '../../src/editor/engine/document.ts';
import { compileKernels, instantiateModule } from '../../workers/kernels/abi.ts';
import { MIN_OUTLINE_POINTS } from '../../workers/kernels/base.ts';
import { checkBend } from '../../workers/kernels/bend-checks.ts';
import { autodesign, type AutodesignResult } from '../../workers/design/autodesign.ts';
import { INSERTION_CONE_DEG, jawAxis, RETENTION_TRADE } from '../../workers/design/insertion.ts';
import { biteOf, posed, randomPose } from '../fixtures/poses.ts';
import { teethJaw, type TeethJaw } from '../fixtures/teeth-jaws.ts';
import { baseGoals, expectSound } from './autodesign-goals.ts';
import { WASM_PATH } from './kernels.ts';

let module: WebAssembly.Module;
beforeAll(async () => {
  module = await compileKernels(readFileSync(WASM_PATH));
});

/** Distance in the occlusal plane (the generated jaws are in the canonical frame) from a generated tooth's centre. */
function reach(g: TeethJaw, n: number, p: readonly number[]): number {
  const t = g.teeth.find((x) => x.number === n)!;
  return Math.hypot(p[0]! - t.center[0], p[1]! - t.center[1]);
}

const angleDeg = (a: readonly number[], b: readonly number[]): number => (Math.acos(Math.min(1, Math.max(-1, a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!))) * 180) / Math.PI;

const upper = teethJaw({ jaw: 'upper' });
const lower = teethJaw({ jaw: 'lower' });
// The default prescription on both jaws, designed by the first test that reads it.
let designed: Promise<AutodesignResult> | undefined;
const design = (): Promise<AutodesignResult> => (designed ??= autodesign(module, { upper, lower, prescription: DEFAULT_PRESCRIPTION }));

describe('automatic design', () => {
  it('places every wire of the default prescription on generated jaws, each passing the checks, where its teeth are', async () => {
    const r = await design();
    expect(r.report.map((x) => [x.jaw, x.type, x.status])).toEqual([
      ['upper', 'singleArmClasp', 'placed'],
      ['upper', 'singleArmClasp', 'placed'],
      ['upper', 'labialBow', 'placed'],
      ['lower', 'singleArmClasp', 'placed'],
      ['lower', 'singleArmClasp', 'placed'],
      ['lower', 'labialBow', 'placed'],
    ]);
    const k = instantiateModule(module);
    for (const w of r.document.wires) {
      expect(w.ai).toEqual({ accepted: false });
      const check = checkBend(k, { points: w.points.map((p) => p.point), wire: { type: w.type, diameter: w.diameter }, program: { radius: 1 } });
      expect(check.ok, JSON.stringify(check.issues)).toBe(true);
    }
    // each clasp's corners on the tooth round its named tooth
    for (const entry of r.report.filter((x) => x.type === 'singleArmClasp')) {
      const w = r.document.wires.find((x) => x.id === entry.wireId)!;
      const g = w.jaw === 'upper' ? upper : lower;
      const onTooth = w.points.filter((p) => p.surface);
      expect(onTooth.length).toBeGreaterThan(2);
      for (const p of onTooth) expect(reach(g, entry.teeth[0]!, p.point)).toBeLessThan(8);
    }
    // the labial bow passes in front of (labial to, towards -y) the central incisors
    for (const [jaw, g, centrals] of [['upper', upper, [8, 9]], ['lower', lower, [24, 25]]] as const) {
      const bow = r.document.wires.find((w) => w.jaw === jaw && w.type === 'labialBow')!;
      const incisors = Math.min(...g.teeth.filter((t) => (centrals as readonly number[]).includes(t.number)).map((t) => t.center[1]));
      // where the bow crosses the midline (its tags are far behind, at the premolars)
      const crossings: number[] = [];
      bow.points.forEach((p, i) => {
        const q = bow.points[i + 1]?.point;
        if (!q || Math.sign(p.point[0]) === Math.sign(q[0])) return;
        const s = p.point[0] / (p.point[0] - q[0]);
        crossings.push(p.point[1] + s * (q[1] - p.point[1]));
      });
      expect(crossings).toHaveLength(1);
      expect(crossings[0]!).toBeLessThan(incisors - 2);
    }
  }, 120_000);

  it('gives a document the editor opens, with the straightening and the AI marks kept', async () => {
    const r = await design();
    const doc = parseDocument(JSON.parse(JSON.stringify(r.document)));
    expect(doc.wires).toHaveLength(6);
    expect(doc.straightening).toEqual(r.document.straightening);
    for (const [i, w] of doc.wires!.entries()) {
      const made = r.document.wires[i]!;
      expect(w).toMatchObject({ id: made.id, jaw: made.jaw, type: made.type, diameter: 0.8, ai: { accepted: false }, tag: made.tag });
      expect(w.points).toHaveLength(made.points.length);
    }
    expect(doc.wires!.filter((w) => w.type === 'labialBow').every((w) => w.tags?.length === 2)).toBe(true);
  }, 120_000);

  it('a jaw without its first molars: both clasps fail with the specification reason naming the tooth; the bow and the base are kept, only the bow slotted', async () => {
    const gap = teethJaw({ jaw: 'lower', missing: [19, 30] });
    const out = await autodesign(module, { lower: gap, prescription: { upper: null, lower: DEFAULT_PRESCRIPTION.lower } });
    expect(out.report.map((x) => [x.type, x.status, x.code, x.tooth])).toEqual([
      ['singleArmClasp', 'failed', 'DETECTION_FAILED', 30],
      ['singleArmClasp', 'failed', 'DETECTION_FAILED', 19],
      ['labialBow', 'placed', undefined, undefined],
    ]);
    expect(out.report[0]!.message).toBe('AI detection failed for the single-arm clasp on tooth 46');
    expect(out.report[1]!.message).toBe('AI detection failed for the single-arm clasp on tooth 36');
    expect(out.document.wires.map((w) => w.type)).toEqual(['labialBow']);
    expect(out.report.map((x) => x.status)).toEqual(['failed', 'failed', 'placed']);
    expect(out.bases[0]).toMatchObject({ jaw: 'lower', status: 'generated' });
    expect(out.bases[0]!.slots.map((s) => s.wireId)).toEqual(['ai-lower-3']);
    expectSound(await baseGoals(module, gap, out, 'lower'), 'molars missing');
  }, 60_000);

  it('refuses a prescribed jaw without its model', async () => {
    await expect(autodesign(module, { lower, prescription: DEFAULT_PRESCRIPTION })).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });
});

describe('automatic design: insertion and bite', () => {
  it('writes each jaw an insertion direction within the cone round its axis, and every wire passes the checks with the collision sweep', async () => {
    const r = await design();
    for (const jaw of ['upper', 'lower'] as const) {
      const d = r.document.insertionDirections[jaw]!;
      expect(Math.hypot(...d)).toBeCloseTo(1, 6);
      expect(angleDeg(d, jawAxis(jaw))).toBeLessThanOrEqual(INSERTION_CONE_DEG + 1e-6);
      // no more undercut than along the axis, but for what the clasps' retention may trade
      const clasps = DEFAULT_PRESCRIPTION[jaw]!.wires.filter((w) => w.type === 'singleArmClasp').length;
      expect(r.insertion[jaw]!.undercut).toBeLessThanOrEqual(r.insertion[jaw]!.axisUndercut * (1 + RETENTION_TRADE * clasps));
    }
    expect(r.report.every((x) => x.status === 'placed'), JSON.stringify(r.report)).toBe(true);
    const k = instantiateModule(module);
    for (const w of r.document.wires) {
      const check = checkBend(k, { points: w.points.map((p) => p.point), wire: { type: w.type, diameter: w.diameter }, program: { radius: 1 } });
      expect(check.ok, JSON.stringify(check.issues)).toBe(true);
    }
  }, 120_000);

  it('designs jaws moved apart in their registered bite: the frames are straightening · bite, as the editor draws them', async () => {
    const reference = await design();
    const pu = randomPose(11), pl = randomPose(12);
    const bite = biteOf(pu, pl);
    const r = await autodesign(module, { upper: posed(upper, pu), lower: posed(lower, pl), prescription: DEFAULT_PRESCRIPTION, bite });
    expect(r.report.every((x) => x.status === 'placed'), JSON.stringify(r.report)).toBe(true);
    const doc = parseDocument(JSON.parse(JSON.stringify(r.document)));
    expect(doc.bite).toEqual({ upper: bite.upper, lower: bite.lower, source: 'auto' });
    // each jaw's canonical frame is the one it had unmoved: its wires land where the unmoved design's did
    for (const jaw of ['upper', 'lower'] as const) {
      const toCanonical = modelToCanonical(doc, jaw);
      const unmoved = reference.document.straightening.matrix;
      for (const w of r.document.wires.filter((x) => x.jaw === jaw)) {
        const ref = reference.document.wires.find((x) => x.id === w.id)!;
        const mid = (pts: typeof w.points, m: readonly number[]) => {
          const c = [0, 0, 0];
          for (const p of pts) transformPoint(m, p.point).forEach((v, i) => (c[i]! += v / pts.length));
          return c;
        };
        const a = mid(w.points, toCanonical), b = mid(ref.points, unmoved);
        expect(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!), `${w.id}`).toBeLessThan(0.5);
      }
      // the straightening found on a moved model differs a little, and the search steps 3° and more
      expect(angleDeg(r.document.insertionDirections[jaw]!, reference.document.insertionDirections[jaw]!)).toBeLessThan(6);
    }
    // the straightening undoes the analysed jaw's bite: that jaw's canonical frame is its own straightening
    expect(multiply(r.document.straightening.matrix, bite.upper).every((v, i) => Math.abs(v - multiply(reference.document.straightening.matrix, invertRigid(pu))[i]!) < 1e-3)).toBe(true);
  }, 180_000);
});

describe('automatic base and slots of the default design', () => {
  it('makes a closed base on each jaw, on no occlusal surface, with its tags inside and one slot per wire', async () => {
    const r = await design();
    expect(r.report.every((x) => x.status === 'placed')).toBe(true);
    expect(r.bases.map((b) => [b.jaw, b.status, b.shape])).toEqual([['upper', 'generated', 'horseshoe'], ['lower', 'generated', 'horseshoe']]);
    for (const [jaw, model] of [['upper', upper], ['lower', lower]] as const) {
      const base = r.document.bases?.[jaw];
      expect(base).toMatchObject({ jaw, closed: true, thickness: 2, height: 2, generated: true });
      expect(base!.outline.length).toBeGreaterThanOrEqual(MIN_OUTLINE_POINTS);
      const g = await baseGoals(module, model, r, jaw);
      expectSound(g, jaw);
      // The generated band ends 10 mm lingual of the arch: the clasps' tags turn less towards the
      // palate or tongue where the band would not hold them, and lie 1 mm inside.
      expect(g.tagsOutside, JSON.stringify(g)).toBe(0);
      expect(g.tagRimDistance, JSON.stringify(g)).toBeGreaterThanOrEqual(1);
      // every tag held: the report names none
      expect(r.bases.find((b) => b.jaw === jaw)!.tags).toBeUndefined();
      // The clasps' slots are cut (the bow's may split the thin horseshoe: reported, left out).
      const clasps = r.document.wires.filter((w) => w.jaw === jaw && w.type === 'singleArmClasp').map((w) => w.id);
      const report = r.bases.find((b) => b.jaw === jaw)!;
      for (const id of clasps) expect(report.slots.find((s) => s.wireId === id)?.status).toBe('cut');
      for (const s of report.slots) expect(r.document.slots!.some((d) => d.wireId === s.wireId)).toBe(s.status === 'cut');
    }
    expect(r.document.slots!.every((s) => s.depth === 0 && s.clearance === 0.1)).toBe(true);
  }, 120_000);
});
