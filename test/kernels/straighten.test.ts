// Straightening on generated models: a jaw built in the canonical frame comes
// back to the identity, from any pose; a rotated cube comes back axis-aligned.
import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { KernelError } from '../../workers/kernels/job.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { invertRigid, multiply, straighten, transformMesh, type StraightenResult } from '../../workers/kernels/straighten.ts';
import { cubeTriangles } from '../fixtures/stl.ts';
import { jawMesh, rigidMatrix, rotationAngle, transformPositions, type Jaw } from '../fixtures/jaw.ts';
import { loadKernels } from './kernels.ts';

let k: KernelExports;
let jaw: Jaw;

beforeAll(async () => {
  k = await loadKernels();
  jaw = jawMesh({ detail: 1 });
});

async function straightenPose(pose: Float64Array, jawKind: 'lower' | 'upper' = 'lower'): Promise<StraightenResult> {
  k.arenaReset();
  const mesh = meshFromArrays(k, transformPositions(jaw.positions, pose), jaw.indices);
  return straighten(mesh, { jaw: jawKind });
}

/** Where a column-major 4x4 takes a point. */
function apply(m: ArrayLike<number>, p: readonly number[]): number[] {
  return [0, 1, 2].map((r) => m[r]! * p[0]! + m[4 + r]! * p[1]! + m[8 + r]! * p[2]! + m[12 + r]!);
}

describe('straightening a generated jaw', () => {
  it('leaves a jaw already in the canonical frame where it is', async () => {
    const r = await straightenPose(rigidMatrix([0, 0, 1], 0));
    expect(r.method).toBe('arch');
    expect(rotationAngle(r.matrix)).toBeLessThan(1);
    expect(Math.hypot(r.matrix[12]!, r.matrix[13]!, r.matrix[14]!)).toBeLessThan(0.5);
    expect(r.quality).toBeGreaterThan(0.5);
    expect(r.diagnostics.teethSide).toBe('flat-base');
  });

  const poses: [string, Float64Array][] = [
    ['tilted 20° about x, shifted', rigidMatrix([1, 0, 0], 20, [5, -3, 12])],
    ['turned 135° about z', rigidMatrix([0, 0, 1], 135, [40, 50, 60])],
    ['upside down (180° about x)', rigidMatrix([1, 0, 0], 180, [-7, 2, 3])],
    ['upside down and turned (180° about y, then 170° about z)', multiply(rigidMatrix([0, 0, 1], 170), rigidMatrix([0, 1, 0], 180))],
    ['on its side (90° about y)', rigidMatrix([0, 1, 0], 90, [0, 0, -30])],
    ['117° about (1, 2, 3)', rigidMatrix([1, 2, 3], 117, [10, 20, 30])],
    ['-160° about (-2, 1, 0.5)', rigidMatrix([-2, 1, 0.5], -160, [-100, 0, 5])],
  ];
  for (const [name, pose] of poses) {
    it(`brings it back from ${name}`, async () => {
      const r = await straightenPose(pose);
      expect(r.method).toBe('arch');
      const back = multiply(r.matrix, pose);
      expect(rotationAngle(back)).toBeLessThan(2);
      // The incisal point of the canonical model lands where it started: front at -y, on the midline.
      const incisal = apply(back, jaw.incisalPoint);
      expect(Math.abs(incisal[0]!)).toBeLessThan(0.5);
      expect(Math.abs(incisal[1]! - jaw.incisalPoint[1])).toBeLessThan(0.5);
      expect(Math.abs(incisal[2]!)).toBeLessThan(0.5);
      // The inverse undoes it.
      const id = multiply(r.inverse, r.matrix);
      for (let i = 0; i < 16; i++) expect(id[i]!).toBeCloseTo(i % 5 === 0 ? 1 : 0, 9);
    });
  }

  it('straightens an open scan (teeth and a band of gum, nothing below) from any pose', async () => {
    // Like an intraoral scan: every triangle wholly below z = -8 removed.
    const kept: number[] = [];
    for (let t = 0; t < jaw.indices.length; t += 3) {
      if ([0, 1, 2].every((i) => jaw.positions[jaw.indices[t + i]! * 3 + 2]! < -8)) continue;
      kept.push(jaw.indices[t]!, jaw.indices[t + 1]!, jaw.indices[t + 2]!);
    }
    const indices = Uint32Array.from(kept);
    for (const pose of [rigidMatrix([0, 0, 1], 0), rigidMatrix([1, 0, 0], 180, [1, 2, 3]), rigidMatrix([2, 1, -1], 130)]) {
      k.arenaReset();
      const r = await straighten(meshFromArrays(k, transformPositions(jaw.positions, pose), indices));
      expect(r.method).toBe('arch');
      expect(r.diagnostics.teethSide).toBe('facing-area');
      const back = multiply(r.matrix, pose);
      expect(rotationAngle(back)).toBeLessThan(2);
      const incisal = apply(back, jaw.incisalPoint);
      expect(Math.abs(incisal[0]!)).toBeLessThan(0.5);
      expect(Math.abs(incisal[2]!)).toBeLessThan(0.5);
      expect(incisal[1]!).toBeLessThan(-5);
    }
  });

  it('works in other units (a jaw in metres)', async () => {
    const pose = rigidMatrix([1, 1, 0], 160, [0.1, 0.2, 0.3]);
    k.arenaReset();
    const metres = transformPositions(jaw.positions.map((x) => x / 1000), pose);
    const r = await straighten(meshFromArrays(k, metres, jaw.indices));
    expect(r.method).toBe('arch');
    expect(rotationAngle(multiply(r.matrix, pose))).toBeLessThan(2);
  });

  it('turns an upper jaw teeth down, front still at -y', async () => {
    const pose = rigidMatrix([0.3, 1, 0.2], 75, [3, 4, 5]);
    const r = await straightenPose(pose, 'upper');
    const back = multiply(r.matrix, pose);
    // The generated model is a lower jaw: as an upper one it must end turned 180° about y.
    expect(rotationAngle(multiply(rigidMatrix([0, 1, 0], 180), back))).toBeLessThan(2);
    expect(apply(back, jaw.incisalPoint)[1]!).toBeLessThan(-5);
  });

  it('is stable: a straightened model straightens to the identity', async () => {
    k.arenaReset();
    const mesh = meshFromArrays(k, transformPositions(jaw.positions, rigidMatrix([1, -1, 2], 64, [9, 9, 9])), jaw.indices);
    const first = await straighten(mesh);
    transformMesh(mesh, first.matrix);
    const second = await straighten(mesh);
    expect(rotationAngle(second.matrix)).toBeLessThan(0.5);
    expect(Math.hypot(second.matrix[12]!, second.matrix[13]!, second.matrix[14]!)).toBeLessThan(0.3);
  });

  it('reports progress and can be cancelled', async () => {
    k.arenaReset();
    const mesh = meshFromArrays(k, jaw.positions, jaw.indices);
    const seen: number[] = [];
    await straighten(mesh, { onProgress: (f) => seen.push(f) });
    expect(seen.at(-1)).toBe(1);
    await expect(straighten(mesh, { shouldCancel: () => true })).rejects.toThrow(KernelError);
    await expect(straighten(mesh, { shouldCancel: () => true })).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

describe('straightening a box', () => {
  /** The cube as an indexed mesh (its soup has 3 copies of each corner; fine for the kernel). */
  function cube(pose: Float64Array): { positions: Float32Array; indices: Uint32Array } {
    const soup = cubeTriangles(10, [0, 0, 0]);
    return { positions: transformPositions(soup, pose), indices: Uint32Array.from({ length: soup.length / 3 }, (_, i) => i) };
  }

  /** True when the rotation part is a signed permutation: the cube's faces are on the axes. */
  function axisAligned(m: ArrayLike<number>, degrees: number): boolean {
    const tol = Math.sin((degrees * Math.PI) / 180);
    for (let c = 0; c < 3; c++) {
      const col = [m[c * 4]!, m[c * 4 + 1]!, m[c * 4 + 2]!].map(Math.abs).sort((a, b) => b - a);
      if (col[0]! < 1 - tol * tol || col[1]! > tol) return false;
    }
    return true;
  }

  for (const [name, pose] of [
    ['30° about (1, 1, 0)', rigidMatrix([1, 1, 0], 30, [4, 5, 6])],
    ['150° about (2, -1, 3)', rigidMatrix([2, -1, 3], 150, [-20, 0, 7])],
  ] as const) {
    it(`aligns a cube turned ${name} with the axes, centred`, async () => {
      k.arenaReset();
      const c = cube(pose);
      const r = await straighten(meshFromArrays(k, c.positions, c.indices));
      expect(r.method).toBe('box');
      expect(r.diagnostics.boxReason).toBe('no thin axis');
      const back = multiply(r.matrix, pose);
      expect(axisAligned(back, 0.5)).toBe(true);
      // The centre of the cube goes to the origin.
      const centre = apply(back, [0, 0, 0]);
      for (const v of centre) expect(Math.abs(v)).toBeLessThan(1e-3);
    });
  }

  it('undoes a small turn exactly (the alignment closest to the identity)', async () => {
    k.arenaReset();
    const pose = rigidMatrix([1, 2, 2], 25, [1, 2, 3]);
    const c = cube(pose);
    const r = await straighten(meshFromArrays(k, c.positions, c.indices));
    expect(rotationAngle(multiply(r.matrix, pose))).toBeLessThan(0.5);
    expect(invertRigid(r.matrix)[12]).toBeCloseTo(r.inverse[12]!, 9);
  });
});
