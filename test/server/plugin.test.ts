// Plugins: the built-ins' enable/disable and settings, installing a package (JSON or ZIP) whose
// menus appear in the menu and go on uninstall; and the attacks: path traversal in file names,
// oversize packages, menus and permissions outside the plugin's prefix, code in the manifest,
// a caller without the right.
import { deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';

const P = '/admin/plugin/info';
let t: TestServer;
let admin: string;

const manifest = (over: Record<string, unknown> = {}) => ({
  name: 'weather',
  version: '1.2.0',
  title: 'Weather',
  settings: [{ key: 'city', type: 'string', maxLength: 40, default: 'Berlin' }],
  permissions: ['plugin:weather:view'],
  menus: [{ name: 'Forecast', router: '/plugin/weather/forecast', url: 'https://weather.example/embed', perms: ['plugin:weather:view'] }],
  ...over,
});

function install(body: Uint8Array | string, token = admin, lang = 'en') {
  const form = new FormData();
  form.append('file', new Blob([body as BlobPart]), 'plugin.zip');
  return Promise.resolve(t.app.request(`${P}/install`, { method: 'POST', headers: { Authorization: token, 'Accept-Language': lang }, body: form })).then((r) => r.json());
}
const post = (url: string, body: unknown, token = admin) => t.call('POST', url, { token, body, lang: 'en' }).then((r) => r.body);

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
});
afterAll(() => t.close());

describe('plugins', () => {
  it('lists the built-ins enabled with their default settings', async () => {
    const list = (await post(`${P}/list`, {})).data as { key: string; status: number; builtIn: boolean; settings: Record<string, unknown> }[];
    expect(list.map((p) => p.key)).toEqual(['markdown', 'code', 'richText', 'regionPicker', 'excel', 'aiService']);
    expect(list.every((p) => p.builtIn && p.status === 1)).toBe(true);
    expect(list.find((p) => p.key === 'excel')!.settings).toEqual({ exportRows: 10_000 });
  });

  it('disables and enables a built-in; the state call tells any signed-in user', async () => {
    expect((await post(`${P}/enable`, { key: 'excel', status: 0 })).code).toBe(1000);
    const roleId = await createRole(t.ctx, 'pl-nobody', []);
    await addUser(t, admin, { username: 'pl-nobody', password: 'nobody-pass-1', roleIdList: [roleId] });
    const nobody = (await t.login('pl-nobody', 'nobody-pass-1')).token;
    const state = await t.call('GET', `${P}/state`, { token: nobody });
    expect(state.body.data.disabled).toEqual(['excel']);
    // The editors' settings, nothing of the others (the AI connector's, installed plugins').
    expect(Object.keys(state.body.data.settings).sort()).toEqual(['code', 'markdown', 'regionPicker', 'richText']);
    expect(state.body.data.settings.code).toEqual({ tabSize: 2 });
    // The kit's calls are off while it is.
    expect((await post('/admin/dict/info/export', {})).message).toBe('The plugin "excel" is disabled');
    await post(`${P}/enable`, { key: 'excel', status: 1 });
    expect((await t.call('GET', `${P}/state`, { token: nobody })).body.data.disabled).toEqual([]);
    expect((await post(`${P}/enable`, { key: 'nope', status: 0 })).code).toBe(1001);
  });

  it('checks settings against the plugin settings schema', async () => {
    expect((await post(`${P}/config`, { key: 'code', settings: { tabSize: 4 } })).code).toBe(1000);
    expect((await post(`${P}/config`, { key: 'code', settings: { tabSize: 99 } })).message).toBe('Setting "tabSize" is invalid');
    expect((await post(`${P}/config`, { key: 'code', settings: { tabSize: '4' } })).code).toBe(1001);
    expect((await post(`${P}/config`, { key: 'code', settings: { evil: 1 } })).code).toBe(1001);
    expect((await post(`${P}/config`, { key: 'regionPicker', settings: { level: 'planet' } })).code).toBe(1001);
    const code = ((await post(`${P}/list`, {})).data as { key: string; settings: unknown }[]).find((p) => p.key === 'code')!;
    expect(code.settings).toEqual({ tabSize: 4 });
  });

  it('installs a JSON package: its menus appear in the menu, and go on uninstall', async () => {
    const res = await install(JSON.stringify(manifest()));
    expect(res.code).toBe(1000);
    const menu = await t.call('GET', '/admin/base/comm/permmenu', { token: admin });
    const routers = (menu.body.data.menus as { router: string | null }[]).map((m) => m.router);
    expect(routers).toContain('/plugin/weather/forecast');
    expect(menu.body.data.perms).toContain('plugin:weather:view');
    // Installed twice: refused.
    expect((await install(JSON.stringify(manifest()))).message).toBe('A plugin named "weather" is already installed');
    // Settings follow the manifest's schema.
    expect((await post(`${P}/config`, { key: 'weather', settings: { city: 'x'.repeat(41) } })).code).toBe(1001);
    expect((await post(`${P}/config`, { key: 'weather', settings: { city: 'Hamburg' } })).code).toBe(1000);
    // Disabling hides its pages.
    await post(`${P}/enable`, { key: 'weather', status: 0 });
    const hidden = await t.ctx.db.selectFrom('base_sys_menu').select('isShow').where('router', '=', '/plugin/weather/forecast').executeTakeFirstOrThrow();
    expect(hidden.isShow).toBe(0);

    expect((await post(`${P}/uninstall`, { key: 'weather' })).code).toBe(1000);
    const after = await t.call('GET', '/admin/base/comm/permmenu', { token: admin });
    expect((after.body.data.menus as { router: string | null }[]).map((m) => m.router)).not.toContain('/plugin/weather/forecast');
    expect(await t.ctx.db.selectFrom('base_sys_menu').select('id').where('perms', 'like', '%plugin:weather%').execute()).toEqual([]);
    expect((await post(`${P}/uninstall`, { key: 'excel' })).message).toBe('Built-in plugins cannot be uninstalled, only disabled');
  });

  it('installs a ZIP package, keeping its other files inert (names and sizes only)', async () => {
    const zip = zipOf([
      ['manifest.json', JSON.stringify(manifest({ name: 'atlas', permissions: [], menus: [{ name: 'Map', router: '/plugin/atlas', url: 'https://atlas.example/' }] }))],
      ['scripts/postinstall.js', 'require("child_process").exec("rm -rf /")'],
    ]);
    const res = await install(zip);
    expect(res.code).toBe(1000);
    const list = (await post(`${P}/list`, {})).data as { key: string; files: { name: string }[] }[];
    expect(list.find((p) => p.key === 'atlas')!.files).toEqual([{ name: 'scripts/postinstall.js', size: 41 }]);
    await post(`${P}/uninstall`, { key: 'atlas' });
  });

  it('refuses path traversal, oversize, claims outside the prefix and code in the manifest', async () => {
    const reason = async (body: Uint8Array | string) => (await install(body)).message as string;
    const good = JSON.stringify(manifest());
    expect(await reason(zipOf([['manifest.json', good], ['../../etc/passwd', 'x']]))).toMatch(/unsafe file name/);
    expect(await reason(zipOf([['manifest.json', good], ['/abs/file', 'x']]))).toMatch(/unsafe file name/);
    expect(await reason(zipOf([['manifest.json', good], ['a\\..\\b', 'x']]))).toMatch(/unsafe file name/);
    expect(await reason(zipOf([['readme.txt', 'x']]))).toMatch(/manifest.json is missing/);
    expect(await reason(JSON.stringify(manifest({ name: '../evil' })))).toMatch(/name must be/);
    expect(await reason(JSON.stringify(manifest({ menus: [{ name: 'Users', router: '/sys/user', url: 'https://x.example/' }] })))).toMatch(/menu path outside/);
    expect(await reason(JSON.stringify(manifest({ menus: [{ name: 'X', router: '/plugin/other/x', url: 'https://x.example/' }] })))).toMatch(/menu path outside/);
    expect(await reason(JSON.stringify(manifest({ menus: [{ name: 'X', router: '/plugin/weather/x', url: 'javascript:alert(1)' }] })))).toMatch(/https/);
    expect(await reason(JSON.stringify(manifest({ permissions: ['base:sys:user:add'] })))).toMatch(/permission outside/);
    expect(await reason(JSON.stringify(manifest({ scripts: { postinstall: 'rm -rf /' } })))).toMatch(/may not run code/);
    expect(await reason(JSON.stringify(manifest({ settings: [{ key: 'x', type: 'function' }] })))).toMatch(/settings/);
    expect(await reason('not json')).toMatch(/not JSON/);
    expect(await reason(JSON.stringify(manifest({ description: 'x'.repeat(70 * 1024) })))).toMatch(/too large/);
    // A ZIP declaring 64 MB inside: refused by its directory.
    expect(await reason(zipOf([['manifest.json', good], ['big.bin', new Uint8Array(64 * 1024 * 1024)]]))).toMatch(/too large/);
    // Nothing of these was recorded.
    expect(await t.ctx.db.selectFrom('plugin_info').select('key').where('builtIn', '=', 0).execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('base_sys_menu').select('id').where('router', 'like', '/plugin/%').execute()).toEqual([]);
  });

  it('refuses installing without the right', async () => {
    const roleId = await createRole(t.ctx, 'pl-viewer', ['plugin:info:list']);
    await addUser(t, admin, { username: 'pl-viewer', password: 'viewer-pass-1', roleIdList: [roleId] });
    const viewer = (await t.login('pl-viewer', 'viewer-pass-1')).token;
    const before = await t.ctx.db.selectFrom('plugin_info').selectAll().execute();
    expect((await t.call('POST', `${P}/list`, { token: viewer, body: {} })).body.code).toBe(1000);
    const form = new FormData();
    form.append('file', new Blob([JSON.stringify(manifest())]), 'p.json');
    const res = await t.app.request(`${P}/install`, { method: 'POST', headers: { Authorization: viewer }, body: form });
    expect(res.status).toBe(403);
    expect((await t.call('POST', `${P}/enable`, { token: viewer, body: { key: 'excel', status: 0 } })).status).toBe(403);
    expect(await t.ctx.db.selectFrom('plugin_info').selectAll().execute()).toEqual(before);
  });
});

/** A ZIP of deflated entries. */
function zipOf(files: [string, string | Uint8Array][]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of files) {
    const raw = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content);
    const data = deflateRawSync(raw);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, cd, end]));
}

describe('client hardening switch', () => {
  it('is readable before sign-in, and only that param', async () => {
    const off = await t.call('GET', '/admin/base/open/param?key=clientHardening');
    expect(off.body).toEqual({ code: 1000, message: expect.any(String), data: null });
    await post('/admin/base/sys/param/add', { name: 'Client hardening', keyName: 'clientHardening', data: '1', dataType: 0 });
    expect((await t.call('GET', '/admin/base/open/param?key=clientHardening')).body.data).toBe(1);
    expect((await t.call('GET', '/admin/base/open/param?key=jwtSecret')).body.code).toBe(1001);
  });
});
