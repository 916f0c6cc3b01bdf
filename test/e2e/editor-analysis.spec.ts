// Undercut analysis and heatmaps in the editor: a designer opens an order with generated jaws,
// shows the undercut heatmap (the model's pixels change colour, the legend shows millimetres),
// tilts the insertion direction (one undo step, the map follows), shows the occlusal distance
// map, and turns the heatmap off (the normal shading is back).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { jawMesh, rigidMatrix, transformPositions, type IndexedMesh } from '../fixtures/jaw.ts';
import { binaryStl } from '../fixtures/stl.ts';

// Matches the webServer env in playwright.config.ts.
const ADMIN_PASSWORD = 'e2e-Admin-pass1';
test.use({ locale: 'en-US' });

async function apiLogin(request: APIRequestContext, username: string, password: string): Promise<string> {
  const res = await request.post('/admin/base/open/login', { data: { username, password, captchaId: '', verifyCode: '' } });
  const body = await res.json();
  expect(body.code, JSON.stringify(body)).toBe(1000);
  return body.data.token as string;
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Captcha', { exact: true }).fill('abcd');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
}

function soup(mesh: IndexedMesh): Float32Array {
  const out = new Float32Array(mesh.indices.length * 3);
  for (let i = 0; i < mesh.indices.length; i++) out.set(mesh.positions.subarray(mesh.indices[i]! * 3, mesh.indices[i]! * 3 + 3), i * 3);
  return out;
}

/** A designer (order list + design rights) and an order of hers with generated upper and lower jaws. */
async function designerWithOrder(request: APIRequestContext, username: string): Promise<number> {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const headers = { Authorization: admin };
  const { menus } = (await (await request.get('/admin/base/comm/permmenu', { headers })).json()).data as {
    menus: { id: number; parentId: number | null; router: string | null; perms: string | null }[];
  };
  const list = menus.find((m) => m.router === '/order/list')!;
  const granted = [list.parentId!, list.id, ...menus.filter((m) => m.parentId === list.id && m.perms !== 'order:info:all').map((m) => m.id)];
  const role = await (await request.post('/admin/base/sys/role/add', { headers, data: { name: username, label: username, menuIdList: granted, relevance: 1 } })).json();
  expect(role.code, JSON.stringify(role)).toBe(1000);
  const add = await request.post('/admin/base/sys/user/add', {
    headers,
    data: { username, password: `${username}-pass`, name: 'Ana', nickName: 'Ana', status: 1, roleIdList: [role.data.id] },
  });
  expect((await add.json()).code).toBe(1000);

  const token = await apiLogin(request, username, `${username}-pass`);
  const lower = jawMesh();
  // The upper jaw: the lower one turned over (teeth down) and lifted so that the cusps meet.
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-analysis-'));
  const ids: Record<string, number> = {};
  for (const [name, mesh] of [['upper.stl', upper], ['lower.stl', lower]] as const) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, binaryStl(soup(mesh)));
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
      data: { patientName: 'Lena Analyse', upperFileId: ids['upper.stl'], lowerFileId: ids['lower.stl'] },
    })
  ).json();
  expect(order.code, JSON.stringify(order)).toBe(1000);
  return order.data.id as number;
}

/** The canvas pixels (RGBA) as drawn (preserveDrawingBuffer), at a quarter of the CSS size. */
async function pixels(page: Page): Promise<{ data: number[] }> {
  return page.locator('[data-testid="viewport"] canvas').evaluate((canvas: HTMLCanvasElement) => {
    const copy = document.createElement('canvas');
    copy.width = Math.round(canvas.clientWidth / 4);
    copy.height = Math.round(canvas.clientHeight / 4);
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(canvas, 0, 0, copy.width, copy.height);
    return { data: Array.from(ctx.getImageData(0, 0, copy.width, copy.height).data) };
  });
}

/** Share of pixels whose colour changed noticeably. */
function difference(a: { data: number[] }, b: { data: number[] }): number {
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 30) changed++;
  }
  return changed / (a.data.length / 4);
}

/** Share of strongly coloured pixels (the ramp's blue, green, red; the models are beige and grey). */
function saturated(a: { data: number[] }): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const r = a.data[i]!, g = a.data[i + 1]!, b = a.data[i + 2]!;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 90) n++;
  }
  return n / (a.data.length / 4);
}

async function settle(page: Page): Promise<void> {
  // Rendering is on demand: wait for the frames of a change to be drawn.
  await page.waitForTimeout(900);
}

test('a designer shows the undercut heatmap, tilts the insertion direction, shows occlusal distances and turns the heatmap off', async ({ page, request }) => {
  test.setTimeout(180_000);
  const orderId = await designerWithOrder(request, 'analysis-designer');
  await signIn(page, 'analysis-designer', 'analysis-designer-pass');
  await page.goto(`/bend?orderId=${orderId}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  const panel = page.getByTestId('analysis');
  const legend = page.getByTestId('heatmap-legend');
  await expect(legend).toHaveCount(0);
  await page.keyboard.press('2'); // back view: the upper jaw's palatal side, where its undercuts are
  await settle(page);
  const plain = await pixels(page);
  expect(saturated(plain)).toBeLessThan(0.005);

  // Undercut heatmap of the upper jaw, along its axis.
  await page.getByTestId('heatmap-undercut').click();
  await expect(panel).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(legend).toBeVisible();
  await expect(legend).toHaveAttribute('data-mode', 'undercut');
  await expect(legend).toContainText('Undercut depth');
  await expect(legend).toContainText('mm');
  await expect(legend).toContainText('0.0');
  await expect(legend).toContainText('1.0 mm');
  await expect(page.getByTestId('undercut-summary')).toContainText('mm²');
  await settle(page);
  await page.screenshot({ path: 'test-results/analysis-undercut.png' });
  const undercut = await pixels(page);
  expect(difference(plain, undercut)).toBeGreaterThan(0.02);
  expect(saturated(undercut)).toBeGreaterThan(0.01);

  // Tilt the direction: one undoable change; the map is recomputed.
  await expect(page.getByTestId('direction-value')).toContainText("The jaw's axis");
  const tilt = page.getByLabel('Tilt front / back');
  await tilt.fill('30');
  await tilt.blur();
  await expect(page.getByTestId('direction-value')).toContainText('(0.000, 0.500, -0.866)');
  await expect(panel).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await settle(page);
  await page.screenshot({ path: 'test-results/analysis-tilted.png' });
  const tilted = await pixels(page);
  expect(difference(undercut, tilted)).toBeGreaterThan(0.002);
  await page.getByTestId('viewport').locator('canvas').focus();
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('direction-value')).toContainText("The jaw's axis");
  await expect(panel).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('heatmap-undercut')).toHaveAttribute('aria-checked', 'true');

  // Occlusal distance map, upper to lower.
  await page.keyboard.press('1');
  await page.getByTestId('heatmap-occlusal').click();
  await expect(legend).toHaveAttribute('data-mode', 'occlusal');
  await expect(panel).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(legend).toContainText('Distance to the lower jaw');
  await expect(legend).toContainText('-0.5');
  await expect(legend).toContainText('3.0 mm');
  await settle(page);
  await page.screenshot({ path: 'test-results/analysis-occlusal.png' });
  const occlusal = await pixels(page);
  expect(saturated(occlusal)).toBeGreaterThan(0.01);

  // Off: the normal shading is back.
  await page.getByTestId('heatmap-off').click();
  await expect(legend).toHaveCount(0);
  await settle(page);
  const off = await pixels(page);
  expect(saturated(off)).toBeLessThan(0.005);
  await page.screenshot({ path: 'test-results/analysis-off.png' });

  // The base thickness map waits for a base.
  await expect(page.getByTestId('heatmap-thickness')).toBeDisabled();
  await expect(page.getByTestId('heatmap-thickness')).toHaveAttribute('title', /Generate a base first/);

  // The choice is saved with the design; the panel and legend speak German and Chinese too.
  await page.getByTestId('heatmap-undercut').click();
  await expect(page.getByTestId('save-status')).toHaveText('All changes saved');
  for (const [lang, title, legendTitle] of [
    ['de', 'Unterschnittanalyse und Heatmaps', 'Unterschnitttiefe'],
    ['zh', '倒凹分析与热图', '倒凹深度'],
  ] as const) {
    await page.evaluate((l) => localStorage.setItem('aw.lang', l), lang);
    await page.reload();
    await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(panel).toContainText(title);
    await expect(panel).toHaveAttribute('data-mode', 'undercut');
    await expect(panel).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(legend).toContainText(legendTitle);
    await expect(legend).toContainText('mm');
    await settle(page);
    await page.screenshot({ path: `test-results/analysis-${lang}.png` });
  }
});
