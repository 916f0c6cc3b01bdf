// The automatic design (workers/design/autodesign.ts) on the study models, when present: the
// default prescription is designed once from the two STL files, and that one design is held to
// the goals of the wires (every wire placed and passing the bending checks with the collision
// sweep, the insertion directions in their cone, the labial bows on each incisor, every clasp tip
// in its undercut) and of the base (the upper base crosses the palate with every tag inside, the
// lower one is a closed horseshoe; both on no occlusal surface; the lower bow's tags 1 mm inside;
// every lower tag 1 mm inside, a goal not met yet, held as failing).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESCRIPTION } from '../../common/prescription.ts';
import { compileKernels, instantiateModule } from '../../workers/kernels/abi.ts';
import { checkBend } from '../../workers/kernels/bend-checks.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { autodesign, AUTODESIGN_CLEARANCE, type AutodesignResult } from '../../workers/design/autodesign.ts';
import { CLASP_TIP_RANGE } from '../../workers/design/clasp-tip.ts';
import { INSERTION_CONE_DEG, jawAxis } from '../../workers/design/insertion.ts';
import { measureJaw } from '../bench/autodesign-measure.ts';
import { baseGoals, expectSound, type Jaw, type LabelledModel } from './autodesign-goals.ts';
import { WASM_PATH } from './kernels.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const STUDY = resolve(process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures'), 'study-models');

const present = ['upper', 'lower'].every((j) => existsSync(resolve(STUDY, `${j}-model.stl`)) && existsSync(resolve(STUDY, `${j}-model.labels.bin`)));
const title = present ? 'automatic design on the study models' : `automatic design on the study models: SKIPPED, ${STUDY} has no models and labels (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;
if (!present) console.warn(title);

const angleDeg = (a: readonly number[], b: readonly number[]): number => (Math.acos(Math.min(1, Math.max(-1, a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!))) * 180) / Math.PI;

describe.skipIf(!present)(title, () => {
  let module: WebAssembly.Module;
  const models = {} as Record<Jaw, LabelledModel>;
  let r: AutodesignResult;
  // One design of the two files as an order's models arrive (STL bytes); each model parsed once
  // more, as the measurements read it.
  beforeAll(async () => {
    module = await compileKernels(readFileSync(WASM_PATH));
    const bytes = {} as Record<Jaw, Uint8Array>;
    for (const jaw of ['upper', 'lower'] as const) {
      bytes[jaw] = new Uint8Array(readFileSync(resolve(STUDY, `${jaw}-model.stl`)));
      const parsed = await parseStl(instantiateModule(module), bytes[jaw], { sliceMs: 1e9, yieldToEventLoop: () => Promise.resolve() });
      if (!parsed.ok) throw new Error(parsed.error.code);
      models[jaw] = { positions: parsed.mesh.positions, indices: parsed.mesh.indices, labels: new Uint8Array(readFileSync(resolve(STUDY, `${jaw}-model.labels.bin`))) };
    }
    r = await autodesign(module, { upper: bytes.upper, lower: bytes.lower, prescription: DEFAULT_PRESCRIPTION });
  }, 240_000);

  it('places every wire of the default prescription, each passing the checks with the collision sweep', () => {
    expect(r.report.map((x) => [x.jaw, x.type, x.status, x.code]), JSON.stringify(r.report)).toEqual([
      ['upper', 'singleArmClasp', 'placed', undefined],
      ['upper', 'singleArmClasp', 'placed', undefined],
      ['upper', 'labialBow', 'placed', undefined],
      ['lower', 'singleArmClasp', 'placed', undefined],
      ['lower', 'singleArmClasp', 'placed', undefined],
      ['lower', 'labialBow', 'placed', undefined],
    ]);
    expect(r.document.wires).toHaveLength(6);
  });

  it('directions in the cone, every wire placed and passing with the collision sweep, the bows on each incisor, every clasp tip in the undercut', async () => {
    for (const jaw of ['upper', 'lower'] as const) expect(angleDeg(r.document.insertionDirections[jaw]!, jawAxis(jaw))).toBeLessThanOrEqual(INSERTION_CONE_DEG + 1e-6);
    expect(r.report.every((x) => x.status === 'placed'), JSON.stringify(r.report)).toBe(true);
    // the labial bows lie on each incisor's labial surface at its middle third (the fixtures' labels)
    for (const jaw of ['upper', 'lower'] as const) {
      const toothOf = new Map(r.report.filter((x) => x.wireId).map((x) => [x.wireId!, x.teeth[0]!]));
      const bow = (await measureJaw(module, r.document, jaw, models[jaw], models[jaw].labels, toothOf)).find((f) => f.type === 'labialBow')!;
      expect(Object.keys(bow.incisorGaps!)).toHaveLength(4);
      for (const gap of Object.values(bow.incisorGaps!)) expect(gap, `${jaw} ${JSON.stringify(bow.incisorGaps)}`).toBeLessThanOrEqual(AUTODESIGN_CLEARANCE + 0.2);
    }
    // every clasp's tip ends in its crown's undercut (the engine's survey)
    for (const x of r.report.filter((y) => y.type === 'singleArmClasp')) expect(x.tipUndercut, JSON.stringify(x)).toBeDefined();
    for (const x of r.report) {
      if (x.tipUndercut !== undefined) {
        expect(x.tipUndercut).toBeGreaterThanOrEqual(CLASP_TIP_RANGE[0]);
        expect(x.tipUndercut).toBeLessThanOrEqual(CLASP_TIP_RANGE[1]);
      }
    }
    // and measured on the fixtures' own labels: the lower left first molar's buccal surface has a
    // band that deep only along directions tilted off the least-undercut one
    for (const jaw of ['upper', 'lower'] as const) {
      const toothOf = new Map(r.report.filter((x) => x.wireId).map((x) => [x.wireId!, x.teeth[0]!]));
      for (const f of await measureJaw(module, r.document, jaw, models[jaw], models[jaw].labels, toothOf)) {
        if (f.tipUndercut === undefined) continue;
        expect(f.tipUndercut, `${jaw} ${f.id}`).toBeGreaterThanOrEqual(CLASP_TIP_RANGE[0]);
        expect(f.tipUndercut, `${jaw} ${f.id}`).toBeLessThanOrEqual(CLASP_TIP_RANGE[1]);
      }
    }
    expect(r.insertion.lower!.retentive.sort()).toEqual([19, 30]);
    const k = instantiateModule(module);
    for (const w of r.document.wires) expect(checkBend(k, { points: w.points.map((p) => p.point), wire: { type: w.type, diameter: w.diameter }, program: { radius: 1 } }).ok).toBe(true);
  }, 120_000);

  it('crosses the palate and makes a closed lower horseshoe, both on no occlusal surface, the upper tags 1 mm inside', async () => {
    expect(r.bases.map((b) => [b.jaw, b.status, b.shape])).toEqual([['upper', 'generated', 'palate'], ['lower', 'generated', 'horseshoe']]);
    const upper = await baseGoals(module, models.upper, r, 'upper');
    expectSound(upper, 'upper');
    expect(upper.tagsOutside).toBe(0);
    expect(upper.tagRimDistance, JSON.stringify(upper)).toBeGreaterThanOrEqual(1);
    expect(r.bases[0]!.slots.every((s) => s.status === 'cut')).toBe(true);
    expectSound(await baseGoals(module, models.lower, r, 'lower'), 'lower');
  }, 120_000);

  it('names in its report the tags the base holds short of 1 mm, each a wire of its jaw', async () => {
    for (const jaw of ['upper', 'lower'] as const) {
      const goals = await baseGoals(module, models[jaw], r, jaw);
      const named = r.bases.find((b) => b.jaw === jaw)!.tags ?? [];
      // the goals measure the base regenerated from the document, the report the base as made: both short, or both not
      expect(named.length > 0, JSON.stringify({ named, goals })).toBe(goals.tagRimDistance < 1 || goals.tagsOutside > 0);
      for (const t of named) {
        expect(r.document.wires.find((w) => w.id === t.wireId)?.jaw).toBe(jaw);
        expect(t.inside < 1 || t.outside > 0).toBe(true);
      }
    }
  }, 120_000);

  it("holds the lower clasps' tags in the solid, laid from the molars' distal contacts where the gum beside the mesial ones is too narrow", async () => {
    const lower = r.bases.find((b) => b.jaw === 'lower')!;
    const clasps = new Set(r.document.wires.filter((w) => w.jaw === 'lower' && w.type === 'singleArmClasp').map((w) => w.id));
    expect(clasps.size).toBe(2);
    // laid from the mesial contact, the right molar's tag was 0.22 mm inside with a corner outside the acrylic
    for (const t of (lower.tags ?? []).filter((x) => clasps.has(x.wireId))) {
      expect(t.outside, JSON.stringify(t)).toBe(0);
      expect(t.inside, JSON.stringify(t)).toBeGreaterThanOrEqual(0.5);
    }
  }, 120_000);

  it("holds the lower labial bow's tags 1 mm inside, turned where the base has room (lingual of the incisors)", async () => {
    const lower = r.bases.find((b) => b.jaw === 'lower')!;
    const bow = r.document.wires.find((w) => w.jaw === 'lower' && w.type === 'labialBow')!;
    // along the first premolars' lingual, where the scan ends near the crowns, they were 0.08-0.74 mm inside
    expect((lower.tags ?? []).filter((t) => t.wireId === bow.id), JSON.stringify(lower.tags)).toEqual([]);
    expect(lower.slots.find((s) => s.wireId === bow.id)?.status).toBe('cut');
  }, 120_000);

  // Not met: the lower scan ends 2-5 mm lingual of the teeth, down a steep wall: beside the right
  // first molar the strip between the occlusal clearance and the scan's end is under 2 mm wide at
  // either contact, and that clasp's tag lies 0.4-0.8 mm inside (BENCHMARKS.md). Fails until it is.
  it.fails('holds every lower tag in the solid, 1 mm inside the rim', async () => {
    const lower = await baseGoals(module, models.lower, r, 'lower');
    expect(lower.tagsOutside, JSON.stringify(lower)).toBe(0);
    expect(lower.tagRimDistance, JSON.stringify(lower)).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
