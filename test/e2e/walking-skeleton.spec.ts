import { test, expect, type Page } from '@playwright/test';
import { sphereCounts, sphereStl } from '../fixtures/stl.ts';

// Matches the webServer env in playwright.config.ts.
const ADMIN_PASSWORD = 'e2e-Admin-pass1';

/** Share of viewport pixels that differ from the corner (background) colour, and how many grey levels they span. */
async function canvasCoverage(page: Page): Promise<{ covered: number; levels: number }> {
  return page.locator('[data-testid="viewport"] canvas').evaluate((canvas: HTMLCanvasElement) => {
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0);
    const { data } = ctx.getImageData(0, 0, copy.width, copy.height);
    const bg = [data[0]!, data[1]!, data[2]!];
    const levels = new Set<number>();
    let covered = 0;
    for (let i = 0; i < data.length; i += 4) {
      const d = Math.abs(data[i]! - bg[0]!) + Math.abs(data[i + 1]! - bg[1]!) + Math.abs(data[i + 2]! - bg[2]!);
      if (d > 40) {
        covered++;
        levels.add((data[i]! + data[i + 1]! + data[i + 2]!) >> 4);
      }
    }
    return { covered: covered / (data.length / 4), levels: levels.size };
  });
}

test('admin signs in, switches language, sees an STL in /bend and signs out', async ({ page }) => {
  // Rule 3: without a session a protected URL leads to the login page.
  await page.goto('/my/info');
  await expect(page).toHaveURL(/\/login$/);

  // The browser says zh-CN, so the UI starts in Chinese; the validation message is Chinese too.
  await expect(page.locator('html')).toHaveAttribute('lang', /^zh/);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByText('用户名不能为空')).toBeVisible();

  await page.getByLabel('用户名').fill('admin');
  await page.getByLabel('密码', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByLabel('验证码', { exact: true }).fill('abcd'); // CAPTCHA=off on this server
  await page.getByRole('button', { name: '登录' }).click();

  // The menu from the server renders in the sidebar, in Chinese.
  const zhNav = page.getByRole('navigation', { name: '主菜单' });
  await expect(zhNav).toBeVisible();
  await expect(zhNav.getByText('系统管理')).toBeVisible();
  await expect(zhNav.getByText('订单管理')).toBeVisible();

  // Switch to English, then German, and see the UI change.
  await page.getByRole('button', { name: '语言' }).click();
  await page.getByRole('menuitemradio', { name: 'English' }).click();
  const enNav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(enNav.getByText('System management')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitemradio', { name: 'Deutsch' }).click();
  const deNav = page.getByRole('navigation', { name: 'Hauptmenü' });
  await expect(deNav.getByText('Systemverwaltung')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');

  // The choice is kept: a reload stays German.
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Hauptmenü' })).toBeVisible();
  await page.getByRole('button', { name: 'Sprache' }).click();
  await page.getByRole('menuitemradio', { name: 'English' }).click();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();

  // The editor: an empty viewport first, then a generated sphere opened from a local file.
  await page.goto('/bend');
  const viewport = page.getByTestId('viewport');
  await expect(viewport).toBeVisible();
  await expect(viewport).toHaveAttribute('data-model-triangles', '');
  const before = await canvasCoverage(page);
  expect(before.covered).toBeLessThan(0.01);

  const stl = sphereStl({ radius: 10, segments: 48, rings: 24, binary: true });
  const triangles = String(sphereCounts(48, 24).triangles);
  await page.getByTestId('open-stl-input').setInputFiles({ name: 'sphere.stl', mimeType: 'model/stl', buffer: Buffer.from(stl) });
  await expect(viewport).toHaveAttribute('data-model-triangles', triangles);
  await expect(page.getByTestId('model-status')).toContainText('sphere.stl');
  await page.waitForTimeout(500); // let the render loop draw a few frames
  const after = await canvasCoverage(page);
  await viewport.screenshot({ path: 'test-results/bend-sphere.png' });
  // A fitted sphere fills a good part of the view, with shading (many grey levels), not a flat blob.
  expect(after.covered).toBeGreaterThan(0.1);
  expect(after.levels).toBeGreaterThan(8);

  // A file that is not STL gives a clear message and leaves the model in place.
  await page.getByTestId('open-stl-input').setInputFiles({ name: 'photo.stl', mimeType: 'model/stl', buffer: Buffer.from('not a mesh at all, just text') });
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(viewport).toHaveAttribute('data-model-triangles', triangles);

  // Sign out from the main layout; a protected URL then redirects to the login page.
  await page.goto('/');
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/sys/user');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/bend');
  await expect(page).toHaveURL(/\/login$/);
});
