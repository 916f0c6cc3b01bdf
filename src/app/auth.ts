/** Login and logout as the pages use them. */
import { baseApi, type LoginForm } from '../api/base.ts';
import { session } from '../api/client.ts';
import { markSignedIn, resetApp } from './store.ts';

/** Logs in and stores the session; the previous user's state is dropped, the user's stored preferences apply. */
export async function login(form: LoginForm): Promise<void> {
  const reply = await baseApi.login(form);
  resetApp();
  markSignedIn();
  session.login(reply);
}

/** Rule 7: revokes the session on the server (best effort), clears it and goes to /login. */
export async function logout(): Promise<void> {
  if (session.hasToken() && !session.isTokenExpired()) await baseApi.logout().catch(() => undefined);
  session.logout('user');
}
