import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { MessageKey, MessageParams } from './i18n.ts';
import { Code } from './envelope.ts';

/** A failure the client should see: an envelope code, an HTTP status and a catalog message. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly key: MessageKey,
    readonly status: ContentfulStatusCode = 200,
    readonly params?: MessageParams,
  ) {
    super(key);
    this.name = 'ApiError';
  }
}

export const fail = (key: MessageKey = 'operateFailed', params?: MessageParams) =>
  new ApiError(Code.fail, key, 200, params);
export const invalidField = (field: string, missing = false) =>
  new ApiError(Code.validation, missing ? 'fieldRequired' : 'fieldInvalid', 200, { field });
export const unauthorized = (key: MessageKey = 'loginExpired') => new ApiError(Code.fail, key, 401);
export const forbidden = () => new ApiError(Code.fail, 'noPermission', 403);
export const tooManyRequests = (key: MessageKey) => new ApiError(Code.fail, key, 429);
