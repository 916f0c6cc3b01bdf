// `npm run device:sim` against a real server that goes away and comes back on the same port:
// the simulator process keeps reconnecting (with backoff) until it is stopped, and its device is
// online again on the new server.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addDevice, startHubServer, until, type HubServer } from './hub-helpers.ts';

let h: HubServer | undefined;
let sim: ChildProcess | undefined;
afterAll(async () => {
  if (sim && sim.exitCode === null) sim.kill('SIGKILL');
  await h?.close();
});

describe('device simulator CLI', () => {
  it('comes back online after the server is stopped and started again on the same port', async () => {
    h = await startHubServer({ manual: false, options: { hub: { tickMs: 100 } } });
    const { dir, port } = { dir: h.dir, port: h.server.port };
    const d = await addDevice(h);
    const keys = path.join(dir, 'sim-keys.txt');
    fs.writeFileSync(keys, d.key + '\n');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/device-sim.ts', '--devices', '1', '--keys', keys, '--url', h.wsUrl, '--reconnect-max-ms', '400', '--quiet'],
      { cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    sim = child;
    let output = '';
    child.stdout!.on('data', (b) => (output += b));
    child.stderr!.on('data', (b) => (output += b));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    await until(() => h!.server.hub.isOnline(d.id), `the simulated device online (${output})`, 20_000);
    // The server goes away for a while: the simulator keeps trying.
    await h.close(true);
    await new Promise((r) => setTimeout(r, 1500));
    expect(child.exitCode, output).toBe(null);
    h = await startHubServer({ dir, port, manual: false, options: { hub: { tickMs: 100 } } });
    await until(() => h!.server.hub.isOnline(d.id), `the simulated device online again (${output})`, 10_000);
    // Stopped, it ends.
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 40_000);
});
