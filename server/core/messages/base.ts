// Messages of the walking skeleton: auth, validation and generic failures.
import type { Catalog } from './types.ts';

export const baseMessages = {
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
  bodyTooDeep: {
    en: 'Request body is nested too deeply (at most {max} levels)',
    zh: '请求内容嵌套层级过深（最多 {max} 层）',
    de: 'Anfrageinhalt ist zu tief verschachtelt (höchstens {max} Ebenen)',
  },
  bodyTooLarge: { en: 'Request body too large', zh: '请求内容过大', de: 'Anfrageinhalt zu groß' },
  tooManyPasswordAttempts: {
    en: 'Too many wrong passwords, try again in 15 minutes',
    zh: '密码错误次数过多，请 15 分钟后再试',
    de: 'Zu viele falsche Passwörter, bitte in 15 Minuten erneut versuchen',
  },
  oldPasswordIncorrect: { en: 'The old password is incorrect', zh: '原密码不正确', de: 'Das alte Passwort ist falsch' },
  userDisabled: { en: 'This account has been disabled', zh: '该账号已被禁用', de: 'Dieses Konto wurde deaktiviert' },
  usernameTaken: { en: 'Username already exists', zh: '用户名已存在', de: 'Benutzername existiert bereits' },
  notFound: { en: 'Not found', zh: '未找到', de: 'Nicht gefunden' },
  dataNotFound: { en: 'Data does not exist', zh: '数据不存在', de: 'Daten existieren nicht' },
  operateFailed: { en: 'Operate Failed', zh: '操作失败', de: 'Vorgang fehlgeschlagen' },
  internal: { en: 'Internal server error', zh: '服务器内部错误', de: 'Interner Serverfehler' },
  // Signed calls (core/signature.ts): one answer for an unknown key and a wrong signature.
  signatureInvalid: { en: 'The request signature is missing or invalid', zh: '请求签名缺失或无效', de: 'Die Signatur der Anfrage fehlt oder ist ungültig' },
  signatureStale: {
    en: 'The request timestamp is more than {minutes} minutes from the server time',
    zh: '请求时间戳与服务器时间相差超过 {minutes} 分钟',
    de: 'Der Zeitstempel der Anfrage weicht um mehr als {minutes} Minuten von der Serverzeit ab',
  },
  signatureReplayed: { en: 'This request nonce was already used', zh: '该请求的 nonce 已被使用', de: 'Diese Nonce der Anfrage wurde bereits verwendet' },
} satisfies Catalog;
