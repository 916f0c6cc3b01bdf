// The design editor on an order: a designer opens an order created through the API with
// generated jaw models, sees both, changes views (pixels change), hides a model, measures
// between two points on the surface, undoes and redoes, reloads and finds the measurement saved.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';
import { ADMIN_PASSWORD, apiLogin, designerWithOrder as createDesignerOrder, signInViaApi } from './helpers.ts';
import { canvasPixels as pixels, modelPixels, pixelDifference as difference, settle } from './canvas.ts';

// A smaller window than the default: software WebGL spends its time filling the canvas (960 × 600
// cost the GPU process a third less CPU than 1280 × 800); the pixel checks are shares of the
// canvas, or counts far below what the models cover at this size.
test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

/** A designer (order list + design rights) and an order of hers with generated upper and lower jaws. */
async function designerWithOrder(request: APIRequestContext): Promise<number> {
  const lower = jawMesh();
  // The upper jaw: the lower one turned over (teeth down) and lifted so that the cusps meet.
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  return (await createDesignerOrder(request, { username: 'editor-designer', name: 'Dana', patientName: 'Erika Muster', upper, lower })).id;
}

test('a designer opens an order, changes views, measures, undoes and redoes, and finds the design saved after a reload', async ({ page, request }) => {
  test.setTimeout(180_000);
  const orderId = await designerWithOrder(request);
  await signInViaApi(page, 'editor-designer', 'editor-designer-pass');
  // The order's requests start as the page loads, before the 3D engine: each still goes out once.
  const requested: string[] = [];
  page.on('request', (r) => {
    if (/\/admin\/(base\/comm\/file\/|order\/info\/info|design\/getDesignData)/.test(r.url())) requested.push(new URL(r.url()).pathname);
  });
  await page.goto(`/bend?orderId=${orderId}`);

  const upper = page.getByTestId('model-upper');
  const lower = page.getByTestId('model-lower');
  await expect(upper).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(lower).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  const files = requested.filter((p) => p.includes('/comm/file/'));
  expect(files).toHaveLength(2);
  expect(new Set(files).size).toBe(2);
  expect(requested.filter((p) => p.endsWith('/order/info/info'))).toHaveLength(1);
  expect(requested.filter((p) => p.endsWith('/design/getDesignData'))).toHaveLength(1);
  await expect(upper).toContainText('upper.stl');
  await expect(lower).toContainText('lower.stl');
  await expect(page.getByTestId('order-title')).toContainText('Erika Muster');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'idle');
  await settle(page);
  const viewport = page.getByTestId('viewport');
  await page.screenshot({ path: 'test-results/editor-front.png' });
  const front = await pixels(page);

  // View presets: buttons and keys.
  await page.getByRole('button', { name: 'Occlusal view (top)' }).click();
  await expect(viewport).toHaveAttribute('data-view', 'top');
  await settle(page);
  const top = await pixels(page);
  expect(difference(front, top)).toBeGreaterThan(0.05);
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('3');
  await expect(viewport).toHaveAttribute('data-view', 'left');
  await page.keyboard.press('1');
  await expect(viewport).toHaveAttribute('data-view', 'front');
  await settle(page);
  const frontPreset = await pixels(page);
  expect(difference(front, frontPreset)).toBeGreaterThan(0.02); // a little above the bite at first, now level

  // Bite opened (B): the lower jaw moves down, animated, and back.
  const biteOpened = page.getByRole('checkbox', { name: 'Bite opened' });
  await page.keyboard.press('b');
  await expect(biteOpened).toBeChecked();
  await settle(page);
  expect(difference(frontPreset, await pixels(page))).toBeGreaterThan(0.02);
  await page.keyboard.press('b');
  await expect(biteOpened).not.toBeChecked();
  await settle(page);
  expect(difference(frontPreset, await pixels(page))).toBeLessThan(0.005);
  // Clipping plane (C), then its position slider.
  await page.keyboard.press('c');
  await expect(page.getByRole('checkbox', { name: 'Clipping plane' })).toBeChecked();
  const plane = page.getByRole('slider', { name: 'Plane position' });
  await plane.focus();
  for (let i = 0; i < 20; i++) await plane.press('ArrowRight');
  await settle(page);
  await page.screenshot({ path: 'test-results/editor-clipped.png' });
  expect(difference(frontPreset, await pixels(page))).toBeGreaterThan(0.02);
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('c');
  await expect(page.getByRole('checkbox', { name: 'Clipping plane' })).not.toBeChecked();
  await settle(page);

  // Visibility: hiding the lower jaw changes the picture; showing it again restores it.
  await page.getByRole('button', { name: 'Hide Lower jaw' }).click();
  await settle(page);
  const upperOnly = await pixels(page);
  expect(difference(frontPreset, upperOnly)).toBeGreaterThan(0.02);

  // Occlusal view of the upper jaw alone, then measure between two far-apart points on it.
  await page.keyboard.press('5');
  await settle(page);
  await page.screenshot({ path: 'test-results/editor-top-upper.png' });
  const onModel = await modelPixels(page);
  expect(onModel.length).toBeGreaterThan(100);
  const row = onModel.filter((p) => Math.abs(p.y - onModel[Math.floor(onModel.length / 2)]!.y) < 3);
  const a = row[0]!;
  const b = row.at(-1)!;
  expect(b.x - a.x).toBeGreaterThan(40);

  await page.getByRole('button', { name: 'Measure distance' }).click();
  await expect(viewport).toHaveAttribute('data-tool', 'measure');
  const box = (await page.locator('[data-testid="viewport"] canvas').boundingBox())!;
  // Escape forgets a first point.
  await page.mouse.click(box.x + a.x + 4, box.y + a.y);
  await expect(viewport).toHaveAttribute('data-tool-phase', 'pointing');
  await page.keyboard.press('Escape');
  await expect(viewport).toHaveAttribute('data-tool-phase', 'idle');
  await page.mouse.click(box.x + a.x + 4, box.y + a.y);
  await expect(viewport).toHaveAttribute('data-tool-phase', 'pointing');
  // A rubber band with the straight distance follows the cursor over the model.
  await page.mouse.move(box.x + (a.x + b.x) / 2, box.y + a.y, { steps: 4 });
  await page.mouse.move(box.x + b.x - 4, box.y + b.y, { steps: 4 });
  await expect(page.getByTestId('measure-preview')).toBeVisible();
  await expect(page.getByTestId('measure-preview')).toHaveText(/^\d+\.\d\d mm$/);
  await page.mouse.click(box.x + b.x - 4, box.y + b.y);
  await expect(page.getByTestId('measure-preview')).toBeHidden();
  const label = page.getByTestId('measure-label');
  await expect(label).toHaveCount(1);
  await expect(label).toContainText(/\d+\.\d\d mm · ⌒ \d+\.\d\d mm/);
  const text = (await label.textContent())!;
  const [straight, surface] = [...text.matchAll(/(\d+\.\d\d) mm/g)].map((m) => Number(m[1]));
  expect(straight).toBeGreaterThan(5);
  expect(surface!).toBeGreaterThanOrEqual(straight! - 0.01);
  await expect(page.getByTestId('measurement')).toHaveCount(1);
  await settle(page);
  await page.screenshot({ path: 'test-results/editor-measure.png' });

  // Undo and redo: buttons and keys.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(label).toHaveCount(0);
  await expect(page.getByTestId('measurement')).toHaveCount(0);
  await page.keyboard.press('Control+Shift+Z');
  await expect(page.getByTestId('measure-label')).toHaveCount(1);
  await page.keyboard.press('Control+Z');
  await expect(page.getByTestId('measure-label')).toHaveCount(0);
  await page.keyboard.press('Control+Y');
  await expect(page.getByTestId('measure-label')).toHaveText(text);

  // Autosave, then a reload restores the measurement exactly.
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  await page.reload();
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('measure-label')).toHaveText(text);
  await expect(page.getByTestId('measurement')).toHaveCount(1);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  await settle(page);
  await page.screenshot({ path: 'test-results/editor-reloaded.png' });

  // The editor speaks German and Chinese too: toolbar tooltips, side panel, status bar.
  for (const [lang, measure, saved] of [
    ['de', 'Abstand messen', 'Alle Änderungen gespeichert'],
    ['zh', '测量距离', '所有更改已保存'],
  ] as const) {
    await page.evaluate((l) => localStorage.setItem('aw.lang', l), lang);
    await page.reload();
    await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(page.getByTestId('save-status')).toHaveText(saved);
    await page.getByRole('button', { name: measure }).hover();
    await expect(page.getByRole('tooltip')).toContainText(measure);
    await page.screenshot({ path: `test-results/editor-${lang}.png` });
  }
});

test('a model that cannot be downloaded fails on its own with a clear message; a missing one is named as such', async ({ page, request }) => {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const upload = await request.post('/admin/base/comm/upload', {
    headers: { Authorization: admin },
    multipart: { kind: 'model', file: { name: 'upper.stl', mimeType: 'model/stl', buffer: Buffer.from(binaryStl(soupOf(jawMesh({ detail: 0.3 })))) } },
  });
  const file = (await upload.json()).data[0];
  const order = await (await request.post('/admin/order/info/add', { headers: { Authorization: admin }, data: { patientName: 'Only Upper', upperFileId: file.id } })).json();
  expect(order.code, JSON.stringify(order)).toBe(1000);
  await signInViaApi(page, 'admin', ADMIN_PASSWORD);

  // The network drops the download: the upper model says so; the page goes on.
  await page.route(`**/admin/base/comm/file/${file.id}`, (route) => route.abort('connectionreset'));
  await page.goto(`/bend?orderId=${order.data.id}`);
  const upper = page.getByTestId('model-upper');
  await expect(upper).toHaveAttribute('data-status', 'error');
  await expect(upper.getByRole('alert')).toHaveText('The model could not be downloaded: network error. Please check your connection and try again.');
  await expect(page.getByTestId('model-lower')).toContainText('Not in this order');
  await expect(page.getByTestId('model-lower').getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Undo' })).toBeDisabled();

  // The file is gone from the server: 404.
  await page.unroute(`**/admin/base/comm/file/${file.id}`);
  await page.route(`**/admin/base/comm/file/${file.id}`, (route) => route.fulfill({ status: 404, body: '' }));
  await page.reload();
  await expect(page.getByTestId('model-upper').getByRole('alert')).toHaveText('The model file is no longer on the server.');

  // Served again: it opens.
  await page.unroute(`**/admin/base/comm/file/${file.id}`);
  await page.reload();
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Measure distance' })).toBeEnabled();
});

test('an order that does not exist shows a clear message instead of the editor crashing', async ({ page, request }) => {
  await apiLogin(request, 'admin', ADMIN_PASSWORD);
  await signInViaApi(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/bend?orderId=987654');
  await expect(page.getByTestId('order-error')).toBeVisible();
  await expect(page.getByRole('toolbar', { name: 'Editor toolbar' })).toBeVisible();
});
