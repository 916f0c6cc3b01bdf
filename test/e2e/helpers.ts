// Shared set-up of the browser tests: signing in (API and UI) and a designer with an order of
// generated jaw models, made through the API as an admin would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type APIRequestContext, type Locator, type Page, type Worker } from '@playwright/test';
import type { WorkerStats } from '../../workers/geometry.worker.ts';
import { SESSION_STORAGE_KEY, type LoginReply, type SessionData } from '../../src/api/session.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';

/** Matches the webServer env in playwright.config.ts. */
export const ADMIN_PASSWORD = 'e2e-Admin-pass1';

export async function apiLogin(request: APIRequestContext, username: string, password: string): Promise<string> {
  const res = await request.post('/admin/base/open/login', { data: { username, password, captchaId: '', verifyCode: '' } });
  const body = await res.json();
  expect(body.code, JSON.stringify(body)).toBe(1000);
  return body.data.token as string;
}

/** Fills and submits the login form (the test server does not check the captcha). */
export async function submitLogin(page: Page, username = 'admin', password = ADMIN_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Captcha', { exact: true }).fill('abcd');
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Signs in through the login page and waits for the shell (or a release notes dialog over it). */
export async function signIn(page: Page, username = 'admin', password = ADMIN_PASSWORD): Promise<void> {
  await submitLogin(page, username, password);
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByRole('button', { name: 'User menu' }).or(page.getByRole('dialog'))).toBeVisible();
}

/**
 * Signs in through the API and stores the session where the app keeps it (localStorage, as
 * session.login does), for tests about what comes after the login: the next page they open is
 * signed in, without a trip through the login page and the dashboard (seconds per test on a
 * busy machine). The login page itself is tested with signIn.
 */
export async function signInViaApi(page: Page, username = 'admin', password = ADMIN_PASSWORD): Promise<void> {
  const res = await page.request.post('/admin/base/open/login', { data: { username, password, captchaId: '', verifyCode: '' } });
  const body = await res.json();
  expect(body.code, JSON.stringify(body)).toBe(1000);
  const reply = body.data as LoginReply;
  const now = Date.now();
  const data: SessionData = { token: reply.token, refreshToken: reply.refreshToken, expiresAt: now + reply.expire * 1000, refreshExpiresAt: now + reply.refreshExpire * 1000 };
  // Any page of the app's origin gives its localStorage; this one loads no script.
  await page.goto('/version.json');
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [SESSION_STORAGE_KEY, JSON.stringify(data)] as const);
}

/**
 * Waits until the element's animations (and its descendants') have ended, e.g. a dialog's pop-in
 * (scaled to 98 % at its start), before it is measured or photographed. Endless ones (a spinner)
 * are not waited for.
 */
export async function animationsDone(locator: Locator): Promise<void> {
  await locator.evaluate((el) =>
    Promise.all(
      el
        .getAnimations({ subtree: true })
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

interface Mesh {
  positions: Float32Array;
  indices: Uint32Array;
}


export interface DesignerOrderSpec {
  /** Also the role's name; the password is `<username>-pass`. */
  username: string;
  /** The designer's full name and nickname. */
  name: string;
  patientName: string;
  upper: Mesh;
  lower: Mesh;
}

/**
 * A designer: a role with the order list and its entries, design rights included, but not "All
 * orders", and a user of that role whose password is `<username>-pass`.
 */
export async function createDesigner(request: APIRequestContext, username: string, name = username): Promise<void> {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const headers = { Authorization: admin };
  const { menus } = (await (await request.get('/admin/base/comm/permmenu', { headers })).json()).data as {
    menus: { id: number; parentId: number | null; router: string | null; perms: string | null }[];
  };
  const list = menus.find((m) => m.router === '/order/list')!;
  const granted = [list.parentId!, list.id, ...menus.filter((m) => m.parentId === list.id && m.perms !== 'order:info:all').map((m) => m.id)];
  expect(menus.some((m) => m.parentId === list.id && m.perms?.includes('design:save'))).toBe(true);
  const role = await (await request.post('/admin/base/sys/role/add', { headers, data: { name: username, label: username, menuIdList: granted, relevance: 1 } })).json();
  expect(role.code, JSON.stringify(role)).toBe(1000);
  const add = await request.post('/admin/base/sys/user/add', {
    headers,
    data: { username, password: `${username}-pass`, name, nickName: name, status: 1, roleIdList: [role.data.id] },
  });
  expect((await add.json()).code).toBe(1000);
}

/** A designer (createDesigner) and an order of hers with the given upper and lower jaws uploaded as binary STL. */
export async function designerWithOrder(request: APIRequestContext, spec: DesignerOrderSpec): Promise<{ id: number; caseNo: string; token: string }> {
  const { username } = spec;
  await createDesigner(request, username, spec.name);
  const token = await apiLogin(request, username, `${username}-pass`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `aw-${username}-`));
  const ids: Record<string, number> = {};
  for (const [name, mesh] of [['upper.stl', spec.upper], ['lower.stl', spec.lower]] as const) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, binaryStl(soupOf(mesh)));
    const res = await request.post('/admin/base/comm/upload', {
      headers: { Authorization: token },
      multipart: { kind: 'model', file: { name, mimeType: 'model/stl', buffer: fs.readFileSync(file) } },
    });
    const body = await res.json();
    expect(body.code, JSON.stringify(body)).toBe(1000);
    ids[name] = body.data[0].id;
  }
  const order = await (
    await request.post('/admin/order/info/add', {
      headers: { Authorization: token },
      data: { patientName: spec.patientName, upperFileId: ids['upper.stl'], lowerFileId: ids['lower.stl'] },
    })
  ).json();
  expect(order.code, JSON.stringify(order)).toBe(1000);
  const info = await (await request.get(`/admin/order/info/info?id=${order.data.id}`, { headers: { Authorization: token } })).json();
  return { id: order.data.id as number, caseNo: info.data.caseNo as string, token };
}

/** Saves a design document for the order as its designer would (the first version); fails the test if refused. */
export async function saveDesign(request: APIRequestContext, order: { id: number; token: string }, data: unknown): Promise<void> {
  const res = await request.post('/admin/design/save', { headers: { Authorization: order.token }, data: { orderId: order.id, baseVersion: 0, data } });
  const body = await res.json();
  expect(body.code, JSON.stringify(body)).toBe(1000);
}

/** A wire-bending machine the administrator adds (not AI-enabled) and binds to the designer whose token is given; its id and key. */
export async function machineFor(request: APIRequestContext, designerToken: string, devicename: string): Promise<{ id: number; key: string }> {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const headers = { Authorization: admin };
  const add = await (await request.post('/admin/device/info/add', { headers, data: { devicename, diameters: [0.7, 0.8], memory: 100 } })).json();
  expect(add.code, JSON.stringify(add)).toBe(1000);
  const userId = (await (await request.get('/admin/base/comm/person', { headers: { Authorization: designerToken } })).json()).data.id as number;
  const bind = await (await request.post('/admin/device/info/bind', { headers, data: { id: add.data.id, userIds: [userId] } })).json();
  expect(bind.code, JSON.stringify(bind)).toBe(1000);
  return { id: add.data.id as number, key: add.data.deviceKey as string };
}

/** The order's id by its patient (the list's page call, as the designer sees it). */
export async function orderIdOf(request: APIRequestContext, token: string, patientName: string): Promise<number> {
  const list = await (await request.post('/admin/order/info/page', { headers: { Authorization: token }, data: { page: 1, size: 20, keyWord: patientName } })).json();
  expect(list.code, JSON.stringify(list)).toBe(1000);
  return list.data.list[0].id as number;
}

/** The page's geometry worker named `name` ("geometry": the editor's main one), once it has started. */
export async function namedWorker(page: Page, name = 'geometry'): Promise<Worker> {
  const find = async (): Promise<Worker | undefined> => {
    for (const w of page.workers()) if ((await w.evaluate(() => self.name).catch(() => '')) === name) return w;
    return undefined;
  };
  await expect.poll(async () => (await find()) !== undefined).toBe(true);
  return (await find())!;
}

/** The worker's own record of its jobs (globalThis.archwrightGeometryStats, docs/geometry.md). */
export function workerStats(worker: Worker): Promise<WorkerStats> {
  return worker.evaluate(() => (globalThis as unknown as { archwrightGeometryStats: () => WorkerStats }).archwrightGeometryStats());
}
