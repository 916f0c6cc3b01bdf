// The tags' room (workers/design/tag-room.ts) on a surface made for it: an L of flat gum, a wide
// square and a strip 2.4 mm wide off one side of it. A tag laid along the strip has too little
// room round its end anywhere within a small turn; its free end is turned round its start, the
// other way, into the square. A limit on the tooth side (base-outline.ts toothSideRoom) bounds
// the room as the scan's end does. A start with no room within 1 mm is moved up to 2 mm, the
// nearer move kept to fall back on (roomyWays).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { mm } from '../../common/units.ts';
import type { WireDesign } from '../../common/wires/types.ts';
import { compileKernels, instantiateModule } from '../../workers/kernels/abi.ts';
import { meshFromArrays } from '../../workers/kernels/mesh.ts';
import { kernelSurface } from '../../workers/design/surface.ts';
import { roomForTags, roomyWays, TAG_ROOM } from '../../workers/design/tag-room.ts';
import type { Xyz } from '../../common/pose.ts';
import { WASM_PATH } from './kernels.ts';

let module: WebAssembly.Module;
beforeAll(async () => {
  module = await compileKernels(readFileSync(WASM_PATH));
});

const CELL = 0.6;

/** Flat gum at z = 0 on a 0.6 mm grid over x in [-12, 12], y in [-12, 0], where `inside` (of a cell's centre). */
function flatSurface(inside: (x: number, y: number) => boolean) {
  const positions: number[] = [], indices: number[] = [];
  const n = 40, m = 20; // x from -12 in n cells, y from -12 in m cells
  const at = (i: number, j: number): number => i * (m + 1) + j;
  for (let i = 0; i <= n; i++) for (let j = 0; j <= m; j++) positions.push(-12 + i * CELL, -12 + j * CELL, 0);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      if (!inside(-12 + (i + 0.5) * CELL, -12 + (j + 0.5) * CELL)) continue;
      indices.push(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
  }
  return kernelSurface(meshFromArrays(instantiateModule(module), new Float32Array(positions), new Uint32Array(indices)));
}

/** The square x, y in [-12, 0] and the strip x in [0, 12], y in [-4.2, -1.8]. */
const lSurface = () => flatSurface((x, y) => (x < 0 && y < 0) || (x >= 0 && y > -4.2 && y < -1.8));

/** A clasp-like wire coming down from +y to a tag whose start is at the strip's root and whose end lies along the strip. */
function tagAlongStrip(): WireDesign {
  const pts: Xyz[] = [[-1, 12, 3], [-1, 4, 2], [-1, -3, 1], [5, -3, 1]];
  return { id: 'w', type: 'singleArmClasp', jaw: 'lower', diameter: mm(0.8), clearance: mm(0.1), points: pts.map((p) => ({ point: p })), anchors: [], tag: [2, 3] };
}

const angle = (a: Xyz, b: Xyz): number => (Math.acos((a[0] * b[0] + a[1] * b[1]) / Math.hypot(a[0], a[1]) / Math.hypot(b[0], b[1])) * 180) / Math.PI;

describe('the room round a tag', () => {
  it('turns a free end that has no room along the strip round its start into the square', async () => {
    const wire = tagAlongStrip();
    const { wire: moved, room } = await roomForTags(wire, [0, 0, 1], lSurface(), 1);
    expect(room, 'room').toBeGreaterThanOrEqual(TAG_ROOM);
    expect(moved).not.toBe(wire);
    const start = moved.points[2]!.point, end = moved.points[3]!.point;
    const dir: Xyz = [end[0] - start[0], end[1] - start[1], 0];
    // the strip lies along +x: the end now points well away from it, into the square (x < 0)...
    expect(angle(dir, [1, 0, 0])).toBeGreaterThan(90);
    expect(end[0]).toBeLessThan(-1);
  });

  it('bounds the room by the tooth side\'s limit', async () => {
    const surface = lSurface();
    // a tooth side everywhere above y = -6 (as if crowns stood there): the strip and the top of the square are out
    const toothSide = (p: Xyz): number => Math.max(0, -6 - p[1]);
    const { room } = await roomForTags(tagAlongStrip(), [0, 0, 1], surface, 1, { toothSide });
    const free = await roomForTags(tagAlongStrip(), [0, 0, 1], surface, 1);
    expect(free.room).toBeGreaterThanOrEqual(TAG_ROOM);
    // the start can move 1 mm at most: nowhere within reach is 1.4 mm below y = -6
    expect(room).toBeLessThan(TAG_ROOM);
  });

  it('moves a start further from its crossing only where the near places lack the room, the nearer move kept as the fallback', async () => {
    // the square alone; the tag laid 0.2 mm inside its edge at x = 0, down along it
    const surface = flatSurface((x, y) => x < 0 && y < 0);
    const pts: Xyz[] = [[-0.2, 12, 3], [-0.2, 4, 2], [-0.2, -3, 1], [-0.2, -9, 1]];
    const wire: WireDesign = { ...tagAlongStrip(), points: pts.map((p) => ({ point: p })) };
    const near = await roomForTags(wire, [0, 0, 1], surface, 1);
    expect(near.room).toBeLessThan(TAG_ROOM);
    const { ways, room } = await roomyWays(wire, [0, 0, 1], surface, 1);
    expect(room).toBeGreaterThanOrEqual(TAG_ROOM);
    expect(ways).toHaveLength(2);
    expect(ways[1]).toEqual(near.wire);
    // the start went more than 1 mm in from the edge
    expect(ways[0]!.points[2]!.point[0]).toBeLessThan(-1.3);
  });
});
