// Server messages in zh (default), en and de. The client shows `message` as is.

export type Lang = 'zh' | 'en' | 'de';
export const LANGS: readonly Lang[] = ['zh', 'en', 'de'];

const catalog = {
  success: { en: 'success', zh: '成功', de: 'Erfolg' },
  badCredentials: { en: 'Account or Password incorrect', zh: '账户或密码不正确', de: 'Konto oder Passwort falsch' },
  badCaptcha: { en: 'Captcha incorrect', zh: '验证码不正确', de: 'Captcha falsch' },
  tooManyLogins: {
    en: 'Too many failed logins, try again in 15 minutes',
    zh: '登录失败次数过多，请 15 分钟后再试',
    de: 'Zu viele fehlgeschlagene Anmeldungen, bitte in 15 Minuten erneut versuchen',
  },
  loginExpired: {
    en: 'Login status has expired, please log in again',
    zh: '登录状态已失效，请重新登录',
    de: 'Der Anmeldestatus ist abgelaufen, bitte melden Sie sich erneut an',
  },
  loggedInElsewhere: {
    en: 'This account has been logged in elsewhere',
    zh: '该账号已在别处登录',
    de: 'Dieses Konto wurde an anderer Stelle angemeldet',
  },
  noPermission: { en: 'No permission', zh: '无权限', de: 'Keine Berechtigung' },
  fieldInvalid: { en: '{field} is invalid', zh: '{field} 不合法', de: '{field} ist ungültig' },
  fieldRequired: { en: '{field} cannot be empty', zh: '{field} 不能为空', de: '{field} darf nicht leer sein' },
  bodyInvalid: { en: 'Request body is invalid', zh: '请求内容不合法', de: 'Anfrageinhalt ist ungültig' },
  bodyTooLarge: { en: 'Request body too large', zh: '请求内容过大', de: 'Anfrageinhalt zu groß' },
  oldPasswordIncorrect: { en: 'The old password is incorrect', zh: '原密码不正确', de: 'Das alte Passwort ist falsch' },
  userDisabled: { en: 'This account has been disabled', zh: '该账号已被禁用', de: 'Dieses Konto wurde deaktiviert' },
  usernameTaken: { en: 'Username already exists', zh: '用户名已存在', de: 'Benutzername existiert bereits' },
  notFound: { en: 'Not found', zh: '未找到', de: 'Nicht gefunden' },
  dataNotFound: { en: 'Data does not exist', zh: '数据不存在', de: 'Daten existieren nicht' },
  operateFailed: { en: 'Operate Failed', zh: '操作失败', de: 'Vorgang fehlgeschlagen' },
  internal: { en: 'Internal server error', zh: '服务器内部错误', de: 'Interner Serverfehler' },
} satisfies Record<string, Record<Lang, string>>;

export type MessageKey = keyof typeof catalog;
export type MessageParams = Record<string, string | number>;

export function t(lang: Lang, key: MessageKey, params?: MessageParams): string {
  const template = catalog[key][lang];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** The first of zh/en/de named in Accept-Language (by q, then order); zh when none is. */
export function pickLang(header: string | undefined | null): Lang {
  if (!header) return 'zh';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { primary: tag.trim().toLowerCase().split('-')[0] ?? '', weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((e) => e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const entry of ranked) {
    if ((LANGS as readonly string[]).includes(entry.primary)) return entry.primary as Lang;
  }
  return 'zh';
}
