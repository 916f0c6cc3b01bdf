import ExcelJS from 'exceljs';
import { test, expect, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, apiLogin, signIn, signInViaApi, signOut } from './helpers.ts';

// Users, roles, menus, departments and the recycle bin, against the real server.
const SHOTS = process.env.SYS_SHOTS ?? 'test-results/sys';

test.use({ locale: 'en-US' });

test('a role grants only its menus and buttons to the users holding it', async ({ page }) => {
  await signIn(page);

  // The admin creates a role that may list and edit users, but not add or delete them.
  await page.goto('/sys/role');
  await page.getByRole('toolbar', { name: 'Table toolbar' }).getByRole('button', { name: 'Add' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Role key').fill('sys-tour-designer');
  await dialog.getByLabel('Name').fill('Designer');
  await dialog.getByRole('tab', { name: 'Permissions' }).click();
  const tree = dialog.getByRole('tree', { name: 'Menus and permissions' });
  // Names only, until the identifiers are asked for.
  await expect(tree.getByText('base:sys:user:add')).toHaveCount(0);
  await dialog.getByRole('checkbox', { name: 'Show permission identifiers' }).check();
  await tree.getByRole('checkbox', { name: /base:sys:user:info,base:sys:user:list,base:sys:user:page/ }).check();
  await tree.getByRole('checkbox', { name: /^Update base:sys:user:update$/ }).check();
  await page.screenshot({ path: `${SHOTS}/role-form-en.png` });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  // Other browser tests add roles to the same server: find it by its key.
  await page.getByPlaceholder('Search keyword').fill('sys-tour-designer');
  await expect(page.getByRole('table').getByRole('cell', { name: 'Designer', exact: true })).toBeVisible();

  // ...and a user holding it, in a department (her role's data scope: her department's users).
  const token0 = await apiLogin(page.request, 'admin', ADMIN_PASSWORD);
  await page.request.post('/admin/base/sys/department/add', { headers: { Authorization: token0 }, data: { name: 'Design' } });
  await page.goto('/sys/user');
  await page.getByRole('toolbar', { name: 'Table toolbar' }).getByRole('button', { name: 'Add' }).click();
  await dialog.getByLabel('Username').fill('dana');
  await dialog.getByLabel('Password').fill('dana-pass-1');
  await dialog.getByLabel('Full name').fill('Dana Designer');
  await dialog.getByLabel('Department').click();
  await page.getByRole('menuitemradio', { name: 'Design' }).click();
  await dialog.getByLabel('Roles').click();
  await page.getByRole('checkbox', { name: 'Designer', exact: true }).check();
  await page.keyboard.press('Escape');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'dana', exact: true }) });
  await expect(row).toContainText('Designer');
  // The admin sees every button.
  await expect(row.getByRole('button', { name: 'Delete' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/users-admin-en.png` });
  await signOut(page);

  // Dana sees only the user list and only the buttons her role allows.
  await signIn(page, 'dana', 'dana-pass-1');
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav.getByRole('button', { name: 'Order management' })).toHaveCount(0);
  await expect(nav.getByRole('button', { name: 'Device management' })).toHaveCount(0);
  const expand = async (name: string) => {
    const group = nav.getByRole('button', { name });
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
  };
  await expand('System management');
  await expand('Permission management');
  await expect(nav.getByRole('link', { name: 'User list' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Role list' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Menu list' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Recycle bin' })).toHaveCount(0);
  await nav.getByRole('link', { name: 'User list' }).click();
  await expect(page).toHaveURL(/\/sys\/user$/);
  const danaRow = page.getByRole('row').filter({ hasText: 'Dana Designer' });
  await expect(danaRow).toBeVisible();
  await expect(danaRow.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(danaRow.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  const toolbar = page.getByRole('toolbar', { name: 'Table toolbar' });
  await expect(toolbar.getByRole('button', { name: 'Add' })).toHaveCount(0);
  await expect(toolbar.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(toolbar.getByRole('button', { name: 'Export' })).toHaveCount(0);
  await expect(toolbar.getByRole('button', { name: 'Move to department' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/users-dana-en.png` });

  // She may edit: a new nickname saves without touching the password or her role.
  await danaRow.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog');
  await expect(edit.getByLabel('Username')).toHaveValue('dana');
  await edit.getByLabel('Nickname').fill('Dee');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  await expect(danaRow).toContainText('Dee');

  // The server agrees: a delete call from her is refused.
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string);
  const del = await page.request.post('/admin/base/sys/user/delete', { headers: { Authorization: token }, data: { ids: [1] } });
  expect(del.status()).toBe(403);
});

test('departments hold users; a deleted user comes back from the recycle bin', async ({ page }) => {
  const token = await apiLogin(page.request, 'admin', ADMIN_PASSWORD);
  const api = (url: string, data: unknown) => page.request.post(url, { headers: { Authorization: token }, data });
  const lab = (await (await api('/admin/base/sys/department/add', { name: 'Lab' })).json()).data.id;
  await api('/admin/base/sys/department/add', { name: 'Wire bending', parentId: lab });
  await api('/admin/base/sys/user/add', { username: 'erin', password: 'erin-pass-1', name: 'Erin', departmentId: lab });

  await signInViaApi(page);
  await page.goto('/sys/user');
  const panel = page.getByRole('complementary', { name: 'Departments' });
  await panel.getByRole('button', { name: 'Lab', exact: true }).click();
  const table = page.getByRole('table');
  await expect(table.getByRole('row').filter({ hasText: 'erin' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'admin' })).toHaveCount(0);

  // Add a department below Lab from the tree.
  await panel.getByRole('button', { name: 'Lab', exact: true }).hover();
  await panel.getByRole('button', { name: 'Add a department under Lab' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Acrylic');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByRole('button', { name: 'Acrylic', exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/departments-en.png` });

  // Delete Erin; she is in the recycle bin and comes back from there.
  await table.getByRole('row').filter({ hasText: 'erin' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Delete successful', { exact: true })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'erin' })).toHaveCount(0);

  await page.goto('/recycle/data');
  const entry = page.getByRole('row').filter({ hasText: 'erin' });
  await expect(entry).toContainText('admin');
  await page.screenshot({ path: `${SHOTS}/recycle-en.png` });
  await entry.getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Restored', { exact: true })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'erin' })).toHaveCount(0);
  await page.goto('/sys/user');
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: 'erin' })).toContainText('Lab');

  // Import from Excel: the good row is created, the bad one reported by its row number.
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('users');
  sheet.addRow(['Username', 'Password', 'Name', 'Department']);
  sheet.addRow(['frank', 'frank-pass-1', 'Frank', 'Lab']);
  sheet.addRow(['erin', 'erin-pass-2', 'Erin again', '']);
  const buffer = Buffer.from(await wb.xlsx.writeBuffer());
  await page.getByLabel('Import', { exact: true }).setInputFiles({ name: 'users.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
  const result = page.getByRole('dialog', { name: 'Import result' });
  await expect(result).toContainText('1 created, 1 skipped.');
  await expect(result.getByRole('row').filter({ hasText: 'Username already exists' })).toContainText('3');
  await page.screenshot({ path: `${SHOTS}/import-en.png` });
  await result.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: 'frank' })).toContainText('Lab');
});

for (const lang of ['zh', 'de'] as const) {
  test(`system screens render in ${lang}`, async ({ page }) => {
    await page.addInitScript((l) => localStorage.setItem('aw.lang', l), lang);
    const login = await page.request.post('/admin/base/open/login', { data: { username: 'admin', password: ADMIN_PASSWORD, captchaId: '', verifyCode: '' } });
    const { token, expire, refreshToken, refreshExpire } = (await login.json()).data;
    const now = Date.now();
    await page.addInitScript(
      (s) => localStorage.setItem('aw.session', JSON.stringify(s)),
      { token, refreshToken, expiresAt: now + expire * 1000, refreshExpiresAt: now + refreshExpire * 1000 },
    );
    for (const [path, name] of [['/sys/user', 'users'], ['/sys/role', 'roles'], ['/sys/menu', 'menus'], ['/recycle/data', 'recycle']] as const) {
      await page.goto(path);
      await expect(page.getByRole('table')).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/${name}-${lang}.png` });
    }
  });
}
