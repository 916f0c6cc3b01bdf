import { writeFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { sphereCounts, sphereStl } from '../fixtures/stl.ts';
import { namedWorker, signInViaApi, workerStats } from './helpers.ts';

// The geometry worker in real Chromium, driven through the /bend page: a file
// opened with the open-stl-input is parsed in the worker with progress and
// kept there by handle; a large parse stopped with the Cancel button ends as
// ABORTED in the worker (and on the page); the same worker then opens the
// next file. The worker's own record of its
// jobs is read through Playwright's handle on the worker
// (globalThis.archwrightGeometryStats, see docs/geometry.md).

test.use({ locale: 'en-US' });

/** Records every value the file's progress bar shows (window.__progress), from now on. */
async function recordProgress(page: Page, fileName: string, cancelAt?: number): Promise<void> {
  await page.evaluate(
    ({ fileName, cancelAt }) => {
      const seen: number[] = [];
      (window as unknown as { __progress: number[] }).__progress = seen;
      const observer = new MutationObserver(() => {
        const bar = [...document.querySelectorAll('[role="progressbar"]')].find((b) => b.getAttribute('aria-label')?.includes(fileName));
        if (!bar) return;
        const value = Number(bar.getAttribute('aria-valuenow'));
        if (seen.at(-1) !== value) seen.push(value);
        // Press Cancel once parsing (not reading) is under way, as a user would mid-parse.
        if (cancelAt !== undefined && value >= cancelAt && value < 100) {
          const cancel = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Cancel');
          if (cancel) {
            observer.disconnect();
            cancel.click();
          }
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
    },
    { fileName, cancelAt },
  );
}

test('STL files go through the geometry worker with progress; Cancel aborts a large parse and the worker opens the next file', async ({ page }, testInfo) => {
  test.setTimeout(60_000);
  await signInViaApi(page);
  await page.goto('/bend');
  const viewport = page.getByTestId('viewport');
  await expect(page.getByRole('button', { name: 'Open STL' })).toBeEnabled();
  const input = page.getByTestId('open-stl-input');

  // The editor's worker starts as /bend is entered (with an order, also one that only parses a
  // second file while the first is parsed): the main one keeps the meshes.
  const worker = await namedWorker(page);
  const started = page.workers().filter((w) => /geometry/.test(w.url()));

  // 1. A 200k-triangle file: progress is shown while it loads, then the model.
  const first = sphereCounts(400, 251).triangles;
  await recordProgress(page, 'first.stl');
  await input.setInputFiles({ name: 'first.stl', mimeType: 'model/stl', buffer: Buffer.from(sphereStl({ segments: 400, rings: 251, radius: 20 })) });
  await expect(viewport).toHaveAttribute('data-model-triangles', String(first));
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  const progress = await page.evaluate(() => (window as unknown as { __progress: number[] }).__progress);
  expect(progress[0]).toBe(0);
  expect(progress.some((v) => v > 0 && v < 100), `progress seen: ${progress.join(', ')}`).toBe(true);
  for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]!);
  expect((await workerStats(worker)).recentJobs.at(-1)).toMatchObject({ call: 'openStl', outcome: 'ok' });
  expect((await workerStats(worker)).meshes).toBe(1); // the editor keeps the model in the worker, by handle

  // 2. A 1M-triangle file (48 MB), cancelled with the Cancel button while it is parsed.
  const bigPath = testInfo.outputPath('big.stl');
  writeFileSync(bigPath, sphereStl({ segments: 1000, rings: 501, radius: 40 }));
  await recordProgress(page, 'big.stl', 20);
  await input.setInputFiles(bigPath);
  await expect.poll(async () => (await workerStats(worker)).recentJobs.at(-1)?.outcome).toBe('ABORTED');
  const afterAbort = await workerStats(worker);
  expect(afterAbort.runningJobs).toBe(0);
  // Nothing is loading any more, cancelling is not an error, and the viewport is empty.
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(viewport).toHaveAttribute('data-model-triangles', '');
  // The first model was replaced by the cancelled one and released in the worker: nothing is kept.
  await expect.poll(async () => (await workerStats(worker)).meshes).toBe(0);

  // 3. The same worker opens the next file.
  const third = sphereCounts(64, 33).triangles;
  await input.setInputFiles({ name: 'third.stl', mimeType: 'model/stl', buffer: Buffer.from(sphereStl({ segments: 64, rings: 33, radius: 10 })) });
  await expect(viewport).toHaveAttribute('data-model-triangles', String(third));
  await expect(page.getByTestId('model-status')).toContainText('third.stl');
  const end = await workerStats(worker);
  expect(end.recentJobs.at(-1)).toMatchObject({ call: 'openStl', outcome: 'ok' });
  expect(end.meshes).toBe(1);
  expect(end.recentJobs.filter((j) => j.outcome === 'ABORTED')).toHaveLength(1);
  // No worker was started again (the cancel stopped the job, not the worker).
  expect(page.workers().filter((w) => /geometry/.test(w.url()))).toEqual(started);
});
