// The wire tool in the browser: a designer opens an order with generated jaws, chooses the wire
// tool (W), clicks the buccal side of a lower molar and gets a single-arm clasp drawn as a blue
// tube (the selected wire), auto-fits it, undoes and redoes, reloads and finds it again; the
// Chinese panel has no English left.
import { test, expect, type Page } from '@playwright/test';
import { jawMesh, rigidMatrix, toothOnArch, transformPositions } from '../fixtures/jaw.ts';
import { designerWithOrder, signInViaApi } from './helpers.ts';
import { settle, topViewMapping } from './canvas.ts';

test.use({ locale: 'en-US' });


/** Canvas pixels (every 2nd) of one colour class: the selected wire's blue, its white corner handles, or anything not background (classified in the page). */
async function pixels(page: Page, kind: 'blue' | 'model' | 'white'): Promise<{ x: number; y: number }[]> {
  return page.locator('[data-testid="viewport"] canvas').evaluate((canvas: HTMLCanvasElement, kind) => {
    const copy = document.createElement('canvas');
    copy.width = Math.round(canvas.clientWidth / 2);
    copy.height = Math.round(canvas.clientHeight / 2);
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0, copy.width, copy.height);
    const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
    const bg = [data[0]!, data[1]!, data[2]!];
    const found: { x: number; y: number }[] = [];
    for (let y = 0; y < copy.height; y++) {
      for (let x = 0; x < copy.width; x++) {
        const i = (y * copy.width + x) * 4;
        const r = data[i]!, g = data[i + 1]!, b = data[i + 2]!;
        const hit =
          kind === 'blue'
            ? b > 120 && b - r > 70 && b - g > 20
            : kind === 'white'
              ? r > 252 && g > 252 && b > 252
              : Math.abs(r - bg[0]!) + Math.abs(g - bg[1]!) + Math.abs(b - bg[2]!) > 60;
        if (hit) found.push({ x: x * 2, y: y * 2 });
      }
    }
    return found;
  }, kind);
}

async function openOrder(page: Page, id: number): Promise<void> {
  await page.goto(`/bend?orderId=${id}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

test('a designer places a single-arm clasp on a molar, sees its tube, auto-fits, undoes and redoes, and finds it after a reload', async ({ page, request }) => {
  test.setTimeout(90_000);
  const lower = jawMesh({ detail: 0.5 });
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  const order = await designerWithOrder(request, { username: 'wire-designer', name: 'Wendy', patientName: 'Walter Wire', upper, lower });
  await signInViaApi(page, 'wire-designer', 'wire-designer-pass');
  await openOrder(page, order.id);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  // The lower jaw alone, from the top (incisors at the bottom, the patient's right on the left).
  await page.getByRole('button', { name: 'Hide Upper jaw' }).click();
  const canvas = page.locator('[data-testid="viewport"] canvas');
  await canvas.focus();
  await page.keyboard.press('5');
  await settle(page);
  const model = await pixels(page, 'model');
  const xs = model.map((p) => p.x), ys = model.map((p) => p.y);
  const screen = await topViewMapping(page, lower, model);
  const box = (await canvas.boundingBox())!;
  expect(await pixels(page, 'blue')).toHaveLength(0);

  // Wire tool: the single-arm clasp is the default type; the status bar says where to click.
  await page.keyboard.press('w');
  await expect(page.getByTestId('viewport')).toHaveAttribute('data-tool', 'wire');
  await expect(page.getByTestId('wire-type')).toHaveValue('singleArmClasp');
  await expect(page.getByTestId('wire-diameter')).toHaveValue('0.8');
  await expect(page.getByTestId('tool-hint')).toHaveText('Single-arm clasp: click the buccal face of the tooth to clasp.');
  // The buccal side of the right first molar's crown (test/fixtures/jaw.ts: tooth 1).
  const molar = toothOnArch(1);
  const at = screen(molar.x + 3.5 * molar.ty, molar.y - 3.5 * molar.tx);
  await page.mouse.click(at.x, at.y);

  const items = page.getByTestId('wire-item');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('data-selected', 'true');
  await expect(items.first()).toContainText('Single-arm clasp');
  await expect(items.first()).toContainText('Ø 0.8 mm');
  await expect(items.first()).toHaveAttribute('data-status', /ok|warnings/);
  await expect(page.getByTestId('tool-hint')).toContainText('drag a corner to move it');
  await settle(page);
  const blue = await pixels(page, 'blue');
  expect(blue.length).toBeGreaterThan(30);
  // The tube lies at the clicked molar (about 11 mm wide: some 120 px here), its tag towards the tongue.
  const from = (p: { x: number; y: number }) => Math.hypot(box.x + p.x - at.x, box.y + p.y - at.y);
  expect(Math.min(...blue.map(from))).toBeLessThan(130); // the arm itself hides under the crown seen from the top
  expect(blue.filter((p) => from(p) < 220).length).toBeGreaterThan(blue.length * 0.8);
  await page.screenshot({ path: 'test-results/editor-wire-placed.png' });

  // Drag a corner handle (white, drawn over the model): the camera holds, the wire changes, one undo step.
  const handles = await pixels(page, 'white');
  expect(handles.length).toBeGreaterThan(3);
  const grip = handles.filter((p) => Math.hypot(p.x - handles[0]!.x, p.y - handles[0]!.y) < 8);
  const hx = box.x + grip.reduce((a, p) => a + p.x, 0) / grip.length, hy = box.y + grip.reduce((a, p) => a + p.y, 0) / grip.length;
  // The list's length comes from the checks, which run 200 ms after a change: read it once they
  // are current for this wire (the row says "checking" until then).
  await expect(items.first()).toHaveAttribute('data-status', /ok|warnings|errors/, { timeout: 30_000 });
  const placed = (await items.first().textContent())!;
  await page.mouse.move(hx, hy);
  await page.mouse.down();
  for (let k = 1; k <= 5; k++) await page.mouse.move(hx + 5 * k, hy + 3 * k);
  await page.mouse.up();
  await expect(items.first()).not.toHaveText(placed);
  await settle(page);
  const after = await pixels(page, 'model');
  expect(Math.abs(Math.min(...after.map((p) => p.x)) - Math.min(...xs))).toBeLessThanOrEqual(4); // the view did not turn
  expect(Math.abs(Math.max(...after.map((p) => p.y)) - Math.max(...ys))).toBeLessThanOrEqual(4);
  await canvas.focus();
  await page.keyboard.press('Control+Z');
  await expect(items.first()).toHaveText(placed);

  // Auto-fit (the clasp only): one command.
  await expect(page.getByTestId('wire-autofit')).toBeEnabled();
  await page.getByTestId('wire-autofit').click();
  await expect(page.getByTestId('wire-problem')).toHaveCount(0);
  await expect(items.first()).toHaveAttribute('data-status', /ok|warnings/);
  await settle(page);
  await page.screenshot({ path: 'test-results/editor-wire-fitted.png' });

  // Undo the fit, then the placing: the wire and its tube go; redo brings both back.
  await canvas.focus();
  await page.keyboard.press('Control+Z');
  await expect(items).toHaveCount(1);
  await page.keyboard.press('Control+Z');
  await expect(items).toHaveCount(0);
  await settle(page);
  expect(await pixels(page, 'blue')).toHaveLength(0);
  await page.keyboard.press('Control+Shift+Z');
  await page.keyboard.press('Control+Shift+Z');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('data-status', /ok|warnings|errors/, { timeout: 30_000 });
  const length = (await items.first().textContent())!.match(/length ([\d.]+) mm/)![1]!;
  expect(errors).toEqual([]);

  // Saved; a reload (in Chinese) finds the wire (not selected: grey); selecting it in the list draws it blue.
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  await page.evaluate(() => localStorage.setItem('aw.lang', 'zh'));
  await openOrder(page, order.id);
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(`长度 ${length} mm`);
  await expect(items.first()).toHaveAttribute('data-selected', 'false');
  await page.getByRole('button', { name: '隐藏上颌' }).click();
  await canvas.focus();
  await page.keyboard.press('5');
  await page.keyboard.press('w');
  await items.first().getByRole('button', { name: /单臂卡环/ }).click();
  await expect(items.first()).toHaveAttribute('data-selected', 'true');
  await settle(page);
  expect((await pixels(page, 'blue')).length).toBeGreaterThan(30);

  // The Chinese wire panel and hint have no English left (units, numbers and key names aside).
  const panel = page.getByTestId('wire-panel');
  await expect(panel.getByTestId('wire-selected')).toBeVisible();
  const words = ((await panel.innerText()).match(/[A-Za-z]{2,}/g) ?? []).filter((w) => w !== 'mm' && w !== 'Esc');
  expect(words).toEqual([]);
  const hint = await page.getByTestId('tool-hint').innerText();
  expect((hint.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => w !== 'Delete' && w !== 'Esc')).toEqual([]);
  await page.screenshot({ path: 'test-results/editor-wire-zh.png' });
  expect(errors).toEqual([]);
});
