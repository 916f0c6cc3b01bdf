// The Teeth display in the browser: a designer opens an order with small scan-like generated
// jaws (test/fixtures/teeth-jaws.ts: one welded surface each, tooth numbers known by
// construction), turns the display on (the crowns are tinted on the canvas and numbered over it),
// re-numbers a tooth with the correction tool and the number picker, and undoes it. The expected
// numbers come from the jaws' truth.
import { test, expect, type APIRequestContext } from '@playwright/test';
import { teethJaw, universal } from '../fixtures/teeth-jaws.ts';
import { numbersOf, toothName } from '../../src/editor/features/teeth/labels.ts';
import { designerWithOrder as createDesignerOrder, signInViaApi } from './helpers.ts';
import { canvasPixels as pixels, saturated, settle } from './canvas.ts';

test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

/** Small generated jaws (0.5 mm grid, ~16k vertices each; the kernel numbers them right, mean IoU ~0.97), in the canonical frame: the lower's crowns face +z, the upper's -z. */
const lower = teethJaw({ jaw: 'lower', seed: 1, edge: 0.5 });
const upper = teethJaw({ jaw: 'upper', seed: 2, edge: 0.5 });
const LOWER = lower.teeth.map((t) => t.number);
/** The lower central incisor on the patient's left (FDI 31), and a lower number no generated tooth has (FDI 38). */
const CENTRAL = universal('lower', 1, 1);
const SPARE = numbersOf('lower').filter((n) => !LOWER.includes(n)).pop()!;

/** A designer and an order of hers with the generated jaws. */
async function designerWithOrder(request: APIRequestContext, username: string): Promise<number> {
  return (await createDesignerOrder(request, { username, name: 'Zoe', patientName: 'Theo Zahn', upper, lower })).id;
}

test('a designer shows the numbered teeth, re-numbers one and undoes it', async ({ page, request }) => {
  test.setTimeout(120_000);
  const orderId = await designerWithOrder(request, 'teeth-designer');
  await signInViaApi(page, 'teeth-designer', 'teeth-designer-pass');
  await page.goto(`/bend?orderId=${orderId}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  // The lower jaw alone, from the top: every crown in sight.
  await page.getByRole('button', { name: 'Hide Upper jaw' }).click();
  await page.getByRole('button', { name: 'Occlusal view (top)' }).click();
  await settle(page);
  expect(saturated(await pixels(page))).toBeLessThan(0.005);

  await page.getByRole('button', { name: /Show the teeth and their numbers/ }).click();
  await expect(page.getByTestId('teeth-summary-lower')).toHaveAttribute('data-count', String(LOWER.length), { timeout: 30_000 });
  await settle(page);
  await page.screenshot({ path: 'test-results/teeth-shown.png' });
  expect(saturated(await pixels(page))).toBeGreaterThan(0.01);
  const labels = page.locator('[data-testid="tooth-label"][data-jaw="lower"]');
  await expect(labels).toHaveCount(LOWER.length);
  expect((await labels.evaluateAll((ls) => ls.map((l) => Number((l as HTMLElement).dataset.tooth)))).sort((a, b) => a - b)).toEqual(LOWER);
  const central = page.locator(`[data-testid="tooth-label"][data-jaw="lower"][data-tooth="${CENTRAL}"]`);
  await expect(central).toBeVisible();
  await expect(central).toHaveText(toothName(CENTRAL, 'fdi'));

  // Re-number the lower left central incisor (FDI 31) as 38, a number no tooth has.
  await page.getByTestId('teeth-tool').click();
  // The label follows the picture: measured once the tool's change is drawn.
  await settle(page);
  const box = (await central.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByTestId('teeth-picked')).toHaveAttribute('data-tooth', String(CENTRAL));
  await page.getByTestId(`teeth-number-${SPARE}`).click();
  const renumbered = page.locator(`[data-testid="tooth-label"][data-jaw="lower"][data-tooth="${SPARE}"]`);
  await expect(renumbered).toHaveText(toothName(SPARE, 'fdi'));
  await expect(central).toHaveCount(0);
  await settle(page);
  await page.screenshot({ path: 'test-results/teeth-renumbered.png' });

  await page.getByRole('button', { name: /^Undo/ }).click();
  await expect(central).toHaveText(toothName(CENTRAL, 'fdi'));
  await expect(renumbered).toHaveCount(0);
  await expect(labels).toHaveCount(LOWER.length);
});
