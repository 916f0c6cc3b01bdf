// Undercut analysis and heatmaps in the editor: a designer opens an order with generated jaws,
// shows the undercut heatmap (the model's pixels change colour, the legend shows millimetres),
// tilts the insertion direction (one undo step, the map follows), shows the occlusal distance
// map, and turns the heatmap off (the normal shading is back).
import { test, expect, type APIRequestContext } from '@playwright/test';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { designerWithOrder as createDesignerOrder, namedWorker, signInViaApi, workerStats } from './helpers.ts';
import { canvasPixels as pixels, pixelDifference as difference, saturated, settle } from './canvas.ts';

// A smaller window than the default: software WebGL spends its time filling the canvas (960 × 600
// cost the GPU process 45 % less CPU than 1280 × 800 for editor-base and editor-smooth together);
// the pictures are compared as shares of the canvas.
test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

/** A designer (order list + design rights) and an order of hers with generated upper and lower jaws. */
async function designerWithOrder(request: APIRequestContext, username: string): Promise<number> {
  const lower = jawMesh();
  // The upper jaw: the lower one turned over (teeth down) and lifted so that the cusps meet.
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  return (await createDesignerOrder(request, { username, name: 'Ana', patientName: 'Lena Analyse', upper, lower })).id;
}

test('a designer shows the undercut heatmap, tilts the insertion direction, shows occlusal distances and turns the heatmap off', async ({ page, request }) => {
  test.setTimeout(180_000);
  const orderId = await designerWithOrder(request, 'analysis-designer');
  await signInViaApi(page, 'analysis-designer', 'analysis-designer-pass');
  await page.goto(`/bend?orderId=${orderId}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  const panel = page.getByTestId('analysis');
  const legend = page.getByTestId('heatmap-legend');
  await expect(legend).toHaveCount(0);
  await page.keyboard.press('2'); // back view: the upper jaw's palatal side, where its undercuts are
  await settle(page);
  const plain = await pixels(page);
  expect(saturated(plain)).toBeLessThan(0.005);

  // Undercut heatmap of the upper jaw, along its axis.
  await page.getByTestId('heatmap-undercut').click();
  await expect(panel).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(legend).toBeVisible();
  await expect(legend).toHaveAttribute('data-mode', 'undercut');
  await expect(legend).toContainText('Undercut depth');
  await expect(legend).toContainText('mm');
  await expect(legend).toContainText('0.0');
  await expect(legend).toContainText('1.0 mm');
  await expect(page.getByTestId('undercut-summary')).toContainText('mm²');
  await settle(page);
  await page.screenshot({ path: 'test-results/analysis-undercut.png' });
  const undercut = await pixels(page);
  expect(difference(plain, undercut)).toBeGreaterThan(0.02);
  expect(saturated(undercut)).toBeGreaterThan(0.01);

  // Tilt the direction: one undoable change; the map is recomputed.
  await expect(page.getByTestId('direction-value')).toContainText("The jaw's axis");
  const tilt = page.getByLabel('Tilt front / back');
  await tilt.fill('30');
  await tilt.blur();
  await expect(page.getByTestId('direction-value')).toContainText('(0.000, 0.500, -0.866)');
  await expect(panel).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await settle(page);
  await page.screenshot({ path: 'test-results/analysis-tilted.png' });
  const tilted = await pixels(page);
  expect(difference(undercut, tilted)).toBeGreaterThan(0.002);
  await page.getByTestId('viewport').locator('canvas').focus();
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('direction-value')).toContainText("The jaw's axis");
  await expect(panel).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('heatmap-undercut')).toHaveAttribute('aria-checked', 'true');

  // Occlusal distance map, upper to lower.
  await page.keyboard.press('1');
  await page.getByTestId('heatmap-occlusal').click();
  await expect(legend).toHaveAttribute('data-mode', 'occlusal');
  await expect(panel).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(legend).toContainText('Distance to the lower jaw');
  await expect(legend).toContainText('-0.5');
  await expect(legend).toContainText('3.0 mm');
  await settle(page);
  await page.screenshot({ path: 'test-results/analysis-occlusal.png' });
  const occlusal = await pixels(page);
  expect(saturated(occlusal)).toBeGreaterThan(0.01);

  // Off: the normal shading is back.
  await page.getByTestId('heatmap-off').click();
  await expect(legend).toHaveCount(0);
  await settle(page);
  const off = await pixels(page);
  expect(saturated(off)).toBeLessThan(0.005);
  await page.screenshot({ path: 'test-results/analysis-off.png' });

  // The base thickness map waits for a base.
  await expect(page.getByTestId('heatmap-thickness')).toBeDisabled();
  await expect(page.getByTestId('heatmap-thickness')).toHaveAttribute('title', /Generate a base first/);

  // The choice is saved with the design; the panel and legend speak German and Chinese too.
  await page.getByTestId('heatmap-undercut').click();
  await expect(page.getByTestId('save-status')).toHaveText('All changes saved');
  for (const [lang, title, legendTitle] of [
    ['de', 'Unterschnittanalyse und Heatmaps', 'Unterschnitttiefe'],
    ['zh', '倒凹分析与热图', '倒凹深度'],
  ] as const) {
    await page.evaluate((l) => localStorage.setItem('aw.lang', l), lang);
    await page.reload();
    await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(panel).toContainText(title);
    await expect(panel).toHaveAttribute('data-mode', 'undercut');
    await expect(panel).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(legend).toContainText(legendTitle);
    await expect(legend).toContainText('mm');
    await settle(page);
    await page.screenshot({ path: `test-results/analysis-${lang}.png` });
  }
});

test('Cancel stops the best-direction search in the worker, leaving the direction as it was; run to the end it shows its progress and sets one', async ({ page, request }) => {
  test.setTimeout(120_000);
  const orderId = await designerWithOrder(request, 'best-designer');
  await signInViaApi(page, 'best-designer', 'best-designer-pass');
  await page.goto(`/bend?orderId=${orderId}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await page.getByTestId('heatmap-undercut').click();
  await expect(page.getByTestId('analysis')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  const direction = page.getByTestId('direction-value');
  await expect(direction).toContainText("The jaw's axis");
  const worker = await namedWorker(page);
  const searches = async () => (await workerStats(worker)).recentJobs.filter((j) => j.call === 'bestInsertionDirection');

  // Every percentage the Cancel button shows is recorded; with `cancel`, the button is pressed
  // from inside the page the moment it appears, as a user would right after starting.
  const watch = (cancel: boolean) =>
    page.evaluate((cancel) => {
      const seen: number[] = [];
      (window as unknown as { __best: number[] }).__best = seen;
      const observer = new MutationObserver(() => {
        const button = document.querySelector<HTMLButtonElement>('[data-testid="best-cancel"]');
        const percent = Number(/\((\d+)%\)/.exec(button?.textContent ?? '')?.[1] ?? NaN);
        if (!Number.isFinite(percent)) return;
        if (seen.at(-1) !== percent) seen.push(percent);
        if (cancel) {
          observer.disconnect();
          button!.click();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    }, cancel);
  const shown = () => page.evaluate(() => (window as unknown as { __best: number[] }).__best);

  await watch(true);
  await page.getByTestId('best-direction').click();
  await expect.poll(async () => (await searches()).at(-1)?.outcome, { timeout: 30_000 }).toBe('ABORTED');
  expect(await shown()).toEqual([0]);
  await expect(page.getByTestId('best-cancel')).toHaveCount(0);
  await expect(page.getByTestId('best-direction')).toBeEnabled();
  await expect(direction).toContainText("The jaw's axis");
  expect((await workerStats(worker)).runningJobs).toBe(0);

  // Run to the end, its progress rises on the button, and it finds and sets a direction (one
  // undo step back to the axis).
  await watch(false);
  await page.getByTestId('best-direction').click();
  await expect.poll(async () => (await searches()).at(-1)?.outcome, { timeout: 60_000 }).toBe('ok');
  const seen = await shown();
  expect(seen.some((p) => p > 0 && p < 100), `percentages shown: ${seen.join(', ')}`).toBe(true);
  for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
  await expect(direction).not.toContainText("The jaw's axis");
  await page.getByTestId('viewport').locator('canvas').focus();
  await page.keyboard.press('Control+z');
  await expect(direction).toContainText("The jaw's axis");
});
