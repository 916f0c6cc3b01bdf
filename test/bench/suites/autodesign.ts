// Autodesign suite: the automatic design of one order (workers/design/autodesign.ts) with the
// default prescription, parsing included: on the generated jaws (test/fixtures/teeth-jaws.ts, as
// STL) and, when present, on the study models. ours_ms: median per order over the runs (3 with
// --quick); the note has the wires placed and passing of the six prescribed and the share of the
// segmentation. No peer.

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_PRESCRIPTION } from '../../../common/prescription.ts';
import { compileKernels } from '../../../workers/kernels/abi.ts';
import { autodesign } from '../../../workers/design/autodesign.ts';
import { WASM_PATH } from '../../kernels/kernels.ts';
import { binaryStl, soupOf } from '../../fixtures/stl.ts';
import { teethJaw } from '../../fixtures/teeth-jaws.ts';
import { fixturesDir } from '../inputs.ts';
import { median } from '../measure.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

export const autodesignSuite: BenchSuite = {
  name: 'autodesign',
  async run(ctx) {
    const module = await compileKernels(readFileSync(WASM_PATH));
    const orders: { input: string; upper: Uint8Array; lower: Uint8Array }[] = [
      { input: 'generated jaws', upper: binaryStl(soupOf(teethJaw({ jaw: 'upper' }))), lower: binaryStl(soupOf(teethJaw({ jaw: 'lower' }))) },
    ];
    const dir = resolve(fixturesDir, 'study-models');
    if (existsSync(resolve(dir, 'upper-model.stl')) && existsSync(resolve(dir, 'lower-model.stl'))) {
      orders.push({ input: 'study models', upper: readFileSync(resolve(dir, 'upper-model.stl')), lower: readFileSync(resolve(dir, 'lower-model.stl')) });
    } else ctx.log(`autodesign: study models skipped, not in ${dir} (set ARCHWRIGHT_FIXTURES to the shared fixtures folder)`);
    const runs = ctx.quick ? 3 : Math.min(ctx.runs, 5);
    const rows: BenchRow[] = [];
    for (const order of orders) {
      const times: number[] = [], segment: number[] = [];
      let placed = 0, total = 0;
      for (let r = 0; r < runs; r++) {
        const out = await autodesign(module, { upper: order.upper, lower: order.lower, prescription: DEFAULT_PRESCRIPTION });
        times.push(out.timings.totalMs);
        segment.push(out.timings.segmentMs);
        placed = out.report.filter((x) => x.status === 'placed').length;
        total = out.report.length;
        ctx.log(`autodesign: ${order.input} run ${r + 1}: ${placed}/${total} wires placed and passing, ${out.timings.totalMs.toFixed(0)} ms`);
      }
      rows.push({
        name: 'autodesign/ours', input: order.input, ours_ms: median(times), peer: '', peer_ms: NaN, ratio: NaN,
        note: `default prescription: ${placed}/${total} wires placed and passing the checks; teeth segmentation ${median(segment).toFixed(0)} ms of it`,
      });
    }
    return rows;
  },
};
