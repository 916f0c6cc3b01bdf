// The plugin demo pages (Plugins / Demo in the menu): each opens in zh, en and de; a region is
// picked for a delivery address that the order form then offers; the markdown editor uploads an
// image into the file space; rich text with script is stored sanitised; the demo list searches.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { cubeStl } from '../fixtures/stl.ts';
import { signInViaApi } from './helpers.ts';

test.use({ locale: 'en-US' });

const shoot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Each page, and what shows it is loaded, per language. */
const PAGES: { path: string; ready: (page: Page) => ReturnType<Page['locator']>; names: Record<'zh' | 'en' | 'de', string> }[] = [
  { path: '/demo/region', ready: (p) => p.getByTestId('region-trigger'), names: { zh: '省市区选择器', en: 'Region picker', de: 'Regionsauswahl' } },
  { path: '/demo/address', ready: (p) => p.getByRole('columnheader', { name: /Recipient|收货人|Empfänger/ }), names: { zh: '收货人', en: 'Recipient', de: 'Empfänger' } },
  { path: '/demo/markdown', ready: (p) => p.locator('#md-demo'), names: { zh: 'Markdown 编辑器', en: 'Markdown editor', de: 'Markdown-Editor' } },
  { path: '/demo/code', ready: (p) => p.locator('.cm-editor'), names: { zh: '代码编辑器', en: 'Code editor', de: 'Code-Editor' } },
  { path: '/demo/preview', ready: (p) => p.getByTestId('preview-output').locator('h1'), names: { zh: '编辑器预览', en: 'Editor preview', de: 'Editor-Vorschau' } },
  { path: '/demo/rich-text', ready: (p) => p.getByTestId('rich-text-editor').locator('.ProseMirror'), names: { zh: '富文本编辑器', en: 'Rich text editor', de: 'Rich-Text-Editor' } },
  { path: '/demo/upload', ready: (p) => p.getByTestId('upload-drop'), names: { zh: '文件上传', en: 'File upload', de: 'Datei-Upload' } },
  { path: '/demo/layout', ready: (p) => p.getByRole('navigation', { name: /Pag|分页|Seite/ }).or(p.getByText('436')).first(), names: { zh: '视图布局', en: 'View layout', de: 'Ansichtslayout' } },
  { path: '/demo/list', ready: (p) => p.getByTestId('demo-wages-sum'), names: { zh: '工资', en: 'Wages', de: 'Gehalt' } },
];

test('every plugin page opens in zh, en and de under the CSP, and the preview never runs script', async ({ page }) => {
  page.on('dialog', () => {
    throw new Error('a script ran: a dialog opened');
  });
  // The editors (markdown, code, rich text) load and run without breaking the CSP.
  const violations: string[] = [];
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && violations.push(m.text()));
  await signInViaApi(page);
  for (const lang of ['zh', 'en', 'de'] as const) {
    await page.goto('/');
    await page.evaluate((l) => localStorage.setItem('aw.lang', l), lang);
    for (const p of PAGES) {
      await page.goto(p.path);
      await expect(p.ready(page)).toBeVisible();
      await expect(page.getByText(p.names[lang], { exact: true }).first()).toBeVisible();
      if (lang !== 'en' || ['/demo/layout', '/demo/code', '/demo/upload', '/demo/preview'].includes(p.path)) await shoot(page, `plugin-${p.path.slice(6)}-${lang}`);
    }
  }
  expect(violations).toEqual([]);
  // The preview's sample holds a script and an onerror handler: sanitised away, never run (the
  // browser may still report the handler it saw while the sanitiser parsed the sample inertly).
  await page.goto('/demo/preview');
  const output = page.getByTestId('preview-output');
  await expect(output.getByRole('heading', { name: 'Steps' })).toBeVisible();
  await expect(output.locator('script')).toHaveCount(0);
  await page.getByRole('radio', { name: 'HTML' }).click();
  await expect(output.getByRole('heading', { name: 'Clasp' })).toBeVisible();
  await expect(output.locator('script, [onerror]')).toHaveCount(0);
});

test('a delivery address with a picked region is offered on the order form', async ({ page }) => {
  await signInViaApi(page);
  await page.goto('/demo/address');
  await page.getByRole('toolbar', { name: 'Table toolbar' }).getByRole('button', { name: 'Add' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Recipient').fill('Li Lei');
  await dialog.getByLabel('Phone').fill('13800001234');
  // The division data is held back until the search is typed: what was typed meanwhile stays.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/assets/pca-code-*.js', async (route) => {
    await held;
    await route.continue();
  });
  await dialog.getByTestId('region-trigger').click();
  const regionSearch = page.getByRole('searchbox', { name: 'Search a district or city' });
  await regionSearch.fill('东城');
  release();
  await expect(regionSearch).toHaveValue('东城');
  await page.getByRole('option', { name: '北京市 / 市辖区 / 东城区' }).click();
  await expect(dialog.getByTestId('region-trigger')).toHaveText('北京市 / 市辖区 / 东城区');
  await dialog.getByRole('textbox', { name: 'Address' }).fill('Dongzhimen 1');
  await shoot(page, 'plugin-address-dialog-en');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  const row = page.getByRole('row', { name: /Li Lei/ });
  await expect(row).toContainText('北京市 / 市辖区 / 东城区');
  await expect(row).toContainText('Yes');

  // The cascading columns pick the same way: province, city, district.
  await page.goto('/demo/region');
  await page.getByTestId('region-trigger').click();
  await page.getByRole('listbox', { name: 'Province' }).getByRole('option', { name: '上海市' }).click();
  await page.getByRole('listbox', { name: 'City' }).getByRole('option', { name: '市辖区' }).click();
  await page.getByRole('listbox', { name: 'District' }).getByRole('option', { name: '浦东新区' }).click();
  await expect(page.getByTestId('region-result')).toContainText('31, 3101, 310115');

  // The order form offers the address; the order keeps it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-plugin-'));
  const upper = path.join(dir, 'upper.stl');
  fs.writeFileSync(upper, cubeStl());
  await page.goto('/order/list');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await dialog.getByLabel('Patient').fill('Address Patient');
  await dialog.getByLabel('Upper model').setInputFiles(upper);
  await expect(dialog.getByText('upper.stl')).toBeVisible();
  const address = dialog.getByTestId('order-address');
  await expect(address.locator('option', { hasText: 'Li Lei' })).toHaveCount(1);
  const value = await address.locator('option', { hasText: 'Li Lei' }).getAttribute('value');
  await address.selectOption(value!);
  await shoot(page, 'plugin-order-address-en');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  await page.getByRole('row', { name: /Address Patient/ }).getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(dialog.getByTestId('order-address')).toHaveValue(value!);
});

test('the markdown editor uploads an image into the file space; rich text is stored sanitised', async ({ page }) => {
  page.on('dialog', () => {
    throw new Error('a script ran: a dialog opened');
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-plugin-'));
  const png = path.join(dir, 'dot.png');
  fs.writeFileSync(png, PNG);
  await signInViaApi(page);

  await page.goto('/demo/markdown');
  const source = page.locator('#md-demo');
  await expect(source).toBeVisible();
  await source.fill('# Probe\n\n');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload image' }).click();
  await (await chooser).setFiles(png);
  await expect(source).toHaveValue(/!\[dot\]\(\/admin\/base\/open\/file\/\d+\/[\w-]+\)/);
  const preview = page.getByTestId('markdown-preview');
  await expect(preview.locator('img[src^="/admin/base/open/file/"]')).toBeVisible();
  // The image is served to the preview (a loaded image has a width).
  await expect.poll(() => preview.locator('img').first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await page.getByRole('textbox', { name: 'Title' }).fill('Markdown probe');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  await expect(page.getByTestId('saved-text').first()).toContainText('Markdown probe');
  await shoot(page, 'plugin-markdown-upload-en');

  await page.goto('/demo/rich-text');
  await expect(page.getByTestId('rich-text-editor')).toBeVisible();
  await page.getByLabel('Edit the HTML source').check();
  await page.getByRole('textbox', { name: 'HTML source' }).fill('<p>safe</p><img src="/x.png" onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">l</a>');
  await page.getByRole('textbox', { name: 'Title' }).fill('XSS probe');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  const saved = page.getByTestId('saved-text').first();
  await expect(saved).toContainText('XSS probe');
  await saved.getByText('Stored source').click();
  const stored = saved.getByTestId('saved-source');
  await expect(stored).toContainText('<p>safe</p><img src="/x.png" />');
  await expect(stored).not.toContainText('onerror');
  await expect(stored).not.toContainText('script');
  await expect(saved.locator('script, [onerror]')).toHaveCount(0);
  await shoot(page, 'plugin-rich-text-en');
});

test('the demo list searches by keyword and sums the wages of the matches', async ({ page }) => {
  await signInViaApi(page);
  await page.goto('/demo/list');
  const sum = page.getByTestId('demo-wages-sum');
  await expect(sum).toBeVisible();
  const before = await sum.textContent();
  await page.getByPlaceholder('Name or phone').fill('Müller');
  await expect(page.locator('tbody tr')).toHaveCount(2);
  await expect(page.locator('tbody tr').first()).toContainText('Müller');
  await expect(sum).not.toHaveText(before!);
  await shoot(page, 'plugin-demo-list-search-en');
});

test('the upload page takes files of the chosen kind, each with its progress and a thumbnail', async ({ page }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-plugin-'));
  const png = path.join(dir, 'photo.png');
  fs.writeFileSync(png, PNG);
  const text = path.join(dir, 'notes.txt');
  fs.writeFileSync(text, 'not an image');
  await signInViaApi(page);
  await page.goto('/demo/upload');
  await expect(page.getByTestId('upload-extensions')).toContainText('.png');
  await page.getByTestId('upload-input').setInputFiles([png, text]);
  const items = page.getByTestId('upload-item');
  await expect(items).toHaveCount(2);
  const image = items.filter({ hasText: 'photo.png' });
  await expect(image).toHaveAttribute('data-state', 'done');
  await expect(image.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(image.locator('img')).toHaveJSProperty('naturalWidth', 1);
  // A .txt file is not an image: refused before it is sent.
  const refused = items.filter({ hasText: 'notes.txt' });
  await expect(refused).toHaveAttribute('data-state', 'failed');
  await expect(refused).toContainText('Not a file of this kind');
  await shoot(page, 'plugin-upload-done-en');
});
