// A partner through the back office and the open API: the admin adds a partner entry for a
// department (its allowed calls preselected), copies the signing secret shown once, opens the
// OpenAPI document from the page; the partner's system signs an order with its models (the
// example client's signing, test/server/partner-signer.ts) and the order is in the designer's
// list, designed by the department's user; its one-time link (the app's /transfer sign-in) opens
// the editor on the order as that user, once.
import { expect, test } from '@playwright/test';
import { cubeStl } from '../fixtures/stl.ts';
import { multipart, signRequest } from '../server/partner-signer.ts';
import { ADMIN_PASSWORD, apiLogin, signInViaApi } from './helpers.ts';

test("an admin adds a partner, copies its secret, and the partner's order is in the designer's list", async ({ browser, page, request }) => {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const dept = await request.post('/admin/base/sys/department/add', { headers: { Authorization: admin }, data: { name: 'Partner lab' } });
  const departmentId = (await dept.json()).data.id as number;
  // The lab's designer holds the seeded designer role (without it, the editor's calls answer 403).
  const roles = await request.post('/admin/base/sys/role/list', { headers: { Authorization: admin }, data: {} });
  const designerRole = ((await roles.json()).data as { id: number; name: string }[]).find((r) => r.name === 'kind-designer')!;
  const user = await request.post('/admin/base/sys/user/add', {
    headers: { Authorization: admin },
    data: { username: 'lab-designer', password: 'Designer-pass-1', name: 'Lab Designer', nickName: 'Lab Designer', departmentId, roleIdList: [designerRole.id], status: 1 },
  });
  expect((await user.json()).code).toBe(1000);

  await page.addInitScript(() => localStorage.setItem('aw.lang', 'en'));
  await signInViaApi(page);
  await page.goto('/device/api-config');
  await expect(page.getByTestId('partner-openapi')).toHaveAttribute('href', '/admin/sy/open/openapi.json');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'Add' });
  await form.getByLabel('Name').fill('Clinic system');
  await form.getByLabel(/^\W*URL$/).fill('https://clinic.example.com/');
  await form.getByLabel('Callback URL').fill('https://clinic.example.com/archwright');
  await form.getByLabel('Department').click();
  await page.getByRole('menuitemradio', { name: 'Partner lab' }).click();
  // Every call is allowed to a new partner until the list says otherwise.
  await expect(form.getByLabel('Allowed calls')).toContainText('orderInfo');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog', { name: 'Signing secret' })).toBeVisible();
  await expect(page.getByTestId('device-key')).toHaveText(/^[A-Za-z0-9_-]{43}$/);
  const secret = (await page.getByTestId('device-key').textContent())!;
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row', { name: /Clinic system/ });
  await expect(row).toContainText('Partner lab');

  const list = await request.post('/admin/device/apiConfig/page', { headers: { Authorization: admin }, data: { page: 1, size: 10, keyWord: 'Clinic system' } });
  const keyId = (await list.json()).data.list[0].id as number;

  // The partner's system: a signed upload of the order with its upper model.
  const { body, contentType } = await multipart({ data: JSON.stringify({ partnerOrderNo: 'CLINIC-0001', patientName: 'Partner Patient' }) }, { upper: { name: 'upper.stl', bytes: cubeStl() } });
  const path = '/admin/sy/open/order';
  const sent = await request.post(path, { headers: { ...signRequest({ id: keyId, secret }, 'POST', path, body), 'Content-Type': contentType }, data: Buffer.from(body) });
  const answer = await sent.json();
  expect(answer, JSON.stringify(answer)).toMatchObject({ code: 1000, data: { partnerOrderNo: 'CLINIC-0001', created: true } });

  await page.goto('/order/list');
  const order = page.getByRole('row', { name: /Partner Patient/ });
  await expect(order).toBeVisible();
  await expect(order).toContainText('Lab Designer');
  await expect(order).toContainText(answer.data.caseNo);

  // The partner opens the editor on its order for the lab's designer: a one-time link.
  const designers = await request.get('/admin/sy/open/userList', { headers: signRequest({ id: keyId, secret }, 'GET', '/admin/sy/open/userList', '') });
  const designer = (await designers.json()).data.find((u: { username: string }) => u.username === 'lab-designer');
  const redirectBody = JSON.stringify({ orderId: answer.data.orderId, userId: designer.id });
  const link = await request.post('/admin/sy/open/redirect', {
    headers: { ...signRequest({ id: keyId, secret }, 'POST', '/admin/sy/open/redirect', redirectBody), 'Content-Type': 'application/json' },
    data: redirectBody,
  });
  const url = new URL((await link.json()).data.url as string);
  // The app's one-time sign-in page: it signs the designer in (the admin's session is replaced).
  expect(url.pathname).toBe('/transfer');
  await page.goto(url.pathname + url.search);
  await expect(page).toHaveURL(new RegExp(`/bend\\?orderId=${answer.data.orderId}$`));
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('aw.session') ?? '{}').token as string);
  const person = await page.request.get('/admin/base/comm/person', { headers: { Authorization: token } });
  expect((await person.json()).data.username).toBe('lab-designer');
  // Good once: another browser opening it again is told so and lands on the login page.
  const other = await browser.newContext();
  await other.addInitScript(() => localStorage.setItem('aw.lang', 'en'));
  const again = await other.newPage();
  await again.goto(new URL(url.pathname + url.search, page.url()).href);
  await expect(again.locator('.aw-toast').filter({ hasText: 'This sign-in link is invalid, used or expired' })).toBeVisible();
  await expect(again).toHaveURL(/\/login$/);
  await other.close();
});
