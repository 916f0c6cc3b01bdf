// The Excel kit on a list (export of the filtered list, re-import with a bad row and its reason),
// the plugin list in zh/en/de (turning the Excel kit off hides its buttons), the client hardening
// on (the browser menu blocked on a list, the editor's right-button pan still moving the camera)
// and off, and the editor's Export STL downloads parsed as closed meshes.
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { test, expect, type APIRequestContext, type Download, type Page } from '@playwright/test';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { edgeReport } from '../kernels/mesh-checks.ts';
import { ADMIN_PASSWORD, apiLogin, designerWithOrder, signInViaApi } from './helpers.ts';
import { settle } from './canvas.ts';

async function api(request: APIRequestContext, token: string, url: string, data: unknown) {
  const body = await (await request.post(url, { headers: { Authorization: token }, data })).json();
  expect(body.code, JSON.stringify(body)).toBe(1000);
  return body.data;
}

/** A binary STL welded by position: its triangles as indices, and its signed volume. */
function readStl(bytes: Buffer): { indices: Uint32Array; volume: number; triangles: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(80, true);
  expect(bytes.byteLength).toBe(84 + 50 * n);
  const ids = new Map<string, number>();
  const pts: number[][] = [];
  const indices = new Uint32Array(n * 3);
  let volume = 0;
  for (let t = 0; t < n; t++) {
    const v: number[][] = [];
    for (let i = 0; i < 3; i++) {
      const at = 84 + t * 50 + 12 + i * 12;
      const p = [view.getFloat32(at, true), view.getFloat32(at + 4, true), view.getFloat32(at + 8, true)];
      const key = p.join(',');
      let id = ids.get(key);
      if (id === undefined) ids.set(key, (id = pts.push(p) - 1));
      indices[t * 3 + i] = id;
      v.push(p);
    }
    const [a, b, c] = v as [number[], number[], number[]];
    volume += (a[0]! * (b[1]! * c[2]! - b[2]! * c[1]!) - a[1]! * (b[0]! * c[2]! - b[2]! * c[0]!) + a[2]! * (b[0]! * c[1]! - b[1]! * c[0]!)) / 6;
  }
  return { indices, volume, triangles: n };
}

test.describe('Excel kit', () => {
  test.use({ locale: 'en-US' });

  test('exports the filtered entries and re-imports them with one bad row, whose reason is shown', async ({ page, request }) => {
    const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
    const typeId = (await api(request, admin, '/admin/dict/type/add', { name: 'Excel e2e', key: 'excelE2e' })).id as number;
    for (const name of ['Rose', 'Ruby', 'Blue']) await api(request, admin, '/admin/dict/info/add', { typeId, name, value: name.toLowerCase() });
    await signInViaApi(page);
    await page.goto('/dict/list');
    await page.getByRole('button', { name: /Excel e2e/ }).click();
    await expect(page.getByRole('row', { name: /Blue/ })).toBeVisible();
    await page.getByLabel('Keyword').fill('r');
    await page.getByLabel('Keyword').press('Enter');
    await expect(page.getByRole('row', { name: /Blue/ })).toHaveCount(0);

    const toolbar = page.getByRole('toolbar', { name: 'Table toolbar' });
    const [download] = await Promise.all([page.waitForEvent('download'), toolbar.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toBe('dict-entries.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const names: string[] = [];
    sheet.eachRow((row, n) => n > 1 && names.push(row.getCell(3).text));
    expect(names.sort()).toEqual(['Rose', 'Ruby']);

    // One bad row (no name) at the end.
    sheet.addRow([null, typeId, '', 'nameless']);
    const file = test.info().outputPath('entries.xlsx');
    await wb.xlsx.writeFile(file);
    await page.locator('input[type="file"][aria-label="Import"]').setInputFiles(file);
    const result = page.getByRole('dialog', { name: 'Import result' });
    await expect(result).toContainText('2 created, 1 skipped.');
    await expect(result.getByRole('row', { name: /4/ })).toContainText('Name cannot be empty');
    await page.screenshot({ path: test.info().outputPath('excel-import-result.png') });
    await result.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByRole('row', { name: /Rose/ })).toHaveCount(2);
  });
});

for (const [lang, locale, title, excelName] of [
  ['zh', 'zh-CN', '插件列表', 'Excel 导入导出'],
  ['en', 'en-US', 'Plugin list', 'Excel import and export'],
  ['de', 'de-DE', 'Plugin-Liste', 'Excel-Import und -Export'],
] as const) {
  test.describe(`plugin list (${lang})`, () => {
    test.use({ locale });
    test(`lists the built-in plugins in ${lang}`, async ({ page }) => {
      await signInViaApi(page);
      await page.goto('/sys/plugin');
      await expect(page.getByRole('row', { name: new RegExp(excelName) })).toBeVisible();
      await expect(page.locator('tbody tr')).toHaveCount(6);
      await expect(page.getByText(title).first()).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`plugins-${lang}.png`) });
    });
  });
}

test.describe('plugins and hardening', () => {
  test.use({ locale: 'en-US' });

  test('disabling the Excel kit hides its buttons; enabling shows them again', async ({ page }) => {
    await signInViaApi(page);
    await page.goto('/sys/plugin');
    const row = page.getByRole('row', { name: /Excel import and export/ });
    await row.getByRole('button', { name: 'Disable' }).click();
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', '0');
    await page.goto('/dict/list');
    const toolbar = page.getByRole('toolbar', { name: 'Table toolbar' });
    await expect(toolbar.getByRole('button', { name: 'Refresh' })).toBeVisible();
    await expect(toolbar.getByRole('button', { name: 'Export' })).toHaveCount(0);
    await page.goto('/sys/plugin');
    await page.getByRole('row', { name: /Excel import and export/ }).getByRole('button', { name: 'Enable' }).click();
    await expect(page.getByRole('row', { name: /Excel import and export/ }).locator('[data-status]')).toHaveAttribute('data-status', '1');
    await page.goto('/dict/list');
    await expect(page.getByRole('toolbar', { name: 'Table toolbar' }).getByRole('button', { name: 'Export' })).toBeVisible();
  });

  test('disabling the markdown editor: its demo page says so instead of the editor; enabled again, it is back', async ({ page }) => {
    await signInViaApi(page);
    await page.goto('/demo/markdown');
    await expect(page.getByTestId('markdown-preview')).toBeVisible();
    await page.goto('/sys/plugin');
    const row = page.getByRole('row', { name: /Markdown/ });
    await row.getByRole('button', { name: 'Disable' }).click();
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', '0');
    await page.goto('/demo/markdown');
    await expect(page.getByRole('status').filter({ hasText: 'This plugin is disabled' })).toBeVisible();
    await expect(page.getByTestId('markdown-preview')).toHaveCount(0);
    await page.goto('/sys/plugin');
    await page.getByRole('row', { name: /Markdown/ }).getByRole('button', { name: 'Enable' }).click();
    await expect(page.getByRole('row', { name: /Markdown/ }).locator('[data-status]')).toHaveAttribute('data-status', '1');
    await page.goto('/demo/markdown');
    await expect(page.getByTestId('markdown-preview')).toBeVisible();
  });

  test('hardening on blocks the browser menu and the developer keys, the editor still pans with the right button; off, nothing is blocked', async ({ page, request }) => {
    test.setTimeout(180_000);
    const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
    const param = (await api(request, admin, '/admin/base/sys/param/add', { name: 'Client hardening', keyName: 'clientHardening', data: '1', dataType: 0 })).id as number;
    const lower = jawMesh();
    const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
    const order = await designerWithOrder(request, { username: 'harden-designer', name: 'Hanna', patientName: 'Hugo Hart', upper, lower });
    try {
      await signInViaApi(page, 'harden-designer', 'harden-designer-pass');
      await page.goto('/order/list');
      await expect(page.locator('html')).toHaveAttribute('data-hardening', 'on');
      const seen = await watchEvents(page);
      await page.getByRole('toolbar', { name: 'Table toolbar' }).click({ button: 'right', position: { x: 4, y: 4 } });
      await page.keyboard.press('F12');
      await page.keyboard.press('Control+Shift+I');
      await page.keyboard.press('Control+u');
      await page.keyboard.press('a');
      await expect.poll(() => seen()).toEqual({ menus: [true], keys: ['a'] });

      // The editor: a right-button drag pans (the camera's target moves), the browser menu stays shut.
      await page.goto(`/bend?orderId=${order.id}`);
      await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
      await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
      await settle(page);
      const viewport = page.getByTestId('viewport');
      const before = await viewport.getAttribute('data-camera-target');
      const seenEditor = await watchEvents(page);
      const box = (await viewport.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down({ button: 'right' });
      for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width / 2 + i * 12, box.y + box.height / 2 + i * 6);
      await page.mouse.up({ button: 'right' });
      await expect.poll(() => viewport.getAttribute('data-camera-target')).not.toBe(before);
      await expect.poll(async () => (await seenEditor()).menus.every((prevented) => prevented)).toBe(true);

      // Off: the menu and the keys reach the page again.
      await api(request, admin, '/admin/base/sys/param/delete', { ids: [param] });
      await page.goto('/order/list');
      await expect(page.locator('html')).toHaveAttribute('data-hardening', 'off');
      const seenOff = await watchEvents(page);
      await page.getByRole('toolbar', { name: 'Table toolbar' }).click({ button: 'right', position: { x: 4, y: 4 } });
      await page.keyboard.press('F12');
      await expect.poll(() => seenOff()).toEqual({ menus: [false], keys: ['F12'] });
    } finally {
      await request.post('/admin/base/sys/param/delete', { headers: { Authorization: admin }, data: { ids: [param] } });
    }
  });

  test('the editor exports wires and models as closed STL meshes, one file each or one together', async ({ page, request }) => {
    test.setTimeout(180_000);
    const lower = jawMesh();
    const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
    const order = await designerWithOrder(request, { username: 'stl-designer', name: 'Stella', patientName: 'Stan Stl', upper, lower });
    const clasp = [[-4, -20, 6], [6, -20, 6], [6, -14, 6], [-4, -14, 6]];
    await api(request, order.token, '/admin/design/save', {
      orderId: order.id,
      baseVersion: 0,
      data: { schemaVersion: 1, measurements: [], wires: [{ id: 'clasp-1', type: 'singleArmClasp', jaw: 'upper', diameter: 0.8, clearance: 0.1, points: clasp.map((point) => ({ point })), anchors: [] }] },
    });
    await signInViaApi(page, 'stl-designer', 'stl-designer-pass');
    await page.goto(`/bend?orderId=${order.id}`);
    await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await settle(page, { wires: '1' });
    const downloads: Download[] = [];
    page.on('download', (d) => downloads.push(d));

    await page.getByTestId('action-export.stl').click();
    const dialog = page.getByTestId('export-stl-dialog');
    await expect(dialog.getByLabel(/Bases/)).toBeDisabled();
    await dialog.getByLabel(/Models/).check();
    await dialog.getByLabel('One file per part').check();
    await page.screenshot({ path: test.info().outputPath('export-stl-dialog.png') });
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await expect.poll(() => downloads.length, { timeout: 60_000 }).toBe(3);
    expect(downloads.map((d) => d.suggestedFilename()).sort()).toEqual(['model-lower.stl', 'model-upper.stl', 'wire-1-singleArmClasp-upper.stl']);
    let sum = 0;
    for (const d of downloads) {
      const stl = readStl(fs.readFileSync((await d.path())!));
      expect(edgeReport(stl.indices), d.suggestedFilename()).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
      expect(stl.volume).toBeGreaterThan(0);
      sum += stl.triangles;
    }

    // Together: one file with every part.
    await page.getByTestId('action-export.stl').click();
    await dialog.getByLabel(/Models/).check();
    await dialog.getByLabel('All parts in one file').check();
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await expect.poll(() => downloads.length, { timeout: 60_000 }).toBe(4);
    expect(downloads[3]!.suggestedFilename()).toBe('design.stl');
    const merged = readStl(fs.readFileSync((await downloads[3]!.path())!));
    expect(merged.triangles).toBe(sum);
    expect(edgeReport(merged.indices)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
  });
});

/** Records, from now on, whether each context menu event had its default prevented and which keys reached the page. */
async function watchEvents(page: Page): Promise<() => Promise<{ menus: boolean[]; keys: string[] }>> {
  await page.evaluate(() => {
    const w = window as unknown as { __seen: { menus: boolean[]; keys: string[] } };
    w.__seen = { menus: [], keys: [] };
    window.addEventListener('contextmenu', (e) => w.__seen.menus.push(e.defaultPrevented));
    // Modifier presses of a chord reach the page either way: only the chord's key counts.
    window.addEventListener('keydown', (e) => !['Control', 'Shift', 'Alt', 'Meta'].includes(e.key) && w.__seen.keys.push(e.key));
  });
  return () => page.evaluate(() => (window as unknown as { __seen: { menus: boolean[]; keys: string[] } }).__seen);
}
