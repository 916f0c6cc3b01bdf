/** Login and logout as the pages use them. */
import { baseApi, type LoginForm } from '../api/base.ts';
import { request, session } from '../api/client.ts';
import type { LoginReply } from '../api/session.ts';
import { PARTNER_REDIRECT_LOGIN_PATH } from '../../common/partner-api.ts';
import { markSignedIn, resetApp } from './store.ts';

/** Logs in and stores the session; the previous user's state is dropped, the user's stored preferences apply. */
export async function login(form: LoginForm): Promise<void> {
  const reply = await baseApi.login(form);
  resetApp();
  markSignedIn();
  session.login(reply);
}

/**
 * Signs in with a partner's one-time editor link (server: POST redirectLogin), stores the
 * session like a login, and answers the order the link opens.
 */
export async function partnerSignIn(token: string): Promise<number> {
  const reply = await request<LoginReply & { orderId: number }>({ url: PARTNER_REDIRECT_LOGIN_PATH, method: 'POST', data: { token }, silent: true });
  resetApp();
  session.login(reply);
  return reply.orderId;
}

/** Rule 7: revokes the session on the server (best effort), clears it and goes to /login. */
export async function logout(): Promise<void> {
  if (session.hasToken() && !session.isTokenExpired()) await baseApi.logout().catch(() => undefined);
  session.logout('user');
}
