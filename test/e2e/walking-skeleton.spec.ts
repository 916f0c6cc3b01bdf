import { test, expect, type Page } from '@playwright/test';
import { sphereCounts, sphereTriangles, toStl } from '../fixtures/stl.ts';
import { settle } from './canvas.ts';

// Matches the webServer env in playwright.config.ts.
const ADMIN_PASSWORD = 'e2e-Admin-pass1';

/** Which viewport pixels differ from the corner (background) colour. */
interface Coverage {
  /** Share of pixels that are not background. */
  covered: number;
  /** Distinct grey levels among them (shading, not a flat fill). */
  levels: number;
  /** Their bounding box as fractions of the canvas: [left, top, right, bottom]. */
  box: [number, number, number, number];
}

async function canvasCoverage(page: Page): Promise<Coverage> {
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
    let [left, top, right, bottom] = [copy.width, copy.height, -1, -1];
    for (let i = 0; i < data.length; i += 4) {
      const d = Math.abs(data[i]! - bg[0]!) + Math.abs(data[i + 1]! - bg[1]!) + Math.abs(data[i + 2]! - bg[2]!);
      if (d > 40) {
        covered++;
        levels.add((data[i]! + data[i + 1]! + data[i + 2]!) >> 4);
        const x = (i / 4) % copy.width;
        const y = Math.floor(i / 4 / copy.width);
        left = Math.min(left, x);
        right = Math.max(right, x);
        top = Math.min(top, y);
        bottom = Math.max(bottom, y);
      }
    }
    const box: [number, number, number, number] = [left / copy.width, top / copy.height, (right + 1) / copy.width, (bottom + 1) / copy.height];
    return { covered: covered / (data.length / 4), levels: levels.size, box };
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

  // The editor: an empty viewport first, then a generated egg opened from a local file.
  await page.goto('/bend');
  const viewport = page.getByTestId('viewport');
  await expect(viewport).toBeVisible();
  await expect(viewport).toHaveAttribute('data-model-triangles', '');
  const before = await canvasCoverage(page);
  expect(before.covered).toBeLessThan(0.01);

  // An egg three times longer than wide, placed where jaw scans sit (patient coordinates, far from
  // the origin), so fit-to-view must move the camera and mind the view direction.
  const egg = sphereTriangles(10, 48, 24);
  for (let i = 0; i < egg.length; i += 3) {
    egg[i] = egg[i]! * 3 + 55;
    egg[i + 1] = egg[i + 1]! + 25;
    egg[i + 2] = egg[i + 2]! + 70;
  }
  const stl = toStl(egg, { name: 'egg', binary: true });
  const triangles = String(sphereCounts(48, 24).triangles);
  await page.getByTestId('open-stl-input').setInputFiles({ name: 'egg.stl', mimeType: 'model/stl', buffer: Buffer.from(stl) });
  await expect(viewport).toHaveAttribute('data-model-triangles', triangles);
  await expect(page.getByTestId('model-status')).toContainText('egg.stl');
  await settle(page);
  const after = await canvasCoverage(page);
  await viewport.screenshot({ path: 'test-results/bend-egg.png' });
  // The fitted egg fills a good part of the view, with shading (many grey levels), not a flat blob.
  expect(after.covered).toBeGreaterThan(0.1);
  expect(after.levels).toBeGreaterThan(8);
  // Fit to view frames it: centred, and clear of every edge.
  const [left, top, right, bottom] = after.box;
  expect(Math.abs((left + right) / 2 - 0.5)).toBeLessThan(0.03);
  expect(Math.abs((top + bottom) / 2 - 0.5)).toBeLessThan(0.03);
  expect(Math.min(left, top, 1 - right, 1 - bottom)).toBeGreaterThan(0.02);

  // A file that is not STL gives a clear message and leaves the model in place.
  await page.getByTestId('open-stl-input').setInputFiles({ name: 'photo.stl', mimeType: 'model/stl', buffer: Buffer.from('not a mesh at all, just text') });
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(viewport).toHaveAttribute('data-model-triangles', triangles);

  // Back to the back office, sign out there; a protected URL then redirects to the login page.
  await page.getByRole('link', { name: 'Back to the back office' }).click();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/sys/user');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/bend');
  await expect(page).toHaveURL(/\/login$/);
});
