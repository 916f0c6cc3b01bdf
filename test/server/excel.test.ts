// The generic spreadsheet calls of a resource (core/crud-excel.ts), on dictionary entries and
// devices and on a scoped resource built here; and the attacks: formula cells, a huge file, a
// row outside the caller's scope, a file that is no workbook, a caller without the right.
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrud } from '../../server/core/crud.ts';
import type { AppEnv } from '../../server/core/env.ts';
import { safeCell, unescapeCell } from '../../server/core/excel.ts';
import { envelope } from '../../server/core/envelope.ts';
import { ApiError } from '../../server/core/errors.ts';
import { t as message } from '../../server/core/i18n.ts';
import { dictInfoResource } from '../../server/modules/dict/dict-info.ts';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';

const D = '/admin/dict/info';
let t: TestServer;
let admin: string;
let typeId: number;
let otherTypeId: number;

async function post(url: string, body: unknown, token = admin, lang = 'en') {
  return t.call('POST', url, { token, body, lang });
}
async function sheetOf(res: Response) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  return wb.worksheets[0]!;
}
async function workbook(rows: unknown[][]): Promise<Blob> {
  const wb = new ExcelJS.Workbook();
  const s = wb.addWorksheet('s');
  for (const r of rows) s.addRow(r);
  return new Blob([(await wb.xlsx.writeBuffer()) as ArrayBuffer]);
}
function upload(url: string, file: Blob, token = admin, lang = 'en', app: { request: typeof t.app.request } = t.app) {
  const form = new FormData();
  form.append('file', file, 'import.xlsx');
  return app.request(url, { method: 'POST', headers: { Authorization: token, 'Accept-Language': lang }, body: form });
}

beforeAll(async () => {
  t = await setup();
  admin = (await t.login()).token;
  typeId = (await post('/admin/dict/type/add', { name: 'Colours', key: 'xl-colours' })).body.data.id;
  otherTypeId = (await post('/admin/dict/type/add', { name: 'Sizes', key: 'xl-sizes' })).body.data.id;
  for (const [name, value] of [['Red', 'r'], ['Green', 'g'], ['Blue', 'b']]) {
    await post(`${D}/add`, { typeId, name, value });
  }
  await post(`${D}/add`, { typeId: otherTypeId, name: 'Large', value: 'l' });
});
afterAll(() => t.close());

describe('generic export and import', () => {
  it('exports the filtered list (all pages) with headers in the caller language', async () => {
    const res = await t.app.request(`${D}/export`, {
      method: 'POST',
      headers: { Authorization: admin, 'Content-Type': 'application/json', 'Accept-Language': 'de' },
      body: JSON.stringify({ typeId, keyWord: 'e', size: 1 }),
    });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const sheet = await sheetOf(res);
    expect((sheet.getRow(1).values as unknown[]).slice(1, 4)).toEqual(['ID', 'Typ-ID', 'Name']);
    const names = [];
    for (let r = 2; r <= sheet.actualRowCount; r++) names.push(sheet.getRow(r).getCell(3).text);
    // keyWord "e" matches Red, Green, Blue of the type; not the other type's Large; size is ignored.
    expect(names.sort()).toEqual(['Blue', 'Green', 'Red']);
  });

  it('answers a template with the importable columns only', async () => {
    const res = await t.app.request(`${D}/template`, { headers: { Authorization: admin, 'Accept-Language': 'zh' } });
    const sheet = await sheetOf(res);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['类型 ID', '名称', '值', '上级 ID', '排序', '备注']);
    expect(sheet.actualRowCount).toBe(1);
  });

  it('imports the good rows and lists each bad one with its reason, by its column header', async () => {
    const file = await workbook([
      ['Type ID', 'Name', 'Value', 'Parent ID'],
      [typeId, 'Yellow', 'y', ''],
      [typeId, '', 'nameless', ''],
      [999_999, 'Ghost', 'x', ''],
      [typeId, 'Orphan', 'o', 123_456],
      [typeId, 'Cyan', 'c', ''],
    ]);
    const res = await upload(`${D}/import`, file);
    const body = await res.json();
    expect(body.code).toBe(1000);
    expect(body.data.created.map((c: { row: number }) => c.row)).toEqual([2, 6]);
    expect(body.data.skipped).toEqual([
      { row: 3, reason: 'Name cannot be empty' },
      { row: 4, reason: 'Type ID is invalid' },
      { row: 5, reason: expect.any(String) },
    ]);
    const list = (await post(`${D}/list`, { typeId })).body.data as { name: string }[];
    expect(list.map((r) => r.name)).toEqual(expect.arrayContaining(['Yellow', 'Cyan']));
    expect(list.map((r) => r.name)).not.toContain('Ghost');
  });

  it('makes formula cells text on export and reads them back as they were', async () => {
    const evil = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)'];
    for (const name of evil) expect((await post(`${D}/add`, { typeId: otherTypeId, name, value: name })).body.code).toBe(1000);
    const res = await t.app.request(`${D}/export`, {
      method: 'POST',
      headers: { Authorization: admin, 'Content-Type': 'application/json', 'Accept-Language': 'en' },
      body: JSON.stringify({ typeId: otherTypeId }),
    });
    const sheet = await sheetOf(res);
    const cells: ExcelJS.Cell[] = [];
    sheet.eachRow((row, n) => n > 1 && cells.push(row.getCell(3)));
    const names = cells.map((c) => c.value);
    for (const name of evil) expect(names).toContain(`'${name}`);
    // No cell is a formula.
    expect(cells.every((c) => c.type !== ExcelJS.ValueType.Formula)).toBe(true);
    expect(safeCell(-3)).toBe(-3);
    expect(safeCell('\tcmd|calc')).toBe("'\tcmd|calc");
    expect(unescapeCell(String(safeCell('=1+1')))).toBe('=1+1');
    expect(unescapeCell("'plain")).toBe("'plain");

    // Re-importing the export (ids and times are not read) gives the same names back.
    await post(`${D}/delete`, { ids: ((await post(`${D}/list`, { typeId: otherTypeId })).body.data as { id: number }[]).map((r) => r.id) });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await (await t.app.request(`${D}/export`, {
      method: 'POST', headers: { Authorization: admin, 'Content-Type': 'application/json' }, body: JSON.stringify({ typeId: otherTypeId }),
    })).arrayBuffer());
    const again = new ExcelJS.Workbook();
    const s = again.addWorksheet('s');
    s.addRow(['Type ID', 'Name', 'Value']);
    for (const name of evil) s.addRow([otherTypeId, `'${name}`, `'${name}`]);
    const imp = await (await upload(`${D}/import`, new Blob([(await again.xlsx.writeBuffer()) as ArrayBuffer]))).json();
    expect(imp.data.created).toHaveLength(evil.length);
    const back = ((await post(`${D}/list`, { typeId: otherTypeId })).body.data as { name: string }[]).map((r) => r.name);
    expect(back.sort()).toEqual([...evil].sort());
  });

  it("caps an export at the Excel plugin's exportRows setting", async () => {
    expect((await post('/admin/plugin/info/config', { key: 'excel', settings: { exportRows: 2 } })).body.code).toBe(1000);
    try {
      const res = await t.app.request(`${D}/export`, { method: 'POST', headers: { Authorization: admin, 'Content-Type': 'application/json' }, body: JSON.stringify({ typeId }) });
      expect((await sheetOf(res)).actualRowCount).toBe(3);
      const users = await t.app.request('/admin/base/sys/user/export', { method: 'POST', headers: { Authorization: admin, 'Content-Type': 'application/json' }, body: '{}' });
      expect((await sheetOf(users)).actualRowCount).toBeLessThanOrEqual(3);
    } finally {
      await post('/admin/plugin/info/config', { key: 'excel', settings: { exportRows: 10_000 } });
    }
  });

  it('refuses a file that is not a workbook, and one too large, and too many rows', async () => {
    const csv = await (await upload(`${D}/import`, new Blob(['Type ID,Name\n1,Red\n']))).json();
    expect(csv).toEqual({ code: 1001, message: 'The file is not a readable Excel (xlsx) workbook' });
    const png = await (await upload(`${D}/import`, new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])]))).json();
    expect(png.code).toBe(1001);

    // Over the request body limit: refused before it is read.
    const huge = await upload(`${D}/import`, new Blob([new Uint8Array(3 * 1024 * 1024)]));
    expect(huge.status).toBe(413);

    // A small ZIP that says it unpacks to 64 MB: refused by its directory, nothing inflated.
    const bomb = await (await upload(`${D}/import`, new Blob([zipOf('xl/worksheets/sheet1.xml', 64 * 1024 * 1024) as Uint8Array<ArrayBuffer>]))).json();
    expect(bomb).toEqual({ code: 1001, message: 'The file is too large to import (at most 2 MB)' });

    const rows: unknown[][] = [['Type ID', 'Name']];
    for (let i = 0; i < 1001; i++) rows.push([typeId, `n${i}`]);
    const many = await (await upload(`${D}/import`, await workbook(rows))).json();
    expect(many).toEqual({ code: 1001, message: 'At most 1000 rows can be imported at once' });
    const before = ((await post(`${D}/list`, { typeId })).body.data as unknown[]).length;
    expect(before).toBeLessThan(20);
  });

  it('needs the import right and the enabled Excel plugin', async () => {
    const roleId = await createRole(t.ctx, 'xl-reader', ['dict:info:page']);
    await addUser(t, admin, { username: 'xl-reader', password: 'reader-pass-1', roleIdList: [roleId] });
    const reader = (await t.login('xl-reader', 'reader-pass-1')).token;
    expect((await upload(`${D}/import`, await workbook([['Name'], ['x']]), reader)).status).toBe(403);
    expect((await t.app.request(`${D}/export`, { method: 'POST', headers: { Authorization: reader, 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(403);

    expect((await post('/admin/plugin/info/enable', { key: 'excel', status: 0 })).body.code).toBe(1000);
    try {
      const off = await post(`${D}/export`, {});
      expect(off.body).toEqual({ code: 1001, message: 'The plugin "excel" is disabled' });
      const users = await post('/admin/base/sys/user/export', {});
      expect(users.body.code).toBe(1001);
    } finally {
      await post('/admin/plugin/info/enable', { key: 'excel', status: 1 });
    }
  });

  it('skips a row that would create data outside the caller scope', async () => {
    // Dictionary entries seen through a scope of one type, as a department scope limits users.
    const scoped = createCrud(t.ctx, {
      ...dictInfoResource,
      path: 'scoped',
      hooks: { scope: () => ({ typeId }) },
    });
    const app = new Hono<AppEnv>()
      .use(async (c, next) => {
        c.set('lang', 'en');
        await next();
      })
      .route(scoped.prefix, scoped.routes);
    app.onError((err, c) => (err instanceof ApiError ? c.json(envelope(err.code, message('en', err.key, err.params))) : c.json({ error: String(err) }, 500)));
    const file = await workbook([
      ['Type ID', 'Name'],
      [typeId, 'Inside'],
      [otherTypeId, 'Outside'],
    ]);
    const res = await upload(`${scoped.prefix}/import`, file, admin, 'en', app);
    const body = await res.json();
    expect(body.data.created.map((c: { row: number }) => c.row)).toEqual([2]);
    expect(body.data.skipped).toEqual([{ row: 3, reason: 'Type ID: you may not create data there' }]);
    const outside = await t.ctx.db.selectFrom('dict_info').select('id').where('name', '=', 'Outside').execute();
    expect(outside).toEqual([]);
  });
});

/** A ZIP of one deflated entry of `size` zero bytes (it compresses to a few KB). */
function zipOf(name: string, size: number): Uint8Array {
  const data = deflateRawSync(Buffer.alloc(size));
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(size, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return new Uint8Array(Buffer.concat([local, nameBytes, data, central, nameBytes, end]));
}
