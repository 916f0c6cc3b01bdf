import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, animationsDone, apiLogin, signInViaApi } from './helpers.ts';
import { asciiStl, binaryStl, cubeStl, cubeTriangles, sphereStl } from '../fixtures/stl.ts';

/** A 2 × 2 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGNwTL0ORAwQCgAnYgX1yCFt5wAAAABJRU5ErkJggg==', 'base64');

test.use({ locale: 'en-US' });

/** A role granted the order list page and its Add/Delete/Update/Query entries, and two designers holding it. */
async function createDesigners(request: APIRequestContext): Promise<void> {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const headers = { Authorization: admin };
  const { menus } = (await (await request.get('/admin/base/comm/permmenu', { headers })).json()).data as {
    menus: { id: number; parentId: number | null; name: string; router: string | null; perms: string | null }[];
  };
  const list = menus.find((m) => m.router === '/order/list')!;
  const granted = [list.parentId!, list.id, ...menus.filter((m) => m.parentId === list.id && m.perms !== 'order:info:all').map((m) => m.id)];
  const role = await (await request.post('/admin/base/sys/role/add', { headers, data: { name: 'order-designer', label: 'order-designer', menuIdList: granted, relevance: 1 } })).json();
  expect(role.code, JSON.stringify(role)).toBe(1000);
  for (const username of ['orders-designer-a', 'orders-designer-b']) {
    const add = await request.post('/admin/base/sys/user/add', {
      headers,
      data: { username, password: `${username}-pass`, name: username, nickName: username, status: 1, roleIdList: [role.data.id] },
    });
    expect((await add.json()).code).toBe(1000);
  }
}

test('a designer creates an order with an STL upload; another designer neither sees it nor gets it by id', async ({ page, request }) => {
  await createDesigners(request);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-orders-'));
  const upper = path.join(dir, 'upper-jaw.stl');
  fs.writeFileSync(upper, sphereStl({ radius: 20, segments: 96, rings: 48 }));
  const notStl = path.join(dir, 'photo.png');
  fs.writeFileSync(notStl, cubeStl());

  await signInViaApi(page, 'orders-designer-a', 'orders-designer-a-pass');
  await page.goto('/order/list');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Add' })).toBeVisible();

  // Without a model the form says what is missing.
  await dialog.getByLabel('Patient').fill('Erika Mustermann');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Please upload the upper or lower model')).toBeVisible();

  // Only .stl files are taken.
  await dialog.getByLabel('Upper model').setInputFiles(notStl);
  await expect(dialog.getByText('Only STL files are accepted')).toBeVisible();

  await dialog.getByLabel('Upper model').setInputFiles(upper);
  await expect(dialog.getByText('upper-jaw.stl')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Download' })).toBeVisible();
  await dialog.getByLabel('Remark').fill('Upper only');
  await page.screenshot({ path: test.info().outputPath('orders-dialog-en.png') });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row', { name: /Erika Mustermann/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText(/AW-\d{8}-\d{4}/);
  await expect(row).toContainText('In design');
  await expect(row).toContainText('Not enabled');
  await expect(row).toContainText('orders-designer-a');
  await page.screenshot({ path: test.info().outputPath('orders-list-en.png') });

  // Editing shows the stored model.
  await row.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(dialog.getByText('upper-jaw.stl')).toBeVisible();
  await expect(dialog.getByLabel('Patient')).toHaveValue('Erika Mustermann');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();

  // Saving while a model is still uploading waits for the upload, then saves the order with it.
  const lower = path.join(dir, 'lower-jaw.stl');
  fs.writeFileSync(lower, cubeStl({ size: 30 }));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/admin/base/comm/upload', async (route) => {
    await gate;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await dialog.getByLabel('Patient').fill('Hans Beispiel');
  await dialog.getByLabel('Lower model').setInputFiles(lower);
  await expect(dialog.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeVisible();
  release();
  await expect(page.getByRole('row', { name: /Hans Beispiel/ })).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.unroute('**/admin/base/comm/upload');

  // The row action opens the editor for this order.
  const tokenA = await page.evaluate(() => JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string);
  const mine = await (await request.post('/admin/order/info/page', { headers: { Authorization: tokenA }, data: {} })).json();
  const order = mine.data.list.find((o: { patientName: string }) => o.patientName === 'Erika Mustermann');
  expect(order.upperFile.name).toBe('upper-jaw.stl');
  const waited = mine.data.list.find((o: { patientName: string }) => o.patientName === 'Hans Beispiel');
  expect(waited.lowerFile.name).toBe('lower-jaw.stl');
  await row.getByRole('button', { name: 'Open in editor' }).click();
  await expect(page).toHaveURL(new RegExp(`/bend\\?orderId=${order.id}$`));

  // Designer B: an empty list, and nothing by id, neither the order nor its model file.
  await page.evaluate(() => localStorage.removeItem('aw.session'));
  await signInViaApi(page, 'orders-designer-b', 'orders-designer-b-pass');
  await page.goto('/order/list');
  // The list's answer first ("No data" shows only once it has come), then what it lacks.
  await expect(page.getByText(/No data/i)).toBeVisible();
  await expect(page.getByText('Erika Mustermann')).toHaveCount(0);
  const tokenB = await apiLogin(request, 'orders-designer-b', 'orders-designer-b-pass');
  const info = await (await request.get(`/admin/order/info/info?id=${order.id}`, { headers: { Authorization: tokenB, 'Accept-Language': 'en' } })).json();
  expect(info).toEqual({ code: 1001, message: 'Data does not exist' });
  const file = await request.get(order.upperFile.url, { headers: { Authorization: tokenB } });
  expect(file.status()).toBe(404);
  // Designer A still gets the bytes, as the editor's worker will (fetch with the token header).
  const own = await request.get(order.upperFile.url, { headers: { Authorization: tokenA } });
  expect(own.status()).toBe(200);
  expect((await own.body()).byteLength).toBe(fs.statSync(upper).size);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('an ASCII bite scan among two is converted in the worker and merged; the order is remade from the list', async ({ page }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-orders-'));
  const write = (name: string, bytes: Uint8Array) => (fs.writeFileSync(path.join(dir, name), bytes), path.join(dir, name));
  const upper = write('remake-upper.stl', cubeStl({ size: 30 }));
  const lower = write('remake-lower.stl', cubeStl({ size: 28 }));
  const left = write('bite-left.stl', binaryStl(cubeTriangles(8, [-10, 0, 0])));
  const right = write('bite-right.stl', asciiStl(cubeTriangles(8, [10, 0, 0])));

  await signInViaApi(page);
  await page.goto('/order/list');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Patient').fill('Rita Remake');
  await dialog.getByLabel('Upper model').setInputFiles(upper);
  await dialog.getByLabel('Lower model').setInputFiles(lower);
  await dialog.getByLabel('Occlusion model').setInputFiles([left, right]);
  await expect(dialog.getByText('2 bite scans combined into one occlusion model (bite-right.stl converted from ASCII STL)')).toBeVisible();
  await expect(dialog.getByText('bite-left+bite-right.stl')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  // Remake: a new order for another patient name; the list shows it and its form opens.
  await page.getByRole('row', { name: /Rita Remake/ }).getByRole('button', { name: 'Remake' }).click();
  const remake = page.getByRole('dialog');
  await expect(remake.getByRole('heading', { name: /^Remake AW-/ })).toBeVisible();
  await remake.getByLabel('Patient').fill('Rita Remake II');
  await remake.getByRole('button', { name: 'Create remake' }).click();
  await expect(page.getByText(/^Remake AW-\d{8}-\d{4} created$/)).toBeVisible();
  const form = page.getByRole('dialog');
  await expect(form.getByRole('heading', { name: 'Edit' })).toBeVisible();
  await expect(form.getByLabel('Patient')).toHaveValue('Rita Remake II');
  await expect(form.getByText('bite-left+bite-right.stl')).toBeVisible();
  await form.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('row', { name: /Rita Remake II/ })).toBeVisible();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a damaged model gets a warning after its upload; the user keeps it or removes it', async ({ page }) => {
  // Two shells (a second cube beside the first) and a fin on one of the cube's edges.
  const fin = new Float32Array([-5, -5, 5, 5, -5, 5, 0, -15, 5]);
  const parts = [cubeTriangles(), cubeTriangles(4, [20, 0, 0]), fin];
  const soup = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((o, p) => (soup.set(p, o), o + p.length), 0);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-orders-'));
  const damaged = path.join(dir, 'damaged-scan.stl');
  fs.writeFileSync(damaged, binaryStl(soup));

  await signInViaApi(page);
  await page.goto('/order/list');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Patient').fill('Damaged Scan');
  await dialog.getByLabel('Upper model').setInputFiles(damaged);
  const warning = dialog.getByTestId('model-health');
  await expect(warning).toHaveText(/The model has 2 shells and 1 non-manifold edge: check the scan\./);
  await page.screenshot({ path: test.info().outputPath('orders-damaged-model-en.png') });
  // Remove: the slot is empty again.
  await warning.getByRole('button', { name: 'Remove' }).click();
  await expect(warning).toBeHidden();
  await expect(dialog.getByText('damaged-scan.stl')).toHaveCount(0);
  // Keep it: the warning goes, the model stays and the order saves with it.
  await dialog.getByLabel('Upper model').setInputFiles(damaged);
  await warning.getByRole('button', { name: 'Keep it' }).click();
  await expect(warning).toBeHidden();
  await expect(dialog.getByText('damaged-scan.stl')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  await expect(page.getByRole('row', { name: /Damaged Scan/ })).toBeVisible();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('devices: the key is shown once after adding; the pages read well in zh and de', async ({ page }) => {
  await signInViaApi(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/device/list');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Device name').fill('Bender A');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const key = page.getByTestId('device-key');
  await expect(key).toHaveText(/^awd_[A-Za-z0-9_-]{43}$/);
  const shown = await key.textContent();
  await page.screenshot({ path: test.info().outputPath('device-key-en.png') });
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row', { name: /Bender A/ });
  await expect(row).toContainText(`awd_…${shown!.slice(-4)}`);
  await expect(row).not.toContainText(shown!);

  // Bind a user, then a calibration table for one of the device's diameters.
  await row.getByRole('button', { name: 'Users', exact: true }).click();
  const users = page.getByRole('dialog', { name: 'Users of Bender A' });
  await users.getByLabel('User').selectOption({ label: 'admin' });
  await users.getByRole('button', { name: 'Bind', exact: true }).click();
  await expect(users.getByRole('listitem')).toHaveCount(1);
  await expect(users.getByRole('listitem')).toContainText('admin');
  await page.keyboard.press('Escape');
  await expect(users).toBeHidden();

  await row.getByRole('button', { name: 'Calibration', exact: true }).click();
  const calibration = page.getByRole('dialog', { name: 'Calibration of Bender A' });
  await calibration.getByRole('button', { name: 'Add', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'Add' });
  await form.getByLabel('Wire diameter (mm)').selectOption('0.8');
  await form.getByLabel('Springback').fill('90, 2\n45, 1');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Angles must rise from line to line')).toBeVisible();
  await form.getByLabel('Springback').fill('0, 0\n45, 1.5\n90, 3.2');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(calibration.getByRole('row', { name: /0\.8/ })).toContainText('3');
  await page.screenshot({ path: test.info().outputPath('calibration-en.png') });
  await page.keyboard.press('Escape');

  await page.goto('/device/api-config');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const api = page.getByRole('dialog', { name: 'Add' });
  await api.getByLabel('Name').fill('Design vendor');
  await api.getByLabel(/^\W*URL$/).fill('https://ai.example.com/v1');
  await api.getByLabel('Key').fill('sk-secret-value-9876');
  await api.getByRole('radio', { name: 'AI service' }).check();
  await api.getByRole('button', { name: 'Save' }).click();
  // The signing secret, shown this once.
  await expect(page.getByRole('dialog', { name: 'Signing secret' })).toBeVisible();
  const secret = page.getByTestId('device-key');
  await expect(secret).toHaveText(/^[A-Za-z0-9_-]{43}$/);
  const signing = await secret.textContent();
  await page.getByRole('button', { name: 'Done' }).click();
  const apiRow = page.getByRole('row', { name: /Design vendor/ });
  await expect(apiRow).toContainText('••••9876');
  await expect(apiRow).toContainText('AI service');
  await expect(apiRow).not.toContainText('sk-secret');
  await expect(page.getByText(signing!)).toHaveCount(0);

  for (const [lang, orders, devices] of [['zh', '订单列表', '设备名称'], ['de', 'Fallnummer', 'Gerätename']] as const) {
    await page.evaluate((l) => localStorage.setItem('aw.lang', l), lang);
    await page.goto('/order/list');
    await expect(page.getByText(orders).first()).toBeVisible();
    await page.getByRole('button', { name: lang === 'zh' ? '新增' : 'Hinzufügen', exact: true }).click();
    await expect(page.getByRole('dialog').getByText(lang === 'zh' ? '上颌模型' : 'Oberkiefer')).toBeVisible();
    // An admin may hand the order to a designer.
    await expect(page.getByRole('dialog').getByLabel(lang === 'zh' ? '设计师' : 'Konstrukteur')).toBeVisible();
    // Let the dialog's fade-in finish before the screenshot.
    await animationsDone(page.getByRole('dialog'));
    await page.screenshot({ path: test.info().outputPath(`orders-dialog-${lang}.png`) });
    await page.keyboard.press('Escape');
    await page.goto('/device/list');
    await expect(page.getByText(devices).first()).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`devices-${lang}.png`) });
    await page.goto('/space/list');
    await expect(page.getByRole('button', { name: lang === 'zh' ? '全部文件' : 'Alle Dateien' })).toBeVisible();
    if (lang === 'zh') {
      // An uploaded image shows as a thumbnail (its signed link needs no token).
      await page.getByLabel('上传文件').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
      const thumb = page.getByRole('row', { name: /logo\.png/ }).locator('img');
      await expect(thumb).toBeVisible();
      await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
    }
    await page.screenshot({ path: test.info().outputPath(`space-${lang}.png`) });
    await page.goto('/order/time');
    await expect(page.getByText(lang === 'zh' ? '设计开始' : 'Konstruktion begonnen')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`time-${lang}.png`) });
  }
});
