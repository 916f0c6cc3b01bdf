// Devices, queue and bending in the editor: an administrator adds a wire-bending machine and binds
// it to a designer; a simulated machine (SimDevice, real WebSocket) connects from this process. The
// designer opens her order (a wire in its saved design) on /bend, opens the machines' dock (D),
// is told "no device selected" and "no bow wire was selected" as the specification words them,
// chooses the machine, selects the wire and sends it while the machine is away (the job waits,
// queued), the machine comes back and the job goes from queued to done; the simulation plays the
// program step by step; the chosen machine is remembered after a reload. Then the whole bending
// flow: on a straightened jaw with a base, a designer places a single-arm clasp with the wire
// tool, auto-fits it, slots the base for its tag, sends it, and the job goes from queued to done.
import { test, expect, type Page } from '@playwright/test';
import { palateJaw } from '../fixtures/base-models.ts';
import { jawMesh, rigidMatrix, toothOnArch, transformPositions } from '../fixtures/jaw.ts';
import { SimDevice } from '../device-sim.ts';
import { designerWithOrder, machineFor, saveDesign, signInViaApi } from './helpers.ts';
import { topSurfaceAt } from '../fixtures/mesh.ts';
import { modelPixels, settle, topViewMapping } from './canvas.ts';

test.use({ locale: 'en-US', viewport: { width: 960, height: 600 } });

const PORT = Number(process.env.E2E_PORT ?? 18787);
const WS_URL = `ws://127.0.0.1:${PORT}/ws/device`;

/** A single-arm clasp's corners (mm): straights 9, 4 and 9 between two 90° bends (docs: the worked U). */
const CLASP = [[-4, -20, 6], [6, -20, 6], [6, -14, 6], [-4, -14, 6]];
/** Legs 30 mm, 2.2 mm apart: the second bend swings the first leg back into the feed tube housing. */
const CURL = [[-15, 0, 6], [15, 0, 6], [15, 2.2, 6], [-15, 2.2, 6]];

async function openOrder(page: Page, id: number): Promise<void> {
  await page.goto(`/bend?orderId=${id}`);
  await expect(page.getByTestId('model-upper')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

test('a designer sends a wire to a bound machine, sees the job go from queued to done and the bending simulated', async ({ page, request }) => {
  test.setTimeout(180_000);
  const lower = jawMesh();
  const upper = { positions: transformPositions(lower.positions, rigidMatrix([0, 1, 0], 180, [0, 0, 0.5])), indices: lower.indices };
  const order = await designerWithOrder(request, { username: 'bend-designer', name: 'Bodo', patientName: 'Berta Biege', upper, lower });
  await saveDesign(request, order, {
    schemaVersion: 1,
    measurements: [],
    wires: [
      { id: 'clasp-1', type: 'singleArmClasp', jaw: 'upper', diameter: 0.8, clearance: 0.1, points: CLASP.map((point) => ({ point })), anchors: [] },
      { id: 'curl-1', type: 'singleArmClasp', jaw: 'upper', diameter: 0.8, clearance: 0.1, points: CURL.map((point) => ({ point })), anchors: [] },
    ],
  });
  const device = await machineFor(request, order.token, 'Bender 1');
  const machine = new SimDevice({ url: WS_URL, key: device.key, stepMs: 600 });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await machine.start();
    expect(machine.connected).toBe(true);

    await signInViaApi(page, 'bend-designer', 'bend-designer-pass');
    await openOrder(page, order.id);
    await page.locator('[data-testid="viewport"] canvas').focus();
    await page.keyboard.press('d');
    const panel = page.getByTestId('device-panel');
    await expect(panel).toBeVisible();
    await expect(page.getByRole('button', { name: 'Bending machines and queue' })).toHaveAttribute('aria-pressed', 'true');
    const row = panel.getByTestId('device-row');
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute('data-online', 'true');
    await expect(row.getByTestId('device-state')).toHaveText('Online · Idle');
    await expect(row).toContainText('Wire 0.7 / 0.8 mm');
    // A designer sees only her own jobs.
    await expect(panel.getByTestId('queue-mine')).toBeChecked();
    await expect(panel.getByTestId('queue-mine')).toBeDisabled();

    // The specification's client messages.
    const send = panel.getByTestId('bend-send');
    const outcome = panel.getByTestId('bend-outcome');
    const message = panel.getByTestId('bend-message');
    await send.click();
    await expect(message).toHaveText('Add failed, no device selected');
    await row.getByRole('radio').check();
    await send.click();
    await expect(message).toHaveText('Bending failed, no bow wire was selected');

    // The wire of the saved design, selected in the wire list.
    await page.locator('[data-testid="wire-item"][data-wire="clasp-1"] button').first().click();
    await expect(panel.getByTestId('bend-wire')).toHaveText('Selected wire: Single-arm clasp, 0.8 mm');

    // The machine goes away: the job is stored and waits, queued.
    await machine.stop();
    await expect(row).toHaveAttribute('data-online', 'false', { timeout: 15_000 });
    await send.click();
    await expect(outcome).toHaveAttribute('data-kind', 'sent');
    await expect(message).toHaveText('Sent to the device: 3 steps queued.');
    const job = panel.getByTestId('queue-job').first();
    await expect(job).toHaveAttribute('data-status', 'queued');
    await expect(job.getByTestId('job-status')).toHaveText('Queued');
    await expect(row).toContainText('1 pending');
    await page.screenshot({ path: test.info().outputPath('bend-queued.png') });

    // It comes back: the job is sent, bent step by step, and done.
    await machine.start();
    await expect(job.getByTestId('job-status')).toContainText(/Bending step \d\/3|Done/, { timeout: 20_000 });
    await expect(job).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
    await expect(job.getByTestId('job-status')).toHaveText('Done');
    expect(machine.bent).toHaveLength(1);
    await expect(row).toContainText('0 pending');

    // The simulation plays the program: feed, rotate, bend, step after step.
    await panel.getByTestId('bend-simulate').click();
    const sim = page.getByTestId('bend-simulation');
    await expect(sim).toBeVisible();
    await expect(sim.getByTestId('sim-step-row')).toHaveCount(3);
    await expect(sim.getByTestId('sim-step-row').first()).toContainText('10.57');
    await expect(sim).toHaveAttribute('data-step', '2', { timeout: 15_000 });
    await page.screenshot({ path: test.info().outputPath('bend-simulation.png') });
    await expect(sim).toHaveAttribute('data-playing', 'false', { timeout: 20_000 });
    await expect(sim.getByTestId('sim-progress')).toHaveText('Step 3 of 3');
    // Restart, pause and step by hand.
    await sim.getByTestId('sim-restart').click();
    await sim.getByTestId('sim-play').click();
    await expect(sim).toHaveAttribute('data-playing', 'false');
    // One step: to the end of the step under way, then the next whole step.
    await sim.getByTestId('sim-step').click();
    await expect(sim).toHaveAttribute('data-phase', '');
    const before = Number(await sim.getAttribute('data-step'));
    await sim.getByTestId('sim-step').click();
    await expect(sim).toHaveAttribute('data-step', String(before + 1));
    await expect(sim).toHaveAttribute('data-phase', '');
    // The simulation canvas shows something besides its background.
    const colours = await sim.getByTestId('bend-simulation-canvas').evaluate((canvas: HTMLCanvasElement) => {
      const copy = document.createElement('canvas');
      copy.width = 64;
      copy.height = 48;
      const ctx = copy.getContext('2d')!;
      ctx.drawImage(canvas, 0, 0, 64, 48);
      const data = ctx.getImageData(0, 0, 64, 48).data;
      const seen = new Set<string>();
      for (let i = 0; i < data.length; i += 4) seen.add(`${data[i]! >> 4},${data[i + 1]! >> 4},${data[i + 2]! >> 4}`);
      return seen.size;
    });
    expect(colours).toBeGreaterThan(4);
    await page.getByRole('button', { name: 'Close the simulation' }).click();
    await expect(sim).toHaveCount(0);

    // A wire whose bending would hit the machine is not sent; the simulation marks the step.
    await page.locator('[data-testid="wire-item"][data-wire="curl-1"] button').first().click();
    await send.click();
    await expect(outcome).toHaveAttribute('data-kind', 'invalid');
    await expect(message).toHaveText('Step 2: the bending path collided with the machine and was skipped');
    await panel.getByTestId('bend-simulate').click();
    await expect(sim.getByTestId('sim-collision')).toHaveText('Step 2: the bending path collided with the machine and was skipped');
    await expect(sim.locator('[data-testid="sim-step-row"][data-collision="true"]')).toHaveCount(1);
    await expect(sim.getByTestId('sim-step-row').nth(1)).toHaveAttribute('data-collision', 'true');
    await expect(sim).toHaveAttribute('data-step', '2', { timeout: 15_000 });
    await page.screenshot({ path: test.info().outputPath('bend-collision.png') });
    await page.getByRole('button', { name: 'Close the simulation' }).click();
    await expect(sim).toHaveCount(0);
    expect(machine.bent).toHaveLength(1);
    // Two simulation scenes made and disposed: nothing went wrong in the page.
    expect(errors).toEqual([]);

    // The chosen machine is remembered.
    await openOrder(page, order.id);
    await page.locator('[data-testid="viewport"] canvas').focus();
    await page.keyboard.press('d');
    await expect(page.getByTestId('device-row').getByRole('radio')).toBeChecked();
    await expect(page.getByTestId('queue-job').first()).toHaveAttribute('data-status', 'done');

    // In German and Chinese.
    for (const [lang, title, done, mine] of [
      ['de', 'Biegemaschinen', 'Fertig', 'Nur meine Aufträge'],
      ['zh', '折弯机', '已完成', '仅我的任务'],
    ] as const) {
      await page.evaluate((l) => localStorage.setItem('aw.lang', l), lang);
      await openOrder(page, order.id);
      await page.locator('[data-testid="viewport"] canvas').focus();
      await page.keyboard.press('d');
      await expect(page.getByTestId('device-panel').getByRole('heading', { level: 2 })).toHaveText(title);
      await expect(page.getByTestId('queue-job').first().getByTestId('job-status')).toHaveText(done);
      await expect(page.getByTestId('device-panel')).toContainText(mine);
      await page.screenshot({ path: test.info().outputPath(`bend-${lang}.png`) });
    }
  } finally {
    await machine.stop();
  }
});

test('the issue\'s flow: a designer places a single-arm clasp, auto-fits it, slots the base, sends it to the machine and sees the job go from queued to done', async ({ page, request }) => {
  test.setTimeout(240_000);
  const lower = palateJaw();
  const upper = palateJaw({ upper: true });
  for (let i = 2; i < upper.positions.length; i += 3) upper.positions[i]! += 0.5; // cusps meeting
  const order = await designerWithOrder(request, { username: 'flow-designer', name: 'Flora', patientName: 'Fritz Fluss', upper, lower });
  // Straightened, and a base generated on the lingual side of the right molars (palate, ridge, lingual cusps).
  const outline = Array.from({ length: 14 }, (_, i) => {
    const a = (2 * Math.PI * i) / 14;
    const x = -15 + 10 * Math.cos(a), y = 4 + 10 * Math.sin(a);
    const hit = topSurfaceAt(lower, x, y);
    return { point: [x, y, hit.z], triangle: hit.triangle };
  });
  await saveDesign(request, order, {
    schemaVersion: 1,
    measurements: [],
    straightening: { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], jaw: 'lower' },
    base: { jaw: 'lower', outline, closed: true, thickness: 2, height: 2, generated: true },
  });
  const device = await machineFor(request, order.token, 'Bender 1');
  const machine = new SimDevice({ url: WS_URL, key: device.key, stepMs: 400 });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await signInViaApi(page, 'flow-designer', 'flow-designer-pass');
    await page.goto(`/bend?orderId=${order.id}`);
    await expect(page.getByTestId('model-lower')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(page.getByTestId('base-ready')).toBeVisible({ timeout: 60_000 });

    // The lower jaw from the top; a model point's screen position from the silhouette's box and the model's.
    await page.getByRole('button', { name: 'Hide Upper jaw' }).click();
    const canvas = page.locator('[data-testid="viewport"] canvas');
    await canvas.focus();
    await page.keyboard.press('5');
    await settle(page);
    const screen = await topViewMapping(page, lower, await modelPixels(page, 2));

    // The wire tool places a single-arm clasp on the buccal side of the right first molar (tooth 1 of the generated jaw).
    await page.keyboard.press('w');
    await expect(page.getByTestId('wire-type')).toHaveValue('singleArmClasp');
    const molar = toothOnArch(1);
    // 6 mm out from the crown's centre: the view is a perspective one and the mapping is the
    // silhouette's (the palate block's rim, below the crowns), so nearer points land lingually.
    const at = screen(molar.x + 6 * molar.ty, molar.y - 6 * molar.tx);
    await page.mouse.click(at.x, at.y);
    const item = page.getByTestId('wire-item');
    await expect(item).toHaveCount(1);
    await expect(item.first()).toHaveAttribute('data-selected', 'true');
    await expect(item.first()).toContainText('Single-arm clasp');

    // Auto-fit, then the slot for its tag (the defaults: a closed tunnel).
    await page.getByTestId('wire-autofit').click();
    await expect(page.getByTestId('wire-problem')).toHaveCount(0);
    await expect(item.first()).toHaveAttribute('data-status', /ok|warnings/);
    await page.getByTestId('slot-cut').click();
    await expect(page.getByTestId('slot-status')).toHaveAttribute('data-applied', '1', { timeout: 60_000 });
    await settle(page);
    await page.screenshot({ path: test.info().outputPath('flow-slotted.png') });

    // Sent to the machine, which is not there yet: queued; it connects: bent, done.
    await canvas.focus();
    await page.keyboard.press('d');
    const panel = page.getByTestId('device-panel');
    const row = panel.getByTestId('device-row');
    await expect(row).toHaveAttribute('data-online', 'false');
    await row.getByRole('radio').check();
    await expect(panel.getByTestId('bend-wire')).toHaveText('Selected wire: Single-arm clasp, 0.8 mm');
    await panel.getByTestId('bend-send').click();
    await expect(panel.getByTestId('bend-outcome')).toHaveAttribute('data-kind', 'sent');
    const job = panel.getByTestId('queue-job').first();
    await expect(job).toHaveAttribute('data-status', 'queued');
    await machine.start();
    await expect(row).toHaveAttribute('data-online', 'true', { timeout: 15_000 });
    await expect(job).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    expect(machine.bent).toHaveLength(1);
    // What the machine received is the clasp's program: as many steps as the queue says.
    const sent = machine.messages.find((m) => m.type === 'job') as { steps: unknown[]; wire: { type: string; diameter: number } };
    expect(sent.wire).toMatchObject({ type: 'singleArmClasp', diameter: 0.8 });
    await expect(job).toContainText(`${sent.steps.length} steps`);
    await page.screenshot({ path: test.info().outputPath('flow-done.png') });
    expect(errors).toEqual([]);
  } finally {
    await machine.stop();
  }
});
