// The AI coding helper's vocabulary (/helper/ai-code, server/modules/helper): a module described
// as a name, a table and fields, its names' patterns and the limits. Pure and without zod: the
// page reads it too. The one schema that checks a module wherever it comes from (the form, the
// offline rules, a language model's answer) is common/ai-code-schema.ts, used by the server.

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

export interface Labels {
  zh?: string | undefined;
  en?: string | undefined;
  de?: string | undefined;
}

export interface FieldDef {
  name: string;
  label: string;
  /** The label in each language; `label` stands for a missing one. */
  labels?: Labels | undefined;
  type: FieldType;
  required: boolean;
  /** type dict: the dictionary type's key. */
  dict?: string | undefined;
  /** type enum: the values to pick from. */
  options?: string[] | undefined;
  /** Shown as a column of the list. */
  list: boolean;
  /** string/text: in the keyword search; dict/enum/boolean: a filter of the search drawer. */
  search: boolean;
}

export interface ModuleDef {
  name: string;
  tableName: string;
  label: string;
  labels?: Labels | undefined;
  fields: FieldDef[];
}

/** The label in a language: its own, else the one label. */
export function labelIn(item: { label: string; labels?: Labels | undefined }, lang: string): string {
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
