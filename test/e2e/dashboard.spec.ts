// The home dashboard's bending figures and map with real bending: simulated machines connect to
// the device hub and bend the jobs an administrator sends; and a side call the user may no longer
// make (their role lost a card's permission) costs only that card and a message, never the page.
import { test, expect, type APIRequestContext, type Page } from '@playwright/test';
import { SimDevice } from '../device-sim.ts';
import { jawMesh, rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { ADMIN_PASSWORD, apiLogin, designerWithOrder, saveDesign, signInViaApi } from './helpers.ts';

const SHOTS = process.env.E2E_SHOTS ?? '';

test.use({ locale: 'en-US' });

async function call<T>(request: APIRequestContext, token: string, url: string, data: unknown = {}): Promise<T> {
  const body = await (await request.post(url, { headers: { Authorization: token }, data })).json();
  expect(body.code, `${url}: ${JSON.stringify(body)}`).toBe(1000);
  return body.data as T;
}

const stamp = Date.now().toString(36);
let sims: SimDevice[] = [];
test.afterAll(async () => {
  await Promise.all(sims.map((s) => s.stop()));
  sims = [];
});

/** A located manufacturer with a designer, two located machines (simulated, connected) and jobs bent on them. */
async function seed(request: APIRequestContext, baseURL: string) {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const lab = await call<{ id: number }>(request, admin, '/admin/base/sys/department/add', { name: `Lab Hamburg ${stamp}`, city: 'Hamburg', latitude: 53.55, longitude: 9.99 });
  const designer = await call<{ id: number }>(request, admin, '/admin/base/sys/user/add', {
    username: `designer-${stamp}`, password: 'designer-pass-1', name: 'Mia Designer', nickName: 'Mia', status: 1, roleIdList: [], departmentId: lab.id,
  });
  void designer;
  const devices = [
    { devicename: `Bender Hamburg ${stamp}`, city: 'Hamburg', latitude: 53.6, longitude: 10.1 },
    { devicename: `Bender Munich ${stamp}`, city: 'München', latitude: 48.14, longitude: 11.58 },
  ];
  const ids: number[] = [];
  for (const d of devices) {
    const added = await call<{ id: number; deviceKey: string }>(request, admin, '/admin/device/info/add', { ...d, diameters: '0.7,0.8', memory: 1000 });
    ids.push(added.id);
    const sim = new SimDevice({ url: `${baseURL.replace(/^http/, 'ws')}/ws/device`, key: added.deviceKey, stepMs: 60 });
    sims.push(sim);
    await sim.start();
  }
  const steps = [{ feed: 10.57, rotate: 0, bend: 94 }, { feed: 5.57, rotate: 0, bend: 94 }, { feed: 9, rotate: 0, bend: 0 }];
  const wires = [
    { deviceId: ids[0], wire: { type: 'labialBow', diameter: 0.8 } },
    { deviceId: ids[0], wire: { type: 'labialBow', diameter: 0.8 } },
    { deviceId: ids[0], wire: { type: 'arrowClasp', diameter: 0.7 } },
    { deviceId: ids[1], wire: { type: 'singleArmClasp', diameter: 0.7 } },
  ];
  const jobIds: string[] = [];
  for (const w of wires) jobIds.push((await call<{ jobId: string }>(request, admin, '/admin/design/bend', { ...w, steps })).jobId);
  await expect
    .poll(async () => {
      const queue = await call<{ jobId: string; status: string }[]>(request, admin, '/admin/design/getQueueList', { limit: 1000 });
      return queue.filter((j) => jobIds.includes(j.jobId) && j.status === 'done').length;
    }, { timeout: 30_000 })
    .toBe(jobIds.length);
  return { admin, devices };
}

/** A screenshot of the whole board (the shell scrolls inside, so the window grows to hold it). */
async function shoot(page: Page, name: string, height = 2000) {
  if (!SHOTS) return;
  const size = page.viewportSize()!;
  const small = size.width < 600;
  await page.setViewportSize({ width: size.width, height: small ? 4200 : height });
  await page.waitForTimeout(300); // the charts redraw 100 ms after a resize
  if (!small) await page.screenshot({ path: `${SHOTS}/${name}.png` });
  // A phone-sized board in readable pieces.
  else for (let i = 0; i < 3; i++) await page.screenshot({ path: `${SHOTS}/${name}-${i + 1}.png`, clip: { x: 0, y: i * 1400, width: size.width, height: 1400 } });
  await page.setViewportSize(size);
}

test('the board shows the map, device times, wires bent and the rankings from real bending, in zh, en and de', async ({ page, request, baseURL }) => {
  const { admin, devices } = await seed(request, baseURL!);
  await signInViaApi(page);
  await page.evaluate(() => localStorage.setItem('aw.lang', 'zh'));
  await page.goto('/dashboard?period=day');
  const map = page.getByRole('region', { name: '制造商与设备分布' });
  await expect(map.locator('[data-marker="device"]')).not.toHaveCount(0);
  await expect(map.locator('[data-marker="manufacturer"]')).not.toHaveCount(0);
  // Names on hover.
  await map.getByRole('img', { name: new RegExp(devices[1]!.devicename) }).hover();
  await expect(page.getByRole('tooltip')).toContainText(devices[1]!.devicename);
  await expect(page.getByRole('tooltip')).toContainText('München');

  const times = page.getByRole('region', { name: '设备加工与待机时间' });
  await expect(times.getByText(devices[0]!.devicename)).toBeVisible();
  await expect(times.getByRole('img', { name: new RegExp(`${devices[0]!.devicename}: .*已折弯弓丝：3`) })).toBeVisible();

  const wires = page.getByRole('region', { name: '弓丝折弯统计' });
  await expect(wires.getByRole('row', { name: /唇弓/ })).toContainText('0.8');
  await expect(wires.locator('canvas').first()).toBeVisible();

  const ranking = page.getByRole('region', { name: '基托设计与加工排行' });
  await expect(ranking.getByRole('region', { name: '加工的弓丝' }).getByRole('listitem').first()).toBeVisible();
  // The jobs were sent by the admin: their department (or "no department") leads the wires processed.
  const top = (await call<{ wires: { departments: { name: string | null; count: number }[] } }>(request, admin, '/admin/dashboard/info/processBaseInfo', { period: 'day' })).wires.departments[0]!;
  await ranking.getByRole('radio', { name: '部门' }).click();
  const first = ranking.getByRole('region', { name: '加工的弓丝' }).getByRole('listitem').first();
  await expect(first).toContainText(top.name ?? '无部门');
  await expect(first).toContainText(String(top.count));
  await page.mouse.move(0, 0);
  await shoot(page, 'board-zh');

  for (const [lang, title] of [['en', 'Manufacturer and device locations'], ['de', 'Standorte von Herstellern und Geräten']] as const) {
    await page.evaluate((l) => localStorage.setItem('aw.lang', l), lang);
    await page.reload();
    await expect(page.getByRole('region', { name: title })).toBeVisible();
    await expect(page.getByRole('region', { name: title }).locator('[data-marker]')).not.toHaveCount(0);
    await shoot(page, `board-${lang}`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('region', { name: 'Standorte von Herstellern und Geräten' }).locator('svg')).toBeVisible();
  await shoot(page, 'board-de-small');
});

test('the design and manufacturer cards show a designed order and its designer, in en and de', async ({ page, request }) => {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const lab = `Lab Bremen ${stamp}`;
  const { id: departmentId } = await call<{ id: number }>(request, admin, '/admin/base/sys/department/add', { name: lab });
  const lower = jawMesh();
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  const order = await designerWithOrder(request, { username: `mira-${stamp}`, name: `Mira ${stamp}`, patientName: `Card patient ${stamp}`, upper, lower });
  const users = await call<{ list: { id: number }[] }>(request, admin, '/admin/base/sys/user/page', { keyWord: `mira-${stamp}` });
  await call(request, admin, '/admin/base/sys/user/move', { userIds: [users.list[0]!.id], departmentId });
  await saveDesign(request, order, { schemaVersion: 1, wires: [{ type: 'labialBow' }, { type: 'arrowClasp' }, { type: 'arrowClasp' }], base: { generated: true } });

  await signInViaApi(page);
  await page.evaluate(() => localStorage.setItem('aw.lang', 'en'));
  await page.goto('/dashboard?period=day');
  await expect(page.getByTestId('stat-New manufacturers')).not.toHaveText('0');
  const details = page.getByRole('region', { name: 'Designer details' });
  const row = details.getByRole('row', { name: new RegExp(`Mira ${stamp}`) });
  await expect(row).toContainText(lab);
  // Orders 1, submitted 0, designs 1, bases 1, then the wire types in their order: labial bow 1, single-arm clasp 0, arrow clasp 2.
  await expect(row.getByRole('cell')).toHaveText([new RegExp(`Mira ${stamp}`), '1', '0', '1', '1', '1', '0', '2', '0', '–']);
  await expect(page.getByRole('region', { name: 'Wire types designed per manufacturer' }).getByRole('row', { name: new RegExp(lab) })).toContainText('3');
  await expect(page.getByRole('region', { name: 'Orders per manufacturer' }).getByRole('row', { name: new RegExp(lab) })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Designs and bases' }).locator('canvas').first()).toBeVisible();
  // Other tests' designs count too: the arrow clasps are among the types, wherever they rank.
  await expect(page.getByRole('region', { name: 'Wires designed by type' }).getByRole('listitem').filter({ hasText: 'Arrow clasp' })).toBeVisible();
  await page.mouse.move(0, 0);
  await shoot(page, 'board-design-en', 3800);

  await page.evaluate(() => localStorage.setItem('aw.lang', 'de'));
  await page.reload();
  const de = page.getByRole('region', { name: 'Details je Designer' });
  await expect(de.getByRole('columnheader', { name: 'Pfeilklammer' })).toBeVisible();
  await expect(de.getByRole('row', { name: new RegExp(`Mira ${stamp}`) })).toContainText(lab);
  await expect(page.getByRole('region', { name: 'Gebogene Drähte je Hersteller' })).toBeVisible();
  await shoot(page, 'board-design-de', 3800);
});

test('a card whose permission the role lost answers 403: a message, the card goes, the user stays on the board', async ({ page, request }) => {
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const { menus } = (await (await request.get('/admin/base/comm/permmenu', { headers: { Authorization: admin } })).json()).data as {
    menus: { id: number; parentId: number | null; router: string | null; name: string; perms: string | null }[];
  };
  const board = menus.find((m) => m.router === '/dashboard')!;
  const query = menus.find((m) => m.parentId === board.id && m.name === 'Query')!;
  const time = menus.find((m) => m.parentId === board.id && m.perms === 'dashboard:info:deviceProcessTime')!;
  const grant = (ids: number[]) => ({ name: `board-${stamp}`, label: `board-${stamp}`, relevance: 1, menuIdList: [board.parentId!, board.id, ...ids] });
  const role = await call<{ id: number }>(request, admin, '/admin/base/sys/role/add', grant([query.id, time.id]));
  await call(request, admin, '/admin/base/sys/user/add', { username: `viewer-${stamp}`, password: 'viewer-pass-1', name: 'Viewer', nickName: 'Viewer', status: 1, roleIdList: [role.id] });

  await signInViaApi(page, `viewer-${stamp}`, 'viewer-pass-1');
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Device processing and standby time' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Arch wires bent' })).toBeVisible();

  // The administrator takes the device time permission away while the board is open.
  await call(request, admin, '/admin/base/sys/role/update', { id: role.id, ...grant([query.id]) });
  const refused = page.waitForResponse((r) => r.url().includes('/deviceProcessTime') && r.status() === 403);
  await page.getByRole('radio', { name: '30 days' }).click();
  await refused;
  await expect(page.getByText('No permission', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\?period=month$/);
  await expect(page.getByRole('region', { name: 'Device processing and standby time' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Arch wires bent' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Manufacturer and device locations' })).toBeVisible();
  await shoot(page, 'board-403-en');
});

test('a location entered in the device form is checked and then shows on the map', async ({ page }) => {
  const name = `Bender Oslo ${stamp}`;
  await signInViaApi(page);
  await page.goto('/device/list');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Device name').fill(name);
  await dialog.getByLabel('City').fill('Oslo');
  await dialog.getByLabel('Latitude').fill('95');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Latitude is a number from -90 to 90')).toBeVisible();
  await dialog.getByLabel('Latitude').fill('59.91');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Enter both latitude and longitude, or neither').first()).toBeVisible();
  await dialog.getByLabel('Longitude').fill('10.75');
  await shoot(page, 'device-form-en');
  await dialog.getByRole('button', { name: 'Save' }).click();
  // The key is shown once; then the device is on the map.
  const key = page.getByRole('dialog', { name: 'Device key' });
  await expect(key).toBeVisible();
  await key.getByRole('button', { name: 'Done' }).click();
  await page.goto('/dashboard?period=all');
  const map = page.getByRole('region', { name: 'Manufacturer and device locations' });
  await map.getByRole('img', { name: new RegExp(name) }).focus();
  await expect(page.getByRole('tooltip')).toContainText('Oslo');
});

test('a manufacturer (department) gets its location in the department dialog of the user list', async ({ page, request }) => {
  const name = `Lab Lisbon ${stamp}`;
  await signInViaApi(page);
  await page.goto('/sys/user');
  await page.getByRole('complementary', { name: 'Departments' }).getByRole('button', { name: 'Add' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add department' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('City').fill('Lisboa');
  await dialog.getByLabel('Latitude').fill('38.72');
  await dialog.getByLabel('Longitude').fill('-190');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Longitude is a number from -180 to 180')).toBeVisible();
  await dialog.getByLabel('Longitude').fill('-9.14');
  await shoot(page, 'department-form-en');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const admin = await apiLogin(request, 'admin', ADMIN_PASSWORD);
  const places = await call<{ manufacturers: { name: string; city: string; latitude: number; longitude: number }[] }>(request, admin, '/admin/dashboard/info/deviceAddressInfo', { period: 'all' });
  expect(places.manufacturers).toContainEqual(expect.objectContaining({ name, city: 'Lisboa', latitude: 38.72, longitude: -9.14 }));
});
