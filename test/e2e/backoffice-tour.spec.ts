import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { sphereStl } from '../fixtures/stl.ts';

// The back office as its users meet it: every page of the menu opens cleanly, for the admin and for
// a role holding nothing but that page's Query entry; and the combined scenario end to end.
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

/** Opens `router` and checks the page rendered: still there (no error page), its content, no toast. */
async function visit(page: Page, router: string): Promise<void> {
  await page.goto(router);
  await page.waitForLoadState('networkidle');
  await expect(page, router).toHaveURL(new RegExp(`${router}$`));
  const main = page.getByRole('main');
  if (router === '/dashboard') await expect(main.locator('canvas, svg').first(), router).toBeVisible();
  else if (router === '/help/doc') await expect(main.getByText(/help document|No help documents/i).first(), router).toBeVisible();
  else if (router === '/dict/list') await expect(main.getByRole('table').or(main.getByText(/Add a dictionary type to start|You may not view the entries/)).first(), router).toBeVisible();
  else await expect(main.getByRole('table').first(), router).toBeVisible();
  await expect(page.locator('.aw-toast'), `${router}: no message expected`).toHaveCount(0);
}

test('every menu page opens for the admin without errors', async ({ page, request }) => {
  const login = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const pages = (await allMenus(request, login.token)).filter((m) => m.type === 1 && m.router).map((m) => m.router!);
  expect(pages.length).toBeGreaterThanOrEqual(16);
  await signedIn(page, login);
  const problems = watch(page);
  for (const router of pages) await visit(page, router);
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
    await visit(page, router);
    expect(problems, router).toEqual([]);
    await context.close();
  }
});
