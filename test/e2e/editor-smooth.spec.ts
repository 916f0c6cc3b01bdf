// The smoothing brush in Chromium: a designer strokes the cusps of the generated lower jaw with the
// mouse, moving at once after the press (the camera holds still from the press on: the jaw's
// extent on the canvas stays to the pixel), the shading under the stroke changes,
// undo puts it back exactly, redo smooths again, and the stroke is there after a reload (replayed
// from the saved design). The brush's ring leaves with the pointer.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { jawMesh, rigidMatrix, toothOnArch, transformPositions } from '../fixtures/jaw.ts';
import { modelPixels, pixelDifference, settle, stablePixels, topViewMapping } from './canvas.ts';
import { designerWithOrder as createDesignerOrder, signInViaApi } from './helpers.ts';

// A smaller window than the default: software WebGL spends its time filling the canvas (960 × 600
// cost the GPU process 45 % less CPU than 1280 × 800 for editor-base and editor-smooth together);
// the clicks and strokes are placed from the model's pixels on the canvas.
test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

const lower = jawMesh();

async function designerWithOrder(request: APIRequestContext): Promise<number> {
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

/**
 * One brush stroke through page coordinates, moving right after the press as a hand does. A few
 * moves per leg: the tool fills in dabs between picks (DAB_SPACING), and every move waits for a
 * frame, seconds each with software WebGL on a busy machine.
 */
async function stroke(page: Page, points: { x: number; y: number }[]): Promise<void> {
  const [first, ...rest] = points;
  await page.mouse.move(first!.x, first!.y);
  await page.mouse.down();
  for (const p of rest) await page.mouse.move(p.x, p.y, { steps: 3 });
  await page.mouse.up();
}

/** The models' extent on the canvas, to the pixel: left, top, right, bottom (the view held: the same). */
async function extent(page: Page): Promise<number[]> {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of await modelPixels(page, 1)) {
    box[0] = Math.min(box[0]!, p.x);
    box[1] = Math.min(box[1]!, p.y);
    box[2] = Math.max(box[2]!, p.x);
    box[3] = Math.max(box[3]!, p.y);
  }
  return box;
}

test('a designer smooths cusps with the brush, undoes and redoes it, and finds it after a reload', async ({ page, request }) => {
  test.setTimeout(180_000);
  const orderId = await designerWithOrder(request);
  await signInViaApi(page, 'smooth-designer', 'smooth-designer-pass');
  await openOrder(page, orderId);
  const model = await modelPixels(page);
  expect(model.length).toBeGreaterThan(100);
  // Strokes back and forth between the crown centres of the two right molars (teeth 0 and 1 of
  // the generated jaw): a press beside the model would turn the view instead.
  const screen = await topViewMapping(page, lower, model);
  const there = [toothOnArch(0), toothOnArch(1)].map((c) => screen(c.x, c.y));
  const path = [there[0]!, ...Array.from({ length: 4 }, (_, i) => there[(i + 1) % 2]!)];

  await page.getByRole('button', { name: 'Smoothing brush' }).click();
  const panel = page.getByTestId('smooth-panel');
  await expect(panel).toBeVisible();
  await panel.getByLabel('Radius').fill('4');
  await panel.getByLabel('Strength').fill('1');
  const before = await stablePixels(page);
  const outline = await extent(page);
  await page.screenshot({ path: test.info().outputPath('before.png') });

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
  expect(await extent(page)).toEqual(outline);
  await page.screenshot({ path: test.info().outputPath('smoothed.png') });

  // Undo and redo write the vertices back through the worker, then a frame is drawn: the viewport
  // says when the picture shows it.
  await page.getByRole('button', { name: 'Undo' }).click();
  expect(pixelDifference(before, await stablePixels(page))).toBeLessThan(0.0005);
  await page.getByRole('button', { name: 'Redo' }).click();
  expect(pixelDifference(smoothed, await stablePixels(page))).toBeLessThan(0.0005);

  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved', { timeout: 30_000 });
  await page.reload();
  await openOrder(page, orderId);
  // Replayed on the fresh model: the same smoothed shading.
  expect(pixelDifference(smoothed, await stablePixels(page))).toBeLessThan(0.003);

  // With the brush on, a drag from the arch's empty middle (inside the jaw's box, no surface)
  // still turns the view.
  await page.getByRole('button', { name: 'Smoothing brush' }).click();
  const middle = screen(0, 8);
  const held = await extent(page);
  await page.mouse.move(middle.x, middle.y);
  await page.mouse.down();
  await page.mouse.move(middle.x + 120, middle.y + 30, { steps: 10 });
  await page.mouse.up();
  await settle(page);
  expect(await extent(page)).not.toEqual(held);
  await page.screenshot({ path: test.info().outputPath('turned.png') });
});
