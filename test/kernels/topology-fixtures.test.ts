// Optional: topology, brush and geodesics on the real jaws beside the project
// (../shared/fixtures or ARCHWRIGHT_FIXTURES). Skipped, saying why, when absent.
import { describe, expect, it } from 'vitest';
import { geodesicDistance } from '../../workers/kernels/geodesic.ts';
import { meshViews } from '../../workers/kernels/mesh.ts';
import { smoothDab } from '../../workers/kernels/smooth.ts';
import { analyzeMesh } from '../../workers/kernels/topology.ts';
import { fixturePath, fixturesDir, meshFromStl, readBytes } from './topology-fixtures.ts';

const upper = fixturePath('open-full-jaw-p26/upper.stl');
const study = fixturePath('study-models/upper-model.stl');
const title = upper
  ? `topology on real jaw scans (${fixturesDir})`
  : `topology on real jaw scans: SKIPPED, ${fixturesDir}/open-full-jaw-p26/upper.stl not found (set ARCHWRIGHT_FIXTURES)`;
if (!upper) console.warn(title);

describe.skipIf(!upper)(title, () => {
  it('upper.stl: health report of 15 separate teeth; a dab moves only vertices near it', async () => {
    const m = await meshFromStl(readBytes(upper!));
    const h = await analyzeMesh(m);
    console.log(
      `upper.stl: ${h.triangles} triangles, ${h.vertices} vertices, ${h.edges} edges, ${h.shellCount} shells, ` +
        `${h.openEdges} open, ${h.nonManifoldEdges} non-manifold, ${h.inconsistentEdges} inconsistent edges, ` +
        `${h.degenerateTriangles} degenerate triangles, ${h.unreferencedVertices} unused vertices`,
    );
    expect(h.triangles).toBe(447_456);
    expect(h.vertices).toBe(223_758);
    // Fifteen teeth, one shell each.
    expect(h.shellCount).toBe(15);
    expect([...h.shellTriangles].reduce((s, n) => s + n, 0)).toBe(h.triangles);
    // Whole teeth from a segmentation, exported by Meshmixer: closed, manifold, oriented.
    expect(h.openEdges).toBe(0);
    expect(h.nonManifoldEdges).toBe(0);
    expect(h.inconsistentEdges).toBe(0);
    expect(h.vertices - h.edges + h.triangles).toBe(2 * 15); // fifteen spheres (genus 0)
    // Every shell's bounds are a tooth's size: 4 to 35 mm.
    for (let s = 0; s < h.shellCount; s++) {
      if (h.shellTriangles[s]! < 1000) continue;
      const b = h.shellBounds.subarray(s * 6, s * 6 + 6);
      const size = Math.max(b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!);
      expect(size).toBeGreaterThan(4);
      expect(size).toBeLessThan(35);
    }

    // A 1 mm dab on the first vertex of the largest tooth.
    const biggest = h.shellTriangles.indexOf(Math.max(...h.shellTriangles));
    const t = h.triangleShell.indexOf(biggest);
    const { positions, indices } = meshViews(m);
    const seed = indices[t * 3]!;
    const centre: [number, number, number] = [positions[seed * 3]!, positions[seed * 3 + 1]!, positions[seed * 3 + 2]!];
    const before = positions.slice();
    const r = smoothDab(m, { center: centre, triangle: t, radius: 1, strength: 1 });
    const after = meshViews(m).positions;
    expect(r.moved).toBeGreaterThan(3);
    expect(r.moved).toBeLessThan(2000);
    let changed = 0;
    for (let v = 0; v < m.vertexCount; v++) {
      if (after[v * 3] === before[v * 3] && after[v * 3 + 1] === before[v * 3 + 1] && after[v * 3 + 2] === before[v * 3 + 2]) continue;
      changed++;
      expect(Math.hypot(before[v * 3]! - centre[0], before[v * 3 + 1]! - centre[1], before[v * 3 + 2]! - centre[2])).toBeLessThan(1);
    }
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThanOrEqual(r.moved);

    // Geodesic between two points of that tooth: longer than the chord, shorter than a detour.
    const ts = [...h.triangleShell.keys()].filter((i) => h.triangleShell[i] === biggest);
    const point = (tri: number): [number, number, number] => {
      const p: [number, number, number] = [0, 0, 0];
      for (let c = 0; c < 3; c++) for (let a = 0; a < 3; a++) p[a]! += after[indices[tri * 3 + c]! * 3 + a]! / 3;
      return p;
    };
    const a = ts[0]!;
    const b = ts[Math.floor(ts.length / 2)]!;
    const g = await geodesicDistance(m, { triangle: a, point: point(a) }, { triangle: b, point: point(b) });
    console.log(`upper.stl geodesic: ${g.length.toFixed(3)} mm (chord ${g.straight.toFixed(3)}, graph ${g.graphLength.toFixed(3)}), ${g.settledNodes} nodes`);
    expect(g.length).toBeGreaterThanOrEqual(g.straight * 0.9999);
    expect(g.length).toBeLessThan(g.straight * 4);
    expect(g.length).toBeLessThanOrEqual(g.graphLength + 1e-9);
  });

  it.skipIf(!study)('upper-model.stl: one closed, manifold, consistently oriented solid', async () => {
    const m = await meshFromStl(readBytes(study!));
    const h = await analyzeMesh(m);
    console.log(`upper-model.stl: ${h.triangles} triangles, ${h.shellCount} shells, ${h.openEdges} open, ${h.nonManifoldEdges} non-manifold`);
    expect(h.triangles).toBe(358_578);
    expect(h.shellCount).toBe(1);
    expect(h.openEdges).toBe(0);
    expect(h.nonManifoldEdges).toBe(0);
    expect(h.inconsistentEdges).toBe(0);
    expect(h.vertices - h.edges + h.triangles).toBe(2); // genus 0
  });
});
