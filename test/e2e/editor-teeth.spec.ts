// The Teeth display in the browser: a designer opens an order with small generated jaws, turns
// the display on (the crowns are tinted on the canvas and numbered over it), re-numbers a tooth
// with the correction tool and the number picker, and undoes it.
import { test, expect, type APIRequestContext } from '@playwright/test';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { designerWithOrder as createDesignerOrder, signIn } from './helpers.ts';
import { canvasPixels as pixels, saturated, settle } from './canvas.ts';

test.use({ locale: 'en-US' });

/** A designer and an order of hers with small generated jaws (14 crowns each). */
async function designerWithOrder(request: APIRequestContext, username: string): Promise<number> {
  const lower = jawMesh({ detail: 0.3 });
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  return (await createDesignerOrder(request, { username, name: 'Zoe', patientName: 'Theo Zahn', upper, lower })).id;
}

test('a designer shows the numbered teeth, re-numbers one and undoes it', async ({ page, request }) => {
  test.setTimeout(120_000);
  const orderId = await designerWithOrder(request, 'teeth-designer');
  await signIn(page, 'teeth-designer', 'teeth-designer-pass');
  await page.goto(`/bend?orderId=${orderId}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  // The lower jaw alone, from the top: every crown in sight.
  await page.getByRole('button', { name: 'Hide Upper jaw' }).click();
  await page.getByRole('button', { name: 'Occlusal view (top)' }).click();
  await settle(page);
  expect(saturated(await pixels(page))).toBeLessThan(0.005);

  await page.getByRole('button', { name: /Show the teeth and their numbers/ }).click();
  await expect(page.getByTestId('teeth-summary-lower')).toHaveAttribute('data-count', '14', { timeout: 30_000 });
  await settle(page);
  await page.screenshot({ path: 'test-results/teeth-shown.png' });
  expect(saturated(await pixels(page))).toBeGreaterThan(0.01);
  const labels = page.locator('[data-testid="tooth-label"][data-jaw="lower"]');
  await expect(labels).toHaveCount(14);
  const central = page.locator('[data-testid="tooth-label"][data-jaw="lower"][data-tooth="24"]');
  await expect(central).toBeVisible();
  await expect(central).toHaveText('31');

  // Re-number the lower left central incisor (FDI 31) as 38, a number no tooth has.
  await page.getByTestId('teeth-tool').click();
  const box = (await central.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByTestId('teeth-picked')).toHaveAttribute('data-tooth', '24');
  await page.getByTestId('teeth-number-17').click();
  const renumbered = page.locator('[data-testid="tooth-label"][data-jaw="lower"][data-tooth="17"]');
  await expect(renumbered).toHaveText('38');
  await expect(central).toHaveCount(0);
  await settle(page);
  await page.screenshot({ path: 'test-results/teeth-renumbered.png' });

  await page.getByRole('button', { name: /^Undo/ }).click();
  await expect(central).toHaveText('31');
  await expect(renumbered).toHaveCount(0);
  await expect(labels).toHaveCount(14);
});
