// Straightening the real jaws (../shared/fixtures or ARCHWRIGHT_FIXTURES).
// They come in the patient's own coordinates (z up, incisors at -y), so the
// transform found must be a small turn; after it the occlusal plane is z = 0,
// the incisors are in front, and straightening again changes nothing.
// Skipped, with the reason in the test name, when the files are absent.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { meshFromArrays, meshViews, type MeshRef } from '../../workers/kernels/mesh.ts';
import { simplify } from '../../workers/kernels/simplify.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { multiply, straighten, transformMesh, type StraightenJaw } from '../../workers/kernels/straighten.ts';
import { rigidMatrix, rotationAngle, transformPositions } from '../fixtures/jaw.ts';
import { loadKernels } from './kernels.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures');
const files: [string, StraightenJaw][] = [
  ['open-full-jaw-p26/upper.stl', 'upper'],
  ['open-full-jaw-p26/lower.stl', 'lower'],
  ['study-models/upper-model.stl', 'upper'],
  ['study-models/lower-model.stl', 'lower'],
];
const present = existsSync(resolve(fixtures, files[0]![0]));
const title = present
  ? `straightening real jaws (${fixtures})`
  : `straightening real jaws: SKIPPED, ${resolve(fixtures, files[0]![0])} not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;
if (!present) console.warn(title);

let k: KernelExports;

async function load(relative: string): Promise<{ positions: Float32Array; indices: Uint32Array }> {
  const buf = readFileSync(resolve(fixtures, relative));
  k.arenaReset();
  const r = await parseStl(k, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
  if (!r.ok) throw new Error(`${relative}: ${r.error.code}`);
  return { positions: r.mesh.positions, indices: r.mesh.indices };
}

function percentile(values: Float64Array, q: number): number {
  const s = values.slice().sort();
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

/** Facts about a straightened arch that hold for any real jaw. */
function checkCanonical(mesh: MeshRef, jaw: StraightenJaw): void {
  const { positions } = meshViews(mesh);
  const n = positions.length / 3;
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) z[i] = positions[i * 3 + 2]!;
  // Occlusal plane z = 0: the cusp tips touch it, the rest lies on the gum's side.
  if (jaw === 'lower') {
    expect(percentile(z, 0.999)).toBeGreaterThan(-1);
    expect(percentile(z, 0.999)).toBeLessThan(3);
    expect(percentile(z, 0.5)).toBeLessThan(-2);
  } else {
    expect(percentile(z, 0.001)).toBeLessThan(1);
    expect(percentile(z, 0.001)).toBeGreaterThan(-3);
    expect(percentile(z, 0.5)).toBeGreaterThan(2);
  }
  // Crowns near the occlusal plane: in front (-y) they close on the midline, at the back they are far apart.
  let frontY = 0, frontCount = 0, sumY = 0, count = 0;
  let minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    if (Math.abs(z[i]!) > 4) continue;
    const x = positions[i * 3]!, y = positions[i * 3 + 1]!;
    sumY += y;
    count++;
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
    if (Math.abs(x) < 3) {
      frontY += y;
      frontCount++;
    }
  }
  expect(frontCount).toBeGreaterThan(100);
  expect(frontY / frontCount).toBeLessThan(minY + 0.25 * (maxY - minY));
  expect(sumY / count).toBeGreaterThan(frontY / frontCount + 5);
}

describe.skipIf(!present)(title, () => {
  beforeAll(async () => {
    k = await loadKernels();
  });

  for (const [file, jaw] of files) {
    it.skipIf(!existsSync(resolve(fixtures, file)))(`${file} (${jaw}): a small turn to the canonical frame, idempotent`, async () => {
      const model = await load(file);
      k.arenaReset();
      const mesh = meshFromArrays(k, model.positions, model.indices);
      const r = await straighten(mesh, { jaw });
      expect(r.method).toBe('arch');
      expect(r.quality).toBeGreaterThan(0.3);
      // Already in patient coordinates: only the tilt of the occlusal plane and the midline are corrected.
      expect(rotationAngle(r.matrix)).toBeLessThan(10);
      transformMesh(mesh, r.matrix);
      checkCanonical(mesh, jaw);
      const again = await straighten(mesh, { jaw });
      expect(rotationAngle(again.matrix)).toBeLessThan(1);
      expect(Math.hypot(again.matrix[12]!, again.matrix[13]!, again.matrix[14]!)).toBeLessThan(0.5);
    });
  }

  it('finds the same frame for a study model however it lies', async () => {
    const [file, jaw] = files[2]!;
    if (!existsSync(resolve(fixtures, file))) return;
    const model = await load(file);
    k.arenaReset();
    const reference = await straighten(meshFromArrays(k, model.positions, model.indices), { jaw });
    for (const pose of [rigidMatrix([1, 0, 0], 180, [5, 5, 5]), rigidMatrix([1, 2, -1], 100, [-50, 20, 0]), rigidMatrix([0, 0, 1], -150)]) {
      k.arenaReset();
      const r = await straighten(meshFromArrays(k, transformPositions(model.positions, pose), model.indices), { jaw });
      const composed = multiply(r.matrix, pose);
      expect(rotationAngle(multiply(composed, invert(reference.matrix)))).toBeLessThan(2);
      for (let i = 12; i < 15; i++) expect(Math.abs(composed[i]! - reference.matrix[i]!)).toBeLessThan(1);
    }
  });

  it('a study model and its teeth alone (same teeth, same place) get the same frame', async () => {
    for (const [teeth, study] of [[files[0]!, files[2]!], [files[1]!, files[3]!]] as const) {
      if (!existsSync(resolve(fixtures, study[0]))) continue;
      const frames: Float64Array[] = [];
      for (const [file, jaw] of [teeth, study]) {
        const model = await load(file);
        k.arenaReset();
        frames.push((await straighten(meshFromArrays(k, model.positions, model.indices), { jaw })).matrix);
      }
      const diff = multiply(frames[1]!, invert(frames[0]!));
      expect(rotationAngle(diff)).toBeLessThan(3);
      // Where the canonical origin of one lands in the other: within a millimetre or two.
      expect(Math.hypot(diff[12]!, diff[13]!, diff[14]!)).toBeLessThan(2);
    }
  });

  it('a decimated copy (a thirtieth of the triangles) straightens the same', async () => {
    for (const [file, jaw] of [files[0]!, files[2]!]) {
      if (!existsSync(resolve(fixtures, file))) continue;
      const model = await load(file);
      k.arenaReset();
      const mesh = meshFromArrays(k, model.positions, model.indices);
      const full = await straighten(mesh, { jaw });
      const coarse = await simplify(mesh, { targetTriangles: Math.round(mesh.triangleCount / 30) });
      const r = await straighten(coarse.mesh, { jaw });
      const diff = multiply(r.matrix, invert(full.matrix));
      expect(rotationAngle(diff)).toBeLessThan(2);
      expect(Math.hypot(diff[12]!, diff[13]!, diff[14]!)).toBeLessThan(0.5);
    }
  });

  it('upper and lower of the same patient share their occlusal plane within a few degrees', async () => {
    const normals: number[][] = [];
    for (const [file, jaw] of files.slice(0, 2)) {
      const model = await load(file);
      k.arenaReset();
      const r = await straighten(meshFromArrays(k, model.positions, model.indices), { jaw });
      // Canonical z in model coordinates: the third row of the rotation.
      normals.push([r.matrix[2]!, r.matrix[6]!, r.matrix[10]!]);
    }
    const [a, b] = normals as [number[], number[]];
    const angle = (Math.acos(Math.min(1, a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!)) * 180) / Math.PI;
    expect(angle).toBeLessThan(5);
  });
});

function invert(m: Float64Array): Float64Array {
  const out = new Float64Array(16);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[c * 4 + r] = m[r * 4 + c]!;
  for (let r = 0; r < 3; r++) out[12 + r] = -(out[r]! * m[12]! + out[4 + r]! * m[13]! + out[8 + r]! * m[14]!);
  out[15] = 1;
  return out;
}
