// Turning one sentence (zh or en) into a module offline, by the rules of the `epsFieldType` param
// (admins edit it in the params page). A rule maps words to a field type: the first rule with a
// word contained in a field's text (case-insensitive) types it; `names` gives Chinese words an
// identifier. Words are plain text, never patterns: a rule cannot make matching slow.
import { z } from 'zod';
import { FIELD_TYPES, MAX_FIELDS, MAX_SENTENCE, MODULE_NAME, RESERVED_FIELDS, RESERVED_MODULES, tableFor, FIELD_NAME, type FieldDef, type ModuleDef } from './ai-code.ts';

export const EPS_FIELD_TYPE_KEY = 'epsFieldType';

const word = z.string().trim().min(1).max(32);
export const fieldRulesSchema = z.object({
  rules: z
    .array(
      z.object({
        words: z.array(word).min(1).max(50),
        type: z.enum(FIELD_TYPES),
        search: z.boolean().optional(),
        list: z.boolean().optional(),
        dict: z.string().regex(/^[\w.:-]{1,64}$/).optional(),
        options: z.array(z.string().trim().min(1).max(64)).max(50).optional(),
      }),
    )
    .max(200),
  /** Identifiers of words that are not ASCII (名称 -> name). */
  names: z.record(word, z.string().regex(FIELD_NAME)).optional(),
});
export type FieldRules = z.output<typeof fieldRulesSchema>;

export const DEFAULT_FIELD_RULES: FieldRules = {
  rules: [
    { words: ['名称', '标题', 'name', 'title'], type: 'string', search: true },
    { words: ['备注', '描述', '说明', '内容', 'remark', 'description', 'note', 'content', 'comment'], type: 'text', list: false },
    { words: ['日期', 'date', 'birthday', '生日'], type: 'date' },
    { words: ['时间', 'time', 'deadline'], type: 'datetime' },
    { words: ['金额', '价格', '工资', '费用', 'price', 'amount', 'wages', 'salary', 'cost', 'fee'], type: 'number' },
    { words: ['数量', '年龄', '库存', '排序', 'count', 'quantity', 'age', 'stock', 'qty'], type: 'integer' },
    { words: ['状态'], type: 'enum', options: ['启用', '停用'], search: true },
    { words: ['status', 'state'], type: 'enum', options: ['active', 'inactive'], search: true },
    { words: ['是否', 'enabled', 'active', 'flag'], type: 'boolean', search: true },
    { words: ['作者', '编号', '电话', '邮箱', 'author', 'code', 'phone', 'email'], type: 'string', search: true },
  ],
  names: {
    名称: 'name', 标题: 'title', 备注: 'remark', 描述: 'description', 说明: 'note', 内容: 'content',
    日期: 'date', 生日: 'birthday', 时间: 'time', 开始时间: 'startTime', 结束时间: 'endTime', 出版日期: 'publishDate',
    金额: 'amount', 价格: 'price', 工资: 'wages', 费用: 'fee', 数量: 'quantity', 年龄: 'age', 库存: 'stock', 排序: 'orderNum',
    状态: 'status', 作者: 'author', 编号: 'code', 电话: 'phone', 邮箱: 'email', 地址: 'address', 类型: 'kind', 分类: 'category',
    图书: 'book', 书: 'book', 员工: 'employee', 客户: 'customer', 产品: 'product', 商品: 'goods', 订单: 'purchase', 学生: 'student',
  },
};

const EN_SPLIT = /^\s*(?:an?\s+|the\s+)?(.+?)\s+(?:with|has|having|containing|including|of)\s+(?:fields?\s+|columns?\s+)?:?\s*(.+)$/i;
const ZH_SPLIT = /^\s*(.+?)[，,:：\s]*(?:包含|包括|含有|字段有|字段为|字段|有)[:：]?\s*(.+)$/;
const LIST_SPLIT = /\s*(?:[,，、;；]|\band\b|\bor\b|和|及|与|以及)\s*/i;

/** `publish date` -> `publishDate`; undefined when no ASCII word is left. */
function camel(text: string): string | undefined {
  const words = text
    .toLowerCase()
    .replace(/[^a-z0-9\s]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !['a', 'an', 'the', 'its', 'their', 'his', 'her'].includes(w));
  if (!words.length) return undefined;
  const name = words.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('');
  return /^[a-z]/.test(name) ? name.slice(0, 40) : undefined;
}

function identifier(text: string, rules: FieldRules): string | undefined {
  const own = rules.names?.[text];
  if (own) return own;
  const ascii = camel(text);
  if (ascii) return ascii;
  // The longest known word inside the text (出版日期 -> publishDate, 入职时间 -> time).
  const known = Object.entries(rules.names ?? {})
    .filter(([w]) => text.includes(w))
    .sort((a, b) => b[0].length - a[0].length)[0];
  return known?.[1];
}

function typed(text: string, rules: FieldRules): Omit<FieldDef, 'name' | 'label' | 'labels'> {
  const lower = text.toLowerCase();
  const rule = rules.rules.find((r) => r.words.some((w) => lower.includes(w.toLowerCase())));
  if (!rule) return { type: 'string', required: false, list: true, search: false };
  return {
    type: rule.type,
    required: false,
    list: rule.list ?? true,
    search: rule.search ?? false,
    ...(rule.dict ? { dict: rule.dict } : {}),
    ...(rule.options ? { options: rule.options } : {}),
  };
}

/**
 * The module a sentence describes, by the rules: "A book with title, author, price and publish
 * date" or "图书，包含名称、作者、价格、出版日期". Throws when the sentence is too long or names no
 * fields. The result still goes through moduleSchema (the caller checks it) and the admin's review.
 */
export function parseSentence(sentence: string, rules: FieldRules = DEFAULT_FIELD_RULES): ModuleDef {
  const text = sentence.trim().replace(/[.。!！]+$/, '');
  if (!text || text.length > MAX_SENTENCE) throw new Error('sentence length');
  const match = ZH_SPLIT.exec(text) && /[\u4e00-\u9fff]/.test(text) ? ZH_SPLIT.exec(text) : EN_SPLIT.exec(text);
  if (!match) throw new Error('no fields');
  const entity = match[1]!.trim();
  const parts = match[2]!
    .split(LIST_SPLIT)
    .map((p) => p.trim().replace(/^(?:an?|the|its)\s+/i, ''))
    .filter(Boolean)
    .slice(0, MAX_FIELDS);
  if (!parts.length) throw new Error('no fields');
  const used = new Set<string>();
  const fields: FieldDef[] = parts.map((part, i) => {
    let name = identifier(part, rules) ?? `field${i + 1}`;
    if (RESERVED_FIELDS.has(name.toLowerCase())) name = `${name}Value`;
    while (used.has(name.toLowerCase())) name = `${name}${i + 1}`;
    used.add(name.toLowerCase());
    return { name: name.slice(0, 40), label: part.slice(0, 64), ...typed(part, rules) };
  });
  let moduleName = (identifier(entity, rules) ?? 'entity').toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 30);
  if (!MODULE_NAME.test(moduleName) || RESERVED_MODULES.has(moduleName)) moduleName = `m${moduleName}`.slice(0, 30);
  if (!MODULE_NAME.test(moduleName)) moduleName = 'entity';
  return { name: moduleName, tableName: tableFor(moduleName), label: entity.slice(0, 64), fields };
}
