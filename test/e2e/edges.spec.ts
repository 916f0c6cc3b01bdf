// Rough edges of one full order, in German at 1440 × 900: the editor brings the active tool's
// panel into view, draws measurements only when asked, writes numbers the German way and
// re-frames when the bending dock opens; the back office's device form picks diameters and a
// readable owner, the role list shows its Created column, and the role form starts from a kind.
import { test, expect, type Page } from '@playwright/test';
import { palateJaw } from '../fixtures/base-models.ts';
import { ADMIN_PASSWORD, apiLogin, designerWithOrder, saveDesign, signInViaApi } from './helpers.ts';
import { settle } from './canvas.ts';

test.use({ locale: 'en-US', viewport: { width: 1440, height: 900 } });

/** Signs in (through the API), then speaks German from the next page on. */
async function signInGerman(page: Page, username?: string, password?: string): Promise<void> {
  await signInViaApi(page, username, password);
  await page.evaluate(() => localStorage.setItem('aw.lang', 'de'));
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test('editor in German: tool panel in view, measurements on demand, German numbers, the dock re-frames', async ({ page, request }) => {
  test.setTimeout(180_000);
  const order = await designerWithOrder(request, {
    username: 'edge-designer',
    name: 'Edda',
    patientName: 'Egon Ecke',
    upper: palateJaw({ upper: true }),
    lower: palateJaw(),
  });
  // A saved measurement of 6.04 mm (the one whose label covered a clasp arm).
  const p = (x: number): [number, number, number] => [x, 0, 8];
  await saveDesign(request, order, {
    schemaVersion: 1,
    measurements: [{ id: 'm1', model: 'lower', a: { point: p(0), triangle: 0 }, b: { point: p(6.04), triangle: 0 }, straight: 6.04, geodesic: 6.5, path: [...p(0), ...p(3), ...p(6.04)] }],
  });
  await signInGerman(page, 'edge-designer', 'edge-designer-pass');
  await page.goto(`/bend?orderId=${order.id}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  const viewport = page.getByTestId('viewport');

  // The measurement is listed, with German decimals, but not drawn over the design.
  await expect(page.getByTestId('measurement')).toContainText('6,04 mm');
  await settle(page, { measurements: '0' });
  await expect(page.getByTestId('measure-label')).toHaveAttribute('data-shown', 'false');
  // Triangle counts group thousands the German way, in the side panel and the status bar.
  await expect(page.getByTestId('model-lower')).toContainText(/\d{1,3}(\.\d{3})+ Dreiecke/);
  await expect(page.getByRole('contentinfo', { name: 'Statusleiste' })).toContainText(/\d{1,3}(\.\d{3})+ Dreiecke/);

  // Pointing at it in the list draws it; the measure tool draws it; leaving the tool hides it.
  await page.getByTestId('measurement').hover();
  await settle(page, { measurements: '1' });
  await page.mouse.move(10, 450);
  await settle(page, { measurements: '0' });
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('m');
  await expect(viewport).toHaveAttribute('data-tool', 'measure');
  await settle(page, { measurements: '1' });
  await expect(page.getByTestId('measure-label')).toHaveText('6,04 mm · ⌒ 6,50 mm');
  await expect(page.getByTestId('measurements')).toBeInViewport();
  await shot(page, 'editor-de-measure');
  await page.keyboard.press('m');
  await settle(page, { measurements: '0' });
  // "Messungen anzeigen" keeps them in every tool.
  await page.getByRole('checkbox', { name: 'Messungen anzeigen' }).check();
  await settle(page, { measurements: '1' });
  await page.getByRole('checkbox', { name: 'Messungen anzeigen' }).uncheck();

  // The base tool: its panel, with Generate, scrolls into view (a lower window, so that it would
  // be below the fold of the side panel).
  await page.setViewportSize({ width: 1440, height: 640 });
  const side = page.getByRole('complementary', { name: 'Seitenleiste' });
  await side.evaluate((el) => el.scrollTo({ top: 0 }));
  await page.locator('[data-testid="viewport"] canvas').focus();
  await page.keyboard.press('a');
  await expect(viewport).toHaveAttribute('data-tool', 'base');
  await expect(page.getByTestId('base-generate')).toBeInViewport({ ratio: 1 });
  await expect.poll(() => side.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  await settle(page, { measurements: '0' });
  await shot(page, 'editor-de-base-tool');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.locator('[data-testid="viewport"] canvas').focus();

  // The bending dock: the models are framed again in the narrower viewport; German numbers.
  const canvas = page.locator('[data-testid="viewport"] canvas');
  const before = (await canvas.boundingBox())!.width;
  const frames = Number(await viewport.getAttribute('data-frames'));
  await page.keyboard.press('d');
  await expect(page.getByTestId('device-panel')).toBeVisible();
  await expect(page.getByTestId('queue-help')).toContainText('„Eingereiht“ wartet er nur, solange die Maschine offline ist');
  await expect.poll(async () => (await canvas.boundingBox())!.width).toBeLessThan(before - 200);
  await expect.poll(async () => Number(await viewport.getAttribute('data-frames'))).toBeGreaterThan(frames);
  await settle(page);
  await shot(page, 'editor-de-dock');
});

test('device form and role list in German: diameters by choice, a readable owner, the Created column, roles from a kind', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const headers = { Authorization: admin };
  const add = await (await request.post('/admin/base/sys/user/add', { headers, data: { username: 'dora-edge', password: 'dora-edge-pass', name: 'Dora Designer', status: 1 } })).json();
  expect(add.code, JSON.stringify(add)).toBe(1000);
  await signInGerman(page);

  // Device form: diameters are chips (0,5 … 1,2 mm), the default four pressed; the owner named fully.
  await page.goto('/device/list');
  await page.getByRole('toolbar', { name: 'Tabellen-Werkzeugleiste' }).getByRole('button', { name: 'Hinzufügen' }).click();
  const dialog = page.getByRole('dialog');
  const diameters = dialog.getByRole('group', { name: 'Drahtdurchmesser (mm)' });
  await expect(diameters.getByRole('button')).toHaveText(['0,5', '0,6', '0,7', '0,8', '0,9', '1,0', '1,1', '1,2']);
  await expect(diameters.getByRole('button', { pressed: true })).toHaveText(['0,7', '0,8', '0,9', '1,0']);
  await diameters.getByRole('button', { name: '0,5' }).click();
  await dialog.getByLabel('Weitere (mm)').fill('1,25');
  await dialog.getByLabel('Weitere (mm)').press('Enter');
  await expect(diameters.getByRole('button', { pressed: true })).toHaveText(['0,5', '0,7', '0,8', '0,9', '1,0', '1,25']);
  const owner = dialog.getByLabel('Besitzer');
  await expect(owner.locator('option', { hasText: 'Dora Designer (dora-edge)' })).toHaveCount(1);
  // The placeholder fits its select.
  expect(await owner.evaluate((el: HTMLSelectElement) => el.clientWidth)).toBeGreaterThan(300);
  await shot(page, 'device-form-de');
  await dialog.getByLabel('Gerätename').fill('Biegemaschine Ecke');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Erfolgreich gespeichert', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Fertig' }).click(); // the device key, shown once
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Biegemaschine Ecke', exact: true }) });
  await expect(row).toContainText('0,5 / 0,7 / 0,8 / 0,9 / 1,0 / 1,25');
  await shot(page, 'device-list-de');

  // Role list at 1440 px: no column sits under the fixed operation column; "Erstellt" is whole.
  await page.goto('/sys/role');
  await expect(page.getByRole('columnheader', { name: 'Erstellt' })).toBeVisible();
  // Once the rows have come: they, not the empty table, set the columns' widths.
  await expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'superadmin', exact: true }) })).toBeVisible();
  await expect(page.getByTestId('kit-table-scroll')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByTestId('kit-table-scroll')).toHaveAttribute('data-covered', 'false');
  await shot(page, 'role-list-de');

  // Role form: names in German, identifiers on request, "Ausgehend von: Konstrukteur" fills the tree.
  await page.getByRole('toolbar', { name: 'Tabellen-Werkzeugleiste' }).getByRole('button', { name: 'Hinzufügen' }).click();
  await dialog.getByRole('tab', { name: 'Berechtigungen' }).click();
  const tree = dialog.getByRole('tree');
  await expect(tree.getByText('order:info:add')).toHaveCount(0);
  await dialog.getByLabel('Ausgehend von').selectOption({ label: 'Konstrukteur' });
  await expect(tree.getByRole('treeitem', { name: /Auftragsliste/ }).getByRole('checkbox').first()).toBeChecked({ indeterminate: true });
  await expect(tree.getByRole('checkbox', { checked: true }).first()).toBeVisible();
  await shot(page, 'role-form-de');
});
