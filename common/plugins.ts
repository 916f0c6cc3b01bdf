// Plugins: the built-in ones, the shape of a plugin's settings schema (data, never code: a
// package's manifest carries one) and the checks every manifest passes.
import { z } from 'zod';

/** One setting: its type, bounds and default. A settings schema is a list of these. */
export const settingFieldSchema = z.discriminatedUnion('type', [
  z.strictObject({ key: z.string().regex(/^[a-zA-Z][\w]{0,39}$/), type: z.literal('boolean'), default: z.boolean().optional() }),
  z.strictObject({
    key: z.string().regex(/^[a-zA-Z][\w]{0,39}$/),
    type: z.literal('number'),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    integer: z.boolean().optional(),
    default: z.number().finite().optional(),
  }),
  z.strictObject({
    key: z.string().regex(/^[a-zA-Z][\w]{0,39}$/),
    type: z.literal('string'),
    maxLength: z.number().int().min(1).max(4096).optional(),
    /** 'url': an http(s) address. */
    format: z.enum(['url']).optional(),
    default: z.string().max(4096).optional(),
  }),
  z.strictObject({
    key: z.string().regex(/^[a-zA-Z][\w]{0,39}$/),
    type: z.literal('enum'),
    values: z.array(z.string().max(64)).min(1).max(50),
    default: z.string().max(64).optional(),
  }),
]);
export type SettingField = z.infer<typeof settingFieldSchema>;
export const settingsSchemaSchema = z
  .array(settingFieldSchema)
  .max(50)
  .refine((fields) => new Set(fields.map((f) => f.key)).size === fields.length, 'duplicate setting key');

/** The zod schema a plugin's settings are checked with (unknown keys are refused). */
export function settingsValidator(fields: readonly SettingField[]) {
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) {
    let s: z.ZodType;
    if (f.type === 'boolean') s = z.boolean();
    else if (f.type === 'number') {
      let n = f.integer ? z.number().int() : z.number().finite();
      if (f.min !== undefined) n = n.min(f.min);
      if (f.max !== undefined) n = n.max(f.max);
      s = n;
    } else if (f.type === 'string') {
      let str = z.string().max(f.maxLength ?? 1024);
      if (f.format === 'url') str = str.regex(/^https?:\/\/[^\s]+$/);
      s = str;
    } else s = z.enum(f.values as [string, ...string[]]);
    shape[f.key] = s.optional();
  }
  return z.strictObject(shape);
}

/** The defaults of a settings schema. */
export function settingsDefaults(fields: readonly SettingField[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => f.default !== undefined).map((f) => [f.key, f.default]));
}

export type BuiltInPluginKey = 'markdown' | 'code' | 'richText' | 'regionPicker' | 'excel' | 'aiService';

export interface BuiltInPlugin {
  key: BuiltInPluginKey;
  version: string;
  settings: SettingField[];
}

/** The editors, the Excel kit and the external AI service connector. Names are the client's (i18n). */
export const BUILTIN_PLUGINS: readonly BuiltInPlugin[] = [
  { key: 'markdown', version: '1.0.0', settings: [{ key: 'preview', type: 'boolean', default: true }] },
  { key: 'code', version: '1.0.0', settings: [{ key: 'tabSize', type: 'number', integer: true, min: 1, max: 8, default: 2 }] },
  { key: 'richText', version: '1.0.0', settings: [{ key: 'maxLength', type: 'number', integer: true, min: 100, max: 1_000_000, default: 100_000 }] },
  { key: 'regionPicker', version: '1.0.0', settings: [{ key: 'level', type: 'enum', values: ['province', 'city', 'district'], default: 'district' }] },
  { key: 'excel', version: '1.0.0', settings: [{ key: 'exportRows', type: 'number', integer: true, min: 1, max: 10_000, default: 10_000 }] },
  { key: 'aiService', version: '1.0.0', settings: [{ key: 'timeoutSeconds', type: 'number', integer: true, min: 1, max: 600, default: 60 }] },
];

/** Menu paths of an installed plugin live under this prefix, followed by the plugin's name. */
export const PLUGIN_ROUTE_PREFIX = '/plugin/';
/** A plugin's name: lower-case letters, digits and dashes (no dots or slashes: never a path). */
export const PLUGIN_NAME = /^[a-z][a-z0-9-]{1,39}$/;
export const MAX_PLUGIN_PACKAGE_BYTES = 512 * 1024;
export const MAX_PLUGIN_MENUS = 20;
