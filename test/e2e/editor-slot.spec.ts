// Slotting in the browser: a designer's order with generated jaws (a palate under the teeth) and
// a design saved through the API with a generated base and a single-arm clasp whose tag lies in
// the base. She is told to select a wire, selects the clasp, slots it as a channel (the real
// slot worker and manifold.wasm), sees the groove, undoes, redoes, resets and undoes the reset,
// exports the slotted base (our parser: closed, less volume than without the slot) and finds
// the slot again after a reload.
import fs from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { parseStl } from '../../workers/kernels/stl.ts';
import { palateJaw } from '../fixtures/base-models.ts';
import { loadKernels } from '../kernels/kernels.ts';
import { edgeReport } from '../kernels/mesh-checks.ts';
import { designerWithOrder, saveDesign, signInViaApi } from './helpers.ts';
import { topSurfaceAt } from '../fixtures/mesh.ts';
import { settle } from './canvas.ts';

// A smaller window than the default: software WebGL spends its time filling the canvas (960 × 600
// cost the GPU process 45 % less CPU than 1280 × 800 for editor-base and editor-smooth together);
// the views are compared as shares of the canvas and the model found from its pixels.
test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

const lower = palateJaw();

const surfaceAt = (x: number, y: number) => topSurfaceAt(lower, x, y);

/** Straightened (identity), a generated base inside a ring on the palate, and a single-arm clasp with its tag in the base. */
function design(): unknown {
  const outline = Array.from({ length: 12 }, (_, i) => {
    const a = 0.1 + (2 * Math.PI * i) / 12;
    const x = 12 * Math.cos(a), y = 5 + 12 * Math.sin(a);
    const s = surfaceAt(x, y);
    return { point: [x, y, s.z], triangle: s.triangle };
  });
  const at = (x: number, lift: number) => ({ point: [x, 5, surfaceAt(x, 5).z + lift] });
  return {
    schemaVersion: 1,
    measurements: [],
    straightening: { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], jaw: 'lower' },
    base: { jaw: 'lower', outline, closed: true, thickness: 2, height: 2, generated: true },
    wires: [
      {
        id: 'clasp-1',
        type: 'singleArmClasp',
        jaw: 'lower',
        diameter: 0.9,
        clearance: 0.1,
        points: [{ point: [24, 5, 2] }, { point: [10, 5, -4] }, at(-6, 1), at(-2, 1), at(2, 1), at(6, 1)],
        anchors: [],
        tag: [2, 5],
      },
    ],
  };
}

/**
 * The design of design() on both jaws: its lower base and clasp, and the same turned over onto
 * the upper jaw (palateJaw's `upper`: x and z negated), each clasp slotted into its jaw's base.
 */
function twoJawDesign(): unknown {
  const one = design() as { bases?: unknown; base: { outline: { point: number[]; triangle: number }[] }; wires: { points: { point: number[] }[] }[] };
  const turn = (p: number[]) => [-p[0]!, p[1]!, -p[2]!];
  const lowerBase = { ...one.base };
  const upperBase = { ...one.base, jaw: 'upper', outline: one.base.outline.map((p) => ({ point: turn(p.point), triangle: p.triangle })) };
  const clasp = one.wires[0]!;
  const upperClasp = { ...clasp, id: 'clasp-2', jaw: 'upper', points: clasp.points.map((p) => ({ point: turn(p.point) })) };
  const { base: _base, ...rest } = one;
  return {
    ...rest,
    bases: { upper: upperBase, lower: lowerBase },
    wires: [clasp, upperClasp],
    slots: [
      { wireId: 'clasp-1', depth: 0, clearance: 0.1 },
      { wireId: 'clasp-2', depth: 0, clearance: 0.1 },
    ],
  };
}

async function openOrder(page: Page, id: number): Promise<void> {
  await page.goto(`/bend?orderId=${id}`);
  await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

/** Canvas pixels (RGB, a quarter of the size) for comparing two views. */
async function pixels(page: Page): Promise<number[]> {
  return page.locator('[data-testid="viewport"] canvas').evaluate((canvas: HTMLCanvasElement) => {
    const copy = document.createElement('canvas');
    copy.width = Math.round(canvas.clientWidth / 4);
    copy.height = Math.round(canvas.clientHeight / 4);
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0, copy.width, copy.height);
    return Array.from(ctx.getImageData(0, 0, copy.width, copy.height).data);
  });
}

/** The canvas pixels once every change is drawn. */
async function stillPixels(page: Page): Promise<number[]> {
  await settle(page);
  return pixels(page);
}

/** The model's extent on the canvas (CSS pixels): pixels far from the background's colour. */
async function modelBox(page: Page): Promise<{ minX: number; maxX: number; minY: number; maxY: number }> {
  const data = await pixels(page);
  const width = Math.round((await page.locator('[data-testid="viewport"] canvas').evaluate((c: HTMLCanvasElement) => c.clientWidth)) / 4);
  const out = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i]! - data[0]!) + Math.abs(data[i + 1]! - data[1]!) + Math.abs(data[i + 2]! - data[2]!) <= 60) continue;
    const x = ((i / 4) % width) * 4, y = Math.floor(i / 4 / width) * 4;
    out.minX = Math.min(out.minX, x);
    out.maxX = Math.max(out.maxX, x);
    out.minY = Math.min(out.minY, y);
    out.maxY = Math.max(out.maxY, y);
  }
  return out;
}

function changed(a: number[], b: number[]): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 40) n++;
  return n;
}

function volumeOf(positions: Float32Array, indices: Uint32Array): number {
  let v = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
    v +=
      positions[a]! * (positions[b + 1]! * positions[c + 2]! - positions[b + 2]! * positions[c + 1]!) -
      positions[a + 1]! * (positions[b]! * positions[c + 2]! - positions[b + 2]! * positions[c]!) +
      positions[a + 2]! * (positions[b]! * positions[c + 1]! - positions[b + 1]! * positions[c]!);
  }
  return v / 6;
}

/** Exports the base through the panel; the file read by our parser: closed, and its volume. */
async function exportBase(page: Page): Promise<number> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('base-export').click()]);
  const bytes = new Uint8Array(fs.readFileSync((await download.path())!));
  const parsed = await parseStl(await loadKernels(), bytes);
  expect(parsed.ok).toBe(true);
  if (!parsed.ok) return 0;
  expect(edgeReport(parsed.mesh.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
  return volumeOf(parsed.mesh.positions, parsed.mesh.indices);
}

test('a designer slots the selected clasp into the base: undo, redo, reset, export closed, kept after a reload', async ({ page, request }) => {
  test.setTimeout(240_000);
  const upper = palateJaw({ upper: true });
  const order = await designerWithOrder(request, { username: 'slot-designer', name: 'Sol', patientName: 'Sven Schlitz', upper, lower });
  await saveDesign(request, order, design());

  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signInViaApi(page, 'slot-designer', 'slot-designer-pass');
  await openOrder(page, order.id);
  await expect(page.getByTestId('base-ready')).toBeVisible({ timeout: 60_000 });
  const panel = page.getByTestId('slot-panel');
  await expect(panel).toBeVisible();
  const volumeBefore = await exportBase(page);

  // The lower jaw from the top (occlusal view), the upper one hidden.
  await page.getByRole('button', { name: 'Hide Upper jaw' }).click();
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('5');
  await settle(page);

  // No wire selected: the panel says so.
  await page.getByTestId('slot-cut').click();
  await expect(page.getByTestId('slot-problem')).toHaveText('Select a wire first, then slot it.');

  // Select the clasp in the wire list, slot it as a 2 mm channel.
  await page.locator('[data-testid="wire-item"][data-wire="clasp-1"] button').first().click();
  await expect(page.getByTestId('slot-wire')).toHaveAttribute('data-wire-id', 'clasp-1');
  await expect(page.getByTestId('slot-wire')).toHaveText('Selected: Single-arm clasp.');
  await expect(page.getByTestId('slot-problem')).toHaveCount(0);
  await page.getByTestId('slot-depth').fill('2');
  // Zoom towards the tag (the palate's centre, 0 / 5 mm, is about the middle of the model's box).
  const box = (await page.locator('[data-testid="viewport"] canvas').boundingBox())!;
  const model = await modelBox(page);
  const cx = box.x + (model.minX + model.maxX) / 2, cy = box.y + model.minY + (model.maxY - model.minY) * 0.3;
  await page.mouse.move(cx, cy);
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -240);
  const unslotted = await stillPixels(page);
  await page.screenshot({ path: 'test-results/editor-slot-before.png' });
  await page.getByTestId('slot-cut').click();
  const status = page.getByTestId('slot-status');
  await expect(status).toHaveAttribute('data-applied', '1', { timeout: 60_000 });
  await expect(status).toHaveText('Slots in the base: 1.');
  await expect(page.getByTestId('slot-problem')).toHaveCount(0);
  const slotted = await stillPixels(page);
  await page.screenshot({ path: 'test-results/editor-slot-cut.png' });
  expect(changed(unslotted, slotted)).toBeGreaterThan(20);

  // Undo: the base as generated; redo: slotted again.
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('Control+Z');
  await expect(status).toHaveCount(0);
  expect(changed(unslotted, await stillPixels(page))).toBeLessThan(10);
  await page.keyboard.press('Control+Shift+Z');
  await expect(status).toHaveAttribute('data-applied', '1');
  expect(changed(slotted, await stillPixels(page))).toBeLessThan(10);

  // The exported base has the slot: closed, and lighter.
  const volumeSlotted = await exportBase(page);
  expect(volumeBefore - volumeSlotted).toBeGreaterThan(5);

  // Reset removes the slot (undoable).
  await page.getByTestId('slot-reset').click();
  await expect(status).toHaveCount(0);
  await expect(page.getByTestId('slot-reset')).toBeDisabled();
  expect(changed(unslotted, await stillPixels(page))).toBeLessThan(10);
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('Control+Z');
  await expect(status).toHaveAttribute('data-applied', '1');

  // Saved; a reload regenerates the base and cuts the slot again.
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  await openOrder(page, order.id);
  await expect(page.getByTestId('slot-status')).toHaveAttribute('data-applied', '1', { timeout: 60_000 });
  expect(Math.abs((await exportBase(page)) - volumeSlotted)).toBeLessThan(0.5);
  expect(errors).toEqual([]);
});

test('the slotting panel in German and Chinese', async ({ page, request }) => {
  test.setTimeout(180_000);
  const order = await designerWithOrder(request, { username: 'slot-i18n', name: 'Sol', patientName: 'Sina Schlitz', upper: palateJaw({ upper: true }), lower });
  await saveDesign(request, order, design());
  await signInViaApi(page, 'slot-i18n', 'slot-i18n-pass');
  for (const [lang, title, select] of [
    ['de', 'Schlitzen', 'Wählen Sie zuerst einen Draht aus und schlitzen Sie ihn dann.'],
    ['zh', '开槽', '请先选择钢丝，再开槽。'],
  ] as const) {
    await page.evaluate((l) => localStorage.setItem('aw.lang', l), lang);
    await openOrder(page, order.id);
    const panel = page.getByTestId('slot-panel');
    await expect(panel.getByRole('heading', { name: title })).toBeVisible();
    await page.getByTestId('slot-cut').click();
    await expect(page.getByTestId('slot-problem')).toHaveText(select);
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: `test-results/editor-slot-panel-${lang}.png` });
  }
});

test('a design with a base on each jaw shows both, each slotted for its own jaw\'s clasp', async ({ page, request }) => {
  test.setTimeout(180_000);
  const upper = palateJaw({ upper: true });
  const order = await designerWithOrder(request, { username: 'slot-jaws', name: 'Sol', patientName: 'Jon Jaws', upper, lower });
  await saveDesign(request, order, twoJawDesign());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signInViaApi(page, 'slot-jaws', 'slot-jaws-pass');
  await openOrder(page, order.id);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('base-jaw-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('base-jaw-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('slot-status')).toHaveAttribute('data-applied', '2', { timeout: 60_000 });
  await expect(page.getByTestId('slot-problem')).toHaveCount(0);
  // Both bases are in the picture.
  await settle(page, { bases: '2' });
  // The panel works on one jaw at a time: the other one's base stays as it is.
  await page.getByTestId('base-jaw-lower').click();
  await expect(page.getByTestId('base-jaw-lower')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('base-ready')).toBeVisible();
  expect(errors).toEqual([]);
});
