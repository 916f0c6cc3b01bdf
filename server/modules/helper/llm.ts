// A language model describes a module: the enabled API configuration entry of kind 'llm' (an
// OpenAI-compatible chat completion URL, its key as a Bearer token, the model named by the
// entry's remark) is asked for the module as JSON. Its answer is only data: it goes through the
// same moduleSchema as the form, and any failure (no answer in time, not JSON, not a valid
// module) is reported so that the caller falls back to the rules. The key is never logged.
import { MAX_FIELDS, FIELD_TYPES, type ModuleDef } from '../../../common/ai-code.ts';
import { moduleSchema } from '../../../common/ai-code-schema.ts';
import type { Db } from '../../db/index.ts';

const TIMEOUT_MS = 20_000;
const MAX_ANSWER_BYTES = 256 * 1024;
const DEFAULT_MODEL = 'gpt-4o-mini';

export interface LlmEntry {
  id: number;
  url: string;
  key: string | null;
  model: string;
}

/** The language model to ask, or null when none is configured. */
export async function llmEntry(db: Db): Promise<LlmEntry | null> {
  const row = await db
    .selectFrom('device_api_config')
    .select(['id', 'url', 'key', 'remark'])
    .where('kind', '=', 'llm')
    .where('enabled', '=', 1)
    .orderBy('id')
    .executeTakeFirst();
  if (!row) return null;
  const model = row.remark?.trim() ?? '';
  return { id: row.id, url: row.url, key: row.key, model: /^[\w.:/-]{1,100}$/.test(model) ? model : DEFAULT_MODEL };
}

const PROMPT = [
  'You turn one sentence describing a business entity into a JSON object, and answer only that JSON.',
  'Shape: {"name": lowercase ascii 2-30 chars [a-z][a-z0-9]*, "tableName": "mod_" + name, "label": short label in the language of the sentence,',
  ` "fields": [at most ${MAX_FIELDS} of {"name": camelCase ascii identifier, "label": label in the sentence's language, "labels": {"zh","en","de"},`,
  ` "type": one of ${FIELD_TYPES.join('|')}, "required": boolean, "list": boolean, "search": boolean, "options": [values] only for enum, "dict": a dictionary key only for dict}]}.`,
  'Never use the field names id, createTime, updateTime, departmentId, createBy, page, size, keyWord, order, sort.',
].join('\n');

/** The answer's text, read no further than `limit` bytes (a longer one is refused, not buffered). */
async function cappedText(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new Error('answer too long');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON in a model's reply (bare, or in a fenced block). */
function jsonOf(content: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  return JSON.parse((fenced ? fenced[1]! : content).trim());
}

/** The module the model describes; throws with a short reason. */
export async function askModel(entry: LlmEntry, sentence: string): Promise<ModuleDef> {
  const url = new URL(entry.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not an http(s) URL');
  const res = await fetch(url, {
    method: 'POST',
    redirect: 'error',
    signal: AbortSignal.timeout(TIMEOUT_MS),
    headers: { 'Content-Type': 'application/json', ...(entry.key ? { Authorization: `Bearer ${entry.key}` } : {}) },
    body: JSON.stringify({
      model: entry.model,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: PROMPT },
        { role: 'user', content: sentence },
      ],
    }),
  }).catch((err: unknown) => {
    throw new Error(err instanceof Error && err.name === 'TimeoutError' ? 'no answer in time' : 'unreachable');
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const text = await cappedText(res, MAX_ANSWER_BYTES);
  let content: unknown;
  try {
    content = (JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
  } catch {
    throw new Error('not JSON');
  }
  if (typeof content !== 'string') throw new Error('no message');
  let parsed: unknown;
  try {
    parsed = jsonOf(content);
  } catch {
    throw new Error('not JSON');
  }
  const checked = moduleSchema.safeParse(parsed);
  if (!checked.success) throw new Error(`invalid module at ${checked.error.issues[0]?.path.join('.') || 'root'}`);
  return checked.data;
}
