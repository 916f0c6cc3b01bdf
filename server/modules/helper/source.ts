// The source text of a described module (the helper's `source` call), as a developer would add it to the code base: a server
// resource (server/modules/<name>/index.ts) over the generic service, and a page
// (src/modules/<name>/views/list.tsx) over the generic kit. Shown and downloaded, never executed:
// the live module runs from the stored definition instead. Every name in it passed moduleSchema
// (identifiers only); labels are written as JSON strings.
import { GEN_MODULE, type FieldDef, type ModuleDef } from '../../../common/ai-code.ts';

const str = (s: string) => JSON.stringify(s);
/** An import line of the generated text (built here, so that this file's own imports stay the only ones it shows). */
const importLine = (what: string, spec: string) => `import ${what} from '${spec}';`;

const COLUMN_TYPE: Record<FieldDef['type'], string> = {
  string: 'string', text: 'string', number: 'number', integer: 'number', boolean: 'number',
  date: 'string', datetime: 'datetime', dict: 'string', enum: 'string',
};
const ZOD: Record<FieldDef['type'], (f: FieldDef) => string> = {
  string: () => 'z.string().max(255)',
  text: () => 'z.string().max(10000)',
  number: () => 'z.coerce.number().finite()',
  integer: () => 'z.coerce.number().int()',
  boolean: () => 'z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v ? 1 : 0))',
  date: () => 'z.string().regex(/^\\d{4}-\\d{2}-\\d{2}$/)',
  datetime: () => 'z.string().regex(/^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$/)',
  dict: () => 'z.coerce.string().max(64)',
  enum: (f) => `z.enum(${JSON.stringify(f.options ?? [])})`,
};
const ITEM_TYPE: Record<FieldDef['type'], string> = {
  string: 'input', text: 'textarea', number: 'number', integer: 'number', boolean: 'switch',
  date: 'date', datetime: 'datetime', dict: 'select', enum: 'select',
};

const pascal = (name: string) => name[0]!.toUpperCase() + name.slice(1);

export function serverSource(def: ModuleDef): string {
  const fields = def.fields;
  const keyword = fields.filter((f) => f.search && (f.type === 'string' || f.type === 'text')).map((f) => str(f.name));
  const filters = fields.filter((f) => f.search && ['dict', 'enum', 'boolean'].includes(f.type)).map((f) => str(f.name));
  const sortable = ['id', ...fields.filter((f) => f.list && f.type !== 'text').map((f) => f.name), 'createTime'].map(str);
  return `// ${def.label}: /admin/${GEN_MODULE}/${def.name} over the generic resource service (core/crud.ts).
${importLine('{ z }', 'zod')}
${importLine('type { AppContext }', '../../context.ts')}
${importLine('{ createCrud }', '../../core/crud.ts')}

const fields = {
${fields.map((f) => `  ${f.name}: ${ZOD[f.type](f)}${f.required ? '' : '.nullable().optional()'},`).join('\n')}
};
const addSchema = z.object(fields);
const updateSchema = z.object({ ...fields, id: z.coerce.number().int().positive() }).partial({
${fields.map((f) => `  ${f.name}: true,`).join('\n')}
});

export function ${def.name}Module(ctx: AppContext) {
  return createCrud(ctx, {
    module: ${str(GEN_MODULE)},
    path: ${str(def.name)},
    name: ${str(pascal(def.name))},
    table: ${str(def.tableName)},
    columns: {
      id: { type: 'number', comment: 'ID', readonly: true },
${fields.map((f) => `      ${f.name}: { type: ${str(COLUMN_TYPE[f.type])}, comment: ${str(f.label)}, nullable: ${!f.required} },`).join('\n')}
      departmentId: { type: 'number', comment: 'Department', nullable: true, readonly: true },
      createBy: { type: 'number', comment: 'Created by', nullable: true, readonly: true },
      createTime: { type: 'datetime', comment: 'Created', readonly: true },
      updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
    },
    actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
    keyWordColumns: [${keyword.join(', ')}],
    filterable: [${filters.join(', ')}],
    sortable: [${sortable.join(', ')}],
    defaultOrder: ['id', 'desc'],
    addSchema,
    updateSchema,
  } as never);
}
`;
}

export function pageSource(def: ModuleDef): string {
  const fields = def.fields;
  const options = (f: FieldDef) =>
    f.type === 'dict' ? `, options: ${str(f.dict ?? '')}` : f.type === 'enum' ? `, options: ${JSON.stringify((f.options ?? []).map((o) => ({ label: o, value: o })))}` : '';
  const hook = (f: FieldDef) => (f.type === 'boolean' ? `, hook: 'booleanNumber'` : '');
  const column = (f: FieldDef) =>
    `    { prop: ${str(f.name)}, label: ${str(f.label)}${f.type === 'dict' ? `, dict: ${str(f.dict ?? '')}` : ''}${f.type === 'text' ? '' : ', sortable: true'} },`;
  const searchable = fields.filter((f) => f.search && ['dict', 'enum', 'boolean'].includes(f.type));
  return `/** ${def.label}: the list, search and form of /admin/${GEN_MODULE}/${def.name} through the generic kit. */
${importLine('{ CrudPage, type FormItem, type TableColumn }', '../../../kit/index.ts')}

export default function ${pascal(def.name)}List() {
  const columns: TableColumn[] = [
${fields.filter((f) => f.list).map(column).join('\n')}
    { prop: 'createTime', label: 'createTime', sortable: true, width: 170 },
  ];
  const items: FormItem[] = [
${fields.map((f) => `    { prop: ${str(f.name)}, label: ${str(f.label)}, type: ${str(ITEM_TYPE[f.type])}${f.required ? ', required: true' : ''}${options(f)}${hook(f)} },`).join('\n')}
  ];
  const search: FormItem[] = [
${searchable.map((f) => `    { prop: ${str(f.name)}, label: ${str(f.label)}, type: 'select'${f.type === 'boolean' ? `, options: [{ label: 'Yes', value: 1 }, { label: 'No', value: 0 }]` : options(f)} },`).join('\n')}
  ];
  return <CrudPage service=${str(`/admin/${GEN_MODULE}/${def.name}`)} columns={columns} items={items} search={search.length ? search : undefined} />;
}
`;
}

/** The download names of the two files. */
export const sourceFiles = (def: ModuleDef) => ({ server: `${def.name}.module.ts`, page: `${def.name}.list.tsx` });
