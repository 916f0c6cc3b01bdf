// Simplifying the real jaws (../shared/fixtures or ARCHWRIGHT_FIXTURES) ten
// times: the bounds, the volume and the closed shells survive. Skipped, with
// the reason in the test name, when the files are absent.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { simplify } from '../../workers/kernels/simplify.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { loadKernels } from './kernels.ts';
import { edgeReport } from './mesh-checks.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures');
const upperPath = resolve(fixtures, 'open-full-jaw-p26/upper.stl');
const studyPath = resolve(fixtures, 'study-models/upper-model.stl');
const present = existsSync(upperPath);
const title = present
  ? `simplifying real jaws (${fixtures})`
  : `simplifying real jaws: SKIPPED, ${upperPath} not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;
if (!present) console.warn(title);

let k: KernelExports;

function bounds(p: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      min[a] = Math.min(min[a]!, p[i + a]!);
      max[a] = Math.max(max[a]!, p[i + a]!);
    }
  }
  return { min, max };
}

function volume(p: Float32Array, idx: Uint32Array): number {
  let v = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t]! * 3, b = idx[t + 1]! * 3, c = idx[t + 2]! * 3;
    v += p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!) - p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!) + p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!);
  }
  return v / 6;
}

async function decimateTenfold(path: string) {
  const buf = readFileSync(path);
  k.arenaReset();
  const parsed = await parseStl(k, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
  if (!parsed.ok) throw new Error(parsed.error.code);
  const m = parsed.mesh;
  const target = Math.round(m.triangleCount / 10);
  const r = await simplify(meshFromArrays(k, m.positions, m.indices), { targetTriangles: target });
  return { m, r, target };
}

describe.skipIf(!present)(title, () => {
  beforeAll(async () => {
    k = await loadKernels();
  });

  it('upper.stl (15 teeth, 447k triangles) to a tenth keeps its bounds, volume and closed shells', async () => {
    const { m, r, target } = await decimateTenfold(upperPath);
    expect(Math.abs(r.triangleCount - target)).toBeLessThanOrEqual(target * 0.01);
    const before = bounds(m.positions), after = bounds(r.positions);
    for (let a = 0; a < 3; a++) {
      expect(Math.abs(after.min[a]! - before.min[a]!)).toBeLessThan(0.05);
      expect(Math.abs(after.max[a]! - before.max[a]!)).toBeLessThan(0.05);
    }
    expect(edgeReport(r.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
    const v0 = volume(m.positions, m.indices), v1 = volume(r.positions, r.indices);
    expect(Math.abs(v1 / v0 - 1)).toBeLessThan(0.005);
  });

  it.skipIf(!existsSync(studyPath))('the upper study model (one genus-0 solid) stays one genus-0 solid', async () => {
    const { m, r, target } = await decimateTenfold(studyPath);
    expect(Math.abs(r.triangleCount - target)).toBeLessThanOrEqual(target * 0.01);
    expect(r.vertexCount).toBe(r.triangleCount / 2 + 2);
    expect(edgeReport(r.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
    const v0 = volume(m.positions, m.indices), v1 = volume(r.positions, r.indices);
    expect(Math.abs(v1 / v0 - 1)).toBeLessThan(0.005);
  });
});
