// The automatic design's last pass over the wires' arms (workers/design/lift-off.ts): a straight
// that dips into a tooth between its corners is lifted out to the wire's clearance along the
// surface normal, its tags' corners left where the base holds them; and every wire the design
// places on the generated jaws keeps its clearance outside its tags.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESCRIPTION } from '../../common/prescription.ts';
import type { Xyz } from '../../common/pose.ts';
import { mm } from '../../common/units.ts';
import { compileKernels, instantiateModule } from '../../workers/kernels/abi.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { checkBend } from '../../workers/kernels/bend-checks.ts';
import { autodesign } from '../../workers/design/autodesign.ts';
import { armGaps, liftOff } from '../../workers/design/lift-off.ts';
import { kernelSurface } from '../../workers/design/surface.ts';
import { teethJaw } from '../fixtures/teeth-jaws.ts';
import { WASM_PATH } from './kernels.ts';

let module: WebAssembly.Module;
beforeAll(async () => {
  module = await compileKernels(readFileSync(WASM_PATH));
});

describe('automatic design: arms lifted off the teeth', () => {
  const lower = teethJaw({ jaw: 'lower' });

  it('keeps every placed wire its clearance outside the tags, and lifts a wire pushed into the teeth back out', async () => {
    const r = await autodesign(module, { lower, prescription: { upper: null, lower: DEFAULT_PRESCRIPTION.lower } });
    expect(r.report.every((x) => x.status === 'placed'), JSON.stringify(r.report)).toBe(true);
    const k = instantiateModule(module);
    const surface = kernelSurface(meshFromArrays(k, lower.positions, lower.indices));
    for (const w of r.document.wires) expect((await armGaps(w, surface)).least, w.id).toBeGreaterThanOrEqual(w.clearance - 0.01);

    // each clasp with the corners of its arm (not its tags') pushed 0.3 mm into the teeth
    for (const w of r.document.wires.filter((x) => x.type === 'singleArmClasp')) {
      const [a, b] = w.tag!;
      const free = w.points.map((_, i) => i).filter((i) => i < a || i > b);
      const hits = await surface.closest(new Float32Array(free.flatMap((i) => w.points[i]!.point)));
      const points = w.points.map((p) => ({ ...p }));
      free.forEach((i, m) => {
        const n: Xyz = [hits.normal[3 * m]!, hits.normal[3 * m + 1]!, hits.normal[3 * m + 2]!];
        const p = points[i]!.point;
        points[i] = { ...points[i]!, point: [p[0] - 0.3 * n[0], p[1] - 0.3 * n[1], p[2] - 0.3 * n[2]] };
      });
      const sunk = { ...w, points };
      expect((await armGaps(sunk, surface)).least).toBeLessThan(0);
      const lifted = await liftOff(sunk, surface);
      expect((await armGaps(lifted, surface)).least, w.id).toBeGreaterThanOrEqual(w.clearance - 0.01);
      // the tag's corners stay where they were; the arm's corners move along the normal, by little
      for (let i = a; i <= b; i++) expect(lifted.points[i]!.point).toEqual(w.points[i]!.point);
      for (const i of free) {
        const p = lifted.points[i]!.point, q = w.points[i]!.point;
        expect(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2])).toBeLessThan(1);
      }
      expect(checkBend(k, { points: lifted.points.map((p) => p.point), wire: { type: w.type, diameter: w.diameter }, program: { radius: 1 } }).ok).toBe(true);
    }
  }, 180_000);

  it('leaves a wire already clear of the teeth as it is', async () => {
    const k = instantiateModule(module);
    const surface = kernelSurface(meshFromArrays(k, lower.positions, lower.indices));
    // a straight 5 mm above the occlusal plane, its ends a tag
    const w = { points: [{ point: [-5, -10, 8] as Xyz }, { point: [0, -10, 8] as Xyz }, { point: [5, -10, 8] as Xyz }], tag: [1, 2] as [number, number], diameter: mm(0.8), clearance: mm(0.1) };
    expect(await liftOff(w, surface)).toBe(w);
  }, 60_000);
});
