// Releases and their notes, /version.json, help articles for readers, and the status labels.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { AI_STATUS, ORDER_STATUS } from '../../server/modules/order/status.ts';
import { createRole, type TestServer } from './helpers.ts';
import { insertUser, opsServer } from './ops-helpers.ts';

let t: TestServer;
let admin: string;
let plain: string;
beforeAll(async () => ({ t, admin, plain } = await opsServer()));
afterAll(() => t.close());

describe('releases', () => {
  it('version.json answers the package version', async () => {
    const res = await t.app.request('/version.json?t=1');
    expect(await res.json()).toEqual({ gn: pkg.version });
  });

  it('open/release answers the latest released notes; toReaded marks them read once per user', async () => {
    expect((await t.call('GET', '/admin/base/open/release')).body.data).toBeNull();
    const add = (body: Record<string, unknown>) => t.call('POST', '/admin/base/sys/release/add', { token: admin, lang: 'en', body });
    expect((await add({ version: '1.0.0', title: 'First', content: '# Hello', releaseTime: '2025-12-01' })).body.code).toBe(1000);
    expect((await add({ version: '1.1.0', title: 'Second', content: '* more', releaseTime: '2025-12-20 10:00', forceUpdate: true })).body.code).toBe(1000);
    // Not released yet: the clock stands at 2026-01-01 08:00.
    expect((await add({ version: '2.0.0', title: 'Future', releaseTime: '2026-06-01' })).body.code).toBe(1000);
    expect((await add({ version: '1.1.0', title: 'Dup', releaseTime: '2025-12-21' })).body).toEqual({
      code: 1001,
      message: 'This version already has release notes',
    });
    expect((await add({ version: '1.2.0', title: 'No time' })).body).toEqual({ code: 1002, message: 'releaseTime cannot be empty' });
    expect((await add({ version: '1.2.0', title: 'Bad time', releaseTime: 'tomorrow' })).body).toEqual({ code: 1002, message: 'releaseTime is invalid' });

    const anonymous = (await t.call('GET', '/admin/base/open/release')).body.data;
    expect(anonymous).toMatchObject({ version: '1.1.0', title: 'Second', content: '* more', forceUpdate: true, releaseTime: '2025-12-20 10:00:00' });
    expect(anonymous).not.toHaveProperty('readed');

    // Brand-new accounts (created at 2026-01-01 08:00, after 1.1.0 came out) are not shown old notes.
    expect((await t.call('GET', '/admin/base/open/release', { token: plain })).body.data.readed).toBe(true);
    expect((await t.call('GET', '/admin/base/open/release', { token: admin })).body.data.readed).toBe(true);
    // Accounts older than the release see them until they close them.
    await t.ctx.db.updateTable('base_sys_user').set({ createTime: '2025-06-01 00:00:00' }).where('username', 'in', ['plain', 'admin']).execute();
    expect((await t.call('GET', '/admin/base/open/release', { token: plain })).body.data.readed).toBe(false);
    expect((await t.call('GET', '/admin/base/sys/release/toReaded', { token: plain })).body.code).toBe(1000);
    expect((await t.call('GET', '/admin/base/sys/release/toReaded', { token: plain })).body.code).toBe(1000);
    expect((await t.call('GET', '/admin/base/open/release', { token: plain })).body.data.readed).toBe(true);
    expect((await t.call('GET', '/admin/base/open/release', { token: admin })).body.data.readed).toBe(false);
    // A bad token only leaves `readed` out.
    expect((await t.call('GET', '/admin/base/open/release', { token: 'garbage' })).body.data).not.toHaveProperty('readed');
    expect((await t.call('GET', '/admin/base/sys/release/toReaded')).status).toBe(401);
    expect((await t.call('GET', '/admin/base/sys/release/toReaded?id=999', { token: plain })).body.code).toBe(1001);
  });

  it('managing releases needs the permission', async () => {
    expect((await t.call('POST', '/admin/base/sys/release/page', { token: plain, body: {} })).status).toBe(403);
    expect((await t.call('POST', '/admin/base/sys/release/add', { token: plain, body: {} })).status).toBe(403);
    const page = await t.call('POST', '/admin/base/sys/release/page', { token: admin, body: {} });
    expect(page.body.data.list.map((r: any) => r.version)).toEqual(['2.0.0', '1.1.0', '1.0.0']);
  });
});

describe('help', () => {
  let guide: number;
  let faq: number;
  let published: number;
  let draft: number;

  it('admins build categories and articles', async () => {
    const cat = (body: Record<string, unknown>) => t.call('POST', '/admin/base/sys/articleCategory/add', { token: admin, lang: 'en', body });
    guide = (await cat({ name: 'Guide', orderNum: 1 })).body.data.id;
    faq = (await cat({ name: 'FAQ', parentId: guide, orderNum: 2 })).body.data.id;
    expect((await cat({ name: 'Lost', parentId: 999 })).body.code).toBe(1001);
    const loop = await t.call('POST', '/admin/base/sys/articleCategory/update', { token: admin, body: { id: guide, parentId: faq } });
    expect(loop.body.code).toBe(1001);

    const art = (body: Record<string, unknown>) => t.call('POST', '/admin/base/sys/article/add', { token: admin, lang: 'en', body });
    published = (await art({ categoryId: faq, title: 'Bending a clasp', content: '## Steps\n1. Select', status: 1 })).body.data.id;
    draft = (await art({ categoryId: faq, title: 'Secret draft', content: 'wip' })).body.data.id;
    expect((await art({ categoryId: 999, title: 'x' })).body).toEqual({ code: 1002, message: 'categoryId is invalid' });
    expect((await art({ title: 'x', status: 3 })).body).toEqual({ code: 1002, message: 'status is invalid' });
    expect((await art({ content: 'no title' })).body).toEqual({ code: 1002, message: 'title cannot be empty' });
  });

  it('every logged-in user reads published articles only', async () => {
    const docs = (await t.call('GET', '/admin/base/sys/article/docs', { token: plain })).body.data;
    expect(docs.categories.map((c: any) => [c.name, c.parentId])).toEqual([['Guide', null], ['FAQ', guide]]);
    expect(docs.articles.map((a: any) => a.title)).toEqual(['Bending a clasp']);
    expect(docs.articles[0]).not.toHaveProperty('content');
    const doc = await t.call('GET', `/admin/base/sys/article/doc?id=${published}`, { token: plain });
    expect(doc.body.data).toMatchObject({ title: 'Bending a clasp', content: '## Steps\n1. Select' });
    expect((await t.call('GET', `/admin/base/sys/article/doc?id=${draft}`, { token: plain, lang: 'en' })).body).toEqual({
      code: 1001,
      message: 'Data does not exist',
    });
    expect((await t.call('GET', '/admin/base/sys/article/docs')).status).toBe(401);
    // The management calls stay behind permissions (they show drafts).
    expect((await t.call('POST', '/admin/base/sys/article/page', { token: plain, body: {} })).status).toBe(403);
    expect((await t.call('POST', '/admin/base/sys/articleCategory/add', { token: plain, body: { name: 'x' } })).status).toBe(403);
  });

  it('publishing and unpublishing show and hide an article', async () => {
    const roleId = await createRole(t.ctx, 'editor', ['base:sys:article:update']);
    const editor = await insertUser(t, 'editor', 'editor-pass', [roleId]);
    expect((await t.call('POST', '/admin/base/sys/article/update', { token: editor, body: { id: draft, status: 1 } })).body.code).toBe(1000);
    expect((await t.call('GET', '/admin/base/sys/article/docs', { token: plain })).body.data.articles).toHaveLength(2);
    await t.call('POST', '/admin/base/sys/article/update', { token: editor, body: { id: published, status: 0 } });
    const titles = (await t.call('GET', '/admin/base/sys/article/docs', { token: plain })).body.data.articles.map((a: any) => a.title);
    expect(titles).toEqual(['Secret draft']);
  });

  it('deleting a category keeps its articles and lifts its sub-categories', async () => {
    await t.call('POST', '/admin/base/sys/articleCategory/delete', { token: admin, body: { ids: [guide] } });
    const docs = (await t.call('GET', '/admin/base/sys/article/docs', { token: plain })).body.data;
    expect(docs.categories.map((c: any) => [c.name, c.parentId])).toEqual([['FAQ', null]]);
    expect(docs.articles.map((a: any) => a.categoryId)).toEqual([faq]);
  });
});

describe('status config', () => {
  it('labels order and AI statuses in the caller language', async () => {
    const en = (await t.call('GET', '/admin/base/open/statusConfig', { lang: 'en' })).body.data;
    expect(en.filter((i: any) => i.type === 'order')).toEqual([
      { type: 'order', status: ORDER_STATUS.design, text: 'In design' },
      { type: 'order', status: ORDER_STATUS.pending, text: 'To be processed' },
      { type: 'order', status: ORDER_STATUS.processed, text: 'Processed' },
      { type: 'order', status: ORDER_STATUS.biteRegistration, text: 'Bite registration in progress' },
    ]);
    expect(en.filter((i: any) => i.type === 'ai').map((i: any) => [i.status, i.text])).toEqual([
      [AI_STATUS.notEnabled, 'Not enabled'],
      [AI_STATUS.processing, 'Processing'],
      [AI_STATUS.ready, 'Ready'],
      [AI_STATUS.fail, 'Failed'],
      [AI_STATUS.submitted, 'Submitted'],
    ]);
    const zh = (await t.call('GET', '/admin/base/open/statusConfig?type=order')).body.data;
    expect(zh.map((i: any) => i.text)).toEqual(['设计中', '待加工', '已加工', '咬合配准中']);
    const de = (await t.call('GET', '/admin/base/open/statusConfig?type=ai', { lang: 'de' })).body.data;
    expect(de[0]).toEqual({ type: 'ai', status: 0, text: 'Nicht aktiviert' });
    expect((await t.call('GET', '/admin/base/open/statusConfig?type=x', { lang: 'en' })).body).toEqual({ code: 1002, message: 'type is invalid' });
  });
});
