import type { Lang } from './i18n.ts';

export interface AuthInfo {
  userId: number;
  username: string;
  sessionId: string;
  passwordVersion: number;
}

/** What a request carries through the middleware chain. */
export interface AppEnv {
  Variables: {
    lang: Lang;
    auth: AuthInfo | undefined;
    /** A machine's calibration app (core/calibration.ts): the only device it may touch. */
    calibration: { deviceId: number } | undefined;
    /** The request body as read and checked by the body reader (core/body.ts); unset for none. */
    body: string | undefined;
  };
  /** Set by @hono/node-server; absent under app.request() in tests. */
  Bindings: { incoming?: { socket?: { remoteAddress?: string } } };
}
