// A wire exported for printing (features/wires/tube.ts wireSolid): a closed tube of its diameter
// along its centreline with end caps; every edge shared by exactly two triangles, all wound the
// same way (outward: positive volume), and the same after the STL writer and a rigid move
// (stl-write.ts transformStl), parsed back with our own parser.
import { describe, expect, it } from 'vitest';
import { rotationAbout, multiply, translation } from '../../common/pose.ts';
import { wireSolid } from '../../src/editor/features/wires/tube.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { transformStl, writeBinaryStl } from '../../workers/kernels/stl-write.ts';
import { analyzeMesh } from '../../workers/kernels/topology.ts';
import { loadKernels } from './kernels.ts';
import { edgeReport } from './mesh-checks.ts';

function signedVolume(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let v = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
    const [ax, ay, az] = [positions[a]!, positions[a + 1]!, positions[a + 2]!];
    const [bx, by, bz] = [positions[b]!, positions[b + 1]!, positions[b + 2]!];
    const [cx, cy, cz] = [positions[c]!, positions[c + 1]!, positions[c + 2]!];
    v += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
  }
  return v / 6;
}

// A clasp-like wire: straights and corners in three dimensions, one repeated corner.
const CORNERS: [number, number, number][] = [
  [0, 0, 0],
  [10, 0, 0],
  [10, 0, 0],
  [14, 6, 1],
  [12, 12, 3],
  [4, 14, 2],
  [0, 10, -1],
];

describe('wire solid for STL export', () => {
  it('is closed: every edge in exactly two triangles, oriented the same way, volume about pi r^2 L', () => {
    const solid = wireSolid(CORNERS, 0.8)!;
    expect(edgeReport(solid.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
    const volume = signedVolume(solid.positions, solid.indices);
    expect(volume).toBeGreaterThan(0);
    // The centreline is a little shorter than the corner polyline (arcs cut the corners).
    const length = 10 + Math.hypot(4, 6, 1) + Math.hypot(2, 6, 2) + Math.hypot(8, 2, 1) + Math.hypot(4, 4, 3);
    const ideal = Math.PI * 0.4 ** 2 * length;
    expect(volume).toBeGreaterThan(ideal * 0.9);
    expect(volume).toBeLessThan(ideal * 1.02);
  });

  it('has nothing to export for a wire without two distinct corners', () => {
    expect(wireSolid([[1, 2, 3]], 0.8)).toBeNull();
    expect(wireSolid([[1, 2, 3], [1, 2, 3]], 0.8)).toBeNull();
  });

  it('stays closed and outward through the STL writer and a rigid move (and a mirror)', async () => {
    const k = await loadKernels();
    const solid = wireSolid(CORNERS, 0.6)!;
    const move = multiply(translation([5, -3, 12]), rotationAbout([0, 0.6, 0.8], 1.1, [2, 2, 2]));
    const mirror = [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    for (const m of [move, mirror]) {
      k.arenaReset();
      const bytes = new Uint8Array(transformStl(writeBinaryStl(meshFromArrays(k, solid.positions, solid.indices), 'Archwright wire'), m));
      const parsed = await parseStl(k, bytes);
      if (!parsed.ok) throw new Error(parsed.error.code);
      const { positions, indices } = parsed.mesh;
      expect(edgeReport(indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
      expect(signedVolume(positions, indices)).toBeGreaterThan(0);
      k.arenaReset();
      const health = await analyzeMesh(meshFromArrays(k, positions, indices));
      expect({ open: health.openEdges, closed: health.closed, shells: health.shellCount }).toEqual({ open: 0, closed: true, shells: 1 });
      // Face normals follow the winding (outward).
      const view = new DataView(bytes.buffer);
      const n = [view.getFloat32(84, true), view.getFloat32(88, true), view.getFloat32(92, true)];
      expect(Math.hypot(n[0]!, n[1]!, n[2]!)).toBeCloseTo(1, 5);
    }
  });
});

describe('STL export of the editor (features/export/stlExport.ts)', () => {
  it('writes one file per part or one merged file, each part a closed shell', async () => {
    const { StlExportController } = await import('../../src/editor/features/export/stlExport.ts');
    const k = await loadKernels();
    const write = (positions: Float32Array, indices: Uint32Array, header: string, matrix: number[]) => {
      k.arenaReset();
      return Promise.resolve(new Uint8Array(transformStl(writeBinaryStl(meshFromArrays(k, positions, indices), header), matrix)));
    };
    const wire = (id: string, jaw: 'upper' | 'lower', points: [number, number, number][]) =>
      ({ id, type: 'labialBow', jaw, diameter: 0.7, clearance: 0.1, points: points.map((point) => ({ point })), anchors: [] }) as never;
    const lift = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 20, 1];
    const controller = new StlExportController({
      jawsWithBase: () => [],
      baseStl: async () => null,
      modelRoles: () => [],
      modelStl: async () => null,
      wires: () => [wire('a', 'upper', CORNERS), wire('b', 'lower', [[0, 0, 0], [5, 5, 0], [10, 0, 0]])],
      meshStl: write,
      matrixOf: (role) => (role === 'upper' ? lift : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    });
    const separate = await controller.files({ bases: true, wires: true, models: true, together: false });
    expect(separate.map((f) => f.name)).toEqual(['wire-1-labialBow-upper.stl', 'wire-2-labialBow-lower.stl']);
    const [merged] = await controller.files({ bases: false, wires: true, models: false, together: true });
    expect(merged!.name).toBe('design.stl');
    const count = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset).getUint32(80, true);
    expect(count(merged!.bytes)).toBe(count(separate[0]!.bytes) + count(separate[1]!.bytes));
    k.arenaReset();
    const parsed = await parseStl(k, merged!.bytes);
    if (!parsed.ok) throw new Error(parsed.error.code);
    expect(edgeReport(parsed.mesh.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
    k.arenaReset();
    const health = await analyzeMesh(meshFromArrays(k, parsed.mesh.positions, parsed.mesh.indices));
    expect({ shells: health.shellCount, closed: health.closed }).toEqual({ shells: 2, closed: true });
    // The upper wire was moved by its jaw's matrix (20 mm up).
    expect(parsed.mesh.bounds.max[2]).toBeGreaterThan(19);
  });
});
