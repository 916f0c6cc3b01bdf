// The base tool in the browser: a designer opens an order with generated jaws (a palate under
// the teeth), is told to straighten first, straightens (a document saved through the API),
// draws an outline by clicks on the lower jaw, generates the base (stored on the server as the
// order's base, linked in the panel), undoes and redoes, reloads
// and finds outline and base again, and exports the base: the downloaded STL parses with our
// own parser into a closed mesh.
import fs from 'node:fs';
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { parseStl } from '../../workers/kernels/stl.ts';
import { palateJaw } from '../fixtures/base-models.ts';
import { loadKernels } from '../kernels/kernels.ts';
import { edgeReport } from '../kernels/mesh-checks.ts';
import { designerWithOrder as createDesignerOrder, saveDesign, signInViaApi } from './helpers.ts';
import { modelPixels, settle } from './canvas.ts';

// A smaller window than the default: software WebGL spends its time filling the canvas (960 × 600
// cost the GPU process 45 % less CPU than 1280 × 800 for editor-base and editor-smooth together);
// the clicks and strokes are placed from the model's pixels on the canvas.
test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

/** A designer and an order of hers with generated jaws on palates; returns the order id, case number and her token. */
function designerWithOrder(request: APIRequestContext): Promise<{ id: number; caseNo: string; token: string }> {
  const lower = palateJaw();
  const upper = palateJaw({ upper: true });
  for (let i = 2; i < upper.positions.length; i += 3) upper.positions[i]! += 0.5; // cusps meeting
  return createDesignerOrder(request, { username: 'base-designer', name: 'Bea', patientName: 'Bruno Basis', upper, lower });
}

async function openOrder(page: Page, id: number): Promise<void> {
  await page.goto(`/bend?orderId=${id}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

test('a designer straightens, draws a base outline, generates, undoes and redoes, reloads and exports the base as a closed STL', async ({ page, request }) => {
  test.setTimeout(240_000);
  const order = await designerWithOrder(request);
  await signInViaApi(page, 'base-designer', 'base-designer-pass');
  await openOrder(page, order.id);
  const viewport = page.getByTestId('viewport');

  // Not straightened yet: Generate says so.
  await page.getByRole('button', { name: 'Draw and generate the base' }).click();
  await expect(viewport).toHaveAttribute('data-tool', 'base');
  await page.getByTestId('base-generate').click();
  await expect(page.getByTestId('base-problem')).toHaveText('Please straighten the models first.');

  // Straightened: the models of these generated jaws are already in the canonical frame.
  await saveDesign(request, order, { schemaVersion: 1, measurements: [], straightening: { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], jaw: 'lower' } });
  await openOrder(page, order.id);

  // The lower jaw alone, seen from the top; the outline is a ring of clicks over its palate.
  await page.getByRole('button', { name: 'Hide Upper jaw' }).click();
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('5');
  await settle(page);
  const onModel = await modelPixels(page);
  expect(onModel.length).toBeGreaterThan(100);
  const xs = onModel.map((p) => p.x), ys = onModel.map((p) => p.y);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2, cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const r = (Math.max(...xs) - Math.min(...xs)) * 0.17; // about 11 mm of the 64 mm wide model
  await page.keyboard.press('a');
  await expect(viewport).toHaveAttribute('data-tool', 'base');
  const box = (await page.locator('[data-testid="viewport"] canvas').boundingBox())!;
  const outline = page.getByTestId('base-outline');
  const n = 10;
  for (let i = 0; i < n; i++) {
    const a = 0.1 + (2 * Math.PI * i) / n;
    await page.mouse.click(box.x + cx + r * Math.cos(a), box.y + cy + r * Math.sin(a));
    // Each point lands (the worker's pick) before the next click. The clicks are some 30 px
    // apart: no double click (the tool's is two clicks within 5 px), however quick.
    await expect(outline).toHaveAttribute('data-points', String(i + 1));
  }
  await expect(outline).toHaveAttribute('data-points', String(n));
  await page.keyboard.press('Backspace');
  await expect(outline).toHaveAttribute('data-points', String(n - 1));
  await page.keyboard.press('Control+Z');
  await expect(outline).toHaveAttribute('data-points', String(n));
  // Measuring is refused while the outline is drawn.
  await page.keyboard.press('m');
  await expect(page.getByTestId('base-problem')).toHaveText('Measuring is not allowed while making accessories');
  await expect(viewport).toHaveAttribute('data-tool', 'base');
  await page.keyboard.press('Enter');
  await expect(outline).toHaveAttribute('data-closed', 'true');

  // Height too low, then a proper one.
  await page.getByTestId('base-height').fill('0.2');
  await page.getByTestId('base-generate').click();
  await expect(page.getByTestId('base-problem')).toHaveText('The base height is too low (at least 0.5 mm).');
  await page.getByTestId('base-height').fill('2');
  await page.getByTestId('base-generate').click();
  await expect(page.getByTestId('base-ready')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('base-problem')).toHaveCount(0);
  // Stored on the server as the order's base (saveDentureBase: the raw STL through the session).
  await expect(page.getByTestId('base-stored')).toHaveAttribute('data-status', 'stored', { timeout: 30_000 });
  await expect(page.getByTestId('base-stored-link')).toHaveText(`base-${order.caseNo}.stl`);
  const info = await request.get(`/admin/order/info/info?id=${order.id}`, { headers: { Authorization: order.token } });
  const baseFile = ((await info.json()) as { data: { baseFile: { size: number; url: string } | null } }).data.baseFile;
  expect(baseFile?.size).toBeGreaterThan(1000);
  await expect(page.getByTestId('base-stored-link')).toHaveAttribute('href', baseFile!.url);
  await settle(page);
  await page.screenshot({ path: 'test-results/editor-base-generated.png' });

  // Undo removes the base, redo brings it back (generated again from the design).
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('Control+Z');
  await expect(page.getByTestId('base-ready')).toHaveCount(0);
  await page.keyboard.press('Control+Shift+Z');
  await expect(page.getByTestId('base-ready')).toBeVisible({ timeout: 60_000 });

  // Autosaved; a reload finds the outline and regenerates the base.
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  await openOrder(page, order.id);
  await page.keyboard.press('a');
  await expect(page.getByTestId('base-outline')).toHaveAttribute('data-points', String(n));
  await expect(page.getByTestId('base-outline')).toHaveAttribute('data-closed', 'true');
  await expect(page.getByTestId('base-ready')).toBeVisible({ timeout: 60_000 });
  // The order info links the stored base after the reload (a regeneration on reopening stores nothing).
  await expect(page.getByTestId('base-stored')).toHaveAttribute('data-status', 'none');
  await expect(page.getByTestId('base-stored-link')).toHaveText(`base-${order.caseNo}.stl`);
  await page.getByRole('checkbox', { name: 'Semi-transparent base' }).check();
  await settle(page);
  await page.screenshot({ path: 'test-results/editor-base-reloaded.png' });

  // Export: a binary STL named after the case number and the jaw, closed.
  await expect(page.getByTestId('base-jaw-lower')).toHaveAttribute('aria-pressed', 'true');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('base-export').click()]);
  expect(download.suggestedFilename()).toBe(`${order.caseNo}-lower-base.stl`);
  const file = await download.path();
  const bytes = new Uint8Array(fs.readFileSync(file!));
  const parsed = await parseStl(await loadKernels(), bytes);
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return;
  expect(parsed.mesh.triangleCount).toBeGreaterThan(100);
  expect(edgeReport(parsed.mesh.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });

  // The smoothing brush: a drag over the jaw is one undoable stroke, saved with the design.
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('s');
  await expect(viewport).toHaveAttribute('data-tool', 'smooth');
  await expect(page.getByTestId('smooth-panel')).toBeVisible();
  const undo = page.getByRole('button', { name: 'Undo' });
  await expect(undo).toBeDisabled(); // a reload started the history over
  await page.mouse.move(box.x + cx - r, box.y + cy + r * 1.6);
  await page.mouse.down();
  await page.mouse.move(box.x + cx + r, box.y + cy + r * 1.6, { steps: 12 });
  await page.mouse.up();
  await expect(undo).toBeEnabled();
  await expect(viewport).toHaveAttribute('data-tool-phase', 'idle');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  await settle(page);
  await page.screenshot({ path: 'test-results/editor-base-smoothed.png' });
  await page.keyboard.press('Control+Z');
  await expect(undo).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Redo' })).toBeEnabled();
  expect(errors).toEqual([]);
});
