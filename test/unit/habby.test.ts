// Preferences follow the user: chosen in one browser (saved with updateHabby on the real server),
// applied at sign-in in another whose storage knows nothing of them.
import './kit-dom.ts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { session, setNavigator } from '../../src/api/client.ts';
import { login } from '../../src/app/auth.ts';
import { chooseTheme, chooseToothNumbering, chooseTransition } from '../../src/app/habby.ts';
import { ensureBootstrap, resetApp } from '../../src/app/store.ts';
import { getTheme, setTheme, setTransition } from '../../src/ui/theme.ts';
import { getToothNumbering, setToothNumbering } from '../../src/ui/toothNumbering.ts';
import { addUser, setup, type TestServer } from '../server/helpers.ts';

let server: TestServer;
const realFetch = window.fetch;

beforeAll(async () => {
  server = await setup();
  setNavigator(() => {});
  window.fetch = ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init)) as typeof fetch;
  await addUser(server, (await server.login()).token, { username: 'ann', password: 'secret-pass-1' });
});

afterAll(async () => {
  window.fetch = realFetch;
  await server.close();
});

async function stored() {
  const token = (await server.login('ann', 'secret-pass-1')).token;
  return (await server.call('GET', '/admin/base/comm/person', { token })).body.data.habby;
}

it('a choice made in one browser is saved and applied at sign-in in another', async () => {
  // Browser A: signed in, picks a theme, no transition and Universal numbering.
  session.login(await server.login('ann', 'secret-pass-1'));
  chooseTheme('jiangzi');
  chooseTransition(false);
  chooseToothNumbering('universal');
  await expect.poll(stored).toEqual({ theme: 'jiangzi', transition: false, toothNumbering: 'universal' });
  session.logout('user');
  resetApp();

  // Browser B: nothing stored locally; a reload with a session keeps what the browser shows.
  localStorage.clear();
  setTheme('default');
  setTransition(true);
  setToothNumbering('fdi');
  session.login(await server.login('ann', 'secret-pass-1'));
  await ensureBootstrap();
  expect(getTheme().name).toBe('default');
  session.logout('user');
  resetApp();
  // Signing in applies them.
  await login({ username: 'ann', password: 'secret-pass-1', captchaId: '', verifyCode: '' });
  await ensureBootstrap();
  await expect.poll(() => getTheme().name).toBe('jiangzi');
  expect(getTheme().transition).toBe(false);
  expect(getToothNumbering()).toBe('universal');
  expect(localStorage.getItem('aw.theme')).toContain('jiangzi');
  session.logout('user');
});

it('without a session a choice stays local and nothing is sent', async () => {
  resetApp();
  const before = await stored();
  chooseTheme('cangqing');
  expect(getTheme().name).toBe('cangqing');
  expect(await stored()).toEqual(before);
});
