// The `autodesign` geometry job kind (server/modules/geo-jobs/autodesign.ts) in the real runner:
// its thread reads the jaw models from local storage by their keys and runs the engine on a
// generated lower jaw with the default prescription; onDone gets the document and the report.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutodesignWireReport } from '../../common/autodesign.ts';
import { DEFAULT_PRESCRIPTION } from '../../common/prescription.ts';
import { autodesignKind, type AutodesignInput } from '../../server/modules/geo-jobs/autodesign.ts';
import { GeoJobRunner } from '../../server/modules/geo-jobs/runner.ts';
import { enqueueJob } from '../../server/modules/geo-jobs/store.ts';
import { localBlobPath } from '../../server/modules/space/storage.ts';
import { parseDocument } from '../../src/editor/engine/document.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';
import { teethJaw } from '../fixtures/teeth-jaws.ts';
import { setup, type TestServer } from './helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await setup();
});
afterAll(() => t.close());

describe('autodesign job', () => {
  it('designs an order from its stored models in a worker thread', async () => {
    const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'autodesign-job-'));
    const bytes = binaryStl(soupOf(teethJaw({ jaw: 'lower' })));
    const key = createHash('sha256').update(bytes).digest('hex');
    const file = localBlobPath(uploads, key);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);

    const ended: { result?: { document: unknown; report: AutodesignWireReport[] }; error?: string }[] = [];
    const runner = new GeoJobRunner(t.ctx, {
      kinds: { autodesign: autodesignKind({ onDone: (result) => void ended.push({ result }), onFailed: (error) => void ended.push({ error }) }) },
      concurrency: 1,
      pollMs: 30,
    });
    const input: AutodesignInput = { orderId: 0, uploads, upper: null, lower: key, prescription: { upper: null, lower: DEFAULT_PRESCRIPTION.lower } };
    await enqueueJob(t.ctx.db, { kind: 'autodesign', orderId: null, input }, t.clock.now());
    await runner.start();
    await runner.idle(100_000);
    await runner.stop();
    fs.rmSync(uploads, { recursive: true, force: true });

    expect(ended).toHaveLength(1);
    expect(ended[0]!.error).toBeUndefined();
    expect(ended[0]!.result!.report.map((r) => r.status)).toEqual(['placed', 'placed', 'placed']);
    const doc = parseDocument(ended[0]!.result!.document);
    expect(doc.wires?.map((w) => w.ai?.accepted)).toEqual([false, false, false]);
  }, 120_000);
});
