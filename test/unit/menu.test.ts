import { describe, expect, it } from 'vitest';
import { buildMenu, findTrail, normalizePath, type Menu } from '../../src/menu/build.ts';

let nextId = 1;
const m = (over: Partial<Menu> & Pick<Menu, 'name' | 'type'>): Menu => ({
  id: nextId++,
  parentId: null,
  router: null,
  viewPath: null,
  icon: null,
  orderNum: 0,
  keepAlive: 1,
  isShow: 1,
  perms: null,
  ...over,
});

/** The seeded menu of the API contract, flat and sorted by orderNum like the server sends it. */
function seeded(): Menu[] {
  nextId = 1;
  const board = m({ name: 'Data board', type: 0, orderNum: 1, icon: 'icon-data' });
  const boardPage = m({
    name: 'Data board',
    type: 1,
    parentId: board.id,
    router: '/dashboard',
    viewPath: 'modules/dashboard/views/board',
    orderNum: 1,
  });
  const orders = m({ name: 'Order management', type: 0, orderNum: 2 });
  const orderList = m({ name: 'Order list', type: 1, parentId: orders.id, router: '/order/list', viewPath: 'modules/order/views/list', orderNum: 1 });
  const orderAdd = m({ name: 'Add', type: 2, parentId: orderList.id, perms: 'order:info:add' });
  const time = m({ name: 'Time list', type: 1, parentId: orders.id, router: '/order/time', viewPath: 'modules/order/views/time', orderNum: 2 });
  const sys = m({ name: 'System management', type: 0, orderNum: 3 });
  const perm = m({ name: 'Permission management', type: 0, parentId: sys.id, orderNum: 1 });
  const user = m({ name: 'User list', type: 1, parentId: perm.id, router: '/sys/user', viewPath: 'modules/base/views/user', orderNum: 1 });
  const help = m({ name: 'Help center', type: 0, orderNum: 4 });
  const doc = m({ id: 42, name: 'Help document', type: 1, parentId: help.id, router: '', viewPath: 'https://example.com/docs', orderNum: 1 });
  const hidden = m({ name: 'Personal center', type: 1, router: '/my/center', viewPath: 'modules/base/views/info', isShow: 0, orderNum: 9 });
  return [board, boardPage, orders, orderList, orderAdd, time, sys, perm, user, help, doc, hidden];
}

describe('menu -> routes', () => {
  it('makes the first page of the first group the home route', () => {
    const model = buildMenu(seeded());
    expect(model.home?.path).toBe('/dashboard');
    expect(model.home?.viewPath).toBe('modules/dashboard/views/board');
  });

  it('home is the first page of the first group even when the server order is not the group order', () => {
    nextId = 100;
    const b = m({ name: 'B', type: 0, orderNum: 2 });
    const a = m({ name: 'A', type: 0, orderNum: 1 });
    const bPage = m({ name: 'B page', type: 1, parentId: b.id, router: '/b', orderNum: 1 });
    const aPage2 = m({ name: 'A page 2', type: 1, parentId: a.id, router: '/a2', orderNum: 2 });
    const aPage1 = m({ name: 'A page 1', type: 1, parentId: a.id, router: '/a1', orderNum: 1 });
    expect(buildMenu([bPage, b, aPage2, a, aPage1]).home?.path).toBe('/a1');
  });

  it('builds a route per page with the spec meta and skips permissions', () => {
    const model = buildMenu(seeded());
    expect(model.routes.map((r) => r.path)).toEqual([
      '/dashboard',
      '/order/list',
      '/order/time',
      '/sys/user',
      '/42',
      '/my/center',
    ]);
    const list = model.byPath.get('/order/list');
    expect(list).toMatchObject({
      isPage: true,
      viewPath: 'modules/order/views/list',
      meta: { label: 'Order list', keepAlive: true, dynamic: true, process: true },
      trail: ['Order management'],
    });
    expect(model.byPath.get('/sys/user')?.trail).toEqual(['System management', 'Permission management']);
  });

  it('maps a view path starting with http to an iframe page, with the id as path when router is empty', () => {
    const doc = buildMenu(seeded()).byPath.get('/42');
    expect(doc?.meta.iframeUrl).toBe('https://example.com/docs');
    expect(doc?.meta.label).toBe('Help document');
    expect(buildMenu(seeded()).byPath.get('/order/list')?.meta.iframeUrl).toBeUndefined();
  });

  it('builds the visible sidebar tree with nested groups, hiding isShow=0 entries', () => {
    const { tree } = buildMenu(seeded());
    const shape = (nodes: typeof tree): unknown =>
      nodes.map((n) => (n.kind === 'group' ? { [n.name]: shape(n.children) } : n.name));
    expect(shape(tree)).toEqual([
      { 'Data board': ['Data board'] },
      { 'Order management': ['Order list', 'Time list'] },
      { 'System management': [{ 'Permission management': ['User list'] }] },
      { 'Help center': ['Help document'] },
    ]);
    // Hidden pages still have routes.
    expect(buildMenu(seeded()).byPath.has('/my/center')).toBe(true);
  });

  it('drops empty groups and survives orphans and cycles', () => {
    nextId = 200;
    const empty = m({ name: 'Empty', type: 0 });
    const orphan = m({ name: 'Orphan', type: 1, parentId: 999, router: 'orphan' });
    const loopA = m({ name: 'Loop A', type: 0, id: 300, parentId: 301 });
    const loopB = m({ name: 'Loop B', type: 1, id: 301, parentId: 300, router: '/loop' });
    const model = buildMenu([empty, orphan, loopA, loopB]);
    expect(model.tree.map((n) => n.name)).toEqual(['Orphan']);
    expect(model.home?.path).toBe('/orphan');
  });

  it("leaves out a page whose list the role may not load, though it holds another of the page's rights", () => {
    nextId = 200;
    const devices = m({ name: 'Device management', type: 0, orderNum: 1 });
    const list = m({ name: 'Device list', type: 1, parentId: devices.id, router: '/device/list', orderNum: 1 });
    const query = m({ name: 'Query', type: 2, parentId: list.id, perms: 'device:info:info,device:info:list,device:info:page' });
    const editor = m({ name: 'Editor devices', type: 2, parentId: list.id, perms: 'device:info:diameterList,device:info:currentDevice' });
    const help = m({ name: 'Help center', type: 0, orderNum: 2 });
    // A page without a list call (only its own right): shown when granted.
    const doc = m({ name: 'Help document', type: 1, parentId: help.id, router: '/help/doc', orderNum: 1 });
    const read = m({ name: 'Read', type: 2, parentId: doc.id, perms: 'base:sys:article:docs' });
    const menus = [devices, list, query, editor, help, doc, read];

    const designer = buildMenu(menus, ['device:info:diameterList', 'device:info:currentDevice', 'base:sys:article:docs']);
    expect(designer.tree.map((n) => n.name)).toEqual(['Help center']);
    expect(designer.byPath.has('/device/list')).toBe(false);
    expect(designer.home?.path).toBe('/help/doc');

    // The list permission (any of the page calls) brings it back.
    const admin = buildMenu(menus, ['device:info:page', 'base:sys:article:docs']);
    expect(admin.tree.map((n) => n.name)).toEqual(['Device management', 'Help center']);
    expect(admin.byPath.has('/device/list')).toBe(true);
    // Without perms (the server already filtered) everything passes.
    expect(buildMenu(menus).byPath.has('/device/list')).toBe(true);
  });

  it('gives no home for an empty menu', () => {
    expect(buildMenu([])).toMatchObject({ tree: [], routes: [], home: null });
  });

  it('finds the trail to a page', () => {
    const { tree } = buildMenu(seeded());
    expect(findTrail(tree, '/sys/user').map((n) => n.name)).toEqual([
      'System management',
      'Permission management',
      'User list',
    ]);
    expect(findTrail(tree, '/nope')).toEqual([]);
  });

  it('normalises paths', () => {
    // A page's path is its router, normalised, or its id without one.
    const pathOf = (router: string | null): string | undefined => buildMenu([{ id: 5, name: 'Page', type: 1, router }]).routes[0]?.path;
    expect(pathOf(null)).toBe('/5');
    expect(pathOf('order/list')).toBe('/order/list');
    expect(normalizePath('/order/list/?x=1')).toBe('/order/list');
    expect(normalizePath('/')).toBe('/');
  });
});
