import fs from 'node:fs';
import { test, expect, type Browser } from '@playwright/test';
import { signIn, signInViaApi } from './helpers.ts';

// The AI coding helper against the real server: a module described in one sentence (the rules
// of epsFieldType: no language model is configured here), reviewed, its sources seen and
// downloaded, created live, used from its menu entry, and removed again; the page in zh, en, de.
const SHOTS = process.env.AI_CODE_SHOTS ?? 'test-results/ai-code';

test.use({ locale: 'en-US' });

test('an admin turns one sentence into a live module, uses it from the menu and removes it', async ({ page }) => {
  await signIn(page);
  await page.goto('/helper/ai-code');
  await page.getByLabel('Sentence').fill('A novel with title, author, price, publish date, status and remark');
  await page.getByRole('button', { name: 'Generate fields' }).click();
  await expect(page.getByTestId('parse-note')).toHaveText('The fields were made by the rules.');

  // The fields to review: names, labels and types from the rules.
  const rows = page.getByTestId('field-row');
  await expect(rows).toHaveCount(6);
  await expect(page.getByLabel('Field name 1', { exact: true })).toHaveValue('title');
  await expect(page.getByLabel('Type 3', { exact: true })).toHaveValue('number');
  await expect(page.getByLabel('Type 4', { exact: true })).toHaveValue('date');
  await expect(page.getByLabel('Type 5', { exact: true })).toHaveValue('enum');
  await expect(page.getByLabel('Dictionary or options 5', { exact: true })).toHaveValue('active, inactive');
  await expect(page.getByLabel('Module name')).toHaveValue('novel');
  await expect(page.getByLabel('Table name')).toHaveValue('mod_novel');
  await page.getByLabel('Menu name').fill('Novels');
  // The author is searched too.
  await page.getByLabel('Searchable 2', { exact: true }).check();

  // Both sources, side by side, read-only, and downloadable.
  await page.getByRole('button', { name: 'Show source' }).click();
  const sources = page.getByTestId('sources');
  // (CodeMirror renders the lines in view: the files' first lines.)
  await expect(sources.getByLabel('Server module').locator('.cm-content')).toContainText('// Novels: /admin/gen/novel over the generic resource service');
  await expect(sources.getByLabel('Page source').locator('.cm-content')).toContainText('/** Novels: the list, search and form of /admin/gen/novel');
  await expect(sources.getByLabel('Server module').locator('.cm-content')).toHaveAttribute('contenteditable', 'false');
  const [serverFile] = await Promise.all([page.waitForEvent('download'), sources.getByRole('button', { name: 'Download' }).first().click()]);
  expect(serverFile.suggestedFilename()).toBe('novel.module.ts');
  expect(fs.readFileSync((await serverFile.path())!, 'utf8')).toContain('table: "mod_novel"');
  const [pageFile] = await Promise.all([page.waitForEvent('download'), sources.getByRole('button', { name: 'Download' }).last().click()]);
  expect(pageFile.suggestedFilename()).toBe('novel.list.tsx');
  expect(fs.readFileSync((await pageFile.path())!, 'utf8')).toContain('<CrudPage service="/admin/gen/novel"');
  await page.screenshot({ path: `${SHOTS}/ai-code-en.png`, fullPage: true });

  await page.getByRole('button', { name: 'Create module' }).click();
  await expect(page.getByText('Module created', { exact: true })).toBeVisible();
  await expect(page.getByTestId('module-novel')).toBeVisible();

  // Its page, from the menu the server now gives.
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  // (A group of one page shows as that page's link.)
  await nav.getByRole('link', { name: 'Novels' }).click();
  await expect(page).toHaveURL(/\/gen\/novel$/);
  const toolbar = page.getByRole('toolbar', { name: 'Table toolbar' });
  const dialog = page.getByRole('dialog');
  for (const [title, author, price, status] of [
    ['Dune', 'Frank Herbert', '9.5', 'active'],
    ['Solaris', 'Stanisław Lem', '7', 'inactive'],
  ] as const) {
    await toolbar.getByRole('button', { name: 'Add' }).click();
    await dialog.getByLabel('title', { exact: true }).fill(title);
    await dialog.getByLabel('author', { exact: true }).fill(author);
    await dialog.getByLabel('price', { exact: true }).fill(price);
    await dialog.getByLabel('status', { exact: true }).selectOption(status);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
  }
  const table = page.getByRole('table');
  await expect(table.getByRole('row', { name: /Dune/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Solaris/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/generated-en.png` });

  // Search by a searchable field (the author).
  await page.getByPlaceholder('Search keyword').fill('Lem');
  await expect(table.getByRole('row', { name: /Dune/ })).toHaveCount(0);
  await expect(table.getByRole('row', { name: /Solaris/ })).toBeVisible();
  await page.getByPlaceholder('Search keyword').fill('');
  await expect(table.getByRole('row', { name: /Dune/ })).toBeVisible();

  // Delete one.
  await table.getByRole('row', { name: /Dune/ }).getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Delete successful', { exact: true })).toBeVisible();
  await expect(table.getByRole('row', { name: /Dune/ })).toHaveCount(0);
  await expect(table.getByRole('row', { name: /Solaris/ })).toBeVisible();

  // Back on the helper, kept alive (once, though the menu was loaded again): the draft is still there.
  await nav.getByRole('link', { name: 'AI coding' }).click();
  await expect(page.getByLabel('Sentence')).toHaveValue('A novel with title, author, price, publish date, status and remark');
  await expect(page.getByTestId('ai-code')).toHaveCount(1);

  // Removed again (after a confirmation): its menu entry is gone.
  await page.goto('/helper/ai-code');
  await page.getByTestId('module-novel').getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('mod_novel');
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Module removed', { exact: true })).toBeVisible();
  await expect(page.getByTestId('module-novel')).toHaveCount(0);
  await expect(nav.getByText('Novels')).toHaveCount(0);
});

async function shot(browser: Browser, locale: string, file: string, sentence: string, button: string) {
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signInViaApi(page);
  await page.goto('/helper/ai-code');
  await page.getByRole('textbox').first().fill(sentence);
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByTestId('field-row')).toHaveCount(5);
  await page.screenshot({ path: `${SHOTS}/${file}`, fullPage: true });
  await context.close();
}

test('the helper speaks zh and de', async ({ browser }) => {
  await shot(browser, 'zh-CN', 'ai-code-zh.png', '员工，包含名称、工资、入职时间、状态和备注', '生成字段');
  await shot(browser, 'de-DE', 'ai-code-de.png', 'An employee with name, wages, start time, status and remark', 'Felder erzeugen');
});
