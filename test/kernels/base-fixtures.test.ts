// Base generation on the real study models (../shared/fixtures or
// ARCHWRIGHT_FIXTURES), straightened: the upper one in the upper jaw's frame
// (teeth -z, palate above; insertion direction -z, from the model towards
// the tongue) with a horseshoe on the palate, the lower one with a lingual
// horseshoe; both give closed, printable bases. Skipped, with the reason in
// the test name, when the files are absent.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateBase } from '../../workers/kernels/base.ts';
import { buildBvh } from '../../workers/kernels/bvh.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { straighten, transformMesh } from '../../workers/kernels/straighten.ts';
import { palateHorseshoe } from '../fixtures/base-models.ts';
import { expectPrintable, expectRemovable, innerGaps, lingualHorseshoe, percentile, pickOutline, thicknessSamples } from './base-checks.ts';
import { loadKernels } from './kernels.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures');
const file = resolve(fixtures, 'study-models/upper-model.stl');
const lowerFile = resolve(fixtures, 'study-models/lower-model.stl');
const present = existsSync(file) && existsSync(lowerFile);
const title = present ? `base on the real study models (${fixtures})` : `base on the real study models: SKIPPED, ${file} or ${lowerFile} not found (set ARCHWRIGHT_FIXTURES)`;
if (!present) console.warn(title);

describe.skipIf(!present)(title, () => {
  it('a horseshoe outline on the palate gives a closed base that follows the palate and comes off along the insertion direction', async () => {
    const k = await loadKernels();
    const buf = readFileSync(file);
    const parsed = await parseStl(k, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
    if (!parsed.ok) throw new Error(parsed.error.code);
    const km = await loadKernels();
    const mesh = meshFromArrays(km, parsed.mesh.positions, parsed.mesh.indices);
    transformMesh(mesh, (await straighten(mesh, { jaw: 'upper' })).matrix);
    const bvh = buildBvh(mesh);
    const outline = pickOutline(bvh, palateHorseshoe(), [0, 0, -1]);
    const base = await generateBase(mesh, bvh, outline, { jaw: 'upper', thickness: 2 });
    expect(base.direction).toEqual([0, 0, -1]);
    await expectPrintable(k, base);
    expectRemovable(bvh, base, 0.05);
    const gaps = innerGaps(bvh, base);
    expect(percentile(gaps, 0.5)).toBeLessThan(0.05);
    const t = thicknessSamples(k, base);
    expect(percentile(t, 0.05)).toBeGreaterThan(1.8);
    expect(percentile(t, 0.95)).toBeLessThan(2.2);
  }, 60_000);

  it('a lingual horseshoe on the lower study model (no palate: a deep undercut under the lingual gum) gives a closed base', async () => {
    const k = await loadKernels();
    const buf = readFileSync(lowerFile);
    const parsed = await parseStl(k, new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
    if (!parsed.ok) throw new Error(parsed.error.code);
    const km = await loadKernels();
    const mesh = meshFromArrays(km, parsed.mesh.positions, parsed.mesh.indices);
    transformMesh(mesh, (await straighten(mesh, { jaw: 'lower' })).matrix);
    const bvh = buildBvh(mesh);
    const base = await generateBase(mesh, bvh, pickOutline(bvh, lingualHorseshoe(bvh, 1)), { thickness: 2 });
    expect(base.direction).toEqual([0, 0, 1]);
    expect(base.maxBlockout).toBeGreaterThan(5); // the study model's lingual wall, filled down to the plinth
    await expectPrintable(k, base);
    expectRemovable(bvh, base, 0.05);
    expect(percentile(innerGaps(bvh, base), 0.5)).toBeLessThan(0.05);
  }, 60_000);
});
