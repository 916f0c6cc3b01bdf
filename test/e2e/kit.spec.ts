import { test, expect, type Page } from '@playwright/test';
import { SimDevice } from '../device-sim.ts';
import { animationsDone } from './helpers.ts';

// The kit on a real screen: the request log (/sys/log), against the real server.
const ADMIN_PASSWORD = 'e2e-Admin-pass1';
const SHOTS = process.env.KIT_SHOTS ?? 'test-results/kit';

test.use({ locale: 'en-US' });

async function signIn(page: Page, lang?: 'zh' | 'en' | 'de'): Promise<void> {
  if (lang) await page.addInitScript((l) => localStorage.setItem('aw.lang', l), lang);
  const login = await page.request.post('/admin/base/open/login', { data: { username: 'admin', password: ADMIN_PASSWORD, captchaId: '', verifyCode: '' } });
  const { token, expire, refreshToken, refreshExpire } = (await login.json()).data;
  const now = Date.now();
  await page.addInitScript(
    (s) => localStorage.setItem('aw.session', JSON.stringify(s)),
    { token, refreshToken, expiresAt: now + expire * 1000, refreshExpiresAt: now + refreshExpire * 1000 },
  );
}

/** Some traffic for the log: a few dozen calls of two methods. */
async function makeTraffic(page: Page) {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string);
  for (let i = 0; i < 30; i++) {
    await page.request.get('/admin/base/comm/person', { headers: { Authorization: token } });
    await page.request.post('/admin/base/sys/log/page', { headers: { Authorization: token }, data: { page: 1, size: 1 } });
  }
}

const search = (page: Page) => new URL(page.url()).searchParams;

test('list state lives in the URL and survives a reload; drawer, sizes, dialog fullscreen', async ({ page }) => {
  await signIn(page);
  await page.goto('/sys/log');
  await makeTraffic(page);
  await page.getByRole('button', { name: 'Refresh' }).first().click();
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(21); // header + 20 (the default size)

  // Page sizes 10..100; choosing 10 goes to page 1 with 10 rows.
  const sizes = page.getByRole('combobox', { name: 'Page size' });
  await expect(sizes.locator('option')).toHaveText(['10/page', '20/page', '30/page', '40/page', '50/page', '100/page']);
  await sizes.selectOption('10');
  await expect(table.getByRole('row')).toHaveCount(11);
  await page.getByRole('button', { name: 'Page 2', exact: true }).click();
  await expect(page).toHaveURL(/page=2/);
  expect(search(page).get('size')).toBe('10');

  // Sorting by a header: ascending ids.
  await page.getByRole('columnheader', { name: 'ID' }).getByRole('button').click();
  await expect(page).toHaveURL(/order=id&sort=asc/);
  await expect(page.getByRole('columnheader', { name: 'ID' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(table.getByRole('row').nth(1).locator('td[data-prop="id"]')).toHaveText('1');
  await page.getByRole('button', { name: 'Page 3', exact: true }).click();
  await expect(table.getByRole('row').nth(1).locator('td[data-prop="id"]')).toHaveText('21');

  // Reload: the same page, size and order.
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'ID' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByRole('combobox', { name: 'Page size' })).toHaveValue('10');
  await expect(page.getByRole('button', { name: 'Page 3', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(table.getByRole('row').nth(1).locator('td[data-prop="id"]')).toHaveText('21');
  // Back goes to the first sorted page (sorting went to page 1), forward to page 3 again.
  await page.goBack();
  await expect(table.getByRole('row').nth(1).locator('td[data-prop="id"]')).toHaveText('1');
  await expect(page.getByRole('button', { name: 'Page 1', exact: true })).toHaveAttribute('aria-current', 'page');
  await page.goForward();
  await expect(table.getByRole('row').nth(1).locator('td[data-prop="id"]')).toHaveText('21');
  await page.screenshot({ path: `${SHOTS}/log-1280.png` });

  // Advanced search from the right, 30 % wide: only POST calls.
  await page.getByRole('button', { name: 'Advanced search' }).click();
  const drawer = page.getByRole('dialog', { name: 'Advanced search' });
  await expect(drawer).toBeVisible();
  // Measured once its slide-in has ended.
  await expect.poll(async () => drawer.evaluate((el) => Math.round(el.getBoundingClientRect().right))).toBe(1280);
  const box = (await drawer.boundingBox())!;
  expect(Math.round(box.width)).toBe(Math.round(1280 * 0.3));
  await drawer.getByLabel('Method').selectOption('POST');
  await page.screenshot({ path: `${SHOTS}/log-drawer-1280.png` });
  await drawer.getByRole('button', { name: 'Search' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/method=POST/);
  expect(search(page).get('page')).toBeNull();
  // The rows shown before the search may stay a moment: wait for the list the search answered.
  await expect.poll(async () => [...new Set(await table.locator('td[data-prop="method"]').allTextContents())]).toEqual(['POST']);

  // The details dialog: double-click on the header toggles fullscreen.
  await table.getByRole('row').nth(1).getByRole('button', { name: 'Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request details' });
  await expect(dialog.getByLabel('Method')).toHaveValue('POST');
  await expect(dialog.getByRole('button', { name: 'Save' })).toHaveCount(0);
  // Measured once its pop-in (from 98 %) has ended.
  await animationsDone(dialog);
  const normal = (await dialog.boundingBox())!;
  // 50 % of the window, with or without the page's scrollbar (the log list may be long enough for one).
  const [inner, client] = await page.evaluate(() => [window.innerWidth, document.documentElement.clientWidth]);
  expect(Math.min(Math.abs(normal.width - inner / 2), Math.abs(normal.width - client / 2))).toBeLessThanOrEqual(8);
  await page.screenshot({ path: `${SHOTS}/log-dialog-1280.png` });
  await page.getByTestId('kit-dialog-header').dblclick();
  await expect(dialog).toHaveAttribute('data-fullscreen', 'true');
  const full = (await dialog.boundingBox())!;
  expect([full.x, full.y, full.width, full.height]).toEqual([0, 0, 1280, 800]);
  await page.getByTestId('kit-dialog-header').dblclick();
  await expect(dialog).toHaveAttribute('data-fullscreen', 'false');
  // A backdrop click does not close it; Esc does.
  await page.mouse.click(20, 400);
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a mini screen: total and pager only, full-width drawer, fullscreen dialog', async ({ page }) => {
  await page.setViewportSize({ width: 600, height: 900 });
  await signIn(page);
  await page.goto('/sys/log?size=10');
  await makeTraffic(page);
  await page.getByRole('button', { name: 'Refresh' }).first().click();
  const pager = page.getByRole('navigation', { name: 'Pagination' });
  await expect(pager).toHaveAttribute('data-layout', 'mini');
  await expect(pager.getByRole('combobox')).toHaveCount(0);
  await expect(pager.getByRole('button', { name: /^Page \d+$/ })).toHaveCount(5);
  await page.screenshot({ path: `${SHOTS}/log-600.png`, fullPage: true });

  await page.getByRole('button', { name: 'Advanced search' }).click();
  const drawer = page.getByRole('dialog', { name: 'Advanced search' });
  expect(Math.round((await drawer.boundingBox())!.width)).toBe(600);
  await page.keyboard.press('Escape');

  await page.getByRole('table').getByRole('row').nth(1).getByRole('button', { name: 'Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request details' });
  await expect(dialog).toHaveAttribute('data-fullscreen', 'true');
  await expect(dialog.getByRole('button', { name: 'Fullscreen' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/log-dialog-600.png` });
});

for (const lang of ['zh', 'de'] as const) {
  test(`the log screen in ${lang}`, async ({ page }) => {
    await signIn(page, lang);
    await page.goto('/sys/log?size=10');
    await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-CN' : 'de');
    await page.screenshot({ path: `${SHOTS}/log-${lang}-1280.png` });
    await page.goto('/dashboard');
    await expect(page.getByRole('radiogroup').first().getByRole('radio')).toHaveCount(5); // the period (a ranking card has its own)
    await expect(page.locator('canvas').first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/board-${lang}-1280.png` });
  });
}

// Simulated machines connected by a test, stopped when the file is done.
const sims: SimDevice[] = [];
test.afterAll(async () => {
  await Promise.all(sims.splice(0).map((s) => s.stop()));
});

test('the data board: periods in the URL, figures and charts', async ({ page, baseURL }) => {
  await signIn(page);
  await page.goto('/dashboard');
  // Two machines, one online: the device figures count them (on top of what other browser tests
  // left on the same server, read from the calls first).
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string);
  const call = async (name: string) =>
    (await (await page.request.post(`/admin/dashboard/info/${name}`, { headers: { Authorization: token }, data: { period: 'week' } })).json()).data;
  const [added, work] = [await call('addInfo'), await call('deviceWorkInfo')];
  // Online is the hub's to say: machine A connects (a simulated one), B never does.
  let online: SimDevice | undefined;
  for (const name of ['Board bender A', 'Board bender B']) {
    const res = await page.request.post('/admin/device/info/add', { headers: { Authorization: token }, data: { devicename: name, diameters: [0.8], memory: 1000 } });
    const body = await res.json();
    expect(body.code).toBe(1000);
    if (!online) {
      online = new SimDevice({ url: `${baseURL!.replace(/^http/, 'ws')}/ws/device`, key: body.data.deviceKey, stepMs: 60 });
      await online.start();
    }
  }
  if (online) sims.push(online);
  await page.reload();
  await expect(page.getByRole('region', { name: 'New devices' })).toHaveText(new RegExp(`^New devices\\s*${added.added.devices + 2}\\s*Total`));
  const devices = page.getByRole('region', { name: 'Devices' });
  await expect(devices.getByRole('img')).toHaveAttribute('aria-label', `Online ${work.online + 1}, Offline ${work.offline + 1}`);
  const period = page.getByRole('radiogroup', { name: 'Period' });
  await expect(period.getByRole('radio', { name: '7 days' })).toHaveAttribute('aria-checked', 'true');
  // "New manufacturers" counts departments (manufacturers), not users.
  const manufacturers = page.getByRole('region', { name: 'New manufacturers' });
  await expect(manufacturers).toContainText(`Total ${added.totals.manufacturers}`);
  await expect(page.getByRole('img', { name: 'New orders, manufacturers and devices over time' }).locator('canvas')).toHaveCount(1);
  await period.getByRole('radio', { name: '12 months' }).click();
  await expect(page).toHaveURL(/period=year/);
  await expect(period.getByRole('radio', { name: '12 months' })).toHaveAttribute('aria-checked', 'true');
  await page.reload();
  await expect(page.getByRole('radiogroup', { name: 'Period' }).getByRole('radio', { name: '12 months' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByRole('img', { name: 'New orders, manufacturers and devices over time' }).locator('canvas')).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/board-1280.png` });
  await page.setViewportSize({ width: 600, height: 900 });
  // The menu folds away and the chart follows the narrower box.
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden();
  const canvas = page.getByRole('img', { name: 'New orders, manufacturers and devices over time' }).locator('canvas');
  await expect.poll(async () => (await canvas.boundingBox())!.width).toBeLessThan(600);
  await page.screenshot({ path: `${SHOTS}/board-600.png`, fullPage: true });
});

test('the board for users without a department or without the board: no failing calls, no "not found"', async ({ page, browser }) => {
  await signIn(page);
  await page.goto('/');
  const admin = await page.evaluate(() => JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string);
  const headers = { Authorization: admin };
  const { menus } = (await (await page.request.get('/admin/base/comm/permmenu', { headers })).json()).data as {
    menus: { id: number; parentId: number | null; router: string | null }[];
  };
  const grant = (router: string) => {
    const m = menus.find((x) => x.router === router)!;
    return [m.parentId!, m.id, ...menus.filter((x) => x.parentId === m.id).map((x) => x.id)];
  };
  for (const [name, granted] of [['boardonly', grant('/dashboard')], ['noboard', grant('/order/list')]] as const) {
    const role = await (await page.request.post('/admin/base/sys/role/add', { headers, data: { name, label: name, menuIdList: granted, relevance: 1 } })).json();
    expect(role.code).toBe(1000);
    const user = await page.request.post('/admin/base/sys/user/add', { headers, data: { username: name, password: `${name}-pass1`, name, status: 1, roleIdList: [role.data.id] } });
    expect((await user.json()).code).toBe(1000);
  }
  for (const name of ['boardonly', 'noboard']) {
    const context = await browser.newContext({ locale: 'de-DE' });
    const user = await context.newPage();
    const failures: string[] = [];
    user.on('console', (m) => m.type() === 'error' && failures.push(m.text()));
    user.on('response', (r) => r.status() >= 400 && failures.push(`${r.status()} ${r.url()}`));
    await user.addInitScript(() => localStorage.setItem('aw.lang', 'de'));
    const login = await (await user.request.post('/admin/base/open/login', { data: { username: name, password: `${name}-pass1`, captchaId: '', verifyCode: '' } })).json();
    const { token, expire, refreshToken, refreshExpire } = login.data;
    const now = Date.now();
    await user.addInitScript((s) => localStorage.setItem('aw.session', JSON.stringify(s)), { token, refreshToken, expiresAt: now + expire * 1000, refreshExpiresAt: now + refreshExpire * 1000 });
    const departments = name === 'boardonly' ? user.waitForResponse((r) => r.url().endsWith('/admin/dashboard/info/departmentInfo')) : undefined;
    await user.goto('/');
    if (departments) {
      // No department: an empty ranking, not an error.
      expect((await (await departments).json()).data).toEqual([]);
      await expect(user.getByRole('region', { name: 'Hersteller-Rangliste' })).toContainText('Keine Daten');
    } else {
      await expect(user.getByRole('navigation', { name: 'Hauptmenü' }).getByText('Auftragsliste')).toBeVisible();
    }
    await expect(user.getByText('Nicht gefunden')).toHaveCount(0);
    expect(failures).toEqual([]);
    await context.close();
  }
});

test('theme presets recolour the UI and persist; the menu folds on mini screens', async ({ page }) => {
  await signIn(page);
  await page.goto('/sys/log');
  const primary = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--color-primary').trim());
  await expect.poll(primary).toBe('#4165d7');
  await page.getByRole('button', { name: 'Theme' }).click();
  await page.getByRole('menuitemradio', { name: 'Fruit green' }).click();
  await expect.poll(primary).toBe('#51c21a');
  // Shade 9 is 90 % white.
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--color-primary-light-9').trim())).toBe('#eef9e8');
  const activeLink = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Request log' });
  await expect(activeLink).toHaveCSS('background-color', 'rgb(81, 194, 26)');
  await page.reload();
  await expect.poll(primary).toBe('#51c21a');
  await page.screenshot({ path: `${SHOTS}/theme-guolv-1280.png` });

  // The personal centre offers the same presets.
  await page.goto('/my/info');
  await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Magenta' }).click();
  await expect.poll(primary).toBe('#d0378d');
  await page.screenshot({ path: `${SHOTS}/my-info-1280.png`, fullPage: true });

  // Fold: a button on wide screens, automatic under 768 px.
  const sidebar = page.locator('aside');
  await expect(sidebar).toHaveCSS('width', '288px');
  await page.getByRole('button', { name: 'Collapse menu' }).click();
  await expect(sidebar).toHaveCSS('width', '64px');
  await page.getByRole('button', { name: 'Expand menu' }).click();
  await expect(sidebar).toHaveCSS('width', '288px');
  await page.setViewportSize({ width: 600, height: 900 });
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
});

test('the personal centre uploads an avatar that the top bar shows', async ({ page }) => {
  await signIn(page);
  await page.goto('/my/info');
  // A 1x1 PNG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await page.getByLabel('Change avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  const topAvatar = page.getByRole('button', { name: 'User menu' }).locator('img');
  await expect(topAvatar).toHaveAttribute('src', /^(blob:|\/admin\/base\/open\/)/);
  await expect.poll(() => topAvatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  const person = await page.evaluate(async () => {
    const token = JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string;
    return (await (await fetch('/admin/base/comm/person', { headers: { Authorization: token } })).json()).data.headImg as string;
  });
  expect(person).toMatch(/^\/admin\/base\/(comm|open)\/file\/\d+/);
});

test('German at 1280 px: drawer controls inside the drawer, long labels readable, wide tables scroll beside the fixed column', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, 'de');

  // Advanced search of the log: every control ends inside the 30 % drawer.
  await page.goto('/sys/log');
  await page.getByRole('button', { name: 'Erweiterte Suche' }).click();
  const drawer = page.getByTestId('kit-search-drawer');
  await expect(drawer.locator('select').first()).toBeVisible();
  await expect.poll(async () => drawer.evaluate((el) => Math.round(el.getBoundingClientRect().right))).toBe(1280);
  const box = (await drawer.boundingBox())!;
  for (const control of await drawer.locator('form input:not([type=hidden]):visible, form select:visible').all()) {
    const c = (await control.boundingBox())!;
    expect(c.x + c.width).toBeLessThanOrEqual(box.x + box.width - 16);
  }
  await page.keyboard.press('Escape');

  // A long required label ("*Drahtdurchmesser (mm)") wraps inside its 100 px column, asterisk included.
  await page.goto('/device/list');
  await page.getByRole('button', { name: 'Hinzufügen' }).click();
  const dialog = page.getByRole('dialog');
  const label = dialog.locator('label', { hasText: 'Drahtdurchmesser' }).locator('[data-label]');
  await expect(label).toContainText('*');
  await animationsDone(dialog);
  const dialogBox = (await dialog.boundingBox())!;
  const labelBox = (await label.boundingBox())!;
  expect(labelBox.x).toBeGreaterThanOrEqual(dialogBox.x);
  expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.parentElement!.scrollWidth <= el.parentElement!.clientWidth + 1)).toBe(true);
  // The column grows for the long word instead of breaking it: "Drahtdurchmesser" sits on one line.
  const wordLines = await label.evaluate((el) => {
    const text = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.includes('Drahtdurchmesser'))!;
    const range = document.createRange();
    const at = text.textContent!.indexOf('Drahtdurchmesser');
    range.setStart(text, at);
    range.setEnd(text, at + 'Drahtdurchmesser'.length);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(wordLines).toBe(1);
  await page.screenshot({ path: `${SHOTS}/de-1280-device-dialog.png` });
  await page.keyboard.press('Escape');

  // The task list is wider than the screen: "Nächste Ausführung" starts under the fixed column,
  // which casts its shadow; scrolling to the end shows the last column beside it, not under it.
  await page.goto('/task/list');
  const scroll = page.getByTestId('kit-table-scroll');
  const op = page.getByRole('columnheader', { name: 'Aktionen' });
  // Measured once the rows have come (they widen the columns) and the shadow says so.
  await expect(page.getByRole('row').filter({ hasText: 'Anfrageprotokoll bereinigen' })).toBeVisible();
  await expect(scroll).toHaveAttribute('aria-busy', 'false');
  await expect(scroll).toHaveAttribute('data-covered', 'true');
  const next = (await page.getByRole('columnheader', { name: 'Nächste Ausführung' }).boundingBox())!;
  expect(next.x + next.width).toBeGreaterThan((await op.boundingBox())!.x);
  await scroll.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(scroll).toHaveAttribute('data-covered', 'false');
  const last = (await page.locator('thead th').nth(-2).boundingBox())!;
  expect(last.x + last.width).toBeLessThanOrEqual((await op.boundingBox())!.x + 1);
  await page.screenshot({ path: `${SHOTS}/de-1280-task-scrolled.png` });

  // Sidebar: every German menu name shown is whole, on up to two lines.
  const nav = page.getByRole('navigation', { name: 'Hauptmenü' });
  await expect(nav.getByText('Berechtigungsverwaltung', { exact: true })).toBeVisible();
  await expect(nav.getByText('Schnittstellenkonfiguration', { exact: true })).toBeVisible();
  const clipped = await nav.locator('span[title]').evaluateAll((els) => els.filter((el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent));
  expect(clipped).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/de-1280-sidebar.png` });
});
