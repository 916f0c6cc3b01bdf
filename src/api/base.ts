/** Calls of the base module: login, captcha, menus, the current user. */
import type { Menu } from '../menu/build.ts';
import { request } from './client.ts';
import type { LoginReply } from './session.ts';

export interface Captcha {
  captchaId: string;
  /** An SVG data URL. */
  data: string;
}

export interface LoginForm {
  username: string;
  password: string;
  captchaId: string;
  verifyCode: string;
}

export interface User {
  id: number;
  username: string;
  name?: string | null;
  nickName?: string | null;
  headImg?: string | null;
  [field: string]: unknown;
}

export interface PersonUpdate {
  nickName?: string;
  headImg?: string;
  oldPassword?: string;
  password?: string;
}

export interface PermMenu {
  menus: Menu[];
  perms: string[];
}

export const baseApi = {
  captcha: () => request<Captcha>({ url: '/admin/base/open/captcha' }),
  login: (form: LoginForm) => request<LoginReply>({ url: '/admin/base/open/login', method: 'POST', data: form }),
  permmenu: () => request<PermMenu>({ url: '/admin/base/comm/permmenu' }),
  person: () => request<User>({ url: '/admin/base/comm/person' }),
  personUpdate: (data: PersonUpdate) =>
    request<null>({ url: '/admin/base/comm/personUpdate', method: 'POST', data }),
  logout: () => request<null>({ url: '/admin/base/comm/logout', method: 'POST', silent: true }),
};
