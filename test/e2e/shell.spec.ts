import { test, expect, type Page } from '@playwright/test';

// Matches the webServer env in playwright.config.ts.
const ADMIN_PASSWORD = 'e2e-Admin-pass1';

// A browser that is neither Chinese nor German gets English (the detection rule).
test.use({ locale: 'en-US' });

async function signIn(page: Page, password = ADMIN_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Captcha', { exact: true }).fill('abcd');
  await page.getByRole('button', { name: 'Log in' }).click();
}

test('a wrong password shows the server message and stays on the login page', async ({ page }) => {
  await signIn(page, 'not-the-password');
  await expect(page.getByText('Account or Password incorrect', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('menu pages open as tabs, unknown paths show 404, and a revoked session logs out', async ({ page }) => {
  await signIn(page);
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav).toBeVisible();

  // Open a nested page from the sidebar: it becomes the active tab beside home.
  await nav.getByRole('button', { name: 'System management' }).click();
  await nav.getByRole('button', { name: 'Permission management' }).click();
  await nav.getByRole('link', { name: 'User list' }).click();
  await expect(page).toHaveURL(/\/sys\/user$/);
  const tabs = page.getByRole('tablist', { name: 'Visited pages' });
  await expect(tabs.getByRole('tab', { name: 'User list' })).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.getByRole('tab', { name: 'Data board' })).toHaveAttribute('aria-selected', 'false');

  // An unknown path shows the 404 page, which is not tracked as a tab; "Back to home" leads home.
  await page.goto('/no/such/page');
  await expect(page.getByText('Page not found')).toBeVisible();
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  await expect(page.getByRole('tablist', { name: 'Visited pages' }).getByRole('tab')).toHaveCount(2);

  // The session is revoked behind the page's back (as a login elsewhere would): the next call gets
  // 401, the user sees why and lands on the login page.
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string);
  const logout = await page.request.post('/admin/base/comm/logout', { headers: { Authorization: token } });
  expect(logout.status()).toBe(200);
  await page.reload();
  await expect(page.getByText('This account has been logged in elsewhere', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});
