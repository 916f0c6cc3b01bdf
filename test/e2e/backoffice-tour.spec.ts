import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type APIRequestContext, type Page, type Request } from '@playwright/test';
import { sphereStl } from '../fixtures/stl.ts';

// The back office as its users meet it: every page of the menu opens cleanly, for the admin and for
// a role holding nothing but that page's Query entry; and the combined back-office scenario end to end.
const ADMIN_PASSWORD = 'e2e-Admin-pass1';

test.use({ locale: 'en-US' });

interface MenuRow {
  id: number;
  parentId: number | null;
  name: string;
  type: number;
  router: string | null;
  perms: string | null;
}
interface Login {
  token: string;
  refreshToken: string;
  expire: number;
  refreshExpire: number;
}

async function apiLogin(request: APIRequestContext, username: string, password: string): Promise<Login> {
  const res = await request.post('/admin/base/open/login', { data: { username, password, captchaId: '', verifyCode: '' } });
  const body = await res.json();
  expect(body.code, JSON.stringify(body)).toBe(1000);
  return body.data as Login;
}

async function call<T>(request: APIRequestContext, token: string, url: string, data: unknown = {}): Promise<T> {
  const body = await (await request.post(url, { headers: { Authorization: token }, data })).json();
  expect(body.code, `${url}: ${JSON.stringify(body)}`).toBe(1000);
  return body.data as T;
}

async function allMenus(request: APIRequestContext, token: string): Promise<MenuRow[]> {
  const res = await request.get('/admin/base/comm/permmenu', { headers: { Authorization: token } });
  return ((await res.json()).data as { menus: MenuRow[] }).menus;
}

/** A page opened already signed in (the session as the login page would store it). */
async function signedIn(page: Page, login: Login): Promise<void> {
  const now = Date.now();
  const session = {
    token: login.token,
    refreshToken: login.refreshToken,
    expiresAt: now + login.expire * 1000,
    refreshExpiresAt: now + login.refreshExpire * 1000,
  };
  await page.addInitScript((s) => {
    if (!localStorage.getItem('aw.session')) localStorage.setItem('aw.session', s);
  }, JSON.stringify(session));
}

/** Console errors, uncaught exceptions and failed /admin answers, as readable lines. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('response', (r) => {
    if (r.url().includes('/admin/') && r.status() >= 400) problems.push(`HTTP ${r.status()} ${new URL(r.url()).pathname}`);
  });
  return problems;
}

/** The /admin requests a page has in flight; the message stream aside, open while signed in. */
function inFlight(page: Page): () => number {
  const open = new Set<Request>();
  page.on('request', (r) => {
    if (r.url().includes('/admin/') && !r.url().includes('/admin/chat/message/stream')) open.add(r);
  });
  const settle = (r: Request) => open.delete(r);
  page.on('requestfinished', settle);
  page.on('requestfailed', settle);
  return () => open.size;
}

/** Opens `router` and checks the page rendered: still there (no error page), its content, its calls answered, no toast. */
async function visit(page: Page, router: string, pending: () => number): Promise<void> {
  await page.goto(router);
  await expect(page, router).toHaveURL(new RegExp(`${router}$`));
  const main = page.getByRole('main');
  if (router === '/dashboard') await expect(main.locator('canvas, svg').first(), router).toBeVisible();
  else if (router === '/help/doc') await expect(main.getByText(/help document|No help documents/i).first(), router).toBeVisible();
  else if (router === '/dict/list') await expect(main.getByRole('table').or(main.getByText(/Add a dictionary type to start|You may not view the entries/)).first(), router).toBeVisible();
  // The plugin demos and the module builder: lists, or editors and layouts under a heading.
  else if (/^\/(demo|helper)\//.test(router)) await expect(main.getByRole('table').or(main.getByRole('heading')).first(), router).toBeVisible();
  else await expect(main.getByRole('table').first(), router).toBeVisible();
  await expect.poll(pending, { message: `${router}: its calls answered` }).toBe(0);
  await expect(page.locator('.aw-toast'), `${router}: no message expected`).toHaveCount(0);
}

test('every menu page opens for the admin without errors', async ({ page, request }) => {
  const login = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const pages = (await allMenus(request, login.token)).filter((m) => m.type === 1 && m.router).map((m) => m.router!);
  expect(pages.length).toBeGreaterThanOrEqual(16);
  await signedIn(page, login);
  const problems = watch(page);
  const pending = inFlight(page);
  for (const router of pages) await visit(page, router, pending);
  expect(problems).toEqual([]);
});

test("a role holding only a page's Query entry opens that page, never the error page", async ({ browser, request }) => {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const menus = await allMenus(request, admin.token);
  const byId = new Map(menus.map((m) => [m.id, m]));
  const ancestors = (m: MenuRow): number[] => {
    const out: number[] = [];
    for (let p = m.parentId; p !== null; p = byId.get(p)?.parentId ?? null) out.push(p);
    return out;
  };
  // A dictionary type, so that the dictionary page has entries to ask for.
  await call(request, admin.token, '/admin/dict/type/add', { name: 'Tour materials', key: 'tourMaterials' });
  // The pages whose first call needs more than their Query entry grants.
  for (const router of ['/device/list', '/device/api-config', '/space/list', '/help/article', '/dict/list', '/order/list']) {
    const pageMenu = menus.find((m) => m.router === router)!;
    const query = menus.filter((m) => m.parentId === pageMenu.id && m.name === 'Query');
    expect(query, router).toHaveLength(1);
    const key = `tour${pageMenu.id}`;
    const role = await call<{ id: number }>(request, admin.token, '/admin/base/sys/role/add', {
      name: key,
      label: key,
      menuIdList: [...ancestors(pageMenu), pageMenu.id, query[0]!.id],
      relevance: 0,
    });
    await call(request, admin.token, '/admin/base/sys/user/add', { username: key, password: `${key}-pass`, name: key, status: 1, roleIdList: [role.id] });
    const context = await browser.newContext();
    const page = await context.newPage();
    await signedIn(page, await apiLogin(request, key, `${key}-pass`));
    const problems = watch(page);
    await visit(page, router, inFlight(page));
    expect(problems, router).toEqual([]);
    await context.close();
  }
});

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Captcha', { exact: true }).fill('abcd');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test('a role with order rights: its users see only their menus and buttons, and only their own orders', async ({ page, request }) => {
  const problems = watch(page);
  await signIn(page, 'admin', ADMIN_PASSWORD);

  // The admin creates a role that may add, edit and list orders (not delete, not see all) and read help.
  await page.goto('/sys/role');
  const toolbar = page.getByRole('toolbar', { name: 'Table toolbar' });
  await toolbar.getByRole('button', { name: 'Add' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Role key').fill('lab-designer');
  await dialog.getByLabel('Name').fill('Lab designer');
  await dialog.getByRole('tab', { name: 'Permissions' }).click();
  const tree = dialog.getByRole('tree', { name: 'Menus and permissions' });
  await dialog.getByRole('checkbox', { name: 'Show permission identifiers' }).check();
  await tree.getByRole('checkbox', { name: /^Add order:info:add$/ }).check();
  await tree.getByRole('checkbox', { name: /^Update order:info:update$/ }).check();
  // The order list's Query (the time list has one with the same permissions further down).
  await tree.getByRole('checkbox', { name: /^Query order:info:info,order:info:list,order:info:page$/ }).first().check();
  await tree.getByRole('checkbox', { name: /^Read base:sys:article:docs/ }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  await expect(page.getByRole('table').getByRole('cell', { name: 'Lab designer', exact: true })).toBeVisible();

  // ...and two users holding it.
  await page.goto('/sys/user');
  for (const username of ['lena', 'max']) {
    await toolbar.getByRole('button', { name: 'Add' }).click();
    await dialog.getByLabel('Username').fill(username);
    await dialog.getByLabel('Password').fill(`${username}-pass-1`);
    await dialog.getByLabel('Full name').fill(`${username} designer`);
    await dialog.getByLabel('Roles').click();
    await page.getByRole('checkbox', { name: 'Lab designer', exact: true }).check();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Save successful', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: `${username} designer` })).toContainText('Lab designer');
  }
  await signOut(page);

  // Lena sees the order list and the help documents, nothing else, and no delete button.
  await signIn(page, 'lena', 'lena-pass-1');
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  for (const group of ['Data board', 'Device management', 'Interface configuration', 'System management']) {
    await expect(nav.getByRole('button', { name: group })).toHaveCount(0);
  }
  const expand = async (name: string) => {
    const group = nav.getByRole('button', { name });
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  };
  await expand('Order management');
  await expand('Help center');
  await expect(nav.getByRole('link', { name: 'Help document' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Time list' })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Order list' }).click();
  await expect(page).toHaveURL(/\/order\/list$/);
  await expect(toolbar.getByRole('button', { name: 'Add' })).toBeVisible();
  await expect(toolbar.getByRole('button', { name: 'Delete' })).toHaveCount(0);

  // She creates an order with a generated upper jaw.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-tour-'));
  const upper = path.join(dir, 'lena-upper.stl');
  fs.writeFileSync(upper, sphereStl({ radius: 20, segments: 48, rings: 24 }));
  await toolbar.getByRole('button', { name: 'Add' }).click();
  await dialog.getByLabel('Patient').fill('Lena Patientin');
  await dialog.getByLabel('Upper model').setInputFiles(upper);
  await expect(dialog.getByText('lena-upper.stl')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  const row = page.getByRole('row', { name: /Lena Patientin/ });
  await expect(row).toContainText(/AW-\d{8}-\d{4}/);
  await expect(row.getByRole('button', { name: 'Edit', exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
  const lena = await page.evaluate(() => JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string);
  const mine = await call<{ list: { id: number; patientName: string }[] }>(request, lena, '/admin/order/info/page', {});
  const orderId = mine.list.find((o) => o.patientName === 'Lena Patientin')!.id;
  const own = await (await request.get(`/admin/order/info/info?id=${orderId}`, { headers: { Authorization: lena } })).json();
  expect(own.data.patientName).toBe('Lena Patientin');
  await signOut(page);

  // Max, holding the same role, neither sees it in his list nor gets it by its id.
  await signIn(page, 'max', 'max-pass-1');
  await page.goto('/order/list');
  await expect(page.getByRole('main').getByText('No data')).toBeVisible();
  await expect(page.getByRole('row', { name: /Lena Patientin/ })).toHaveCount(0);
  const max = await page.evaluate(() => JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string);
  const info = await (await request.get(`/admin/order/info/info?id=${orderId}`, { headers: { Authorization: max } })).json();
  expect(info.data ?? null).toBeNull();
  expect(problems).toEqual([]);
});

test('a file named .stl that is no STL is refused with a message, without an uncaught error', async ({ page, request }) => {
  await signedIn(page, await apiLogin(request, 'admin', ADMIN_PASSWORD));
  const problems = watch(page);
  await page.goto('/order/list');
  await page.getByRole('toolbar', { name: 'Table toolbar' }).getByRole('button', { name: 'Add' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Upper model').setInputFiles({ name: 'scan.stl', mimeType: 'model/stl', buffer: Buffer.from('not a mesh, only some words') });
  await expect(dialog.getByText(/scan\.stl is not a valid STL file/)).toBeVisible();
  // The upload's refusal is an expected answer; nothing else went wrong.
  expect(problems.filter((p) => !p.includes('/admin/base/comm/upload') && !p.includes('status of 4'))).toEqual([]);
});

test('the recycle bin names what was deleted in words, for every kind of resource it keeps', async ({ page, request }) => {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const param = await call<{ id: number }>(request, admin.token, '/admin/base/sys/param/add', { name: 'Bin param', keyName: 'binParam', data: 'x', dataType: 0 });
  await call(request, admin.token, '/admin/base/sys/param/delete', { ids: [param.id] });
  const type = await call<{ id: number }>(request, admin.token, '/admin/dict/type/add', { name: 'Bin type', key: 'binType' });
  await call(request, admin.token, '/admin/dict/type/delete', { ids: [type.id] });
  await signedIn(page, admin);
  await page.goto('/recycle/data');
  await expect(page.getByRole('row').filter({ hasText: 'Bin param' })).toContainText('Parameter');
  await expect(page.getByRole('row').filter({ hasText: 'Bin type' })).toContainText('Dictionary type');
  await expect(page.getByRole('table')).not.toContainText(/BaseSys|DictType|OrderInfo/);
});

test('the seeded system tasks and superadmin role read in German in a German screen, remarks included', async ({ page, request }) => {
  await page.addInitScript(() => localStorage.setItem('aw.lang', 'de'));
  await signedIn(page, await apiLogin(request, 'admin', ADMIN_PASSWORD));
  await page.goto('/task/list');
  const row = page.getByRole('row').filter({ hasText: 'Anfrageprotokoll bereinigen' });
  await expect(row).toContainText('Löscht Anfrageprotokolleinträge');
  await expect(page.getByRole('table')).not.toContainText('Deletes');
  await page.goto('/sys/role');
  const superadmin = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'superadmin', exact: true }) });
  await expect(superadmin).toContainText('Besteht jede Berechtigungsprüfung');
});

test("a new user's password is marked required; editing says an empty password keeps the old one", async ({ page, request }) => {
  await signedIn(page, await apiLogin(request, 'admin', ADMIN_PASSWORD));
  await page.goto('/sys/user');
  await page.getByRole('toolbar', { name: 'Table toolbar' }).getByRole('button', { name: 'Add' }).click();
  const dialog = page.getByRole('dialog');
  const password = dialog.getByLabel('Password');
  await expect(password).toHaveAttribute('aria-required', 'true');
  await expect(password).not.toHaveAttribute('placeholder', /keep/i);
  await dialog.getByLabel('Username').fill('no-password');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Password cannot be empty')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await page.getByRole('row').filter({ hasText: 'Administrator' }).getByRole('button', { name: 'Edit' }).click();
  await expect(dialog.getByLabel('Password')).toHaveAttribute('placeholder', 'Leave empty to keep');
  await expect(dialog.getByLabel('Password')).not.toHaveAttribute('aria-required', 'true');
});

test('file space folders: named in a form dialog, deleted only after a confirmation', async ({ page, request }) => {
  await signedIn(page, await apiLogin(request, 'admin', ADMIN_PASSWORD));
  const problems = watch(page);
  await page.goto('/space/list');
  const folders = page.getByRole('complementary', { name: 'Folders' });
  await folders.getByRole('button', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'New folder' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Folder name cannot be empty')).toBeVisible();
  await dialog.getByLabel('Folder name').fill('Lab scans');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(folders.getByRole('button', { name: 'Lab scans', exact: true })).toBeVisible();

  await folders.getByRole('button', { name: 'Delete folder Lab scans' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Lab scans');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(folders.getByRole('button', { name: 'Lab scans', exact: true })).toBeVisible();
  await folders.getByRole('button', { name: 'Delete folder Lab scans' }).click();
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(folders.getByRole('button', { name: 'Lab scans', exact: true })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('request log keep days: no typing before the saved value has come; an out-of-range value says the allowed range', async ({ page, request }) => {
  await signedIn(page, await apiLogin(request, 'admin', ADMIN_PASSWORD));
  // The saved value held back: the box takes nothing meanwhile (the value would overwrite it) and
  // does not call its emptiness an error.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/admin/base/sys/log/getKeep', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/sys/log');
  const days = page.getByLabel('Keep days');
  await expect(days).toBeDisabled();
  await expect(page.getByText('Whole days from 1 to 3650')).toHaveCount(0);
  release();
  await expect(days).toBeEnabled();
  await expect(days).not.toHaveValue('');
  await days.fill('0');
  await expect(page.getByRole('alert').filter({ hasText: 'Whole days from 1 to 3650' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await days.fill('45');
  await expect(page.getByText('Whole days from 1 to 3650')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
});

test('a dictionary type just added is the current one, so its first entry lands in it', async ({ page, request }) => {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  await call(request, admin.token, '/admin/dict/type/add', { name: 'Older type', key: 'olderType' });
  await signedIn(page, admin);
  await page.goto('/dict/list');
  const types = page.getByRole('complementary', { name: 'Dictionary types' });
  await types.getByRole('button', { name: 'Add' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Wire alloys');
  await dialog.getByLabel('Key').fill('wireAlloy');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const entries = page.getByRole('region', { name: 'Wire alloys' });
  await expect(entries).toBeVisible();
  await entries.getByRole('button', { name: 'Add', exact: true }).click();
  await dialog.getByLabel('Name').fill('Stainless steel');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(entries.getByRole('row').filter({ hasText: 'Stainless steel' })).toBeVisible();
  const data = await call<Record<string, { name: string }[]>>(request, admin.token, '/admin/dict/info/data', { types: ['wireAlloy', 'olderType'] });
  expect(data.wireAlloy?.map((e) => e.name)).toEqual(['Stainless steel']);
  expect(data.olderType ?? []).toEqual([]);
});

test('file space folders stay reachable on a mini screen', async ({ page, request }) => {
  await page.setViewportSize({ width: 600, height: 900 });
  await signedIn(page, await apiLogin(request, 'admin', ADMIN_PASSWORD));
  await page.goto('/space/list');
  const folders = page.getByRole('complementary', { name: 'Folders' });
  await expect(folders.getByRole('button', { name: 'All files' })).toBeVisible();
  await expect(folders.getByRole('button', { name: 'New folder' })).toBeVisible();
});

test('the role form shows permission names whole; long permission strings give way', async ({ page, request }) => {
  await page.addInitScript(() => localStorage.setItem('aw.lang', 'de'));
  await signedIn(page, await apiLogin(request, 'admin', ADMIN_PASSWORD));
  await page.goto('/sys/role');
  await page.getByRole('toolbar', { name: 'Tabellen-Werkzeugleiste' }).getByRole('button', { name: 'Hinzufügen' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Rollenschlüssel').fill('breit');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Breit');
  await dialog.getByRole('tab', { name: 'Berechtigungen' }).click();
  const tree = dialog.getByRole('tree', { name: 'Menüs und Berechtigungen' });
  await dialog.getByRole('checkbox', { name: 'Berechtigungskennungen anzeigen' }).check();
  const query = tree.getByRole('checkbox', { name: /^Abfragen order:info:info,order:info:list,order:info:page$/ }).first();
  await expect(query).toBeVisible();
  // The name's own text is not cut (its box is as wide as its text).
  const clipped = await query.locator('xpath=..').locator('span').first().evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(clipped).toBe(false);
  await expect(tree.getByRole('checkbox', { name: /^Biegen design:bend/ })).toBeVisible();
});
