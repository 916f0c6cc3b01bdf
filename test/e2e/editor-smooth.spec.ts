// The smoothing brush in Chromium: a designer strokes the cusps of the generated lower jaw with the
// mouse (the camera holds still while the brush is down), the shading under the stroke changes,
// undo puts it back exactly, redo smooths again, and the stroke is there after a reload (replayed
// from the saved design). The brush's ring leaves with the pointer.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { canvasPixels, modelPixels, pixelDifference, settle, stablePixels } from './canvas.ts';
import { designerWithOrder as createDesignerOrder, signIn } from './helpers.ts';

test.use({ locale: 'en-US' });

async function designerWithOrder(request: APIRequestContext): Promise<number> {
  const lower = jawMesh();
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  return (await createDesignerOrder(request, { username: 'smooth-designer', name: 'Sam', patientName: 'Susi Glatt', upper, lower })).id;
}

async function openOrder(page: Page, orderId: number): Promise<void> {
  await page.goto(`/bend?orderId=${orderId}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  // The lower jaw's biting surface from above, the upper jaw out of the way.
  await page.getByRole('button', { name: 'Hide Upper jaw' }).click();
  await page.getByRole('button', { name: 'Occlusal view (top)' }).click();
  await settle(page);
}

/** One brush stroke across the left half of the arch (canvas CSS pixels → page coordinates). */
async function stroke(page: Page, points: { x: number; y: number }[]): Promise<void> {
  const box = (await page.getByTestId('viewport').locator('canvas').boundingBox())!;
  const [first, ...rest] = points;
  await page.mouse.move(box.x + first!.x, box.y + first!.y);
  await page.mouse.down();
  for (const p of rest) await page.mouse.move(box.x + p.x, box.y + p.y, { steps: 12 });
  await page.mouse.up();
}

test('a designer smooths cusps with the brush, undoes and redoes it, and finds it after a reload', async ({ page, request }) => {
  test.setTimeout(180_000);
  const orderId = await designerWithOrder(request);
  await signIn(page, 'smooth-designer', 'smooth-designer-pass');
  await openOrder(page, orderId);
  const model = await modelPixels(page);
  expect(model.length).toBeGreaterThan(100);
  const xs = model.map((p) => p.x).sort((a, b) => a - b);
  const ys = model.map((p) => p.y).sort((a, b) => a - b);
  const minX = xs[0]!, maxX = xs[xs.length - 1]!, minY = ys[0]!, maxY = ys[ys.length - 1]!;
  // The arch seen from above: strokes back and forth over the fissures of the two left molars.
  const onModel = (fx: number, fy: number) => {
    const want = { x: minX + fx * (maxX - minX), y: minY + fy * (maxY - minY) };
    return model.reduce((best, p) => (Math.hypot(p.x - want.x, p.y - want.y) < Math.hypot(best.x - want.x, best.y - want.y) ? p : best));
  };
  // (A press beside the model would turn the view instead: start on the first molar's centre.)
  const there = [onModel(0.085, 0.17), onModel(0.1, 0.33)];
  const path = [there[0]!, ...Array.from({ length: 4 }, (_, i) => there[(i + 1) % 2]!)];

  await page.getByRole('button', { name: 'Smoothing brush' }).click();
  const panel = page.getByTestId('smooth-panel');
  await expect(panel).toBeVisible();
  await panel.getByLabel('Radius').fill('4');
  await panel.getByLabel('Strength').fill('1');
  const before = await stablePixels(page);

  await stroke(page, path);
  await expect(page.getByRole('button', { name: 'Undo' })).toBeEnabled({ timeout: 30_000 });
  // The brush's cursor ring follows the pointer over the model: take the pointer away first.
  await panel.hover();
  const smoothed = await stablePixels(page);
  await expect(page.getByTestId('smooth-panel')).toBeVisible();
  // The shading under the stroke changed; the view did not move (the rest of the canvas is the same).
  const changed = pixelDifference(before, smoothed);
  expect(changed).toBeGreaterThan(0.002);
  expect(changed).toBeLessThan(0.1);
  await page.screenshot({ path: test.info().outputPath('smoothed.png') });

  // Undo and redo write the vertices back through the worker, then a frame is drawn (about a
  // second of software rendering on a busy machine): wait for the pixels, not a fixed time.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(async () => pixelDifference(before, await canvasPixels(page)), { timeout: 30_000 }).toBeLessThan(0.0005);
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect.poll(async () => pixelDifference(smoothed, await canvasPixels(page)), { timeout: 30_000 }).toBeLessThan(0.0005);

  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved', { timeout: 30_000 });
  await page.reload();
  await openOrder(page, orderId);
  // Replayed on the fresh model: the same smoothed shading.
  await expect.poll(async () => pixelDifference(smoothed, await canvasPixels(page)), { timeout: 30_000 }).toBeLessThan(0.003);
});
