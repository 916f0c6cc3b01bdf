/**
 * Types of the CRUD kit: a page is declared as a service, table columns, form items, search items
 * and options; the kit renders toolbar, table, pagination, search drawer and the upsert dialog.
 */
import type { ReactNode } from 'react';

/** A record as the server returns it. */
export type Row = Record<string, unknown> & { id?: number | string };

/** The reply of `page`: `{ list, pagination }`, or a bare array. */
export interface PageReply<R = Row> {
  list: R[];
  pagination?: { total?: number; page?: number; currentPage?: number; size?: number; pageSize?: number };
  subData?: unknown;
}

/** Query of `page`/`list`: page, size, keyWord, order (column), sort (asc|desc) and field filters. */
export type Query = Record<string, unknown> & {
  page?: number;
  size?: number;
  keyWord?: string;
  order?: string;
  sort?: 'asc' | 'desc';
};

/** The generic per-resource service of the specification (section 7). */
export interface CrudService<R = Row> {
  /** e.g. `/admin/base/sys/user`; permissions are derived from it. */
  prefix?: string;
  page(query: Query): Promise<PageReply<R> | R[]>;
  list?(query: Query): Promise<R[]>;
  info?(params: { id: number | string }): Promise<R>;
  add?(data: Record<string, unknown>): Promise<unknown>;
  update?(data: Record<string, unknown>): Promise<unknown>;
  delete?(data: { ids: (number | string)[] } & Record<string, unknown>): Promise<unknown>;
}

/** Service actions that have a permission flag (specification, section 6). */
export type Action = 'add' | 'delete' | 'update' | 'info' | 'list' | 'page';
export type Perms = Record<Action, boolean>;

/** An option of a select, radio or dictionary. */
export interface Option {
  label: string;
  value: string | number | boolean;
  /** Tag colour (any CSS colour) used when a column shows the option. */
  color?: string;
}

/** A tree node (departments, menus): flat rows with parentId are turned into trees by the kit. */
export interface TreeNode {
  id: number | string;
  label: string;
  children?: TreeNode[];
}

export type HookName = 'number' | 'string' | 'split' | 'join' | 'boolean' | 'booleanNumber' | 'datetimeRange' | 'json' | 'empty';

export type FormMode = 'add' | 'update' | 'info';

export type ItemType =
  | 'input'
  | 'password'
  | 'textarea'
  | 'number'
  | 'select'
  | 'switch'
  | 'radio'
  | 'date'
  | 'datetime'
  | 'datetimeRange'
  | 'treeSelect'
  | 'upload'
  /** Province, city and district (`{ codes, names }`, common/region.ts). */
  | 'region'
  | 'custom'
  /** A collapsible group holding `children`. */
  | 'group';

export type Form = Record<string, unknown>;

/** What a custom render and `hidden`/`disabled` functions receive. */
export interface ItemContext {
  form: Form;
  mode: FormMode | 'search';
}

export interface CustomRenderProps extends ItemContext {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled: boolean;
  invalid: boolean;
}

export interface FormItem {
  /** Field name; `a.b` or `a-b` submit as `{ a: { b } }`. Optional only for groups. */
  prop?: string;
  label?: string;
  type?: ItemType;
  /** Grid span of 24 (default 24). */
  span?: number;
  required?: boolean;
  /** Extra check: return a message to fail. Runs after `required`. */
  validate?: (value: unknown, form: Form) => string | null | undefined;
  /** Value of a new form. */
  value?: unknown;
  placeholder?: string;
  /** Options of select/radio, or the name of a dictionary type (`/admin/dict/info/data`). */
  options?: Option[] | string;
  multiple?: boolean;
  /** number: bounds and step. */
  min?: number;
  max?: number;
  step?: number;
  /** treeSelect: nodes, or a service prefix whose `list` gives rows with id/parentId/name. */
  tree?: TreeNode[] | { service: string; labelKey?: string };
  /** upload: accepted types (the input's `accept`) and how many files (1 = one URL string). */
  accept?: string;
  /** upload: the server's file kind (image, video, audio, word, excel, ppt, pdf, rar, model, file). */
  kind?: string;
  limit?: number;
  /** datetimeRange: names of the start and end fields (default start<Prop>/end<Prop>). */
  range?: [string, string];
  /** Value hooks applied on submit (and their inverse when a record fills the form). */
  hook?: HookName | HookName[];
  /** Hidden items are not shown, not validated and not submitted. */
  hidden?: boolean | ((ctx: ItemContext) => boolean);
  disabled?: boolean | ((ctx: ItemContext) => boolean);
  /** Tab (form `tabs[].name`) the item belongs to. */
  tab?: string;
  /** type 'group': the items inside; `collapsed` starts it folded. */
  children?: FormItem[];
  collapsed?: boolean;
  /** type 'custom': renders the control. */
  render?: (props: CustomRenderProps) => ReactNode;
}

export interface FormTab {
  name: string;
  label: string;
  /** Render the tab's fields only once it has been opened (default true). */
  lazy?: boolean;
}

export interface TableColumn<R = Row> {
  prop: string;
  label: string;
  sortable?: boolean;
  width?: number;
  minWidth?: number;
  align?: 'left' | 'center' | 'right';
  /** Show the option label (and colour) of the value; a string names a dictionary type. */
  dict?: Option[] | string;
  /** Cell content from the row (wins over `dict`). */
  render?: (row: R) => ReactNode;
  hidden?: boolean;
}

export interface RowAction<R = Row> {
  label: string;
  onClick: (row: R) => void;
  hidden?: (row: R) => boolean;
  danger?: boolean;
  /** Shown after the label (a count, say). */
  badge?: (row: R) => ReactNode;
}
