// An order's conversation between its creator (the admin, who assigned the order to a designer)
// and its designer, each in their own browser: the creator writes from the order list, the
// designer sees the message arrive without a reload (an unread badge on the order's row and in the
// top bar), opens the conversation (the badge clears) and replies from the editor's drawer, which
// the creator sees arrive. Screenshots in zh (designer), de (creator) and en (the editor).
// Every wait is on the application's state.
import { test, expect, type Page } from '@playwright/test';
import { ADMIN_PASSWORD, apiLogin, createDesigner, signInViaApi } from './helpers.ts';
import { cubeStl } from '../fixtures/stl.ts';

const PATIENT = 'Chat Patient';

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test('the creator and the designer of an order converse, live, from the order list and the editor', async ({ browser, request }) => {
  test.setTimeout(150_000);
  await createDesigner(request, 'chat-designer', 'Dora');
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const users = (await (await request.post('/admin/base/sys/user/list', { headers: { Authorization: admin }, data: {} })).json()).data as { id: number; username: string }[];
  const designerId = users.find((u) => u.username === 'chat-designer')!.id;
  const upload = await (
    await request.post('/admin/base/comm/upload', {
      headers: { Authorization: admin },
      multipart: { kind: 'model', file: { name: 'upper.stl', mimeType: 'model/stl', buffer: Buffer.from(cubeStl()) } },
    })
  ).json();
  const notes = await (
    await request.post('/admin/base/comm/upload', {
      headers: { Authorization: admin },
      multipart: { file: { name: 'clasp-notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Clasp on 16 and 26') } },
    })
  ).json();
  const order = await (
    await request.post('/admin/order/info/add', { headers: { Authorization: admin }, data: { patientName: PATIENT, upperFileId: upload.data[0].id, designerId } })
  ).json();
  expect(order.code, JSON.stringify(order)).toBe(1000);
  const orderId = order.data.id as number;

  const creatorContext = await browser.newContext({ locale: 'de-DE' });
  const designerContext = await browser.newContext({ locale: 'zh-CN' });
  const creator = await creatorContext.newPage();
  const designer = await designerContext.newPage();
  const errors: string[] = [];
  for (const p of [creator, designer]) p.on('pageerror', (e) => errors.push(e.message));
  try {
    await signInViaApi(designer, 'chat-designer', 'chat-designer-pass');
    await designer.goto('/order/list');
    const designerRow = designer.getByRole('row').filter({ hasText: PATIENT });
    await expect(designerRow).toBeVisible();
    await expect(designer.getByTestId(`chat-unread-${orderId}`)).toHaveCount(0);

    // ------------------------------------------------------------ the creator writes (de)
    await signInViaApi(creator, 'admin', ADMIN_PASSWORD);
    await creator.goto('/order/list');
    const creatorRow = creator.getByRole('row').filter({ hasText: PATIENT });
    await creatorRow.getByRole('button', { name: 'Unterhaltung' }).click();
    const creatorDrawer = creator.getByTestId('chat-drawer');
    await expect(creatorDrawer).toHaveAttribute('data-loaded', 'true');
    await expect(creatorDrawer.getByText('Noch keine Nachrichten')).toBeVisible();
    // Markup is text: it is shown as typed, never as HTML.
    await creatorDrawer.getByTestId('chat-input').fill('Bitte <b>Klammer</b> prüfen');
    await creatorDrawer.getByTestId('chat-attach').click();
    await creatorDrawer.getByTestId('chat-attach-picker').getByLabel('clasp-notes.txt').check();
    await creatorDrawer.getByTestId('chat-input').press('Enter');
    const sent = creatorDrawer.getByTestId('chat-message');
    await expect(sent).toHaveCount(1);
    await expect(sent.first()).toHaveAttribute('data-mine', 'true');
    await expect(sent.first()).toContainText('Bitte <b>Klammer</b> prüfen');
    await expect(sent.first().locator('b')).toHaveCount(0);
    await expect(sent.first()).toContainText('clasp-notes.txt');
    await expect(creatorDrawer.getByTestId('chat-input')).toHaveValue('');

    // ------------------------------------------------------------ the designer sees it arrive (zh)
    const badge = designer.getByTestId(`chat-unread-${orderId}`);
    await expect(badge).toHaveAttribute('data-count', '1');
    await expect(designer.getByTestId('chat-total')).toBeVisible();
    await shot(designer, 'order-list-unread-zh');
    await shot(creator, 'conversation-de');

    await designerRow.getByRole('button', { name: /会话/ }).click();
    const designerDrawer = designer.getByTestId('chat-drawer');
    await expect(designerDrawer.getByTestId('chat-message')).toHaveCount(1);
    await expect(designerDrawer.getByTestId('chat-message').first()).toHaveAttribute('data-mine', 'false');
    await expect(designerDrawer.getByTestId('chat-message').first()).toContainText('Bitte <b>Klammer</b> prüfen');
    await expect(badge).toHaveCount(0);
    await expect(designer.getByTestId('chat-total')).toHaveCount(0);
    await shot(designer, 'conversation-zh');
    await designerDrawer.getByRole('button', { name: '关闭' }).click();

    // ------------------------------------------------------------ the designer replies from the editor (en)
    await designer.evaluate(() => localStorage.setItem('aw.lang', 'en'));
    await designer.goto(`/bend?orderId=${orderId}`);
    await expect(designer.getByTestId('order-title')).toContainText(PATIENT);
    await expect(designer.getByTestId('chat-open')).toBeVisible();
    await shot(designer, 'editor-en');
    await designer.getByTestId('chat-open').click();
    const editorDrawer = designer.getByTestId('chat-drawer');
    await expect(editorDrawer).toHaveAttribute('data-loaded', 'true');
    await expect(editorDrawer.getByTestId('chat-message')).toHaveCount(1);
    const input = editorDrawer.getByTestId('chat-input');
    await input.fill('Checked.');
    await input.press('Shift+Enter');
    await input.pressSequentially('Clasp moved to 16.');
    await expect(input).toHaveValue('Checked.\nClasp moved to 16.');
    await input.press('Enter');
    await expect(editorDrawer.getByTestId('chat-message')).toHaveCount(2);
    // The editor keeps its layout at 1280 px: nothing wider than the window, the viewport still there.
    expect(await designer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await expect(designer.getByTestId('viewport')).toBeVisible();
    await shot(designer, 'editor-conversation-en');

    // ------------------------------------------------------------ the creator sees the reply arrive
    const reply = creatorDrawer.getByTestId('chat-message').nth(1);
    await expect(reply).toContainText('Checked.');
    await expect(reply).toHaveAttribute('data-mine', 'false');
    // Read while open: no badge for the creator.
    await creatorDrawer.getByRole('button', { name: 'Schließen' }).click();
    await expect(creator.getByTestId(`chat-unread-${orderId}`)).toHaveCount(0);
    expect(errors).toEqual([]);
  } finally {
    await creatorContext.close();
    await designerContext.close();
  }
});
