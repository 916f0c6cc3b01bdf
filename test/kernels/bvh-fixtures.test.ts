// Optional: BVH, undercut and distance maps on the real jaws beside the
// project (../shared/fixtures, or ARCHWRIGHT_FIXTURES). Skipped, with the
// reason in the title, when absent.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBvh, bvhFromBytes, bvhToBytes, closestPoints, raycastFirst, type Bvh } from '../../workers/kernels/bvh.ts';
import { distanceMap } from '../../workers/kernels/distance.ts';
import { meshFromArrays, meshViews, type MeshRef } from '../../workers/kernels/mesh.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { bestInsertionDirection, undercutMap } from '../../workers/kernels/undercut.ts';
import type { Vec3 } from '../fixtures/meshes.ts';
import { vertexNormals } from '../fixtures/mesh.ts';
import { randomRays } from './bvh-brute.ts';
import { loadKernels } from './kernels.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = process.env.ARCHWRIGHT_FIXTURES ?? resolve(root, '../shared/fixtures');
const upperPath = resolve(fixtures, 'open-full-jaw-p26/upper.stl');
const lowerPath = resolve(fixtures, 'open-full-jaw-p26/lower.stl');
const studyPath = resolve(fixtures, 'study-models/upper-model.stl');
const present = existsSync(upperPath) && existsSync(lowerPath);
const title = present
  ? `BVH kernels on real jaws (${fixtures})`
  : `BVH kernels on real jaws: SKIPPED, ${upperPath} or lower.stl not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;
if (!present) console.warn(title);

interface Loaded {
  mesh: MeshRef;
  bvh: Bvh;
  centroid: Vec3;
}

/** Parses an STL and puts the mesh with its BVH in an instance of its own (as the worker does). */
async function load(path: string): Promise<Loaded> {
  const buf = readFileSync(path);
  const parsed = await parseStl(await loadKernels(), new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
  if (!parsed.ok) throw new Error(`${path}: ${parsed.error.code}`);
  const { positions, indices } = parsed.mesh;
  const mesh = meshFromArrays(await loadKernels(), positions, indices);
  const c = [0, 0, 0];
  for (let i = 0; i < positions.length; i++) c[i % 3]! += positions[i]!;
  const n = positions.length / 3;
  return { mesh, bvh: buildBvh(mesh), centroid: [c[0]! / n, c[1]! / n, c[2]! / n] };
}

describe.skipIf(!present)(title, () => {
  let upper: Loaded;
  let lower: Loaded;
  beforeAll(async () => {
    upper = await load(upperPath);
    lower = await load(lowerPath);
  }, 60_000);

  it('builds a BVH of upper.stl that survives a round trip through bytes', async () => {
    expect(upper.bvh.triangleCount).toBe(447_456);
    expect(upper.bvh.depth).toBeLessThan(40);
    const rays = new Float32Array(randomRays(2000, 1, 3));
    // Rays from around the centroid in random directions: most hit a tooth.
    for (let i = 0; i < 2000; i++) for (let c = 0; c < 3; c++) rays[i * 6 + c] = upper.centroid[c]! + rays[i * 6 + c]! * 5;
    const first = raycastFirst(upper.bvh, rays);
    expect(first.hits).toBeGreaterThan(500);
    const copy = bvhFromBytes(await loadKernels(), bvhToBytes(upper.bvh));
    expect(raycastFirst(copy, rays)).toEqual(first);
  });

  it('undercut map of upper.stl towards the lower jaw: crowns free, roots and cervical areas in undercut', async () => {
    const toLower = unit(sub(lower.centroid, upper.centroid));
    const r = await undercutMap(upper.mesh, upper.bvh, toLower);
    const fraction = r.area / r.totalArea;
    console.log(`upper.stl undercut towards the lower jaw: ${(fraction * 100).toFixed(1)} % of ${r.totalArea.toFixed(0)} mm², max depth ${r.maxDepth.toFixed(1)} mm`);
    expect(fraction).toBeGreaterThan(0.2);
    expect(fraction).toBeLessThan(0.8);
    expect(r.maxDepth).toBeGreaterThan(5);
    expect(r.maxDepth).toBeLessThan(60);
    // The vertex nearest the lower jaw (an occlusal cusp) is free.
    let tip = 0;
    let best = -Infinity;
    const p = upper.mesh.k.memory.buffer;
    const pos = new Float32Array(p, upper.mesh.positionsPtr, upper.mesh.vertexCount * 3);
    for (let v = 0; v < upper.mesh.vertexCount; v++) {
      const s = pos[v * 3]! * toLower[0] + pos[v * 3 + 1]! * toLower[1] + pos[v * 3 + 2]! * toLower[2];
      if (s > best) {
        best = s;
        tip = v;
      }
    }
    expect(r.undercut[tip]).toBe(0);
  });

  it('best insertion direction near the occlusal axis has no more undercut than the axis itself', async () => {
    const toLower = unit(sub(lower.centroid, upper.centroid));
    const r = await bestInsertionDirection(upper.mesh, upper.bvh, toLower, { halfAngleDeg: 15, samples: 24, refineRounds: 1, refineSamples: 8 });
    console.log(`upper.stl best direction: ${r.angleDeg.toFixed(1)}° from the hint, undercut ${r.area.toFixed(0)} mm² (hint ${r.hintArea.toFixed(0)} mm²)`);
    expect(r.area).toBeLessThanOrEqual(r.hintArea * 1.02);
    expect(r.angleDeg).toBeLessThanOrEqual(15 + 1e-6);
  });

  it.skipIf(!existsSync(studyPath))('best insertion direction of the upper study model (plinth and palate): less undercut than straight up, exact areas', async () => {
    const study = await load(studyPath);
    // The study model's teeth point down (-z); the appliance goes on from below.
    const r = await bestInsertionDirection(study.mesh, study.bvh, [0, 0, -1]);
    console.log(`upper-model.stl best direction: ${r.angleDeg.toFixed(1)}° from -z, undercut ${r.area.toFixed(0)} mm² (straight: ${r.hintArea.toFixed(0)} mm²)`);
    expect(r.area).toBeLessThan(r.hintArea * 0.85);
    const check = await undercutMap(study.mesh, study.bvh, r.direction);
    expect(r.area).toBeCloseTo(check.area, 3);
    const straight = await undercutMap(study.mesh, study.bvh, [0, 0, -1]);
    expect(r.hintArea).toBeCloseTo(straight.area, 3);
  }, 60_000);

  it('distance map from upper.stl to lower.stl: contacts near 0 and a sensible range', async () => {
    const r = await distanceMap(upper.mesh, lower.mesh, lower.bvh, { colors: { min: -0.5, max: 3 } });
    let near = 0;
    let negative = 0;
    for (const d of r.distance) {
      if (Math.abs(d) < 0.5) near++;
      if (d < 0) negative++;
    }
    console.log(`upper→lower: min ${r.min.toFixed(3)} mm, max ${r.max.toFixed(1)} mm, ${near} vertices within 0.5 mm, ${negative} negative`);
    expect(r.found).toBe(upper.mesh.vertexCount);
    expect(near).toBeGreaterThan(20); // occlusal contacts
    expect(Math.abs(r.min)).toBeLessThan(1);
    expect(r.max).toBeGreaterThan(10);
    expect(r.max).toBeLessThan(80);
    expect(negative / upper.mesh.vertexCount).toBeLessThan(0.05);
    expect(r.colors).toHaveLength(upper.mesh.vertexCount * 4);
    // The closest points agree with a plain closest-point query.
    const probe = new Float32Array(upper.mesh.k.memory.buffer.slice(upper.mesh.positionsPtr, upper.mesh.positionsPtr + 300 * 12));
    const c = closestPoints(lower.bvh, probe);
    for (let i = 0; i < 300; i++) expect(Math.abs(r.distance[i]!)).toBeCloseTo(c.distance[i]!, 4);
  });
});

const studyTitle = existsSync(studyPath)
  ? 'undercut of the study models: the answer of a ray from each vertex itself'
  : `undercut of the study models: SKIPPED, ${studyPath} not found (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`;

describe.skipIf(!existsSync(studyPath))(studyTitle, () => {
  // Narrow contacts between crowns, and crown walls under their neighbours' bulges: with the
  // old 0.1 mm normal offset 425 vertices here were flagged (depths to 4.4 mm) although their own
  // ray is free, and 972 facing along d were free although their own ray is blocked.
  it('upper-model.stl along -z agrees with rays from the vertices (own triangles at t = 0 left out) but for a few tangent cases', async () => {
    const study = await load(studyPath);
    const d: Vec3 = [0, 0, -1];
    const r = await undercutMap(study.mesh, study.bvh, d);
    // Copies: the views would detach when wasm memory grows.
    const views = meshViews(study.mesh);
    const positions = views.positions.slice();
    const vn = views.normals?.slice() ?? vertexNormals(positions, views.indices.slice());
    const n = study.mesh.vertexCount;
    const rays = new Float32Array(n * 6);
    for (let v = 0; v < n; v++) {
      rays.set(positions.subarray(v * 3, v * 3 + 3), v * 6);
      rays.set(d, v * 6 + 3);
    }
    const own = raycastFirst(study.bvh, rays, { tMin: 0 });
    let flaggedFree = 0;
    let freeBlocked = 0;
    let worst = 0;
    for (let v = 0; v < n; v++) {
      const nd = vn[v * 3]! * d[0] + vn[v * 3 + 1]! * d[1] + vn[v * 3 + 2]! * d[2];
      if (Math.abs(nd) < 0.02) continue; // grazing rays: either answer is right
      const blocked = own.triangle[v]! >= 0;
      if (r.undercut[v] && !blocked) {
        flaggedFree++;
        worst = Math.max(worst, r.depth[v]!);
      } else if (!r.undercut[v] && blocked) freeBlocked++;
    }
    console.log(`upper-model.stl -z: ${flaggedFree} flagged but free (depth up to ${worst.toFixed(3)} mm), ${freeBlocked} free but blocked, of ${n}`);
    expect(flaggedFree).toBeLessThan(20);
    expect(worst).toBeLessThan(0.05);
    expect(freeBlocked).toBeLessThan(20);
  }, 60_000);
});

function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function unit(a: Vec3): Vec3 {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
}
