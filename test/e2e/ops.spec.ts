import { test, expect, type Page, type APIRequestContext } from '@playwright/test';
import { ADMIN_PASSWORD, signIn, signInViaApi } from './helpers.ts';

test.use({ locale: 'en-US' });

async function api(request: APIRequestContext, token: string, url: string, data?: unknown) {
  const res = data === undefined ? await request.get(url, { headers: { Authorization: token } }) : await request.post(url, { headers: { Authorization: token }, data });
  const body = await res.json();
  expect(body.code, `${url}: ${body.message}`).toBe(1000);
  return body.data;
}

/** A user whose only grant is the help document page; answers the admin's token. */
async function addReader(request: APIRequestContext): Promise<string> {
  const login = await request.post('/admin/base/open/login', { data: { username: 'admin', password: ADMIN_PASSWORD, captchaId: '', verifyCode: '' } });
  const { token } = (await login.json()).data as { token: string };
  const { menus } = await api(request, token, '/admin/base/comm/permmenu');
  const docPage = menus.find((m: { router: string | null }) => m.router === '/help/doc');
  const role = await api(request, token, '/admin/base/sys/role/add', { name: 'reader', label: 'Reader', menuIdList: [docPage.id] });
  await api(request, token, '/admin/base/sys/user/add', { username: 'reader1', password: 'reader-pass-1', name: 'Reader', status: 1, roleIdList: [role.id] });
  return token;
}

test('an admin writes and publishes a help article in markdown; a normal user reads it rendered', async ({ page, browser, request }) => {
  const adminToken = await addReader(request);
  await signInViaApi(page);
  await page.goto('/help/article');

  // A category first.
  const categories = page.getByRole('complementary', { name: 'Categories' });
  await categories.getByRole('button', { name: 'Add' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Getting started');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(categories.getByRole('button', { name: 'Getting started' })).toBeVisible();
  await categories.getByRole('button', { name: 'Getting started' }).click();

  // The article, written in markdown with a live preview, published.
  await page.getByRole('toolbar', { name: 'Table toolbar' }).getByRole('button', { name: 'Add' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title').fill('Bending a clasp');
  await dialog.getByLabel('Content').fill('## Steps\n\n1. Select the **arrow clasp**\n2. Check the <script>bad()</script>diameter');
  const preview = dialog.getByTestId('markdown-preview');
  await expect(preview.getByRole('heading', { name: 'Steps', level: 2 })).toBeVisible();
  await expect(preview.locator('strong')).toHaveText('arrow clasp');
  await expect(preview.locator('script')).toHaveCount(0);
  await dialog.getByLabel('Published').check();
  await page.screenshot({ path: test.info().outputPath('ops-article-editor.png') });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  const row = page.getByRole('row', { name: /Bending a clasp/ });
  await expect(row).toContainText('Published');
  await expect(row).toContainText('Getting started');

  // Release notes, already read by the admin: the reader sees them once, on first sign-in. They
  // are released now, after the reader's account was made (older notes count as read for it).
  const releaseTime = new Date(Date.now() + 1000).toISOString().slice(0, 19).replace('T', ' ');
  await expect.poll(() => new Date().toISOString().slice(0, 19).replace('T', ' ') >= releaseTime).toBe(true);
  const release = await api(request, adminToken, '/admin/base/sys/release/add', { version: '1.0.0', title: 'First release', content: '- Help centre', releaseTime });
  await api(request, adminToken, '/admin/base/sys/release/toReaded');

  // The reader sees only the help page and the article rendered.
  const context = await browser.newContext({ locale: 'en-US' });
  const reader = await context.newPage();
  await signIn(reader, 'reader1', 'reader-pass-1');
  const notes = reader.getByRole('dialog', { name: "What's new in version 1.0.0" });
  await expect(notes).toContainText('First release');
  await expect(notes.getByRole('listitem')).toHaveText('Help centre');
  await notes.getByRole('button', { name: 'Got it' }).click();
  await expect(notes).toBeHidden();
  await reader.goto('/help/doc');
  const nav = reader.getByRole('navigation', { name: 'Help documents' });
  await expect(nav.getByText('Getting started')).toBeVisible();
  await nav.getByRole('button', { name: 'Bending a clasp' }).click();
  const article = reader.locator('article');
  await expect(article.getByRole('heading', { name: 'Bending a clasp', level: 1 })).toBeVisible();
  await expect(article.getByRole('heading', { name: 'Steps', level: 2 })).toBeVisible();
  await expect(article.locator('ol > li')).toHaveCount(2);
  await expect(article.locator('strong')).toHaveText('arrow clasp');
  await expect(article.locator('script')).toHaveCount(0);
  // Read notes do not come back.
  await reader.reload();
  await expect(article.getByRole('heading', { name: 'Bending a clasp', level: 1 })).toBeVisible();
  await expect(reader.getByRole('dialog')).toHaveCount(0);
  await reader.screenshot({ path: test.info().outputPath('ops-help-reader.png') });
  await context.close();
  // The notes would greet every user the later spec files create (same server), over their pages.
  await api(request, adminToken, '/admin/base/sys/release/delete', { ids: [release.id] });
});

test('a task is added, started and run once; its log shows the run', async ({ page }) => {
  await signInViaApi(page);
  await page.goto('/task/list');
  // The seeded system tasks are there and running.
  await expect(page.getByRole('row', { name: /Request log purge/ })).toContainText('Running');

  await page.getByRole('toolbar', { name: 'Table toolbar' }).getByRole('button', { name: 'Add' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Trim the log');
  await dialog.getByLabel('Job').selectOption({ label: 'log.purge' });
  await dialog.getByLabel('Interval').check();
  await dialog.getByLabel('Every (ms)').fill('3600000');
  await dialog.getByLabel('Data (JSON)').fill('{"days": 90}');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();

  const row = page.getByRole('row', { name: /Trim the log/ });
  await expect(row).toContainText('Stopped');
  await expect(row).toContainText('every 1 h');
  await row.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('Task started', { exact: true })).toBeVisible();
  await expect(row).toContainText('Running');
  await expect(row.getByRole('button', { name: 'Stop' })).toBeVisible();

  await row.getByRole('button', { name: 'Run once' }).click();
  await expect(page.getByText('Run finished', { exact: true })).toBeVisible();

  await row.getByRole('button', { name: 'Log' }).click();
  const drawer = page.getByTestId('task-log-drawer');
  await expect(drawer.getByRole('heading', { name: 'Run log: Trim the log' })).toBeVisible();
  const runs = drawer.getByTestId('task-run');
  await expect(runs).toHaveCount(1);
  await expect(runs.first()).toContainText('Success');
  await expect(runs.first()).toContainText('Run by hand');
  await expect(runs.first()).toContainText('"deleted"');
  await page.screenshot({ path: test.info().outputPath('ops-task-log.png') });
});

test('dictionary entries form a tree under their type; the request log keeps the set days and clears after confirmation', async ({ page }) => {
  await signInViaApi(page);
  await page.goto('/dict/list');
  const types = page.getByRole('complementary', { name: 'Dictionary types' });
  await types.getByRole('button', { name: 'Add' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Wire diameters');
  await dialog.getByLabel('Key').fill('wireDiameter');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(types.getByRole('button', { name: /Wire diameters/ })).toBeVisible();

  const toolbar = page.getByRole('toolbar', { name: 'Table toolbar' });
  await toolbar.getByRole('button', { name: 'Add' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Common');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('row', { name: /Common/ })).toBeVisible();
  await page.getByRole('row', { name: /Common/ }).getByRole('button', { name: 'Add child' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('0.8 mm');
  await dialog.getByLabel('Value').fill('0.8');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const child = page.getByRole('row', { name: /0\.8 mm/ });
  await expect(child).toContainText('└');
  // The child is listed right under its parent (in the list the save reloaded).
  await expect(page.locator('tbody tr td[data-prop="name"]')).toHaveText([/^\s*Common\s*$/, /^\s*└\s*0\.8 mm\s*$/]);

  await page.goto('/sys/log');
  const keep = page.getByLabel('Keep days');
  // Other spec files share this server's database and may have changed it from the default 30.
  await expect(keep).toHaveValue(/^\d+$/);
  await keep.fill('7');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Keep days')).toHaveValue('7');

  await page.getByRole('button', { name: 'Clear', exact: true }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('This deletes every request log entry');
  await confirm.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByText('Delete successful', { exact: true })).toBeVisible();
  // Only the clear call itself is left (the page call that shows it is logged after it answers).
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody tr')).toContainText('/admin/base/sys/log/clear');
});
