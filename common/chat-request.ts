// The request schemas of the order conversation calls (server/modules/chat), with the limits of chat.ts.
import { z } from 'zod';
import { CHAT_FILES_MAX, CHAT_PAGE_MAX, CHAT_TEXT_MAX } from './chat.ts';

const id = z.coerce.number().int().positive().max(2 ** 31 - 1);

export const chatOrderSchema = z.object({ orderId: id });

export const chatPageSchema = z.object({
  orderId: id,
  /** Messages older than this one (the page above); none: the newest. */
  beforeId: id.optional(),
  size: z.coerce.number().int().min(1).max(CHAT_PAGE_MAX).default(50),
});

export const chatSendSchema = z
  .object({
    orderId: id,
    // Plain text: trimmed, NUL characters dropped (the browser renders it as text, never as HTML).
    text: z
      .string()
      .max(CHAT_TEXT_MAX * 2)
      .transform((v) => v.replaceAll('\u0000', '').trim())
      .pipe(z.string().max(CHAT_TEXT_MAX))
      .default(''),
    fileIds: z.array(id).max(CHAT_FILES_MAX).default([]),
  })
  .refine((m) => m.text !== '' || m.fileIds.length > 0, { path: ['text'] });

export const chatReadSchema = z.object({
  orderId: id,
  /** Read up to this message; none: up to the newest. */
  lastId: id.optional(),
});

export const chatFilesSchema = z.object({ keyWord: z.string().trim().max(100).optional() });
