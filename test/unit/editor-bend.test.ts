// The editor's Bend flow and device panel data against the real back end (a listening server with
// the device hub, a simulated machine over a real WebSocket) and the real geometry worker module:
// the specification's messages for no device, no wire, a network failure and the server's own
// refusals; a wire sent, queued and bent to done; the springback table compensating the bends;
// the remembered device; the queue's "mine" and cancel. Also the simulation view's motion
// between the kernel's states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceController, type KeyValue } from '../../src/editor/device/DeviceController.ts';
import { setupI18n } from '@lingui/core';
import { outcomeMessage } from '../../src/editor/device/messages.ts';
import { devicePort, type DevicePort } from '../../src/editor/device/port.ts';
import { createApi } from '../../src/api/typed.ts';
import { positionAt, timeline, wireDuring } from '../../src/editor/device/simulation.ts';
import type { DesignDocument, WireDesign } from '../../src/editor/engine/document.ts';
import { mm } from '../../src/editor/engine/units.ts';
import type { Xyz } from '../../src/editor/engine/pose.ts';
import { SimDevice } from '../device-sim.ts';
import { addDesigner, addDevice, startHubServer, until, type HubServer } from '../server/hub-helpers.ts';
import { headlessEditor, type Headless } from './editor-harness.ts';

/** A point (model frame) as the document stores it. */
const xyz = (x: number, y: number, z: number): Xyz => [x, y, z];

/** docs/device-bridge.md "Worked example": a U of straights 9, 4, 9 mm at R = 1. */
const U = [[0, 0, 0], [10, 0, 0], [10, 6, 0], [0, 6, 0]] as const;

function wireOf(id: string, corners: readonly (readonly [number, number, number])[], diameter = 0.8): WireDesign {
  return {
    id,
    type: 'singleArmClasp',
    jaw: 'upper',
    diameter: mm(diameter),
    clearance: mm(0.1),
    points: corners.map(([x, y, z]) => ({ point: xyz(x, y, z) })),
    anchors: [],
  };
}

function memoryStore(): KeyValue & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v) };
}

/** The editor's port over the typed client on fetch, as the page's is over the session. */
function fetchPort(base: string, token: string): DevicePort {
  return devicePort(createApi(base, { headers: { 'Accept-Language': 'en', Authorization: token } }));
}

/** English: the source catalog's messages are the ids' own text. */
const i18n = setupI18n({ locale: 'en', messages: { en: {} } });

let h: HubServer;
let editor: Headless;
beforeAll(async () => {
  [h, editor] = await Promise.all([startHubServer({ manual: false }), headlessEditor()]);
});
afterAll(async () => {
  editor?.dispose();
  await h?.close();
});

/**
 * Another editor session's devices (a second tab or user) on the same engine's geometry and
 * wire selection; the engine's own is `editor.editor.devices`.
 */
function controller(): DeviceController {
  return new DeviceController({ geometry: editor.geometry, selectedWire: () => editor.editor.wires.selected() });
}

/** Wires written into the document (one command), `selected` selected in engine.wires. */
function withWires(selected: string | null, ...wires: WireDesign[]): void {
  const doc: DesignDocument = { ...editor.editor.document, wires };
  editor.editor.changeDocument('wire.add', doc);
  editor.editor.wires.select(selected);
}

describe('Bend', () => {
  let machine: SimDevice | null = null;
  afterAll(async () => {
    await machine?.stop();
  });

  it('says "no device selected", then "no bow wire was selected", before calling the server', async () => {
    const c = editor.editor.devices;
    c.connect({ port: fetchPort(h.server.url, h.adminToken), userId: 1, admin: true, orderId: null, storage: memoryStore() });
    withWires('w1', wireOf('w1', U));
    expect(editor.editor.wires.selected()?.id).toBe('w1');
    expect(await c.bend()).toEqual({ kind: 'noDevice' });
    expect(outcomeMessage(i18n, { kind: 'noDevice' })).toBe('Add failed, no device selected');
    const d = await addDevice(h, { devicename: 'Bender A', diameters: [0.8], memory: 20 });
    await c.refresh();
    c.selectDevice(d.id);
    editor.editor.wires.select(null);
    expect(await c.bend()).toEqual({ kind: 'noWire' });
    expect(c.getState().outcome).toEqual({ kind: 'noWire' });
    expect(outcomeMessage(i18n, { kind: 'noWire' })).toBe('Bending failed, no bow wire was selected');
    expect(await h.server.ctx.db.selectFrom('device_job').select('id').where('deviceId', '=', d.id).execute()).toEqual([]);
    c.disconnect();
  });

  it('sends the selected wire, compensated by the device table; the job goes from queued to done on the machine', async () => {
    const d = await addDevice(h, { devicename: 'Bender B', diameters: [0.7, 0.8], memory: 20 });
    // 4 degrees of springback at 90 (the worked example: the job carries 94).
    const config = await h.post('/admin/device/config/add', { deviceId: d.id, diameter: 0.8, springback: [[0, 0], [90, 4], [180, 8]] }, h.adminToken);
    expect(config.code, JSON.stringify(config)).toBe(1000);
    const storage = memoryStore();
    const c = editor.editor.devices;
    c.connect({ port: fetchPort(h.server.url, h.adminToken), userId: 1, admin: true, orderId: null, storage });
    withWires('w1', wireOf('w1', U));
    await c.refresh();
    expect(c.getState().devices.find((x) => x.id === d.id)).toMatchObject({ online: false, state: 'offline', pending: 0, springback: [{ diameter: 0.8, table: [[0, 0], [90, 4], [180, 8]] }] });

    machine = new SimDevice({ url: h.wsUrl, key: d.key, stepMs: 150 });
    c.selectDevice(d.id);
    const outcome = await c.bend();
    expect(outcome).toMatchObject({ kind: 'sent', steps: 3, warnings: [] });
    const jobId = outcome.kind === 'sent' ? outcome.jobId : '';
    // Stored before the machine is even there: queued, and the device has one pending.
    expect(c.getState().queue[0]).toMatchObject({ jobId, status: 'queued', deviceId: d.id, steps: 3 });
    expect(c.getState().devices.find((x) => x.id === d.id)?.pending).toBe(1);

    await machine.start();
    const seen = new Set<string>();
    await until(async () => {
      await c.refresh();
      const job = c.getState().queue.find((j) => j.jobId === jobId);
      if (job) seen.add(job.status);
      // The devices and the queue are two requests: one refresh may see the job done and the
      // device still with it pending; the next one agrees.
      return job?.status === 'done' && c.getState().devices.find((x) => x.id === d.id)?.pending === 0;
    }, 'the job to be done and the device to have nothing pending', 15_000);
    expect(machine.bent).toEqual([jobId]);
    const sent = machine.messages.find((m) => m.type === 'job' && m.jobId === jobId) as { steps: { feed: number; rotate: number; bend: number }[] };
    expect(sent.steps.map((s) => [Math.round(s.feed * 1e4) / 1e4, s.rotate, s.bend])).toEqual([
      [10.5708, 0, 94],
      [5.5708, 0, 94],
      [9, 0, 0],
    ]);
    expect(seen.has('done')).toBe(true);
    const device = c.getState().devices.find((x) => x.id === d.id);
    expect(device).toMatchObject({ online: true, pending: 0 });
    expect(['idle', 'bending']).toContain(device?.state);

    // Remembered for this user: a new session of the editor chooses it again.
    const again = controller();
    again.connect({ port: fetchPort(h.server.url, h.adminToken), userId: 1, admin: true, orderId: null, storage });
    expect(again.getState().deviceId).toBe(d.id);
    again.dispose();
    c.disconnect();
  });

  it('stops on the checks (errors), sending nothing', async () => {
    const d = await addDevice(h, { devicename: 'Bender C', diameters: [0.8], memory: 2 });
    const c = controller();
    c.connect({ port: fetchPort(h.server.url, h.adminToken), userId: 1, admin: true, orderId: null });
    // A 3 mm start and a U of 3 steps on a device that holds 2.
    withWires('short', wireOf('short', [[0, 0, 0], [4, 0, 0], [4, 6, 0], [-6, 6, 0]]));
    await c.refresh();
    c.selectDevice(d.id);
    const outcome = await c.bend();
    expect(outcome.kind).toBe('invalid');
    const codes = outcome.kind === 'invalid' ? outcome.issues.map((i) => i.code) : [];
    expect(codes).toEqual(expect.arrayContaining(['START_LENGTH', 'OVER_MEMORY']));
    expect(await h.server.ctx.db.selectFrom('device_job').select('id').where('deviceId', '=', d.id).execute()).toEqual([]);
    c.dispose();
  });

  it('a wire whose path collides with the head is stopped, and the simulation marks that step', async () => {
    const d = await addDevice(h, { devicename: 'Bender D', diameters: [0.8], memory: 20 });
    const c = controller();
    c.connect({ port: fetchPort(h.server.url, h.adminToken), userId: 1, admin: true, orderId: null });
    // Legs 30 mm, 2.2 mm apart: the second bend swings the first leg back into the feed tube housing.
    withWires('curl', wireOf('curl', [[0, 0, 0], [30, 0, 0], [30, 2.2, 0], [0, 2.2, 0]]));
    await c.refresh();
    c.selectDevice(d.id);
    const outcome = await c.bend();
    expect(outcome.kind === 'invalid' && outcome.issues.map((i) => [i.code, i.step, i.messageKey])).toEqual([
      ['COLLISION', 1, 'the bending path collided with the machine and was skipped'],
    ]);
    const sim = await c.simulate();
    expect(sim).toMatchObject({ wireId: 'curl', collisionStep: 1, radius: 1, diameter: 0.8 });
    expect(sim!.steps).toHaveLength(3);
    expect(sim!.states).toHaveLength(3);
    expect(c.getState().simulation.status).toBe('ready');
    c.closeSimulation();
    expect(c.getState().simulation.status).toBe('none');
    c.dispose();
  });

  it("checks against the chosen device's own bending head, and the simulation carries it", async () => {
    // A head with a plate 7 to 9 mm to the side of the feed axis, behind the die: the second bend
    // swings the U's first leg through it on the way to where it rests, 6 mm off the axis.
    const plate = [{ min: [-40, 7, -10], max: [-3, 9, 10] }];
    const d = await addDevice(h, { devicename: 'Bender H', diameters: [0.8], memory: 20, head: plate });
    const c = controller();
    c.connect({ port: fetchPort(h.server.url, h.adminToken), userId: 1, admin: true, orderId: null });
    withWires('u', wireOf('u', U));
    await c.refresh();
    c.selectDevice(d.id);
    const outcome = await c.bend();
    expect(outcome.kind === 'invalid' && outcome.issues.map((i) => i.code)).toEqual(['COLLISION']);
    const sim = await c.simulate();
    expect(sim!.head).toEqual(plate);
    expect(sim!.collisionStep).toBe(1);
    // Without its own head the device takes the default one, which the U clears.
    await h.post('/admin/device/info/update', { id: d.id, head: null }, h.adminToken);
    await c.refresh();
    expect((await c.simulate())!.collisionStep).toBeNull();
    c.dispose();
  });

  it('simulating without a selected wire says so', async () => {
    const c = controller();
    editor.editor.wires.select(null);
    expect(await c.simulate()).toBeNull();
    expect(c.getState().simulation).toMatchObject({ status: 'failed', problem: 'noWire' });
    c.dispose();
  });

  it('refuses a springback table whose compensated angle falls, before bending or simulating', async () => {
    const d = await addDevice(h, { devicename: 'Bender T', diameters: [0.8], memory: 20 });
    // Angles rise but 90 + 10 > 100 - 5: bending more would keep less. The back office refuses
    // such a table now; one stored before that (written here straight into the table) remains.
    const table = [[0, 0], [90, 10], [100, -5]];
    const refused = await h.post('/admin/device/config/add', { deviceId: d.id, diameter: 0.8, springback: table }, h.adminToken);
    expect(refused.code).toBe(1002);
    const now = '2026-01-01 00:00:00';
    await h.server.ctx.db.insertInto('device_config').values({ deviceId: d.id, diameter: 0.8, springback: JSON.stringify(table), remark: null, createTime: now, updateTime: now }).execute();
    const c = controller();
    c.connect({ port: fetchPort(h.server.url, h.adminToken), userId: 1, admin: true, orderId: null });
    withWires('w1', wireOf('w1', U));
    await c.refresh();
    c.selectDevice(d.id);
    expect(await c.bend()).toEqual({ kind: 'badTable', diameter: 0.8 });
    expect(outcomeMessage(i18n, { kind: 'badTable', diameter: 0.8 })).toBe(
      "The device's springback table for 0.8 mm wire cannot be used (the compensated angle must rise with the angle); please correct it in the device settings.",
    );
    expect(await c.simulate()).toBeNull();
    expect(c.getState().simulation.problem).toBe('badTable');
    expect(await h.server.ctx.db.selectFrom('device_job').select('id').where('deviceId', '=', d.id).execute()).toEqual([]);
    c.dispose();
  });

  it('shows the server refusal as worded: a remembered device that is not bound to the designer', async () => {
    const d = await addDevice(h, { devicename: 'Not yours', diameters: [0.8], memory: 20 });
    const bob = await addDesigner(h, 'bob-bend');
    const storage = memoryStore();
    storage.setItem(`aw.bend.device.${bob.id}`, String(d.id));
    const c = controller();
    c.connect({ port: fetchPort(h.server.url, bob.token), userId: bob.id, admin: false, orderId: null, storage });
    withWires('w1', wireOf('w1', U));
    await c.refresh();
    expect(c.getState().devices).toEqual([]);
    expect(c.getState().mine).toBe(true);
    expect(await c.bend()).toEqual({ kind: 'refused', message: 'The device is not bound. Please contact your administrator' });
    c.dispose();
  });

  it('a call that fails is "Network exception, failed to send data."', async () => {
    const d = await addDevice(h, { devicename: 'Far away', diameters: [0.8], memory: 20 });
    const c = controller();
    const live = fetchPort(h.server.url, h.adminToken);
    // The same calls to a port where nothing listens any more.
    const gone = await startHubServer();
    const deadUrl = gone.server.url;
    await gone.close();
    let dead = false;
    const port: DevicePort = {
      devices: () => live.devices(),
      queue: (q) => live.queue(q),
      cancel: (j) => live.cancel(j),
      bend: (body) => (dead ? fetchPort(deadUrl, h.adminToken) : live).bend(body),
    };
    c.connect({ port, userId: 1, admin: true, orderId: null });
    withWires('w1', wireOf('w1', U));
    await c.refresh();
    c.selectDevice(d.id);
    dead = true;
    expect(await c.bend()).toEqual({ kind: 'network' });
    expect(outcomeMessage(i18n, { kind: 'network' })).toBe('Network exception, failed to send data.');
    c.dispose();
  });

  it('queue: non-admins only theirs; an admin all or "mine"; cancel a job not started', async () => {
    const d = await addDevice(h, { devicename: 'Shared', diameters: [0.8], memory: 20 });
    const eve = await addDesigner(h, 'eve-bend');
    expect((await h.post('/admin/device/info/bind', { id: d.id, userIds: [eve.id] }, h.adminToken)).code).toBe(1000);
    withWires('w1', wireOf('w1', U));
    const ofEve = controller();
    ofEve.connect({ port: fetchPort(h.server.url, eve.token), userId: eve.id, admin: false, orderId: null });
    await ofEve.refresh();
    expect(ofEve.getState().devices.map((x) => x.devicename)).toEqual(['Shared']);
    ofEve.selectDevice(d.id);
    const mine = await ofEve.bend();
    expect(mine.kind).toBe('sent');
    const admin = controller();
    admin.connect({ port: fetchPort(h.server.url, h.adminToken), userId: 1, admin: true, orderId: null });
    admin.selectDevice(d.id);
    await admin.refresh();
    const theirs = await admin.bend();
    const jobOf = (o: typeof mine) => (o.kind === 'sent' ? o.jobId : '');
    // Eve cannot switch "mine" off and sees only her job; the admin sees both, or only theirs.
    ofEve.setMine(false);
    await ofEve.refresh();
    expect(ofEve.getState().mine).toBe(true);
    expect(ofEve.getState().queue.map((j) => j.jobId)).toEqual([jobOf(mine)]);
    expect(admin.getState().mine).toBe(false);
    expect(admin.getState().queue.map((j) => j.jobId).slice(0, 2)).toEqual([jobOf(theirs), jobOf(mine)]);
    admin.setMine(true);
    await admin.refresh();
    expect(admin.getState().queue.some((j) => j.jobId === jobOf(mine))).toBe(false);
    // The device is offline: Eve's job is still queued and may be cancelled.
    await ofEve.cancel(jobOf(mine));
    expect(ofEve.getState().queue[0]).toMatchObject({ jobId: jobOf(mine), status: 'cancelled' });
    // Cancelling it again: the server's message.
    await ofEve.cancel(jobOf(mine));
    expect(ofEve.getState().cancelError?.message).toMatch(/^The job can no longer be cancelled/);
    ofEve.dispose();
    admin.dispose();
  });

  it('polls while the panel is open and stops when it closes', async () => {
    let calls = 0;
    const live = fetchPort(h.server.url, h.adminToken);
    const c = controller();
    c.connect({ port: { ...live, devices: () => (calls++, live.devices()) }, userId: 1, admin: true, orderId: null, pollMs: 30 });
    await new Promise((r) => setTimeout(r, 120));
    expect(calls).toBe(0);
    c.setOpen(true);
    await until(() => calls >= 3, 'three polls');
    c.setOpen(false);
    await new Promise((r) => setTimeout(r, 60));
    const after = calls;
    await new Promise((r) => setTimeout(r, 120));
    expect(calls).toBe(after);
    expect(c.getState().loaded).toBe(true);
    c.dispose();
  });
});

describe('simulation', () => {
  const R = 1;

  async function program(corners: readonly (readonly [number, number, number])[]) {
    const check = await editor.geometry.bendCheck({ points: corners, wire: { type: 'singleArmClasp', diameter: 0.8 }, program: { radius: R } });
    const states = await editor.geometry.bendStates(check.program!.steps, { radius: R });
    return { steps: check.program!.detail, states };
  }

  const ends = (p: Float64Array) => [Array.from(p.slice(0, 3)), Array.from(p.slice(-3))];

  it('plays each step to the kernel state after it (planar U, and an L then an out-of-plane Z)', async () => {
    for (const corners of [U, [[0, 0, 0], [20, 0, 0], [20, 20, 0], [20, 20, 20]] as const]) {
      const { steps, states } = await program(corners);
      let before: Float64Array = new Float64Array([0, 0, 0]);
      steps.forEach((step, i) => {
        const played = wireDuring(before, step, 'bend', 1, R);
        const kernel = states[i]!.points;
        const [tipA, endA] = ends(played);
        const [tipB, endB] = ends(kernel);
        tipA!.forEach((v, k) => expect(v).toBeCloseTo(tipB![k]!, 4));
        endA!.forEach((v, k) => expect(v).toBeCloseTo(endB![k]!, 6));
        before = kernel;
      });
    }
  });

  it('moves through feed, rotate and bend: the U tip after its first feed, halfway round the die, and after the turn', async () => {
    const { steps } = await program(U);
    const start = new Float64Array([0, 0, 0]);
    // Halfway through the first feed the tip is out 5.2854 mm along +X.
    const half = wireDuring(start, steps[0]!, 'feed', 0.5, R);
    expect(half[0]).toBeCloseTo(5.2854, 4);
    // The docs' state after step 1: the tip at (1, 10, 0).
    const bent = wireDuring(start, steps[0]!, 'bend', 1, R);
    expect(Array.from(bent.slice(0, 3)).map((v) => Math.round(v * 1e4) / 1e4)).toEqual([1, 10, 0]);
    // A rotate of +90 turns the fed wire's +Y to -Z.
    const turned = wireDuring(bent, { ...steps[1]!, feed: 0, rotate: 90 }, 'rotate', 1, R);
    expect(turned[0]).toBeCloseTo(1, 6);
    expect(turned[1]).toBeCloseTo(0, 6);
    expect(turned[2]).toBeCloseTo(-10, 6);
  });

  it('lays the phases on a time line and finds them again', async () => {
    const { steps } = await program(U);
    const line = timeline(steps);
    // Step 3 is a straight feed only: no rotate, no bend.
    expect(line.spans.map((s) => `${s.step}:${s.phase}`)).toEqual(['0:feed', '0:bend', '1:feed', '1:bend', '2:feed']);
    const second = line.spans[3]!;
    expect(positionAt(line, second.start + second.duration / 2)).toEqual({ step: 1, phase: 'bend', t: 0.5 });
    expect(positionAt(line, line.total)).toEqual({ step: 2, phase: null, t: 1 });
    expect(positionAt(line, 0)).toMatchObject({ step: 0, phase: 'feed', t: 0 });
  });
});
