// The straightening tool in the browser: a designer opens an order whose generated jaws were
// scanned tilted and turned, straightens them automatically (the picture changes and the
// occlusal view shows the arch level and symmetric), reloads and finds them straightened, then
// resets them to the scanned position.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { designerWithOrder as createDesignerOrder, signInViaApi } from './helpers.ts';
import { canvasPixels as pixels, pixelDifference as difference, settle } from './canvas.ts';

// A smaller window than the default: software WebGL spends its time filling the canvas (960 × 600
// cost the GPU process 45 % less CPU than 1280 × 800 for editor-base and editor-smooth together);
// the pictures are compared as shares of the canvas.
test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

/** Turned 25° about z (the arch is skewed in the occlusal view) and rolled 12° about y. */
const TILT = (() => {
  const a = rigidMatrix([0, 0, 1], 25);
  const b = rigidMatrix([0, 1, 0], 12, [4, -3, 6]);
  const out = new Float64Array(16);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[c * 4 + r] = out[c * 4 + r]! + b[k * 4 + r]! * a[c * 4 + k]!;
  return out;
})();

/** A designer (order list + design rights) and an order of hers with generated upper and lower jaws. */
async function designerWithOrder(request: APIRequestContext): Promise<number> {
  const upright = jawMesh();
  // The upper jaw: the lower one turned over (teeth down) and lifted so that the cusps meet;
  // both tilted and turned as a scanner might leave them.
  const lower = { positions: transformPositions(upright.positions, TILT), indices: upright.indices };
  const upper = { positions: transformPositions(transformPositions(upright.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), TILT), indices: upright.indices };
  return (await createDesignerOrder(request, { username: 'straighten-designer', name: 'Dana', patientName: 'Stella Gerade', upper, lower })).id;
}

/**
 * How mirror-symmetric the models' silhouette is about the vertical line through its middle
 * (0..1): the share of model pixels whose mirror image is a model pixel too. A level arch seen
 * from above, its midline upright on the screen, is close to 1.
 */
function symmetry(shot: { width: number; height: number; data: ArrayLike<number> }): number {
  const bg = [shot.data[0]!, shot.data[1]!, shot.data[2]!];
  const isModel = (x: number, y: number): boolean => {
    const i = (y * shot.width + x) * 4;
    return Math.abs(shot.data[i]! - bg[0]!) + Math.abs(shot.data[i + 1]! - bg[1]!) + Math.abs(shot.data[i + 2]! - bg[2]!) > 60;
  };
  let minX = Infinity, maxX = -Infinity;
  for (let y = 0; y < shot.height; y++) for (let x = 0; x < shot.width; x++) if (isModel(x, y)) (minX = Math.min(minX, x)), (maxX = Math.max(maxX, x));
  let total = 0, mirrored = 0;
  for (let y = 0; y < shot.height; y++)
    for (let x = minX; x <= maxX; x++) {
      if (!isModel(x, y)) continue;
      total++;
      const m = Math.round(minX + maxX - x);
      if (isModel(m, y) || isModel(Math.min(maxX, m + 1), y) || isModel(Math.max(minX, m - 1), y)) mirrored++;
    }
  return total ? mirrored / total : 0;
}

/** Canvas CSS pixels whose colour passes `test` (the handles are drawn in pure axis colours). */
async function handlePixels(page: Page, test: (r: number, g: number, b: number) => boolean): Promise<{ x: number; y: number }[]> {
  const shot = await pixels(page, 1);
  const box = (await page.locator('[data-testid="viewport"] canvas').boundingBox())!;
  const scale = shot.width / box.width;
  const found: { x: number; y: number }[] = [];
  for (let y = 0; y < shot.height; y++)
    for (let x = 0; x < shot.width; x++) {
      const i = (y * shot.width + x) * 4;
      if (test(shot.data[i]!, shot.data[i + 1]!, shot.data[i + 2]!)) found.push({ x: (x + 0.5) / scale, y: (y + 0.5) / scale });
    }
  return found;
}

async function openOrder(page: Page, orderId: number): Promise<void> {
  await page.goto(`/bend?orderId=${orderId}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

/** The occlusal view of the upper jaw alone. */
async function occlusalUpper(page: Page): Promise<{ width: number; height: number; data: Uint8Array }> {
  const hide = page.getByRole('button', { name: 'Hide Lower jaw' });
  if (await hide.isVisible()) await hide.click();
  await page.getByRole('button', { name: 'Occlusal view (top)' }).click();
  await settle(page);
  return pixels(page);
}

test('a designer straightens tilted jaws automatically, finds them straightened after a reload, and resets them', async ({ page, request }) => {
  test.setTimeout(180_000);
  const orderId = await designerWithOrder(request);
  await signInViaApi(page, 'straighten-designer', 'straighten-designer-pass');
  await openOrder(page, orderId);
  const viewport = page.getByTestId('viewport');
  await settle(page);
  const scannedFront = await pixels(page);
  const scannedTop = await occlusalUpper(page);
  await page.screenshot({ path: 'test-results/straighten-scanned-top.png' });
  await page.getByRole('button', { name: 'Show Lower jaw' }).click();

  // The tool (T), then the automatic straightening from its panel.
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('t');
  await expect(viewport).toHaveAttribute('data-tool', 'straighten');
  const panel = page.getByTestId('straighten-panel');
  await expect(page.getByTestId('straighten-state')).toHaveAttribute('data-straightened', 'false');
  await panel.getByRole('button', { name: 'Straighten automatically' }).click();
  await expect(page.getByTestId('straighten-state')).toHaveAttribute('data-straightened', 'true', { timeout: 30_000 });
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Front view' }).click();
  await settle(page);
  await page.screenshot({ path: 'test-results/straighten-front.png' });
  expect(difference(scannedFront, await pixels(page))).toBeGreaterThan(0.03);
  // Fine adjustment: drag the green ring (rotation about y, facing the front view) a little way
  // round. The models turn, the camera stays, and one undo puts them back.
  const adjusted = await pixels(page);
  const green = await handlePixels(page, (r, g, b) => g > r + 50 && g > b + 50);
  expect(green.length).toBeGreaterThan(20);
  const xs = green.map((p) => p.x), ys = green.map((p) => p.y);
  const c = { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2 };
  const top = green.reduce((best, p) => (p.y < best.y ? p : best));
  const radius = c.y - top.y;
  const box = (await page.locator('[data-testid="viewport"] canvas').boundingBox())!;
  await page.mouse.move(box.x + top.x, box.y + top.y);
  await page.mouse.down();
  for (let k = 1; k <= 8; k++) {
    const angle = -Math.PI / 2 + (k * 0.3) / 8;
    await page.mouse.move(box.x + c.x + radius * Math.cos(angle), box.y + c.y + radius * Math.sin(angle));
  }
  await page.mouse.up();
  await page.mouse.move(box.x + 5, box.y + 5); // no handle lit under the pointer
  await settle(page);
  await page.screenshot({ path: 'test-results/straighten-dragged.png' });
  expect(difference(adjusted, await pixels(page))).toBeGreaterThan(0.01);
  await page.keyboard.press('Control+z');
  await settle(page);
  expect(difference(adjusted, await pixels(page))).toBeLessThan(0.005);
  await expect(page.getByTestId('straighten-state')).toHaveAttribute('data-straightened', 'true');

  // Leave the tool (its handles would spoil the silhouette), look from above.
  await page.keyboard.press('t');
  await expect(viewport).toHaveAttribute('data-tool', '');
  const straightTop = await occlusalUpper(page);
  await page.screenshot({ path: 'test-results/straighten-straight-top.png' });
  expect(difference(scannedTop, straightTop)).toBeGreaterThan(0.03);
  const before = symmetry(scannedTop);
  const after = symmetry(straightTop);
  expect(after).toBeGreaterThan(0.9);
  expect(after - before).toBeGreaterThan(0.05);

  // Saved: a reload shows the straightened models.
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  await page.reload();
  await openOrder(page, orderId);
  await expect(page.getByTestId('straighten-state')).toHaveAttribute('data-straightened', 'true');
  const reloadedTop = await occlusalUpper(page);
  expect(symmetry(reloadedTop)).toBeGreaterThan(0.9);
  expect(difference(straightTop, reloadedTop)).toBeLessThan(0.01);

  // Reset (in the tool): back to the scanned position, and undo brings the straightening back.
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('t');
  await expect(viewport).toHaveAttribute('data-tool', 'straighten');
  await page.getByTestId('straighten-panel').getByRole('button', { name: 'Reset to the scanned position' }).click();
  await expect(page.getByTestId('straighten-state')).toHaveAttribute('data-straightened', 'false');
  await page.screenshot({ path: 'test-results/straighten-tool-reset.png' });
  await page.keyboard.press('t');
  const resetTop = await occlusalUpper(page);
  expect(difference(scannedTop, resetTop)).toBeLessThan(0.01);
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('straighten-state')).toHaveAttribute('data-straightened', 'true');
});
