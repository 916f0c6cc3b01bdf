// Bite registration (workers/kernels/bite.ts over assembly/bite*.ts): generated
// jaws and bite scans (test/fixtures/bite-jaws.ts) in random poses, one- and
// two-sided, the failures (another patient, no overlap, not dental, bad input),
// manual alignment from picked pairs; then the study models and their bite
// scans when ../shared/fixtures (or ARCHWRIGHT_FIXTURES) is present. Accuracy
// only: the time is the bench's (npm run bench -- --suite=bite).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IDENTITY, type BiteResult } from '../../common/bite.ts';
import { compileKernels, type KernelExports } from '../../workers/kernels/abi.ts';
import { alignByPairs, registerBite, registerBiteStl } from '../../workers/kernels/bite.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { generatedBite, gridBox, merge, type GenMesh } from '../fixtures/bite-jaws.ts';
import { apply, biteError, centroid, invertRigid, mul, randomPose, rng, transformed, transformError, type V3 } from '../fixtures/bite-poses.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';
import { uvSphereMesh } from '../fixtures/meshes.ts';
import { loadKernels, WASM_PATH } from './kernels.ts';

const GOAL_DEG = 0.1;
const GOAL_MM = 0.05;

async function run(upper: GenMesh, lower: GenMesh, bite: GenMesh, pu: number[] = [...IDENTITY], pl: number[] = [...IDENTITY]): Promise<{ r: BiteResult; k: KernelExports }> {
  const k = await loadKernels();
  const u = transformed(pu, upper.positions);
  const l = transformed(pl, lower.positions);
  const r = await registerBite(k, {
    upper: meshFromArrays(k, u.positions, upper.indices),
    lower: meshFromArrays(k, l.positions, lower.indices),
    bite: meshFromArrays(k, bite.positions, bite.indices),
  });
  return { r, k };
}

function expectAccurate(r: BiteResult, pu: number[], pl: number[], upper: GenMesh, lower: GenMesh): void {
  expect(r.code, r.error).toBeUndefined();
  const e = biteError(pu, pl, r.upper, r.lower, upper.positions, lower.positions);
  expect(e.relative.deg).toBeLessThan(GOAL_DEG);
  expect(e.relative.mm).toBeLessThan(GOAL_MM);
  expect(e.upper.mm).toBeLessThan(GOAL_MM);
  expect(e.lower.mm).toBeLessThan(GOAL_MM);
}

describe('bite registration on generated jaws', () => {
  const both = generatedBite({ seed: 1, sides: 'both' });

  it('finds both jaws from random poses (rotations up to 180 degrees, 50 mm)', async () => {
    const next = rng(11);
    for (let i = 0; i < 3; i++) {
      const pu = randomPose(next, centroid(both.upper.positions));
      const pl = randomPose(next, centroid(both.lower.positions));
      const { r } = await run(both.upper, both.lower, both.bite, pu, pl);
      expectAccurate(r, pu, pl, both.upper, both.lower);
      expect(r.rms).toBeLessThan(0.04);
      expect(r.overlap).toBeGreaterThan(0.95);
      expect(r.upperFit!.points).toBeGreaterThan(1000);
      expect(r.lowerFit!.points).toBeGreaterThan(1000);
      // the upper's bite points lie above the lower's: the occlusal direction points down (-z)
      expect(r.occlusal![2]).toBeLessThan(-0.8);
    }
  });

  it('registers a one-sided scan with more noise, either side', async () => {
    const next = rng(12);
    for (const sides of ['left', 'right'] as const) {
      const g = generatedBite({ seed: 3, sides, noise: 0.03 });
      const pu = randomPose(next, centroid(g.upper.positions));
      const pl = randomPose(next, centroid(g.lower.positions));
      const { r } = await run(g.upper, g.lower, g.bite, pu, pl);
      expectAccurate(r, pu, pl, g.upper, g.lower);
    }
  });

  it('registers a noisy scan (0.06 mm) from a random pose', async () => {
    const g = generatedBite({ seed: 6, sides: 'both', noise: 0.06 });
    const next = rng(18);
    const pu = randomPose(next, centroid(g.upper.positions));
    const pl = randomPose(next, centroid(g.lower.positions));
    const { r } = await run(g.upper, g.lower, g.bite, pu, pl);
    expectAccurate(r, pu, pl, g.upper, g.lower);
    expect(r.rms).toBeGreaterThan(0.04);
  });

  it('registers a bite scan exported inside out (normals towards the teeth)', async () => {
    const g = generatedBite({ seed: 5, sides: 'right' });
    const flipped = g.bite.indices.slice();
    for (let t = 0; t < flipped.length; t += 3) [flipped[t + 1], flipped[t + 2]] = [flipped[t + 2]!, flipped[t + 1]!];
    const pu = randomPose(rng(17), centroid(g.upper.positions));
    const { r } = await run(g.upper, g.lower, { positions: g.bite.positions, indices: flipped }, pu);
    expectAccurate(r, pu, [...IDENTITY], g.upper, g.lower);
  });

  it('starts from given poses (options.initial) and reports and resolves penetration on request', async () => {
    // crowns about 0.4 mm into each other in the true bite
    const g = generatedBite({ seed: 7, sides: 'both', gap: -1.6 });
    const k = await loadKernels();
    const pu = randomPose(rng(19), centroid(g.upper.positions));
    const u = transformed(pu, g.upper.positions);
    const meshes = {
      upper: meshFromArrays(k, u.positions, g.upper.indices),
      lower: meshFromArrays(k, g.lower.positions, g.lower.indices),
      bite: meshFromArrays(k, g.bite.positions, g.bite.indices),
    };
    // a start 1 degree and 0.5 mm off the truth
    const initial = { upper: mul(randomPose(rng(20), [0, 0, 0], 1, 0.5), invertRigid(pu)), lower: randomPose(rng(21), [0, 0, 0], 1, 0.5) };
    const r = await registerBite(k, meshes, { initial });
    expectAccurate(r, pu, [...IDENTITY], g.upper, g.lower);
    expect(r.penetration).toBeGreaterThan(0.3);
    expect(r.penetration).toBeLessThan(0.55);
    expect(r.resolved).toBe(0);
    expect(r.resolveBy).toBeGreaterThan(0.25);
    const applied = await registerBite(k, meshes, { initial, resolvePenetration: true, contactTolerance: 0.05 });
    expect(applied.resolved).toBeCloseTo(applied.resolveBy!, 9);
    expect(applied.lower).toEqual(applied.lowerResolved);
    // the lower moved along the occlusal direction (down, -z) by resolveBy
    const shift = apply(mul(applied.lower, invertRigid(r.lower)), [0, 0, 0]);
    expect(Math.hypot(...shift)).toBeCloseTo(applied.resolveBy!, 3);
    expect(shift[2]).toBeLessThan(0);
  });

  it('refuses the bite scan of another patient', async () => {
    const other = generatedBite({ seed: 2, sides: 'both' });
    const { r } = await run(both.upper, both.lower, other.bite);
    expect(['BITE_POOR_FIT', 'BITE_NO_OVERLAP']).toContain(r.code);
    expect(r.error).toMatch(/\w/);
    expect(r.upper).toEqual(IDENTITY);
    expect(r.lower).toEqual(IDENTITY);
  });

  it('refuses a scan that shows neither jaw', async () => {
    // a bumpy patch of the bite's size: anatomy-like variety, but nowhere on the models
    const next = rng(13);
    const bumps = Array.from({ length: 30 }, () => [next() * 30, next() * 20, 0.5 + next() * 2, 1 + next() * 3] as const);
    const n = 120;
    const positions = new Float32Array((n + 1) * (n + 1) * 3);
    for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) {
      const x = (30 * j) / n, y = (20 * i) / n;
      let z = 0;
      for (const [bx, by, h, w] of bumps) z += h * Math.exp(-((x - bx) ** 2 + (y - by) ** 2) / (w * w));
      positions.set([x, y, z], (i * (n + 1) + j) * 3);
    }
    const idx: number[] = [];
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j;
      idx.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
    }
    const { r } = await run(both.upper, both.lower, { positions, indices: new Uint32Array(idx) });
    expect(['BITE_NO_OVERLAP', 'BITE_POOR_FIT']).toContain(r.code);
    expect(r.overlap).toBeLessThan(0.7);
    expect(r.upper).toEqual(IDENTITY);
  });

  it('says a sphere or a box is not dental', async () => {
    const sphere = uvSphereMesh({ radius: 22, segments: 160, rings: 80 });
    const a = await run(sphere, both.lower, both.bite);
    expect(a.r.code).toBe('BITE_NOT_DENTAL');
    expect(a.r.error).toMatch(/upper jaw/);
    const box = gridBox(20, 40, [0, -20, 10]);
    const b = await run(both.upper, both.lower, box);
    expect(b.r.code).toBe('BITE_NOT_DENTAL');
    expect(b.r.error).toMatch(/bite scan/);
  });

  it('says bad input: empty, too few points, unreadable STL', async () => {
    const empty: GenMesh = { positions: new Float32Array(0), indices: new Uint32Array(0) };
    expect((await run(both.upper, both.lower, empty)).r.code).toBe('BITE_BAD_INPUT');
    const tiny: GenMesh = { positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) };
    expect((await run(tiny, both.lower, both.bite)).r.code).toBe('BITE_BAD_INPUT');
    const module = await compileKernels(readFileSync(WASM_PATH));
    const upper = binaryStl(soupOf(both.upper));
    const lower = binaryStl(soupOf(both.lower));
    const r = await registerBiteStl(module, { upper, lower, bites: [new Uint8Array(0)] });
    expect(r.code).toBe('BITE_BAD_INPUT');
    expect(r.error).toMatch(/bite scan/);
    expect((await registerBiteStl(module, { upper, lower, bites: [] })).code).toBe('BITE_BAD_INPUT');
  });

  it('reads STL files, two bite files making one scan', async () => {
    const left = generatedBite({ seed: 1, sides: 'left' }).bite;
    const right = generatedBite({ seed: 1, sides: 'right' }).bite;
    const module = await compileKernels(readFileSync(WASM_PATH));
    const pu = randomPose(rng(14), centroid(both.upper.positions));
    const u = transformed(pu, both.upper.positions);
    const r = await registerBiteStl(module, {
      upper: binaryStl(soupOf({ positions: u.positions, indices: both.upper.indices })),
      lower: binaryStl(soupOf(both.lower)),
      bites: [binaryStl(soupOf(left)), binaryStl(soupOf(right))],
    });
    expectAccurate(r, pu, [...IDENTITY], both.upper, both.lower);
    expect(r.timings!.parseMs).toBeGreaterThan(0);
  });

  it('stops with ABORTED when cancelled', async () => {
    const k = await loadKernels();
    const meshes = {
      upper: meshFromArrays(k, both.upper.positions, both.upper.indices),
      lower: meshFromArrays(k, both.lower.positions, both.lower.indices),
      bite: meshFromArrays(k, both.bite.positions, both.bite.indices),
    };
    let polls = 0;
    await expect(registerBite(k, meshes, { sliceMs: 0, shouldCancel: () => ++polls > 3 })).rejects.toThrow(/ABORTED/);
  });

  it('aligns one jaw from three or more noisy picked pairs (alignByPairs)', async () => {
    const next = rng(15);
    const pu = randomPose(next, centroid(both.upper.positions));
    const u = transformed(pu, both.upper.positions);
    const k = await loadKernels();
    const jaw = meshFromArrays(k, u.positions, both.upper.indices);
    const bite = meshFromArrays(k, both.bite.positions, both.bite.indices);
    // picks on the bite's upper half (true frame) and the same spots on the moved jaw, 0.3 mm off
    const picks: V3[] = [];
    const bp = both.bite.positions;
    for (const v of [100, 1900, 3300, 5200]) {
      const i = v * 3;
      picks.push([bp[i]!, bp[i + 1]!, bp[i + 2]!]);
    }
    const jitter = (): number => (next() - 0.5) * 0.6;
    const pairs = picks.map((p) => {
      const q = apply(pu, p);
      return { jaw: [q[0] + jitter(), q[1] + jitter(), q[2] + jitter()] as [number, number, number], bite: p as [number, number, number] };
    });
    const r = await alignByPairs(k, jaw, bite, pairs);
    const e = transformError(mul(r.matrix, pu), both.upper.positions);
    expect(e.mm).toBeLessThan(GOAL_MM);
    expect(r.rms).toBeLessThan(0.04);
    expect(r.points).toBeGreaterThan(1000);
    // fewer than three pairs and no starting pose: bad input
    await expect(alignByPairs(k, jaw, bite, pairs.slice(0, 2))).rejects.toThrow(/BAD_INPUT/);
    // with a starting pose instead of pairs (inverse of the pose, a little off)
    const start = mul(randomPose(rng(3), [0, 0, 0], 1, 0.5), invertRigid(pu));
    const s = await alignByPairs(k, jaw, bite, [], start);
    expect(transformError(mul(s.matrix, pu), both.upper.positions).mm).toBeLessThan(GOAL_MM);
  });

  it('merges shells: the generator gives one scan per side', () => {
    const m = merge([both.bite, both.bite]);
    expect(m.positions.length).toBe(2 * both.bite.positions.length);
  });
});

// ---------------------------------------------------------------- study models

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures');
const study = resolve(fixtures, 'study-models');
const present = existsSync(resolve(study, 'upper-model.stl')) && existsSync(resolve(study, 'bite-left.stl'));
const title = present
  ? `bite registration of the study models (${study})`
  : `bite registration of the study models: SKIPPED, ${resolve(study, 'upper-model.stl')} not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;
if (!present) console.warn(title);

describe.skipIf(!present)(title, () => {
  it('registers random poses to both bite scans and to one side, to the truth (identity)', async () => {
    const k0 = await loadKernels();
    const read = async (f: string) => {
      const r = await parseStl(k0, readFileSync(resolve(study, f)));
      if (!r.ok) throw new Error(`${f}: ${r.error.code}`);
      return r.mesh;
    };
    const upper = await read('upper-model.stl');
    const lower = await read('lower-model.stl');
    const left = await read('bite-left.stl');
    const right = await read('bite-right.stl');
    const next = rng(16);
    const cases: [string, GenMesh][] = [
      ['both', merge([left, right])],
      ['left', left],
      ['right', right],
    ];
    for (const [name, bite] of cases) {
      const pu = randomPose(next, centroid(upper.positions));
      const pl = randomPose(next, centroid(lower.positions));
      const { r } = await run(upper, lower, bite, pu, pl);
      expect(r.code, `${name}: ${r.error}`).toBeUndefined();
      const e = biteError(pu, pl, r.upper, r.lower, upper.positions, lower.positions);
      expect(e.relative.deg, name).toBeLessThan(GOAL_DEG);
      expect(e.relative.mm, name).toBeLessThan(GOAL_MM);
      expect(r.rms).toBeLessThan(0.03);
      expect(r.overlap).toBeGreaterThan(0.95);
      // the models' true bite penetrates about 0.3 mm: reported, not applied by default
      expect(r.penetration).toBeGreaterThan(0.2);
      expect(r.penetration).toBeLessThan(0.4);
      expect(r.resolved).toBe(0);
      expect(r.resolveBy).toBeGreaterThan(0.15);
      const moved = transformError(mul(invertRigid(r.lower), r.lowerResolved!), lower.positions);
      expect(moved.deg).toBeLessThan(1e-4); // a pure translation (acos rounding near 1)
      expect(moved.centroidMm).toBeCloseTo(r.resolveBy!, 4);
    }
  }, 60_000);
});
