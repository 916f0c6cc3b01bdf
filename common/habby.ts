// A user's preferences kept on the server (POST /admin/base/comm/updateHabby, answered by GET
// person as `habby`), so that any browser applies them at sign-in: the theme preset and page
// transition, the UI language, and the editor's preferences (tooth numbering and a small bag of
// named settings). Pure: no DOM, worker or Node imports.
import { z } from 'zod';

const name = z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,39}$/);

/** Most editor settings kept per user. */
export const HABBY_EDITOR_MAX_KEYS = 32;

export const habbySchema = z
  .object({
    /** A theme preset's name (src/ui/theme.ts; a name the browser does not know is ignored there). */
    theme: name.optional(),
    transition: z.boolean().optional(),
    language: z.enum(['zh', 'en', 'de']).optional(),
    toothNumbering: z.enum(['fdi', 'universal']).optional(),
    editor: z
      .record(name, z.union([z.boolean(), z.number(), z.string().max(64)]))
      .refine((r) => Object.keys(r).length <= HABBY_EDITOR_MAX_KEYS, { message: `at most ${HABBY_EDITOR_MAX_KEYS} editor settings` })
      .optional(),
  })
  .strict();

export type Habby = z.output<typeof habbySchema>;

/** A stored value as preferences: what still parses (an older or damaged value reads as none). */
export function readHabby(text: string | null | undefined): Habby {
  if (!text) return {};
  try {
    const parsed = habbySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}
