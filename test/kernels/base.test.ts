// Acrylic base generation (workers/kernels/base.ts) on analytic models and the
// generated jaw with a palate: the base is closed, manifold and outward, as
// thick as asked, follows the model inside the outline, never cuts into it and
// has no undercut along the insertion direction; bad outlines fail with the
// codes the editor turns into the specification's messages.

import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { BaseError, generateBase, MIN_OUTLINE_POINTS, outlinePath, type BaseMesh, type BaseOptions, type OutlinePoint } from '../../workers/kernels/base.ts';
import { buildBvh, type Bvh } from '../../workers/kernels/bvh.ts';
import { KernelError } from '../../workers/kernels/job.ts';
import { meshFromArrays, type MeshRef } from '../../workers/kernels/mesh.ts';
import { heightFieldSolid, jawHorseshoe, mushroomBlock, palateJaw } from '../fixtures/base-models.ts';
import { filterTriangles, gridPlane, uvSphere, type IndexedMesh } from '../fixtures/mesh.ts';
import { circle, expectPrintable, expectRemovable, innerGaps, percentile, pickOutline, thicknessSamples } from './base-checks.ts';
import { loadKernels } from './kernels.ts';

interface Model {
  mesh: MeshRef;
  bvh: Bvh;
}

let scratch: KernelExports;

async function model(m: IndexedMesh): Promise<Model> {
  const k = await loadKernels();
  const mesh = meshFromArrays(k, m.positions, m.indices);
  return { mesh, bvh: buildBvh(mesh) };
}

async function failure(m: Model, outline: OutlinePoint[], options: BaseOptions = {}): Promise<{ code: string; detail: string }> {
  try {
    await generateBase(m.mesh, m.bvh, outline, options);
  } catch (e) {
    if (e instanceof BaseError) return { code: e.code, detail: e.detail };
    if (e instanceof KernelError) return { code: e.code, detail: e.message };
    throw e;
  }
  throw new Error('expected a failure');
}

beforeAll(async () => {
  scratch = await loadKernels();
});

describe('base on a sphere cap', () => {
  let sphere: Model;
  let base: BaseMesh;
  beforeAll(async () => {
    sphere = await model(uvSphere(10, 96, 48));
    base = await generateBase(sphere.mesh, sphere.bvh, pickOutline(sphere.bvh, circle(0, 0, 6, 24)), { thickness: 2 });
  });

  it('is a closed, manifold, outward mesh of one shell', async () => {
    await expectPrintable(scratch, base);
    expect(base.direction).toEqual([0, 0, 1]);
    expect(base.missedRays).toBe(0);
  });

  it('is as thick as asked: outer vertices 2 mm from the inner surface', () => {
    const t = thicknessSamples(scratch, base);
    expect(percentile(t, 0.02)).toBeGreaterThan(1.9);
    expect(percentile(t, 0.98)).toBeLessThan(2.1);
    // The cap: the shell between radius 10 and 12 over the polar angle of the outline (about its volume).
    const h = 10 - 8; // cap height at the outline circle (radius 6 at z = 8)
    const capArea = 2 * Math.PI * 10 * h;
    expect(base.volume).toBeGreaterThan(capArea * 2 * 0.9);
    expect(base.volume).toBeLessThan(capArea * 2 * 1.25);
  });

  it('lies on the sphere inside the outline and never cuts into it', async () => {
    const gaps = innerGaps(sphere.bvh, base);
    expect(percentile(gaps, 0.5)).toBeLessThan(0.05);
    // A vertex is raised by at most the surface's rise within one cell (0.25 mm at a 37° slope: under 0.2 mm).
    expect(percentile(gaps, 1)).toBeLessThan(0.25);
    expectRemovable(sphere.bvh, base);
  });
});

describe('base on a block with a mushroom (undercut ring)', () => {
  let block: Model;
  beforeAll(async () => {
    block = await model(mushroomBlock());
  });

  it('fills the undercut under the ball: inner surface at the ball silhouette, on the block elsewhere', async () => {
    const base = await generateBase(block.mesh, block.bvh, pickOutline(block.bvh, circle(0, 0, 10, 32)), { thickness: 2 });
    await expectPrintable(scratch, base);
    expectRemovable(block.bvh, base);
    expect(base.maxBlockout).toBeGreaterThan(1); // the ball's overhang is 1.5 + 4 - 0 deep at its silhouette
    let under = 0, flat = 0;
    for (let v = 0; v < base.innerVertexCount; v++) {
      const x = base.positions[v * 3]!, y = base.positions[v * 3 + 1]!, z = base.positions[v * 3 + 2]!;
      const r = Math.hypot(x, y);
      if (r < 3.7) {
        // Above the ball's upper half (the first surface seen from above), never lower.
        expect(z).toBeGreaterThanOrEqual(1.5 + Math.sqrt(16 - r * r) - 0.05);
        under++;
      } else if (r > 4.4 && r < 9) {
        expect(Math.abs(z)).toBeLessThan(1e-3);
        flat++;
      }
    }
    expect(under).toBeGreaterThan(100);
    expect(flat).toBeGreaterThan(1000);
  });

  it('gives a flat plate exactly: 10 × 10 × 2 mm square, 2 mm thick everywhere', async () => {
    const square: [number, number][] = [[8, -5], [18, -5], [18, 5], [8, 5]];
    const base = await generateBase(block.mesh, block.bvh, pickOutline(block.bvh, square), { thickness: 2 });
    await expectPrintable(scratch, base);
    expect(base.volume).toBeGreaterThan(200 * 0.99);
    expect(base.volume).toBeLessThan(200 * 1.001);
    for (let v = base.innerVertexCount; v < base.vertexCount; v++) expect(base.positions[v * 3 + 2]).toBeCloseTo(2, 4);
    const t = thicknessSamples(scratch, base);
    expect(percentile(t, 0)).toBeCloseTo(2, 3);
  });

  it('keeps `height` as the least material height along the insertion direction', async () => {
    const square: [number, number][] = [[8, -5], [18, -5], [18, 5], [8, 5]];
    const base = await generateBase(block.mesh, block.bvh, pickOutline(block.bvh, square), { thickness: 1, height: 3 });
    for (let v = base.innerVertexCount; v < base.vertexCount; v++) expect(base.positions[v * 3 + 2]).toBeCloseTo(3, 4);
    expect(base.volume).toBeCloseTo(300, -1);
  });

  it('draws the outline as the base will cut it: straight in the plane, on the model, every 0.25 mm', () => {
    // A square round the ball: its sides pass over the block and, at x = ±3, over the ball.
    const square: [number, number][] = [[-3, -6], [3, -6], [3, 6], [-3, 6]];
    const path = outlinePath(block.bvh, pickOutline(block.bvh, square));
    const n = path.length / 3;
    expect(n).toBe((6 + 12 + 6 + 12) / 0.25); // the perimeter in 0.25 mm steps
    for (let i = 0; i < n; i++) {
      const x = path[i * 3]!, y = path[i * 3 + 1]!, z = path[i * 3 + 2]!;
      const j = (i + 1) % n;
      expect(Math.hypot(path[j * 3]! - x, path[j * 3 + 1]! - y)).toBeLessThanOrEqual(0.25 + 1e-5);
      const r = Math.hypot(x, y);
      // On the block's top, or on the ball's upper half where it covers the block.
      if (r > 4.05) expect(Math.abs(z)).toBeLessThan(1e-4);
      else if (r < 3.9) expect(z).toBeGreaterThan(1.5);
    }
  });

  it('follows any insertion direction: the block seen along a tilted axis is still blocked out and closed', async () => {
    const d: [number, number, number] = [Math.sin(0.3), 0, Math.cos(0.3)];
    const base = await generateBase(block.mesh, block.bvh, pickOutline(block.bvh, circle(0, 0, 10, 32)), { direction: d, thickness: 2 });
    await expectPrintable(scratch, base);
    expectRemovable(block.bvh, base);
  });
});

describe('base on the generated jaw with a palate', () => {
  it('gives a closed base over the palate that follows it and comes off along +z', async () => {
    const jaw = await model(palateJaw());
    const base = await generateBase(jaw.mesh, jaw.bvh, pickOutline(jaw.bvh, circle(0, 5, 15, 40, 11)), { thickness: 2 });
    await expectPrintable(scratch, base);
    expectRemovable(jaw.bvh, base);
    const gaps = innerGaps(jaw.bvh, base);
    expect(percentile(gaps, 0.5)).toBeLessThan(0.05);
    const t = thicknessSamples(scratch, base);
    expect(percentile(t, 0.05)).toBeGreaterThan(1.85);
    expect(percentile(t, 0.95)).toBeLessThan(2.15);
  });

  it('gives a closed horseshoe base reaching over the teeth, their undercuts blocked out', async () => {
    const jaw = await model(palateJaw());
    const outer = jawHorseshoe();
    const base = await generateBase(jaw.mesh, jaw.bvh, pickOutline(jaw.bvh, outer), { thickness: 2 });
    await expectPrintable(scratch, base);
    // The coarse teeth (detail 0.5) have sharp facet creases: a triangle between two samples
    // passes under a crease by up to about 0.03 mm (docs/geometry.md, "Acrylic base").
    expectRemovable(jaw.bvh, base, 0.05);
    // With a relief of 0.05 mm the base clears them everywhere.
    const relieved = await generateBase(jaw.mesh, jaw.bvh, pickOutline(jaw.bvh, outer), { thickness: 2, relief: 0.05 });
    expectRemovable(jaw.bvh, relieved, 1e-4);
    expect(base.maxBlockout).toBeGreaterThan(1); // the teeth bulge over the ridge
  });

  it('makes the same base for the upper jaw in its own frame (teeth -z, base from below)', async () => {
    const lower = await model(palateJaw());
    const upper = await model(palateJaw({ upper: true }));
    const outline = circle(0, 5, 15, 40, 11);
    const a = await generateBase(lower.mesh, lower.bvh, pickOutline(lower.bvh, outline), { thickness: 2 });
    const mirrored = outline.map(([x, y]) => [-x, y] as [number, number]);
    const b = await generateBase(upper.mesh, upper.bvh, pickOutline(upper.bvh, mirrored, [0, 0, -1]), { thickness: 2, jaw: 'upper' });
    expect(b.direction).toEqual([0, 0, -1]);
    await expectPrintable(scratch, b);
    expectRemovable(upper.bvh, b);
    expect(Math.abs(b.volume - a.volume) / a.volume).toBeLessThan(0.02);
  });
});

describe('failures the editor shows', () => {
  let block: Model;
  beforeAll(async () => {
    block = await model(mushroomBlock());
  });
  const ring = (): OutlinePoint[] => pickOutline(block.bvh, circle(10, 10, 4, 12));

  it('TOO_FEW_POINTS for 2 points, and for fewer than the minimum', async () => {
    expect((await failure(block, ring().slice(0, 2))).code).toBe('TOO_FEW_POINTS');
    expect((await failure(block, ring().slice(0, MIN_OUTLINE_POINTS - 1))).code).toBe('TOO_FEW_POINTS');
    // Repeated points count once.
    const p = ring();
    expect((await failure(block, [p[0]!, p[0]!, p[1]!, p[1]!, p[2]!])).code).toBe('TOO_FEW_POINTS');
  });

  it('SPLIT_FAILED for a figure-eight outline', async () => {
    const eight: [number, number][] = Array.from({ length: 24 }, (_, i) => {
      const a = (2 * Math.PI * i) / 24;
      return [10 + 6 * Math.sin(a), 10 + 3 * Math.sin(2 * a)];
    });
    const f = await failure(block, pickOutline(block.bvh, eight));
    expect(f.code).toBe('SPLIT_FAILED');
    expect(f.detail).toMatch(/crosses itself/);
  });

  it('SPLIT_FAILED for an outline off the model', async () => {
    const off = circle(100, 0, 5, 12).map(([x, y]) => ({ triangle: 0, point: [x, y, 0] as const }));
    const f = await failure(block, off);
    expect(f.code).toBe('SPLIT_FAILED');
    expect(f.detail).toMatch(/not on the model/);
  });

  it('SPLIT_FAILED when the outline encloses no surface; GENERATION_FAILED when a large part of it has none', async () => {
    // A plane with a round hole of radius 8 at (20, 20).
    const plane = gridPlane(40, 1);
    const holed = (r: number): IndexedMesh =>
      filterTriangles(plane, (t) => {
        let cx = 0, cy = 0;
        for (let c = 0; c < 3; c++) {
          cx += plane.positions[plane.indices[t * 3 + c]! * 3]! / 3;
          cy += plane.positions[plane.indices[t * 3 + c]! * 3 + 1]! / 3;
        }
        return Math.hypot(cx - 20, cy - 20) > r;
      });
    const m = await model(holed(8));
    // An outline inside the hole, accepted as on the model within 3 mm: its rays all miss.
    const inHole = circle(20, 20, 6, 16).map(([x, y]) => ({ triangle: 0, point: [x, y, 0] as const }));
    const none = await failure(m, inHole, { surfaceTolerance: 3 });
    expect(none.code).toBe('SPLIT_FAILED');
    expect(none.detail).toMatch(/encloses no surface/);
    // Around the hole with a margin: about 60 % of it is hole.
    const around = circle(20, 20, 10.5, 24).map(([x, y]) => ({ triangle: 0, point: [x, y, 0] as const }));
    const f = await failure(m, around);
    expect(f.code).toBe('GENERATION_FAILED');
    expect(f.detail).toMatch(/no model surface/);
    // A small hole (a scan's gap) is bridged: closed base.
    const small = await model(holed(1.5));
    const base = await generateBase(small.mesh, small.bvh, around, { thickness: 2 });
    expect(base.missedRays).toBeGreaterThan(0);
    await expectPrintable(scratch, base);
  });

  it('HEIGHT_TOO_LOW, NOT_STRAIGHTENED, and BAD_INPUT for settings out of range', async () => {
    expect((await failure(block, ring(), { height: 0.2 })).code).toBe('HEIGHT_TOO_LOW');
    expect((await failure(block, ring(), { straightened: false })).code).toBe('NOT_STRAIGHTENED');
    expect((await failure(block, ring(), { thickness: 0 })).code).toBe('BAD_INPUT');
    expect((await failure(block, ring(), { direction: [0, 0, 0] })).code).toBe('BAD_INPUT');
  });

  it('reports progress up to 1 and stops with ABORTED when cancelled', async () => {
    const outline = pickOutline(block.bvh, circle(0, 0, 12, 32));
    const seen: number[] = [];
    await generateBase(block.mesh, block.bvh, outline, { onProgress: (f) => seen.push(f), sliceMs: 0, progressIntervalMs: 0 });
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.at(-1)).toBe(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
    let polls = 0;
    const f = await failure(block, outline, { shouldCancel: () => ++polls > 2, sliceMs: 0 });
    expect(f.code).toBe('ABORTED');
    // The instance is still usable afterwards.
    const again = await generateBase(block.mesh, block.bvh, outline, {});
    await expectPrintable(scratch, again);
  });
});

describe('height-field solid fixture', () => {
  it('is closed (sanity check of the test model)', async () => {
    const m = heightFieldSolid((x, y) => Math.sin(x) + Math.cos(y), -3, 3, -3, 3, 12, 10, -5);
    const k = await loadKernels();
    const { analyzeMesh } = await import('../../workers/kernels/topology.ts');
    const h = await analyzeMesh(meshFromArrays(k, m.positions, m.indices));
    expect(h.closed && h.manifold).toBe(true);
  });
});
