// The browser's typed client (src/api/typed.ts) against the real app: hc<AppType> sends the calls
// as the routes declare them, and unwrap() answers the envelope's data, or throws the ApiError
// that request() throws for the same reply. The eps description lists only calls that exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t as translate } from '../../server/core/i18n.ts';
import { ApiError } from '../../src/api/http.ts';
import { createApi, unwrap, type Api } from '../../src/api/typed.ts';
import { setup, type TestServer } from './helpers.ts';

let t: TestServer;
let api: Api;
const client = (headers: Record<string, string>) =>
  createApi('http://app.test', { fetch: (input: RequestInfo | URL, init?: RequestInit) => t.app.request(input, init), headers });

beforeAll(async () => {
  t = await setup();
  api = client({ Authorization: (await t.login()).token, 'Accept-Language': 'en' });
});
afterAll(() => t.close());

async function failure(call: Promise<unknown>): Promise<ApiError> {
  const err = await call.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('typed client', () => {
  it('answers the data of a call, typed by its route', async () => {
    const devices = await unwrap(api.admin.design.userDeviceList.$post());
    expect(devices).toEqual([]);
    const labels = await unwrap(api.admin.base.open.statusConfig.$get({ query: { type: 'ai' } }));
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.every((l) => l.type === 'ai')).toBe(true);
  });

  it('calls the resources of the CRUD factory', async () => {
    const { id } = await unwrap(api.admin.dict.type.add.$post({ json: { name: 'Typed', key: 'typed-client' } }));
    const row = await unwrap(api.admin.dict.type.info.$get({ query: { id } }));
    expect(row).toMatchObject({ id, name: 'Typed', key: 'typed-client' });
    const page = await unwrap(api.admin.dict.type.page.$post({ json: { keyWord: 'Typed', page: 1, size: 5 } }));
    expect(page.pagination.total).toBe(1);
    expect(page.list[0]!.key).toBe('typed-client');
  });

  it('calls the extra calls a resource chains onto its routes', async () => {
    // retryAI is chained onto the order resource's routes: AppType has it, with its body's type.
    const missing = await failure(unwrap(api.admin.order.info.retryAI.$post({ json: { id: 999999 } })));
    expect(missing).toMatchObject({ kind: 'api', code: 1001, message: translate('en', 'dataNotFound') });
    // @ts-expect-error the body is `{ id }`, not `{ ids }`
    const wrongBody = await failure(unwrap(api.admin.order.info.retryAI.$post({ json: { ids: [999999] } })));
    expect(wrongBody).toMatchObject({ kind: 'api', code: 1002 });
    // The reply is typed too: the task log's page.
    const log = await unwrap(api.admin.task.info.log.$get({ query: { page: '1', size: '5' } }));
    expect(log.pagination).toMatchObject({ page: 1, size: 5 });
    expect(Array.isArray(log.list)).toBe(true);
  });

  it('throws a refusal with the server code and message', async () => {
    const missing = await failure(unwrap(api.admin.design.getDesignData.$get({ query: { orderId: '999999' } })));
    expect(missing).toMatchObject({ kind: 'api', code: 1001, status: 200, message: translate('en', 'designOrderNotFound') });
    const invalid = await failure(unwrap(api.admin.design.save.$post({ json: { orderId: 1, data: { schemaVersion: 1 }, baseVersion: -1 } })));
    expect(invalid).toMatchObject({ kind: 'api', code: 1002, message: 'baseVersion is invalid' });
  });

  it('throws an error status with its envelope as a refusal too', async () => {
    const anonymous = client({ 'Accept-Language': 'en' });
    const err = await failure(unwrap(anonymous.admin.design.userDeviceList.$post()));
    expect(err).toMatchObject({ kind: 'api', code: 1001, status: 401 });
  });
});

describe('eps', () => {
  it('lists only calls whose route exists, each once', async () => {
    const eps = (await t.call('GET', '/admin/base/open/eps')).body.data as Record<string, { prefix: string; api: { method: string; path: string }[] }[]>;
    const routes = new Set(t.app.routes.map((r) => `${r.method} ${r.path.replace(/(:\w+)\{(?:[^{}]|\{[^{}]*\})*\}/g, '$1')}`));
    const listed = Object.values(eps).flatMap((entries) => entries.flatMap((e) => e.api.map((a) => `${a.method.toUpperCase()} ${e.prefix}${a.path}`)));
    expect(listed.length).toBeGreaterThan(100);
    expect(listed.filter((call) => !routes.has(call))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
    // An alias without a description is routed but not listed.
    expect(routes.has('POST /admin/design/cancelJob')).toBe(true);
    expect(listed).not.toContain('POST /admin/design/cancelJob');
  });
});
