import { test, expect, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, apiLogin, signInViaApi, submitLogin } from './helpers.ts';

// A browser that is neither Chinese nor German gets English (the detection rule).
test.use({ locale: 'en-US' });

test('a wrong password shows the server message and stays on the login page', async ({ page }) => {
  await submitLogin(page, 'admin', 'not-the-password');
  await expect(page.getByText('Account or Password incorrect', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('menu pages open as tabs, unknown paths show 404, and a revoked session logs out', async ({ page }) => {
  await submitLogin(page);
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

  // The session is revoked behind the app's back (as a login elsewhere would): its next call gets
  // 401, the user sees why and lands on the login page. Revoked while the app is away: an open one
  // could notice first (a call still under way, its message stream) and show the message on a page
  // that a reload would then replace.
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string);
  await page.goto('about:blank');
  const logout = await page.request.post('/admin/base/comm/logout', { headers: { Authorization: token } });
  expect(logout.status()).toBe(200);
  await page.goto('/');
  await expect(page.getByText('This account has been logged in elsewhere', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('changing the password ends the session with a clear message; the new password works', async ({ page }) => {
  // A user of their own, so the admin password stays as the other tests expect.
  const login = await page.request.post('/admin/base/open/login', { data: { username: 'admin', password: ADMIN_PASSWORD, captchaId: '', verifyCode: '' } });
  const { token } = (await login.json()).data as { token: string };
  const add = await page.request.post('/admin/base/sys/user/add', {
    headers: { Authorization: token },
    data: { username: 'designer1', password: 'first-pass-1', name: 'Designer', status: 1, roleIdList: [] },
  });
  expect((await add.json()).code).toBe(1000);

  await submitLogin(page, 'designer1', 'first-pass-1');
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Personal center' }).click();
  await expect(page).toHaveURL(/\/my\/info$/);
  await page.getByLabel('Current password').fill('first-pass-1');
  await page.getByLabel('New password').fill('second-pass-2');
  await page.getByLabel('Confirm password').fill('second-pass-2');
  await page.getByRole('button', { name: 'Change password' }).click();

  await expect(page.getByText('Password changed, please log in again', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('This account has been logged in elsewhere', { exact: true })).toHaveCount(0);

  await submitLogin(page, 'designer1', 'second-pass-2');
  await expect(page).not.toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
});

test('a language chosen while another is still loading is the one shown, kept and saved', async ({ page }) => {
  // A user of their own: the choice is saved with the user (it applies at every sign-in).
  const admin = await apiLogin(page.request, 'admin', ADMIN_PASSWORD);
  const add = await page.request.post('/admin/base/sys/user/add', {
    headers: { Authorization: admin },
    data: { username: 'polyglot', password: 'polyglot-pass-1', name: 'Polyglot', status: 1, roleIdList: [] },
  });
  expect((await add.json()).code).toBe(1000);
  await signInViaApi(page, 'polyglot', 'polyglot-pass-1');
  await page.goto('/my/info');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // German is chosen, its catalog held back; Chinese is chosen meanwhile and shows.
  let heldUrl: string | undefined;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/assets/messages-*.js', async (route) => {
    if (heldUrl === undefined) {
      heldUrl = route.request().url();
      await held;
    }
    await route.continue();
  });
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitemradio', { name: 'Deutsch' }).click();
  await expect.poll(() => heldUrl).toBeDefined();
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitemradio', { name: '中文' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

  // The German catalog comes late: once the page has it (this import resolves after the app's),
  // Chinese still shows, and it is what a reload and the next sign-in find.
  release();
  await page.evaluate((url) => import(url).then(() => undefined), heldUrl!);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('aw.lang'))).toBe('zh');
  await page.reload();
  await expect(page.getByRole('button', { name: '语言' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string);
  const saved = async () => (await (await page.request.get('/admin/base/comm/person', { headers: { Authorization: token } })).json()).data.habby?.language;
  await expect.poll(saved).toBe('zh');
});
