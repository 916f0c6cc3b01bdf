// The order's lifecycle end to end: a designer saves an order with an upper, a lower and an
// occlusion model given as two bite scans (merged by the form into one), so the order goes into
// "bite registration in progress"; when the server's bite job ends it is "in design" again and
// opens in the editor with the jaws in the registered bite (the placed transforms are the
// server's result). She submits the
// design (its wire checked, the check stored, the design saved first): "to be processed". A
// simulated machine bends the wire: "processed". Every wait is on the application's state.
//
// Data: the study models (ARCHWRIGHT_FIXTURES, else ../shared/fixtures/study-models:
// upper-model.stl, lower-model.stl, bite-left.stl and bite-right.stl if there) when all are
// present, else generated jaws in scanner frames of their own and a bite scan cut from both jaws
// in the bite frame, one per side (test/fixtures/bite-jaws.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { rigidMatrix, transformPositions } from '../fixtures/jaw.ts';
import { generatedBite } from '../fixtures/bite-jaws.ts';
import type { IndexedMesh } from '../fixtures/mesh.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';
import { SimDevice } from '../device-sim.ts';
import { apiLogin, createDesigner, machineFor, orderIdOf, signInViaApi } from './helpers.ts';

test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

const PORT = Number(process.env.E2E_PORT ?? 18787);
const WS_URL = `ws://127.0.0.1:${PORT}/ws/device`;
/** A single-arm clasp (editor-bend.spec.ts): straights 9, 4 and 9 between two 90° bends; passes the checks. */
const CLASP = [[-4, -20, 6], [6, -20, 6], [6, -14, 6], [-4, -14, 6]];

interface ModelFiles {
  upper: string;
  lower: string;
  bites: string[];
  source: string;
}

/** The study models when all are there, else generated ones written to a temporary folder. */
async function modelFiles(): Promise<ModelFiles> {
  const dir = process.env.ARCHWRIGHT_FIXTURES ?? path.resolve(process.cwd(), '../shared/fixtures/study-models');
  const at = (name: string) => path.join(dir, name);
  if (['upper-model.stl', 'lower-model.stl', 'bite-left.stl'].every((n) => fs.existsSync(at(n)))) {
    return { upper: at('upper-model.stl'), lower: at('lower-model.stl'), bites: ['bite-left.stl', 'bite-right.stl'].map(at).filter((f) => fs.existsSync(f)), source: 'study' };
  }
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-lifecycle-'));
  const write = (name: string, mesh: IndexedMesh) => {
    const file = path.join(out, name);
    fs.writeFileSync(file, binaryStl(soupOf(mesh)));
    return file;
  };
  // Everything in the bite frame, then each jaw as its scanner left it: turned and moved away.
  const { upper, lower, bite: left } = generatedBite({ sides: 'left' });
  const right = generatedBite({ sides: 'right' }).bite;
  return {
    upper: write('upper-model.stl', { positions: transformPositions(upper.positions, rigidMatrix([0.2, 1, 0.1], 7, [3, -2, 6])), indices: upper.indices }),
    lower: write('lower-model.stl', { positions: transformPositions(lower.positions, rigidMatrix([1, 0.3, 0], -6, [-2, 4, -5])), indices: lower.indices }),
    bites: [write('bite-left.stl', left), write('bite-right.stl', right)],
    source: 'generated (bite-jaws)',
  };
}

test('an order with three models goes through bite registration, design, submission and bending', async ({ page, request }) => {
  test.setTimeout(120_000);
  const files = await modelFiles();
  test.info().annotations.push({ type: 'models', description: files.source });
  await createDesigner(request, 'life-designer', 'Lina');
  const token = await apiLogin(request, 'life-designer', 'life-designer-pass');
  const device = await machineFor(request, token, 'Lifecycle bender');
  const machine = new SimDevice({ url: WS_URL, key: device.key, stepMs: 50 });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await machine.start();

    // ---------------------------------------------------------------- the order, with three models
    await signInViaApi(page, 'life-designer', 'life-designer-pass');
    await page.goto('/order/list');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Patient').fill('Lea Lifecycle');
    await dialog.getByLabel('Upper model').setInputFiles(files.upper);
    await dialog.getByLabel('Lower model').setInputFiles(files.lower);
    await dialog.getByLabel('Occlusion model').setInputFiles(files.bites);
    if (files.bites.length > 1) await expect(dialog.getByText(`${files.bites.length} bite scans combined into one occlusion model`)).toBeVisible();
    // The slot names the file it uploads (the merged one) once its upload has started: saving then waits for it.
    const stem = (f: string) => path.basename(f).replace(/\.stl$/i, '');
    for (const name of [path.basename(files.upper), path.basename(files.lower), `${files.bites.map(stem).join('+')}.stl`]) {
      await expect(dialog.getByText(name, { exact: true })).toBeVisible();
    }
    await expect(dialog.getByRole('progressbar', { name: 'Upload progress' })).toHaveCount(0, { timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();

    const row = page.getByRole('row', { name: /Lea Lifecycle/ });
    await expect(row).toBeVisible();
    const id = await orderIdOf(request, token, 'Lea Lifecycle');
    // The save put the order into bite registration: the list shows it (with the job's state)
    // unless the job already ended, and the history keeps it either way.
    await expect(row).toContainText(/Bite registration in progress|In design/);
    if (/Bite registration in progress/.test((await row.textContent()) ?? '')) {
      await page.screenshot({ path: test.info().outputPath('lifecycle-list-registering.png') });
    }
    // The job ends: the row follows by itself and shows the order in design.
    await expect(row).toContainText('In design', { timeout: 60_000 });
    await row.getByRole('button', { name: 'Edit', exact: true }).click();
    const history = dialog.getByTestId('order-history-row');
    await expect(history.filter({ hasText: '→ Bite registration in progress' })).not.toHaveCount(0);
    await expect(dialog.locator('[data-testid="order-history-row"][data-to="0"]', { hasText: 'Bite registration ended' })).not.toHaveCount(0);
    await expect(history.last()).toHaveAttribute('data-to', '0');
    await expect(dialog.getByTestId('order-form-status')).toHaveText('In design');
    await page.screenshot({ path: test.info().outputPath('lifecycle-form-history.png') });
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    // The server's registration, as the editor will read it.
    const occlusal = (await (await request.get(`/admin/design/getOcclusalModelData?orderId=${id}`, { headers: { Authorization: token } })).json()).data as {
      bite: { upper: number[]; lower: number[]; error?: string } | null;
      job: { state: string; error: string | null } | null;
    };
    // Both data sources register: the bite is stored with its transforms and no error.
    expect(occlusal.job?.state).toBe('done');
    expect(occlusal.bite?.error).toBeUndefined();

    // A wire for the machine, saved as the design (the editor's bite is written on its next save).
    const saved = await (
      await request.post('/admin/design/save', {
        headers: { Authorization: token },
        data: { orderId: id, baseVersion: 0, data: { schemaVersion: 1, measurements: [], wires: [{ id: 'clasp-1', type: 'singleArmClasp', jaw: 'upper', diameter: 0.8, clearance: 0.1, points: CLASP.map((point) => ({ point })), anchors: [] }] } },
      })
    ).json();
    expect(saved.code, JSON.stringify(saved)).toBe(1000);

    // ---------------------------------------------------------------- the editor, in the bite
    await page.goto(`/bend?orderId=${id}`);
    for (const role of ['upper', 'lower', 'occlusion']) {
      await expect(page.getByTestId(`model-${role}`)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    }
    await expect(page.getByTestId('order-status')).toHaveText('In design');
    const panel = page.getByTestId('bite-panel');
    await expect(panel).toHaveAttribute('data-source', 'server');
    const placed = async (jaw: 'upper' | 'lower') => JSON.parse((await panel.getAttribute(`data-placed-${jaw}`)) ?? '[]') as number[];
    await expect.poll(async () => (await placed('upper')).length).toBe(16);
    for (const jaw of ['upper', 'lower'] as const) {
      const got = await placed(jaw);
      occlusal.bite![jaw].forEach((v, i) => expect(got[i]!).toBeCloseTo(v, 6));
    }
    await expect(panel.getByTestId('bite-rms')).toContainText('mm');
    await page.screenshot({ path: test.info().outputPath('lifecycle-editor-bite.png') });

    // ---------------------------------------------------------------- submit
    await expect(page.locator('[data-testid="wire-item"][data-wire="clasp-1"]')).toHaveAttribute('data-status', /ok|warnings/, { timeout: 30_000 });
    await page.getByTestId('design-submit').click();
    await expect(page.getByTestId('submit-outcome')).toHaveAttribute('data-kind', 'submitted', { timeout: 30_000 });
    await expect(page.getByTestId('order-status')).toHaveText('To be processed');
    await expect(page.getByTestId('design-reopen')).toBeEnabled();
    // The check was stored with the saved version, and the save carried the bite shown.
    const design = (await (await request.get(`/admin/design/getDesignData?orderId=${id}`, { headers: { Authorization: token } })).json()).data as { version: number; data: { bite?: unknown } };
    expect(design.version).toBeGreaterThan(1);
    expect(design.data.bite).toMatchObject({ upper: occlusal.bite!.upper, lower: occlusal.bite!.lower, source: 'auto' });
    await page.screenshot({ path: test.info().outputPath('lifecycle-submitted.png') });

    // ---------------------------------------------------------------- the machine bends the wire
    await page.locator('[data-testid="viewport"] canvas').focus();
    await page.keyboard.press('d');
    const dock = page.getByTestId('device-panel');
    const deviceRow = dock.getByTestId('device-row');
    await expect(deviceRow).toHaveAttribute('data-online', 'true');
    await deviceRow.getByRole('radio').check();
    await page.locator('[data-testid="wire-item"][data-wire="clasp-1"] button').first().click();
    await dock.getByTestId('bend-send').click();
    await expect(dock.getByTestId('queue-job').first()).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await expect(page.getByTestId('order-status')).toHaveText('Processed', { timeout: 30_000 });
    expect(machine.bent).toHaveLength(1);
    await page.screenshot({ path: test.info().outputPath('lifecycle-processed.png') });
    expect(errors).toEqual([]);
  } finally {
    await machine.stop();
  }
});
