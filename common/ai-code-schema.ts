// The one schema of a module (common/ai-code.ts), wherever it comes from: the form, the offline
// rules, a language model's answer. Server side (the browser runs without zod).
import { z } from 'zod';
import { DICT_KEY, FIELD_NAME, FIELD_TYPES, MAX_ENUM_OPTIONS, MAX_FIELDS, MAX_LABEL, MODULE_NAME, RESERVED_FIELDS, RESERVED_MODULES, TABLE_NAME, type FieldDef, type ModuleDef } from './ai-code.ts';

const label = z.string().trim().min(1).max(MAX_LABEL);
const optionalLabel = z.preprocess((v) => (v === '' || v === null ? undefined : v), label.optional());
const labels = z.object({ zh: optionalLabel, en: optionalLabel, de: optionalLabel }).partial().optional();

export const fieldSchema = z
  .object({
    name: z
      .string()
      .trim()
      .regex(FIELD_NAME)
      .refine((n) => !RESERVED_FIELDS.has(n.toLowerCase()), 'reserved'),
    label,
    /** The label in each language; `label` stands for a missing one. */
    labels,
    type: z.enum(FIELD_TYPES),
    required: z.boolean().default(false),
    /** type dict: the dictionary type's key. */
    dict: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().regex(DICT_KEY).optional()),
    /** type enum: the values to pick from. */
    options: z.array(z.string().trim().min(1).max(MAX_LABEL)).max(MAX_ENUM_OPTIONS).optional(),
    /** Shown as a column of the list. */
    list: z.boolean().default(true),
    /** string/text: in the keyword search; dict/enum/boolean: a filter of the search drawer. */
    search: z.boolean().default(false),
  })
  .superRefine((f, ctx) => {
    if (f.type === 'dict' && !f.dict) ctx.addIssue({ code: 'custom', path: ['dict'], message: 'required' });
    if (f.type === 'enum' && !f.options?.length) ctx.addIssue({ code: 'custom', path: ['options'], message: 'required' });
    if (f.options && new Set(f.options).size !== f.options.length) ctx.addIssue({ code: 'custom', path: ['options'], message: 'duplicate' });
  }) satisfies z.ZodType<FieldDef>;

export const moduleSchema = z
  .object({
    name: z
      .string()
      .trim()
      .regex(MODULE_NAME)
      .refine((n) => !RESERVED_MODULES.has(n), 'reserved'),
    tableName: z.string().trim().regex(TABLE_NAME),
    label,
    labels,
    fields: z.array(fieldSchema).min(1).max(MAX_FIELDS),
  })
  .superRefine((m, ctx) => {
    const seen = new Set<string>();
    m.fields.forEach((f, i) => {
      const key = f.name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['fields', i, 'name'], message: 'duplicate' });
      seen.add(key);
    });
  }) satisfies z.ZodType<ModuleDef>;
export type ModuleInput = z.input<typeof moduleSchema>;


