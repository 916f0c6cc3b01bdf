// A model over the upload limit in the order form: the slot says so before anything is sent and
// offers "Simplify", which decimates the model in a geometry worker and uploads the simplified copy.
// Runs against the second server of playwright.config.ts, whose upload limit is 1 MB.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type Request } from '@playwright/test';
import { apiLogin, createDesigner, signInViaApi } from './helpers.ts';
import { pngLike, sphereCounts, sphereStl } from '../fixtures/stl.ts';

/** playwright.config.ts: `smallUploadPort`, started with UPLOAD_MAX_MB=1. */
const SMALL_UPLOAD_PORT = Number(process.env.E2E_PORT ?? 18787) + 2000;
const LIMIT = 1024 * 1024;
const RADIUS = 20;

test.use({ baseURL: `http://127.0.0.1:${SMALL_UPLOAD_PORT}`, locale: 'en-US' });

/** Triangle count (header and size must agree) and the largest distance of a vertex from RADIUS. */
function readSphereStl(bytes: Buffer): { triangles: number; worstRadius: number } {
  const triangles = bytes.readUInt32LE(80);
  expect(bytes.byteLength).toBe(84 + 50 * triangles);
  let worst = 0;
  for (let i = 0; i < triangles; i++) {
    for (let v = 0; v < 3; v++) {
      const o = 84 + i * 50 + 12 + v * 12;
      const r = Math.hypot(bytes.readFloatLE(o), bytes.readFloatLE(o + 4), bytes.readFloatLE(o + 8));
      worst = Math.max(worst, Math.abs(r - RADIUS));
    }
  }
  return { triangles, worstRadius: worst };
}

test('a model over the upload limit is simplified in the browser and saved with the order', async ({ page, request }) => {
  await createDesigner(request, 'simplify-designer');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-simplify-'));
  const big = path.join(dir, 'big-upper.stl');
  fs.writeFileSync(big, sphereStl({ radius: RADIUS, segments: 256, rings: 128 }));
  const original = sphereCounts(256, 128).triangles;
  expect(fs.statSync(big).size).toBeGreaterThan(3 * LIMIT);
  const fake = path.join(dir, 'scan.stl');
  fs.writeFileSync(fake, pngLike(1.5 * LIMIT));

  const uploads: Request[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/admin/base/comm/upload')) uploads.push(r);
  });

  await signInViaApi(page, 'simplify-designer', 'simplify-designer-pass');
  await page.goto('/order/list');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Patient').fill('Lena Vereinfacht');

  // A .stl that is no model: too large as well, and simplifying it says why it cannot be done.
  await dialog.getByLabel('Upper model').setInputFiles(fake);
  const notice = dialog.getByTestId('model-too-large');
  await expect(notice).toContainText('Model too large: scan.stl is 1.5 MB, the upload limit is 1.0 MB. Please simplify it.');
  await notice.getByRole('button', { name: 'Simplify' }).click();
  await expect(dialog.getByText('This file is not an STL file.')).toBeVisible();
  await expect(notice.getByRole('button', { name: 'Simplify' })).toBeVisible();
  await expect(dialog.getByText('No file')).toHaveCount(3);

  // The real model: nothing is sent while the slot says it is too large.
  await dialog.getByLabel('Upper model').setInputFiles(big);
  await expect(notice).toContainText('Model too large: big-upper.stl is 3.1 MB, the upload limit is 1.0 MB.');
  await expect(dialog.getByText('This file is not an STL file.')).toBeHidden();
  expect(uploads).toHaveLength(0);

  // Cancelled while the simplified copy is being sent: the slot is as it was, the offer stands.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/admin/base/comm/upload', async (route) => {
    await gate;
    await route.continue().catch(() => {}); // the request was aborted meanwhile
  });
  await notice.getByRole('button', { name: 'Simplify' }).click();
  const progress = notice.getByRole('progressbar', { name: 'Simplification progress' });
  await expect(progress).toBeVisible();
  await expect(notice.getByText('Uploading the simplified model…')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Choose STL file' }).first()).toBeDisabled();
  await page.screenshot({ path: test.info().outputPath('simplify-uploading-en.png') });
  await notice.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog.getByText('Simplification cancelled')).toBeVisible();
  await expect(progress).toBeHidden();
  await expect(notice.getByRole('button', { name: 'Simplify' })).toBeVisible();
  await expect(dialog.getByText('No file')).toHaveCount(3);
  release();
  await page.unroute('**/admin/base/comm/upload');

  // Simplify again and let it finish: the slot shows the simplified file with its size. The stage
  // line is watched as it changes (a fast stage may pass between two frames, so only order counts).
  uploads.length = 0;
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { stagesSeen: string[] }).stagesSeen = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="model-too-large"] [aria-live]')?.textContent;
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await notice.getByRole('button', { name: 'Simplify' }).click();
  await expect(dialog.getByText('big-upper-simplified.stl')).toBeVisible();
  await expect(notice).toBeHidden();
  const note = dialog.getByText(/^Simplified from 65,024 to [\d,]+ triangles$/);
  await expect(note).toBeVisible();
  const shownTriangles = Number((await note.textContent())!.match(/to ([\d,]+) triangles/)![1]!.replace(/,/g, ''));
  const sizeText = await dialog.getByText('big-upper-simplified.stl').locator('xpath=following-sibling::span[1]').textContent();
  expect(sizeText).toMatch(/^\d+\.\d KB$/);
  expect(uploads).toHaveLength(1);
  const stages = ['Reading the model…', 'Simplifying…', 'Writing the simplified model…', 'Uploading the simplified model…'];
  const seen = await page.evaluate(() => (window as unknown as { stagesSeen: string[] }).stagesSeen);
  expect(seen).toContain('Simplifying…');
  expect(seen).toContain('Uploading the simplified model…');
  expect(seen.map((s) => stages.indexOf(s))).toEqual([...seen.map((s) => stages.indexOf(s))].sort());
  expect(seen.every((s) => stages.includes(s))).toBe(true);
  await page.screenshot({ path: test.info().outputPath('simplify-done-en.png') });

  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /Lena Vereinfacht/ })).toBeVisible();

  // The order holds the simplified model: fewer triangles, under the limit, still the sphere.
  const token = await apiLogin(request, 'simplify-designer', 'simplify-designer-pass');
  const mine = await (await request.post('/admin/order/info/page', { headers: { Authorization: token }, data: {} })).json();
  const order = mine.data.list.find((o: { patientName: string }) => o.patientName === 'Lena Vereinfacht');
  expect(order.upperFile.name).toBe('big-upper-simplified.stl');
  expect(order.upperFile.size).toBeLessThanOrEqual(LIMIT);
  expect(sizeText).toBe(`${(order.upperFile.size / 1024).toFixed(1)} KB`);
  const file = await request.get(order.upperFile.url, { headers: { Authorization: token } });
  expect(file.status()).toBe(200);
  const bytes = await file.body();
  expect(bytes.byteLength).toBe(order.upperFile.size);
  const stl = readSphereStl(bytes);
  expect(stl.triangles).toBe(shownTriangles);
  expect(stl.triangles).toBeLessThan(original);
  expect(stl.triangles).toBeGreaterThan(original / 10);
  expect(stl.worstRadius).toBeLessThan(0.1);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('when the limit could not be asked beforehand, the refused upload still leads to "Simplify"', async ({ page, request }) => {
  await createDesigner(request, 'simplify-designer-2');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-simplify-'));
  const big = path.join(dir, 'lower-scan.stl');
  fs.writeFileSync(big, sphereStl({ radius: RADIUS, segments: 160, rings: 96 }));
  expect(fs.statSync(big).size).toBeGreaterThan(LIMIT);

  // Asking for the limit fails (an older server, a proxy) until a file has been sent: the file is
  // sent and refused, and only then does the slot learn the limit.
  let sent = false;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/admin/base/comm/upload')) sent = true;
  });
  await page.route('**/admin/base/comm/uploadLimit', (route) => (sent ? route.continue() : route.abort()));
  await signInViaApi(page, 'simplify-designer-2', 'simplify-designer-2-pass');
  await page.goto('/order/list');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Patient').fill('Jonas Zweiter');
  const refused = page.waitForResponse((r) => r.url().endsWith('/admin/base/comm/upload'));
  await dialog.getByLabel('Lower model').setInputFiles(big);
  expect((await refused).status()).toBe(413);
  const notice = dialog.getByTestId('model-too-large');
  await expect(notice).toContainText('Model too large: lower-scan.stl is 1.4 MB, the upload limit is 1.0 MB.');
  await notice.getByRole('button', { name: 'Simplify' }).click();
  await expect(dialog.getByText('lower-scan-simplified.stl')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
  const token = await apiLogin(request, 'simplify-designer-2', 'simplify-designer-2-pass');
  const mine = await (await request.post('/admin/order/info/page', { headers: { Authorization: token }, data: {} })).json();
  const order = mine.data.list.find((o: { patientName: string }) => o.patientName === 'Jonas Zweiter');
  expect(order.lowerFile.name).toBe('lower-scan-simplified.stl');
  expect(order.lowerFile.size).toBeLessThanOrEqual(LIMIT);
  fs.rmSync(dir, { recursive: true, force: true });
});
