// The app under its Content-Security-Policy (server/index.ts): the login page with its captcha
// image, the shell with a Radix menu, and the editor opening an order's models (Babylon.js WebGL,
// module workers, WebAssembly) report no CSP violation, and the models load.
import { test, expect, type Page } from '@playwright/test';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { designerWithOrder, signIn } from './helpers.ts';

test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

/** Violations seen by the page (securitypolicyviolation events) and by any worker (console). */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  const policy = /Content[- ]Security[- ]Policy|Refused to|unsafe-eval/i;
  page.on('console', (m) => {
    if (policy.test(m.text())) seen.push(`console: ${m.text()}`);
  });
  page.on('worker', (w) => w.on('console', (m) => {
    if (policy.test(m.text())) seen.push(`worker ${w.url()}: ${m.text()}`);
  }));
  page.on('pageerror', (e) => {
    if (policy.test(e.message)) seen.push(`error: ${e.message}`);
  });
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Content-Security-Policy violation: ${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`);
    });
  });
  return seen;
}

test('the login page, the shell and the editor run under the CSP without violations, and the models load', async ({ page, request }) => {
  test.setTimeout(180_000);
  const lower = jawMesh();
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  const { id } = await designerWithOrder(request, { username: 'csp-designer', name: 'Cleo', patientName: 'Carla Policy', upper, lower });
  const violations = watchViolations(page);

  const doc = await page.goto('/login');
  const csp = (await doc!.allHeaders())['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).toContain("frame-ancestors 'none'");
  // The captcha is a data: URL image, drawn.
  const captcha = page.locator('img[src^="data:image/svg+xml"]').first();
  await expect(captcha).toBeVisible();
  expect(await captcha.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  await signIn(page, 'csp-designer', 'csp-designer-pass');
  const early: string[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/early-order.js')) early.push(String(r.status()));
  });
  await page.goto(`/bend?orderId=${id}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('order-title')).toContainText('Carla Policy');
  // The early order request ran from its file (the page asked for it; no inline script needed).
  expect(early).toEqual(['200']);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  // Let the engine render a few frames and the workers settle.
  await page.waitForTimeout(1000);
  expect(violations).toEqual([]);
});
