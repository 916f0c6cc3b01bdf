// Large models (about 700k triangles, frames of seconds with software WebGL): every change the
// panels show reaches the canvas without the camera being touched. The viewport's data-drawn-*
// attributes say what the last complete frame drew (src/editor/ui/frameAttributes.ts); the pixels
// are checked beside them.
import { test, expect, type Page } from '@playwright/test';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { designerWithOrder, signInViaApi } from './helpers.ts';
import { canvasPixels, modelPixels, pixelDifference, saturated, settle } from './canvas.ts';

test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

async function openOrder(page: Page, id: number): Promise<void> {
  await page.goto(`/bend?orderId=${id}`);
  for (const role of ['upper', 'lower']) await expect(page.getByTestId(`model-${role}`)).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
}

test('with large models every change reaches the canvas without touching the camera', async ({ page, request }) => {
  test.setTimeout(420_000);
  const lower = jawMesh({ detail: 2.75 });
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  expect(lower.indices.length / 3).toBeGreaterThan(340_000);
  const order = await designerWithOrder(request, { username: 'redraw-designer', name: 'Rita', patientName: 'Rudi Redraw', upper, lower });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signInViaApi(page, 'redraw-designer', 'redraw-designer-pass');

  // Opened: both models on screen, nothing else asked of the camera.
  await openOrder(page, order.id);
  await settle(page, { view: 'front', models: 'upper,lower', hidden: '' });
  const front = await canvasPixels(page);
  expect((await modelPixels(page)).length).toBeGreaterThan(500);

  // Hide the lower jaw and at once look from the right: both reach the canvas.
  await page.getByRole('button', { name: 'Hide Lower jaw' }).click();
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('4');
  await settle(page, { view: 'right', models: 'upper', hidden: 'lower' });
  const right = await canvasPixels(page);
  expect(pixelDifference(front, right)).toBeGreaterThan(0.02);
  await page.screenshot({ path: test.info().outputPath('right-lower-hidden.png') });

  // The bottom view, pressed once.
  await page.keyboard.press('6');
  await settle(page, { view: 'bottom' });
  const bottom = await canvasPixels(page);
  expect(pixelDifference(right, bottom)).toBeGreaterThan(0.02);

  // The undercut map, then straight to the occlusal distance map: the colours follow the legend.
  await page.getByRole('button', { name: 'Show Lower jaw' }).click();
  await page.keyboard.press('1');
  await page.getByTestId('heatmap-undercut').click();
  await settle(page, { view: 'front', models: 'upper,lower', heatmap: 'undercut' });
  await expect(page.getByTestId('heatmap-legend')).toHaveAttribute('data-mode', 'undercut');
  const undercut = await canvasPixels(page);
  expect(saturated(undercut)).toBeGreaterThan(0.01);
  await page.getByTestId('heatmap-occlusal').click();
  await settle(page, { heatmap: 'occlusal' });
  await expect(page.getByTestId('heatmap-legend')).toHaveAttribute('data-mode', 'occlusal');
  const occlusal = await canvasPixels(page);
  expect(pixelDifference(undercut, occlusal)).toBeGreaterThan(0.005);
  await page.screenshot({ path: test.info().outputPath('occlusal.png') });
  await page.getByTestId('heatmap-off').click();
  await settle(page, { heatmap: 'off' });
  expect(saturated(await canvasPixels(page))).toBeLessThan(0.005);

  // The straightening rings come with the tool and go with it.
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('t');
  await settle(page, { handles: 'true' });
  const rings = await canvasPixels(page);
  await page.keyboard.press('t');
  await settle(page, { handles: 'false' });
  expect(pixelDifference(rings, await canvasPixels(page))).toBeGreaterThan(0.001);
  expect(errors).toEqual([]);
});
