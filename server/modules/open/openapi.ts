// The OpenAPI 3.1 document of the open partner calls, made from the same definitions the routes
// are registered from (routes.ts): each call's path, method, summary and its zod request schema
// (z.toJSONSchema, as the body is read: io 'input'), with the signature headers and the reply
// envelope every call shares. Served at PARTNER_OPENAPI_PATH.
import type { Context } from 'hono';
import { z } from 'zod';
import { PARTNER_PREFIX, type PartnerCall } from '../../../common/partner-api.ts';
import { SIGNATURE_HEADERS, SIGNATURE_WINDOW_MS } from '../../../common/signature.ts';
import type { AppEnv } from '../../core/env.ts';
import pkg from '../../../package.json' with { type: 'json' };
import type { Partner } from './partner.ts';

export interface CallDef {
  call: PartnerCall;
  method?: 'get' | 'post';
  summary: string;
  /** The request body's schema (none for GET). */
  body?: z.ZodType;
  /** `order` also takes multipart/form-data (JSON in `data`, files `upper`, `lower`, `occlusion`). */
  multipart?: boolean;
  run(c: Context<AppEnv>, p: Partner, body: any): Promise<unknown>;
}

const envelope = (data: object = {}) => ({
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'integer', description: '1000 success; 1001 failure (business rule, not found); 1002 validation (the message names the field); 1003 internal' },
    message: { type: 'string', description: "In the caller's language (Accept-Language: zh, en, de)" },
    data,
  },
});

const jsonSchema = (schema: z.ZodType) => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

export function openApiDocument(calls: readonly CallDef[], server: string) {
  const headers = [
    { name: SIGNATURE_HEADERS.key, description: "The partner entry's ID (its key id)" },
    { name: SIGNATURE_HEADERS.timestamp, description: `Unix seconds; within ${SIGNATURE_WINDOW_MS / 60_000} minutes of the server's clock` },
    { name: SIGNATURE_HEADERS.nonce, description: '16 to 64 characters [A-Za-z0-9_-], never reused with this key' },
    { name: SIGNATURE_HEADERS.signature, description: 'Lower-case hex HMAC-SHA256 with the secret of METHOD\\npath-with-query\\ntimestamp\\nnonce\\nsha256-hex(body)' },
  ].map((h) => ({ in: 'header', required: true, schema: { type: 'string' }, ...h }));
  const failures = {
    '401': { description: 'Signature missing, invalid, stale or replayed; unknown, disabled or rotated key', content: { 'application/json': { schema: envelope() } } },
    '403': { description: 'The partner may not make this call', content: { 'application/json': { schema: envelope() } } },
    '413': { description: 'Body over the limit', content: { 'application/json': { schema: envelope() } } },
    '429': { description: "Over the key's (or the address's) rate limit", content: { 'application/json': { schema: envelope() } } },
  };
  const paths: Record<string, object> = {};
  for (const def of calls) {
    const method = def.method ?? 'post';
    const content: Record<string, object> = {};
    if (def.body) content['application/json'] = { schema: jsonSchema(def.body) };
    if (def.multipart && def.body) {
      content['multipart/form-data'] = {
        schema: {
          type: 'object',
          required: ['data'],
          properties: {
            data: { type: 'string', description: 'The JSON body as text' },
            upper: { type: 'string', format: 'binary' },
            lower: { type: 'string', format: 'binary' },
            occlusion: { type: 'string', format: 'binary' },
          },
        },
      };
    }
    paths[`${PARTNER_PREFIX}/${def.call}`] = {
      [method]: {
        operationId: def.call,
        summary: def.summary,
        parameters: headers,
        ...(def.body && method === 'post' ? { requestBody: { required: true, content } } : {}),
        responses: { '200': { description: 'The envelope; data as the summary says', content: { 'application/json': { schema: envelope() } } }, ...failures },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Archwright partner API',
      version: pkg.version,
      description: 'Signed calls of partner systems (docs/partner-api.md). Every reply is the envelope { code, message, data }.',
    },
    servers: [{ url: server }],
    paths,
  };
}
