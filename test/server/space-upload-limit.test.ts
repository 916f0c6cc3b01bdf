// GET /admin/base/comm/uploadLimit: the limit the order form checks a model against before
// sending it. Its answer must agree with what the upload itself accepts, to the byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, createRole, setup, type TestServer } from './helpers.ts';
import { upload } from './space-helpers.ts';

let t: TestServer;
let plain: string;

beforeAll(async () => {
  t = await setup({ UPLOAD_MAX_MB: '1' });
  const admin = (await t.login()).token;
  // A user without any permission: uploading is for every logged-in user, so is its limit.
  const role = await createRole(t.ctx, 'nothing', []);
  await addUser(t, admin, { username: 'carol', password: 'carol-pass', roleIdList: [role] });
  plain = (await t.login('carol', 'carol-pass')).token;
});
afterAll(() => t.close());

describe('upload limit', () => {
  it('answers UPLOAD_MAX_MB in bytes to any logged-in user, and nothing without a token', async () => {
    const res = await t.call('GET', '/admin/base/comm/uploadLimit', { token: plain });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 1000, message: 'success', data: { maxBytes: 1024 * 1024, maxFiles: 9 } });
    expect((await t.call('GET', '/admin/base/comm/uploadLimit')).status).toBe(401);
  });

  it('a file of exactly maxBytes is taken, one byte more is refused', async () => {
    const { body } = await t.call<{ maxBytes: number }>('GET', '/admin/base/comm/uploadLimit', { token: plain });
    const max = body.data!.maxBytes;
    const fits = await upload(t, plain, [{ name: 'fits.bin', bytes: new Uint8Array(max) }]);
    expect(fits.body.code).toBe(1000);
    expect(fits.body.data[0].size).toBe(max);
    const over = await upload(t, plain, [{ name: 'over.bin', bytes: new Uint8Array(max + 1) }]);
    expect(over.status).toBe(413);
    expect(over.body.message).toBe('Upload failed, please try again: over.bin is larger than 1 MB');
  });
});
