// Bite registration through the real worker (workers/geometry.worker.ts in a
// Node worker thread) and the page's client, unchanged: registerBite copies
// the three kept meshes into one instance, reports progress, and resolves the
// BiteResult; alignByPairs does one jaw from picked pairs.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeometryClient } from '../../src/geometry/client.ts';
import { generatedBite } from '../fixtures/bite-jaws.ts';
import { apply, mul, rigid, transformed, transformError } from '../fixtures/bite-poses.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';
import { useWorkerShim } from './client-harness.ts';

let client: GeometryClient;
useWorkerShim();

beforeAll(() => {
  client = new GeometryClient();
});

afterAll(() => {
  client.dispose();
});

describe('bite registration through the worker', () => {
  it('registers kept meshes (a turned upper jaw) and aligns one jaw by pairs', async () => {
    const g = generatedBite({ seed: 4, sides: 'both' });
    const pose = rigid([0, 0.6, 0.8], 150, [0, -15, 10], [20, -10, 5]);
    const moved = transformed(pose, g.upper.positions);
    const upper = await client.openStl(binaryStl(soupOf({ positions: moved.positions, indices: g.upper.indices })).buffer);
    const lower = await client.openStl(binaryStl(soupOf(g.lower)).buffer);
    const bite = await client.openStl(binaryStl(soupOf(g.bite)).buffer);
    const progress: number[] = [];
    const r = await client.registerBite(upper.handle, lower.handle, bite.handle, { onProgress: (f) => progress.push(f) });
    expect(r.code, r.error).toBeUndefined();
    expect(transformError(mul(r.upper, pose), g.upper.positions).mm).toBeLessThan(0.05);
    expect(transformError(r.lower, g.lower.positions).mm).toBeLessThan(0.05);
    expect(progress.at(-1)).toBe(1);

    const picks = [10, 2000, 3500, 5000].map((v) => [g.bite.positions[v * 3]!, g.bite.positions[v * 3 + 1]!, g.bite.positions[v * 3 + 2]!] as [number, number, number]);
    const pairs = picks.map((p) => ({ jaw: apply(pose, p), bite: p }));
    const a = await client.alignByPairs(upper.handle, bite.handle, pairs);
    expect(transformError(mul(a.matrix, pose), g.upper.positions).mm).toBeLessThan(0.05);
    expect(a.points).toBeGreaterThan(500);
  });
});
