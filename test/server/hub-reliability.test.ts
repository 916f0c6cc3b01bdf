// The hub's promise under trouble: 200 jobs across simulated machines while the back end is
// stopped and started again on the same data folder and machines drop their connections at
// random. In the end every job is done exactly once, on its own machine, and none is lost.
import { afterAll, describe, expect, it } from 'vitest';
import { SimDevice } from '../device-sim.ts';
import { addDevice, startHubServer, steps, until, WIRE, type HubServer } from './hub-helpers.ts';

/** Deterministic randomness so a failure can be replayed. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

let h: HubServer | undefined;
const sims: SimDevice[] = [];
afterAll(async () => {
  await Promise.all(sims.map((s) => s.stop()));
  await h?.close();
});

describe('device hub reliability', () => {
  it('200 jobs through restarts and dropped connections: each done exactly once, none lost', async () => {
    const random = prng(20261122);
    h = await startHubServer({ manual: false, options: { hub: { tickMs: 100 } } });
    const { dir, port } = { dir: h.dir, port: h.server.port };
    const devices: Array<{ id: number; key: string }> = [];
    for (let i = 0; i < 5; i++) devices.push(await addDevice(h, { devicename: `Sim ${i}`, memory: 100 }));
    for (const d of devices) {
      const sim = new SimDevice({ url: h.wsUrl, key: d.key, stepMs: 2, dropRate: 0.03, reconnectMs: 20, random });
      sims.push(sim);
      await sim.start();
    }
    const jobs = new Map<string, number>();
    for (let round = 0; round < 5; round++) {
      for (let batch = 0; batch < 4; batch++) {
        await Promise.all(
          Array.from({ length: 10 }, async () => {
            const i = Math.floor(random() * devices.length);
            const r = await h!.post('/admin/design/bend', { deviceId: devices[i]!.id, wire: WIRE, steps: steps(1 + Math.floor(random() * 4)) }, h!.adminToken);
            expect(r.code, r.message).toBe(1000);
            jobs.set(r.data.jobId, i);
          }),
        );
        // Some machines lose their line in the middle of the work.
        for (const sim of sims) if (random() < 0.3) sim.drop();
        await new Promise((r) => setTimeout(r, random() * 40));
      }
      // The back end goes down with work in flight and comes back on the same data.
      await h.close(true);
      await new Promise((r) => setTimeout(r, random() * 100));
      h = await startHubServer({ dir, port, manual: false, options: { hub: { tickMs: 100 } } });
    }
    expect(jobs.size).toBe(200);
    const db = () => h!.server.ctx.db;
    await until(
      async () => (await db().selectFrom('device_job').select('id').where('status', '!=', 'done').execute()).length === 0,
      'every job done',
      20_000,
    );
    // Each job was bent once, by the machine it was sent to.
    const bent = new Map<string, number>();
    sims.forEach((sim, i) => {
      for (const jobId of sim.bent) {
        expect(bent.has(jobId), `job ${jobId} bent twice`).toBe(false);
        bent.set(jobId, i);
      }
    });
    expect(bent).toEqual(jobs);
    const rows = await db().selectFrom('device_job').select(['jobId', 'status']).execute();
    expect(rows).toHaveLength(200);
    const doneLogs = await db().selectFrom('device_job_log').select('jobId').where('status', '=', 'done').execute();
    expect(doneLogs).toHaveLength(200);
    expect(new Set(doneLogs.map((l) => l.jobId)).size).toBe(200);
    // The drops and restarts really happened.
    expect(sims.reduce((n, s) => n + s.welcomed, 0)).toBeGreaterThan(5 * 5);
  }, 30_000);
});
