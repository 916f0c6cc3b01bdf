// The shared device contract as a client outside this code reads it: a new device's one-time
// key is `data.key` of POST /admin/device/info/add (and resetKey), and a machine signs in with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawClient, startHubServer, type HubServer } from './hub-helpers.ts';

let h: HubServer;
beforeAll(async () => {
  h = await startHubServer();
});
afterAll(async () => {
  await h?.close();
});

describe('device key in the reply (device-protocol.md, "Connecting")', () => {
  it('add and resetKey answer the key as data.key (deviceKey kept), and a machine signs in with it', async () => {
    const add = await h.post('/admin/device/info/add', { devicename: 'Contract', diameters: [0.8], memory: 10 }, h.adminToken);
    expect(add.code).toBe(1000);
    expect(add.data.key).toMatch(/^awd_/);
    expect(add.data.deviceKey).toBe(add.data.key);
    const a = new RawClient(h.wsUrl);
    await a.hello(add.data.key);
    expect(await a.next((m) => m.type === 'welcome')).toMatchObject({ deviceId: add.data.id });
    a.close();
    const reset = await h.post('/admin/device/info/resetKey', { id: add.data.id }, h.adminToken);
    expect(reset.data.key).toMatch(/^awd_/);
    expect(reset.data.key).not.toBe(add.data.key);
    expect(reset.data.deviceKey).toBe(reset.data.key);
    const b = new RawClient(h.wsUrl);
    await b.hello(reset.data.key);
    expect(await b.next((m) => m.type === 'welcome')).toMatchObject({ deviceId: add.data.id });
    b.close();
  });
});
