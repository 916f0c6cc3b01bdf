// The AI coding helper's vocabulary (/helper/ai-code, server/modules/helper): a module described
// as a name, a table and fields; the one zod schema that checks it wherever it comes from (the
// form, the offline rules, a language model's answer); and the limits. Pure: the page reads it too.
import { z } from 'zod';

export const FIELD_TYPES = ['string', 'text', 'number', 'integer', 'boolean', 'date', 'datetime', 'dict', 'enum'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const MAX_MODULES = 50;
export const MAX_FIELDS = 40;
export const MAX_LABEL = 64;
export const MAX_SENTENCE = 300;
export const MAX_ENUM_OPTIONS = 50;
/** Generated tables carry this prefix: nothing else can be named, created or dropped. */
export const TABLE_PREFIX = 'mod_';

/** Module names: the path `/admin/gen/<name>`, the permissions `gen:<name>:<action>`, the page `/gen/<name>`. */
export const MODULE_NAME = /^[a-z][a-z0-9]{1,29}$/;
export const TABLE_NAME = /^mod_[a-z][a-z0-9_]{1,39}$/;
export const FIELD_NAME = /^[a-z][a-zA-Z0-9]{0,39}$/;
export const DICT_KEY = /^[\w.:-]{1,64}$/;
/** The generated resources' path under /admin: their permissions are `gen:<name>:<action>`. */
export const GEN_MODULE = 'gen';
export const GEN_PAGE_PREFIX = '/gen/';

/**
 * Field names a module may not use: the columns every generated table has, the page query's own
 * keys, names that mean something to JavaScript objects, and SQL keywords (identifiers are always
 * quoted, so these are refused for clarity, not for safety).
 */
export const RESERVED_FIELDS: ReadonlySet<string> = new Set(
  [
    'id', 'createTime', 'updateTime', 'departmentId', 'createBy', 'ids',
    'page', 'size', 'keyWord', 'order', 'sort', 'prop', 'query',
    'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty',
    'select', 'from', 'where', 'table', 'group', 'user', 'insert', 'update', 'delete', 'drop', 'create', 'alter',
    'index', 'key', 'primary', 'and', 'or', 'not', 'null', 'limit', 'offset', 'join', 'union', 'references',
    'default', 'check', 'column', 'grant', 'having', 'into', 'values', 'as', 'by', 'in', 'is', 'like',
  ].map((n) => n.toLowerCase()),
);
/** Module names the helper or the app already use. */
export const RESERVED_MODULES: ReadonlySet<string> = new Set([
  'base', 'sys', 'admin', 'app', 'gen', 'helper', 'dict', 'space', 'task', 'order', 'device', 'design', 'dashboard',
  'open', 'comm', 'recycle', 'help', 'ai', 'user', 'role', 'menu', 'param', 'table', 'select', 'drop',
]);

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
  });
export type FieldDef = z.output<typeof fieldSchema>;

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
  });
export type ModuleDef = z.output<typeof moduleSchema>;
export type ModuleInput = z.input<typeof moduleSchema>;

/** The label in a language: its own, else the one label. */
export function labelIn(item: { label: string; labels?: { zh?: string; en?: string; de?: string } | undefined }, lang: string): string {
  const own = item.labels?.[lang.slice(0, 2) as 'zh' | 'en' | 'de'];
  return own || item.label;
}

/** The default table of a module name. */
export const tableFor = (name: string) => `${TABLE_PREFIX}${name}`;

/** What the parse call answers: the module, how it was made, and why the language model was not used. */
export interface ParseReply {
  definition: ModuleDef;
  via: 'rules' | 'llm';
  /** Set when a language model was asked and failed: the rules made the fields instead. */
  fallback?: string;
}

/** A stored module as the helper's list answers it. */
export interface StoredModule {
  id: number;
  name: string;
  tableName: string;
  label: string;
  definition: ModuleDef;
  version: number;
  createTime: string;
}
