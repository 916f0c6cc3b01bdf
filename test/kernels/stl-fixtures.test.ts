// Optional: the real jaw meshes beside the project (../shared/fixtures, or
// ARCHWRIGHT_FIXTURES). Skipped, with the reason in the test name, when absent.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { parseStl, type StlMesh } from '../../workers/kernels/stl.ts';
import { loadKernels } from './kernels.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures');
const upperPath = resolve(fixtures, 'open-full-jaw-p26/upper.stl');
const studyPath = resolve(fixtures, 'study-models/upper-model.stl');
const present = existsSync(upperPath);
const title = present
  ? `STL kernel on real jaw scans (${fixtures})`
  : `STL kernel on real jaw scans: SKIPPED, ${upperPath} not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;

if (!present) console.warn(title);

let k: KernelExports;

async function parseFile(path: string): Promise<StlMesh> {
  const buf = readFileSync(path);
  const r = await parseStl(k, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
  if (!r.ok) throw new Error(`${path}: ${r.error.code} ${r.error.detail}`);
  return r.mesh;
}

/** Signed volume: positive when triangles wind counter-clockwise seen from outside. */
function signedVolume(m: StlMesh): number {
  let v = 0;
  const p = m.positions;
  for (let t = 0; t < m.triangleCount; t++) {
    const a = m.indices[t * 3]! * 3, b = m.indices[t * 3 + 1]! * 3, c = m.indices[t * 3 + 2]! * 3;
    v += p[a]! * (p[b + 1]! * p[c + 2]! - p[b + 2]! * p[c + 1]!)
       - p[a + 1]! * (p[b]! * p[c + 2]! - p[b + 2]! * p[c]!)
       + p[a + 2]! * (p[b]! * p[c + 1]! - p[b + 1]! * p[c]!);
  }
  return v / 6;
}

describe.skipIf(!present)(title, () => {
  beforeAll(async () => {
    k = await loadKernels();
  });

  it('upper.stl: 447,456 triangles, welded shells, plausible millimetre bounds', async () => {
    const m = await parseFile(upperPath);
    expect(m.format).toBe('binary');
    expect(m.triangleCount).toBe(447_456);
    // Closed shells: about one vertex per two triangles.
    expect(m.vertexCount).toBeGreaterThan(m.triangleCount * 0.45);
    expect(m.vertexCount).toBeLessThan(m.triangleCount * 0.55);
    const size = [0, 1, 2].map((a) => m.bounds.max[a]! - m.bounds.min[a]!);
    // A dental arch: some 40-90 mm wide and deep, 10-40 mm tall (z is occlusal).
    expect(size[0]).toBeGreaterThan(40);
    expect(size[0]).toBeLessThan(90);
    expect(size[1]).toBeGreaterThan(30);
    expect(size[1]).toBeLessThan(90);
    expect(size[2]).toBeGreaterThan(10);
    expect(size[2]).toBeLessThan(40);
    let maxIndex = 0;
    for (const i of m.indices) maxIndex = Math.max(maxIndex, i);
    expect(maxIndex).toBeLessThan(m.vertexCount);
    for (let v = 0; v < m.vertexCount; v += 997) {
      expect(Math.hypot(m.normals[v * 3]!, m.normals[v * 3 + 1]!, m.normals[v * 3 + 2]!)).toBeCloseTo(1, 5);
    }
    expect(signedVolume(m)).toBeGreaterThan(0);
  });

  it.skipIf(!existsSync(studyPath))('study model: 358,578 triangles, one outward-facing solid', async () => {
    const m = await parseFile(studyPath);
    expect(m.triangleCount).toBe(358_578);
    // Genus-0 closed manifold: V = T / 2 + 2.
    expect(m.vertexCount).toBe(m.triangleCount / 2 + 2);
    expect(signedVolume(m)).toBeGreaterThan(1000); // cubic millimetres
  });
});
