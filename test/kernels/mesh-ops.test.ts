// Whole-mesh kernels (assembly/mesh-ops.ts through workers/kernels/mesh-ops.ts
// and stl-write.ts): vertex normals against a plain JS reference, the binary
// STL writer read back by our STL parser, bounds against a JS min/max, and the
// undercut analysis of a mesh kept without normals (which computes them).

import { describe, expect, it } from 'vitest';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { buildBvh } from '../../workers/kernels/bvh.ts';
import { KernelError } from '../../workers/kernels/job.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { meshBounds, vertexNormals, vertexNormalsInto } from '../../workers/kernels/mesh-ops.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { writeBinaryStl } from '../../workers/kernels/stl-write.ts';
import { bestInsertionDirection, undercutMap } from '../../workers/kernels/undercut.ts';
// The reference: per vertex the sum of (b - a) × (c - a) over its triangles in f64, normalised.
import { vertexNormals as referenceNormals } from '../fixtures/mesh.ts';
import { bumpySphereMesh, stumpMesh, uvSphereMesh, type IndexedMesh } from '../fixtures/meshes.ts';
import { loadKernels } from './kernels.ts';

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
}

function referenceBounds(positions: Float32Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let a = 0; a < 3; a++) {
      const v = positions[i + a]!;
      if (v < min[a]!) min[a] = v;
      if (v > max[a]!) max[a] = v;
    }
  }
  return { min, max };
}

/** A sphere plus degenerate triangles: repeated indices on sphere vertices, a collinear triangle on three new vertices, a vertex no triangle uses. */
function withDegenerates(m: IndexedMesh): { mesh: IndexedMesh; onlyDegenerate: number[]; degenerate: number } {
  const v0 = m.positions.length / 3;
  const positions = new Float32Array([...m.positions, 1, 1, 1, 2, 2, 2, 3, 3, 3, 7, 8, 9]);
  const extra = [5, 5, 6, 7, 8, 7, 9, 9, 9, v0, v0 + 1, v0 + 2];
  return {
    mesh: { positions, indices: new Uint32Array([...m.indices, ...extra]) },
    onlyDegenerate: [v0, v0 + 1, v0 + 2, v0 + 3],
    degenerate: extra.length / 3,
  };
}

describe('vertex normals kernel', () => {
  it('equals the JS reference on spheres, smooth and bumpy, and points outward', async () => {
    const k = await loadKernels();
    for (const m of [uvSphereMesh({ radius: 10, segments: 64, rings: 32, center: [3, -2, 5] }), bumpySphereMesh(96, 48)]) {
      const n = vertexNormals(meshFromArrays(k, m.positions, m.indices));
      expect(maxDifference(n, referenceNormals(m.positions, m.indices))).toBeLessThan(2e-6);
    }
    const s = uvSphereMesh({ radius: 10, segments: 48, rings: 24 });
    const n = vertexNormals(meshFromArrays(k, s.positions, s.indices));
    for (let v = 0; v < n.length; v += 3) {
      const r = Math.hypot(s.positions[v]!, s.positions[v + 1]!, s.positions[v + 2]!);
      const along = (n[v]! * s.positions[v]! + n[v + 1]! * s.positions[v + 1]! + n[v + 2]! * s.positions[v + 2]!) / r;
      expect(along).toBeGreaterThan(0.99);
    }
  });

  it('ignores degenerate triangles and gives (0, 0, 1) to vertices only they touch, or none', async () => {
    const k = await loadKernels();
    const { mesh: m, onlyDegenerate, degenerate } = withDegenerates(uvSphereMesh({ radius: 4, segments: 24, rings: 12 }));
    const ref = meshFromArrays(k, m.positions, m.indices);
    const out = k.arenaAlloc(ref.vertexCount * 12) >>> 0;
    expect(vertexNormalsInto(ref, out)).toBe(degenerate);
    const n = new Float32Array(k.memory.buffer.slice(out, out + ref.vertexCount * 12));
    expect(maxDifference(n, referenceNormals(m.positions, m.indices))).toBeLessThan(2e-6);
    for (const v of onlyDegenerate) expect(Array.from(n.subarray(v * 3, v * 3 + 3))).toEqual([0, 0, 1]);
  });

  it('leaves the bytes after its output as they were, and the arena as it found it', async () => {
    const k = await loadKernels();
    // 34, 22 and 20 vertices: outputs of 408, 264 and 240 bytes (the last followed by the next allocation).
    for (const m of [[8, 5], [10, 3], [6, 4]].map(([segments, rings]) => uvSphereMesh({ radius: 3, segments, rings }))) {
      const mesh = meshFromArrays(k, m.positions, m.indices);
      const out = k.arenaAlloc(mesh.vertexCount * 12) >>> 0;
      // The caller's next allocation; it starts right after the output when that ends on 16 bytes.
      const after = k.arenaAlloc(4) >>> 0;
      // Vectors of the last vertex would cover the word after the output. A signalling NaN and a
      // negative zero there: adding 0.0 to them as floats would change their bits.
      for (const word of [0x7f800001, 0x80000000, 0xdeadbeef]) {
        new DataView(k.memory.buffer).setUint32(after, word, true);
        const used = k.arenaUsed();
        vertexNormalsInto(mesh, out);
        expect(k.arenaUsed()).toBe(used);
        expect(new DataView(k.memory.buffer).getUint32(after, true)).toBe(word);
      }
    }
  });

  it('rejects a triangle that refers to a missing vertex with BAD_INPUT, and releases its scratch', async () => {
    const k = await loadKernels();
    const mesh = meshFromArrays(k, new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), new Uint32Array([0, 1, 2, 0, 2, 3]));
    const used = k.arenaUsed();
    expect(() => vertexNormals(mesh)).toThrow(KernelError);
    expect(() => vertexNormals(mesh)).toThrow(/BAD_INPUT: triangle 1 /);
    expect(k.arenaUsed()).toBe(used);
  });
});

describe('binary STL writer kernel', () => {
  async function parseBack(k: KernelExports, buffer: ArrayBuffer) {
    const r = await parseStl(k, new Uint8Array(buffer));
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.detail}`);
    return r.mesh;
  }

  it('writes a sphere that parses back into the same mesh, with unit outward face normals', async () => {
    const k = await loadKernels();
    // 81,408 triangles: more than one slice of the writer's scratch.
    const m = uvSphereMesh({ radius: 12, segments: 256, rings: 160, center: [1, 2, 3] });
    const mesh = meshFromArrays(k, m.positions, m.indices);
    const used = k.arenaUsed();
    const buffer = writeBinaryStl(mesh, 'sphere');
    expect(k.arenaUsed()).toBe(used);
    expect(buffer.byteLength).toBe(84 + 50 * mesh.triangleCount);
    const view = new DataView(buffer);
    expect(new TextDecoder().decode(new Uint8Array(buffer, 0, 80))).toBe('sphere'.padEnd(80, ' '));
    expect(view.getUint32(80, true)).toBe(mesh.triangleCount);

    // Checked in bulk (one expect per property, the first offending triangle in the message).
    let wrongVertex = -1, wrongAttribute = -1, notUnit = -1, inward = -1;
    for (let t = 0; t < mesh.triangleCount; t++) {
      const o = 84 + 50 * t;
      const f = (i: number): number => view.getFloat32(o + 4 * i, true);
      const n = [f(0), f(1), f(2)];
      // The record's vertices are the mesh's, in the winding's order.
      for (let c = 0; c < 3; c++) {
        const v = m.indices[3 * t + c]!;
        for (let a = 0; a < 3; a++) if (f(3 + 3 * c + a) !== m.positions[3 * v + a]! && wrongVertex < 0) wrongVertex = t;
      }
      if (view.getUint16(o + 48, true) !== 0 && wrongAttribute < 0) wrongAttribute = t;
      if (!(Math.abs(Math.hypot(n[0]!, n[1]!, n[2]!) - 1) < 1e-6) && notUnit < 0) notUnit = t;
      const centroid = [0, 1, 2].map((a) => (f(3 + a) + f(6 + a) + f(9 + a)) / 3 - [1, 2, 3][a]!);
      if (!(n[0]! * centroid[0]! + n[1]! * centroid[1]! + n[2]! * centroid[2]! > 0) && inward < 0) inward = t;
    }
    expect({ wrongVertex, wrongAttribute, notUnit, inward }).toEqual({ wrongVertex: -1, wrongAttribute: -1, notUnit: -1, inward: -1 });

    // Read back and welded: the same vertices and the same triangles over them.
    const parsed = await parseBack(k, buffer);
    expect(parsed.triangleCount).toBe(mesh.triangleCount);
    expect(parsed.vertexCount).toBe(mesh.vertexCount);
    expect(parsed.degenerateTriangles).toBe(0);
    // One parsed vertex per original vertex (a bijection), at the same position.
    const toParsed = new Int32Array(mesh.vertexCount).fill(-1);
    let inconsistentCorner = -1, movedVertex = -1;
    for (let i = 0; i < m.indices.length; i++) {
      const v = m.indices[i]!, w = parsed.indices[i]!;
      if (toParsed[v] === -1) toParsed[v] = w;
      if (toParsed[v] !== w && inconsistentCorner < 0) inconsistentCorner = i;
    }
    for (let v = 0; v < mesh.vertexCount; v++) {
      const w = toParsed[v]!;
      for (let a = 0; a < 3; a++) if (parsed.positions[3 * w + a] !== m.positions[3 * v + a] && movedVertex < 0) movedVertex = v;
    }
    expect({ inconsistentCorner, movedVertex }).toEqual({ inconsistentCorner: -1, movedVertex: -1 });
    expect(new Set(toParsed).size).toBe(mesh.vertexCount);
    // The parser's vertex normals have the normals kernel's definition.
    const again = vertexNormals(meshFromArrays(k, parsed.positions, parsed.indices));
    expect(maxDifference(again, parsed.normals)).toBeLessThan(1e-6);
  });

  it('writes a zero normal for a degenerate triangle, and an empty mesh as a bare header', async () => {
    const k = await loadKernels();
    const mesh = meshFromArrays(k, new Float32Array([0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0]), new Uint32Array([0, 1, 2, 0, 1, 3]));
    const view = new DataView(writeBinaryStl(mesh));
    expect([0, 1, 2].map((i) => view.getFloat32(84 + 4 * i, true))).toEqual([0, 0, 0]);
    expect([0, 1, 2].map((i) => view.getFloat32(134 + 4 * i, true))).toEqual([0, 0, 1]);
    const empty = writeBinaryStl(meshFromArrays(k, new Float32Array(0), new Uint32Array(0)));
    expect(empty.byteLength).toBe(84);
    expect(new DataView(empty).getUint32(80, true)).toBe(0);
  });

  it('rejects a triangle that refers to a missing vertex with BAD_INPUT, in any slice, and releases its scratch', async () => {
    const k = await loadKernels();
    const m = uvSphereMesh({ radius: 5, segments: 256, rings: 160 });
    const bad = 70_000;
    m.indices[3 * bad + 1] = m.positions.length / 3;
    const mesh = meshFromArrays(k, m.positions, m.indices);
    const used = k.arenaUsed();
    expect(() => writeBinaryStl(mesh)).toThrow(KernelError);
    expect(() => writeBinaryStl(mesh)).toThrow(new RegExp(`BAD_INPUT: triangle ${bad} `));
    expect(k.arenaUsed()).toBe(used);
  });
});

describe('bounds kernel', () => {
  it('equals a JS min/max for every count of vertices, ignoring NaN', async () => {
    const k = await loadKernels();
    const s = uvSphereMesh({ radius: 7, segments: 37, rings: 19, center: [-4, 9, 0.5] });
    for (const count of [0, 1, 2, 3, 4, 5, 7, 8, 9, s.positions.length / 3]) {
      const positions = s.positions.slice(0, count * 3).map((x, i) => x + ((i * 7919) % 13) - 6);
      const mesh = meshFromArrays(k, positions, new Uint32Array(0));
      expect(meshBounds(mesh), `${count} vertices`).toEqual(referenceBounds(positions));
    }
    const holes = s.positions.slice();
    for (const i of [0, 4, 8, 100, holes.length - 1]) holes[i] = Number.NaN;
    const mesh = meshFromArrays(k, holes, new Uint32Array(0));
    const b = meshBounds(mesh);
    expect(b).toEqual(referenceBounds(holes));
    expect([...b.min, ...b.max].every(Number.isFinite)).toBe(true);
  });
});

describe('undercut of a mesh kept without normals (normals computed by the kernel)', () => {
  it('matches the undercut with the reference normals given', async () => {
    for (const m of [bumpySphereMesh(64, 32), stumpMesh({ bottomRadius: 5, topRadius: 5.4, height: 8 })]) {
      const k1 = await loadKernels();
      const bare = meshFromArrays(k1, m.positions, m.indices);
      const k2 = await loadKernels();
      const given = meshFromArrays(k2, m.positions, m.indices, referenceNormals(m.positions, m.indices));
      const bareBvh = buildBvh(bare), givenBvh = buildBvh(given);
      for (const d of [[0, 0, 1], [0.3, -0.2, 1], [1, 0, 0]] as const) {
        const a = await undercutMap(bare, bareBvh, d);
        const b = await undercutMap(given, givenBvh, d);
        expect(a.count).toBe(b.count);
        expect(Array.from(a.undercut)).toEqual(Array.from(b.undercut));
        expect(maxDifference(a.depth, b.depth)).toBeLessThan(1e-4);
        expect(a.area).toBeCloseTo(b.area, 6);
      }
      const best = await bestInsertionDirection(bare, bareBvh, [0, 0, 1], { samples: 16, refineRounds: 1 });
      const bestGiven = await bestInsertionDirection(given, givenBvh, [0, 0, 1], { samples: 16, refineRounds: 1 });
      expect(best.direction).toEqual(bestGiven.direction);
      expect(best.area).toBeCloseTo(bestGiven.area, 6);
    }
  });
});
