// Slot suite: cutting a wire's tag slot into a generated base with manifold-3d
// (no peer: manifold is the engine; the figure is what the user waits for).
//
// slot-cut/ours: cutSlot() on the horseshoe base over the generated jaw
// (detail 1, 2 mm thick, 0.25 mm grid), a 16 mm labial-bow tag picked every
// 0.25 mm along the base's front surface, 0.9 mm wire, closed tube and open
// channel (depth 3 mm). Includes loading the base into manifold, the checks
// (volume, shells) and copying the result out; manifold.wasm is loaded once
// before timing.

import { readFileSync } from 'node:fs';
import { instantiateKernels } from '../../../workers/kernels/abi.ts';
import { generateBase } from '../../../workers/kernels/base.ts';
import { buildBvh, raycastOne } from '../../../workers/kernels/bvh.ts';
import { meshFromArrays } from '../../../workers/kernels/mesh.ts';
import { cutSlot, loadManifold } from '../../../workers/kernels/slot.ts';
import { jawHorseshoe, palateJaw } from '../../fixtures/base-models.ts';
import { pickOutline } from '../../kernels/base-checks.ts';
import { WASM_PATH } from '../../kernels/kernels.ts';
import { median, settle } from '../measure.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

export const slotSuite: BenchSuite = {
  name: 'slot',
  async run(ctx) {
    const wasm = await loadManifold();
    const bytes = readFileSync(WASM_PATH);
    const jaw = palateJaw({ detail: 1 });
    const mesh = meshFromArrays(await instantiateKernels(bytes), jaw.positions, jaw.indices);
    const bvh = buildBvh(mesh);
    const base = await generateBase(mesh, bvh, pickOutline(bvh, jawHorseshoe()), { thickness: 2 });
    const baseBvh = buildBvh(meshFromArrays(await instantiateKernels(bytes), base.positions, base.indices));
    const path: number[] = [];
    for (let i = 0; i <= 64; i++) {
      const hit = raycastOne(baseBvh, [-8 + i / 4, -14, 60], [0, 0, -1]);
      if (hit) path.push(hit.point[0], hit.point[1], hit.point[2] - 0.2);
    }
    const rows: BenchRow[] = [];
    for (const depth of [0, 3]) {
      const wire = { type: 'labialBow', path: new Float32Array(path), diameter: 0.9, depth };
      const first = await cutSlot(wasm, base, wire, { sliceMs: 1e9 });
      const times: number[] = [];
      for (let r = 0; r < ctx.runs; r++) {
        await settle();
        const t0 = performance.now();
        await cutSlot(wasm, base, wire, { sliceMs: 1e9, yieldToEventLoop: () => Promise.resolve() });
        times.push(performance.now() - t0);
      }
      ctx.log(`slot: depth ${depth} done`);
      rows.push({
        name: depth > 0 ? 'slot-cut-channel/ours' : 'slot-cut/ours',
        input: 'palate jaw horseshoe base (generated)',
        ours_ms: median(times),
        peer: '',
        peer_ms: NaN,
        ratio: NaN,
        note: `base of ${base.triangleCount.toLocaleString('en-US')} triangles; ${path.length / 3} path points, 16 mm, 0.9 mm wire${depth > 0 ? `, open ${depth} mm` : ''}; result ${first.triangleCount.toLocaleString('en-US')} triangles, ${(first.volumeBefore - first.volumeAfter).toFixed(1)} mm³ removed`,
      });
    }
    return rows;
  },
};

export default slotSuite;
