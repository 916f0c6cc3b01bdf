// The automatic design, the user's story end to end with the real parts (server, job runner and
// built-in engine, Chromium, a simulated machine over WebSocket): a designer saves an order with
// upper and lower jaw models and the AI switch on; the order list follows the automatic design to
// "Ready". She opens the order in the editor: the engine's wires are there, each marked AI, and the
// AI review names the prescribed clasp it left out (on a tooth the jaw lacks) and why. She
// changes one wire's clearance, which makes it hers (the mark goes), and it is saved. She sends it
// to her machine (not AI-enabled), which bends it; an AI wire nobody accepted, sent to the same
// machine, is refused with the specification's message, in English and in Chinese.
//
// Data: generated jaws with known teeth (test/fixtures/teeth-jaws.ts), which the engine designs
// with every wire of the default prescription (test/kernels/autodesign.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type APIRequestContext } from '@playwright/test';
import { AI_STATUS } from '../../common/orders.ts';
import { DEFAULT_PRESCRIPTION } from '../../common/prescription.ts';
import { teethJaw } from '../fixtures/teeth-jaws.ts';
import { binaryStl, soupOf } from '../fixtures/stl.ts';
import { SimDevice } from '../device-sim.ts';
import { ADMIN_PASSWORD, apiLogin, createDesigner, machineFor, orderIdOf, signInViaApi } from './helpers.ts';

test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

const PORT = Number(process.env.E2E_PORT ?? 18787);
const WS_URL = `ws://127.0.0.1:${PORT}/ws/device`;
const PATIENT = 'Ada Autodesign';

interface StoredWire {
  id: string;
  type: string;
  jaw: string;
  clearance: number;
  ai?: { accepted: boolean };
}

/** The generated jaws as STL files, as a scanner would hand them over (0.5 mm grid: small uploads, quick jobs). */
function jawFiles(): { upper: string; lower: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-ai-'));
  const write = (jaw: 'upper' | 'lower', seed: number) => {
    const file = path.join(dir, `${jaw}-jaw.stl`);
    fs.writeFileSync(file, binaryStl(soupOf(teethJaw({ jaw, seed, edge: 0.5 }))));
    return file;
  };
  return { upper: write('upper', 2), lower: write('lower', 1) };
}

/** The order's stored design's wires, as the server has them. */
async function storedWires(request: APIRequestContext, token: string, orderId: number): Promise<StoredWire[]> {
  const body = await (await request.get(`/admin/design/getDesignData?orderId=${orderId}`, { headers: { Authorization: token } })).json();
  expect(body.code, JSON.stringify(body)).toBe(1000);
  return (body.data?.data?.wires ?? []) as StoredWire[];
}

test('an order with AI on is designed by the engine; the designer edits a wire, which makes it hers, and bends it; an unaccepted AI wire is refused by a plain machine', async ({ page, request }) => {
  test.setTimeout(240_000);
  const files = jawFiles();
  await createDesigner(request, 'ai-designer', 'Aida');
  const token = await apiLogin(request, 'ai-designer', 'ai-designer-pass');
  const device = await machineFor(request, token, 'Plain bender');
  const machine = new SimDevice({ url: WS_URL, key: device.key, stepMs: 50 });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The lab's default prescription with one more clasp, on the upper right third molar the
  // generated jaws do not have: the engine leaves it out and says why.
  const admin = { Authorization: await apiLogin(request, 'admin', ADMIN_PASSWORD) };
  const params = (await (await request.post('/admin/base/sys/param/list', { headers: admin, data: {} })).json()).data as { id: number; keyName: string; data: string }[];
  const param = params.find((p) => p.keyName === 'aiPrescription')!;
  const extra = { ...DEFAULT_PRESCRIPTION, upper: { ...DEFAULT_PRESCRIPTION.upper!, wires: [...DEFAULT_PRESCRIPTION.upper!.wires, { type: 'singleArmClasp' as const, teeth: [1] }] } };
  const setDefault = async (data: string) => expect((await (await request.post('/admin/base/sys/param/update', { headers: admin, data: { id: param.id, data } })).json()).code).toBe(1000);
  await setDefault(JSON.stringify(extra));
  try {
    await machine.start();

    // ---------------------------------------------------------------- the order, AI on
    await signInViaApi(page, 'ai-designer', 'ai-designer-pass');
    await page.goto('/order/list');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Patient').fill(PATIENT);
    await dialog.getByLabel('Upper model').setInputFiles(files.upper);
    await dialog.getByLabel('Lower model').setInputFiles(files.lower);
    const ai = dialog.getByRole('switch', { name: 'AI design' });
    await ai.click();
    await expect(ai).toBeChecked();
    // The prescription shows with the switch on: the lab's default, which the engine designs.
    await expect(dialog.getByLabel("The lab's default prescription (system params)")).toBeChecked();
    await expect(dialog.getByRole('progressbar', { name: 'Upload progress' })).toHaveCount(0, { timeout: 60_000 });
    await page.screenshot({ path: test.info().outputPath('ai-order-form.png') });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Save successful', { exact: true })).toBeVisible();
    await expect(dialog).toBeHidden();

    // The list follows the automatic design by itself (submitted, processing with its progress) to Ready.
    const row = page.getByRole('row', { name: new RegExp(PATIENT) });
    const cell = row.getByTestId('ai-status-cell');
    await expect(cell).toHaveAttribute('data-status', new RegExp(`^(${AI_STATUS.submitted}|${AI_STATUS.processing}|${AI_STATUS.ready})$`));
    await page.screenshot({ path: test.info().outputPath('ai-list-running.png') });
    await expect(cell).toHaveAttribute('data-status', String(AI_STATUS.ready), { timeout: 180_000 });
    await expect(cell.getByTestId('ai-status-tag')).toHaveText('Ready');
    await page.screenshot({ path: test.info().outputPath('ai-list-ready.png') });

    // What the engine placed: every wire of the default prescription (not the extra clasp), each marked as its own.
    const orderId = await orderIdOf(request, token, PATIENT);
    const designed = await storedWires(request, token, orderId);
    const prescribed = DEFAULT_PRESCRIPTION.upper!.wires.length + DEFAULT_PRESCRIPTION.lower!.wires.length;
    expect(designed).toHaveLength(prescribed);
    for (const w of designed) expect(w.ai).toEqual({ accepted: false });

    // ---------------------------------------------------------------- the editor: AI wires, marked
    await page.goto(`/bend?orderId=${orderId}`);
    for (const jaw of ['upper', 'lower']) await expect(page.getByTestId(`model-${jaw}`)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    const items = page.getByTestId('wire-item');
    await expect(items).toHaveCount(designed.length);
    const marks = page.getByTestId('wire-panel').getByTestId('wire-ai');
    await expect(marks).toHaveCount(designed.length);
    // Each mark shows whole beside its wire's name, long names included: it is in no box that
    // cuts its text off with an ellipsis (a long name's would take the mark with it).
    await page.getByTestId('wire-list').scrollIntoViewIfNeeded();
    for (const mark of await marks.all()) await expect(mark).toBeInViewport();
    const cut = await marks.evaluateAll((all) =>
      all.filter((m) => {
        for (let e: Element | null = m; e && e.tagName !== 'LI'; e = e.parentElement) if (getComputedStyle(e).textOverflow === 'ellipsis') return true;
        return false;
      }).length,
    );
    expect(cut).toBe(0);
    // The AI review beside the list: the clasp left out, in the words of its code and FDI numbers.
    const review = page.getByTestId('ai-review');
    await expect(review.locator('[data-kind="left-out"]')).toHaveText(['Single-arm clasp (18): AI detection failed on tooth 18; left out.']);
    await review.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('ai-editor-review.png') });
    await page.screenshot({ path: test.info().outputPath('ai-editor-wires.png') });

    // The designer changes a clasp's clearance with the wire tool: the wire is hers, the others stay the engine's.
    const clasp = designed.find((w) => w.type === 'singleArmClasp' && w.jaw === 'upper')!;
    const other = designed.find((w) => w.type === 'singleArmClasp' && w.id !== clasp.id)!;
    const item = page.locator(`[data-testid="wire-item"][data-wire="${clasp.id}"]`);
    await page.locator('[data-testid="viewport"] canvas').focus();
    await page.keyboard.press('w');
    await item.getByRole('button').first().click();
    await expect(item).toHaveAttribute('data-selected', 'true');
    await expect(page.getByTestId('wire-ai-review')).toBeVisible();
    // Its tag, measured again in the base the editor made from the engine's outline: held as the
    // engine left it (the review names no tag of it).
    await expect(review.locator(`[data-kind="tag"][data-wire="${clasp.id}"]`)).toHaveCount(0);
    await expect(page.getByTestId('wire-tag')).toHaveCount(1, { timeout: 30_000 });
    await expect(page.getByTestId('wire-tag')).toHaveAttribute('data-held', 'true');
    await expect(page.getByTestId('wire-tag')).toHaveText(/^Tag: \d\.\d\d mm inside the base\.$/);
    await page.getByTestId('wire-tag').scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('ai-editor-tag.png') });
    const clearance = page.getByTestId('wire-clearance');
    await expect(clearance).toHaveValue(String(clasp.clearance));
    const changed = clasp.clearance >= 0.3 ? 0.1 : 0.3;
    await clearance.fill(String(changed));
    await expect(item.getByTestId('wire-ai')).toHaveCount(0);
    await expect(page.getByTestId('wire-ai-review')).toHaveCount(0);
    await expect(page.getByTestId('wire-panel').getByTestId('wire-ai')).toHaveCount(designed.length - 1);
    // Saved by itself: the server has the wire as the designer's, with her clearance.
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved', { timeout: 30_000 });
    await expect
      .poll(async () => (await storedWires(request, token, orderId)).find((w) => w.id === clasp.id), { timeout: 30_000 })
      .toMatchObject({ clearance: changed, ai: { accepted: true } });
    await expect(item).toHaveAttribute('data-status', /ok|warnings/, { timeout: 30_000 });
    await page.screenshot({ path: test.info().outputPath('ai-editor-edited.png') });

    // ---------------------------------------------------------------- the machine (not AI-enabled)
    await page.locator('[data-testid="viewport"] canvas').focus();
    await page.keyboard.press('d');
    const dock = page.getByTestId('device-panel');
    const deviceRow = dock.getByTestId('device-row');
    await expect(deviceRow).toHaveAttribute('data-online', 'true');
    await deviceRow.getByRole('radio').check();
    await expect(dock.getByTestId('bend-wire')).toHaveText('Selected wire: Single-arm clasp, 0.8 mm');
    await dock.getByTestId('bend-send').click();
    await expect(dock.getByTestId('bend-outcome')).toHaveAttribute('data-kind', 'sent');
    const job = dock.getByTestId('queue-job').first();
    await expect(job).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    expect(machine.bent).toHaveLength(1);
    // What the machine received is that clasp's program: as many steps as the queue says, for the order.
    const sent = machine.messages.find((m) => m.type === 'job') as { orderId: number; steps: unknown[]; wire: { type: string; diameter: number } };
    expect(sent).toMatchObject({ orderId, wire: { type: 'singleArmClasp', diameter: 0.8 } });
    await expect(job).toContainText(`${sent.steps.length} steps`);
    await page.screenshot({ path: test.info().outputPath('ai-bent.png') });

    // An AI wire nobody accepted, to the same machine: refused, as the specification words it; nothing bent.
    await page.locator(`[data-testid="wire-item"][data-wire="${other.id}"] button`).first().click();
    await expect(page.locator(`[data-testid="wire-item"][data-wire="${other.id}"]`).getByTestId('wire-ai')).toBeVisible();
    await dock.getByTestId('bend-send').click();
    await expect(dock.getByTestId('bend-outcome')).toHaveAttribute('data-kind', 'refused');
    await expect(dock.getByTestId('bend-message')).toContainText('AI-generated wires cannot be matched with AI equipment');
    await expect(dock.getByTestId('bend-message')).toContainText('Plain bender');
    await page.screenshot({ path: test.info().outputPath('ai-refused.png') });
    await expect(dock.getByTestId('queue-job')).toHaveCount(1);

    // The same refusal in the user's language (Chinese).
    await page.evaluate(() => localStorage.setItem('aw.lang', 'zh'));
    await page.reload();
    await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await page.locator(`[data-testid="wire-item"][data-wire="${other.id}"] button`).first().click();
    await page.locator('[data-testid="viewport"] canvas').focus();
    await page.keyboard.press('d');
    await expect(dock.getByTestId('device-row').getByRole('radio')).toBeChecked();
    await dock.getByTestId('bend-send').click();
    await expect(dock.getByTestId('bend-outcome')).toHaveAttribute('data-kind', 'refused');
    await expect(dock.getByTestId('bend-message')).toContainText('AI生成的弓丝无法匹配AI设备');
    await page.screenshot({ path: test.info().outputPath('ai-refused-zh.png') });
    expect(machine.bent).toHaveLength(1);
    expect(errors).toEqual([]);
  } finally {
    await machine.stop();
    await setDefault(param.data);
  }
});
