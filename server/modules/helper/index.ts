// The AI coding helper (/helper/ai-code) and the live modules it makes.
// /admin/helper/aiCode (each call its own permission, derived from its path):
// - parse { sentence, useModel? }: the module a sentence describes: by the configured language
//   model when asked and one is configured (llm.ts), else, or when it fails (the reply says why),
//   by the rules of the param epsFieldType (common/ai-code-rules.ts; invalid rules: the defaults).
// - source { definition }: the module checked, and its server and page source (shown, never run).
// - list: the live modules. create { definition }: checked by moduleSchema, then live.ts.
//   remove { id, confirm: the module's name }: live.ts.
// /admin/gen/<name>/{add,delete,update,info,list,page,meta}: the generic service of a live module
// (resource.ts), permission gen:<name>:<action> like every resource (core/auth.ts checks it
// before this runs); meta answers the stored definition for the generic page.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { MAX_SENTENCE, MODULE_NAME, type ModuleDef, type ParseReply, type StoredModule } from '../../../common/ai-code.ts';
import { moduleSchema } from '../../../common/ai-code-schema.ts';
import { DEFAULT_FIELD_RULES, EPS_FIELD_TYPE_KEY, fieldRulesSchema, parseSentence, type FieldRules } from '../../../common/ai-code-rules.ts';
import type { AppContext } from '../../context.ts';
import { authOf } from '../../core/access.ts';
import type { AppEnv } from '../../core/env.ts';
import { Code, ok } from '../../core/envelope.ts';
import { entryDoc, epsGroup } from '../../core/eps.ts';
import { ApiError, fail } from '../../core/errors.ts';
import { userHolding } from '../../core/grants.ts';
import { t } from '../../core/i18n.ts';
import { validate, validationError } from '../../core/validate.ts';
import { getParam } from '../base/sys-param.ts';
import { askModel, llmEntry } from './llm.ts';
import { createModule, removeModule } from './live.ts';
import { liveResources, parseStored } from './resource.ts';
import { pageSource, serverSource, sourceFiles } from './source.ts';

const PREFIX = '/admin/helper/aiCode';
const HELPER = epsGroup('helper', PREFIX, 'HelperAiCode');

const parseBody = z.object({ sentence: z.string().trim().min(1).max(MAX_SENTENCE), useModel: z.boolean().optional() });
const definitionBody = z.object({ definition: z.unknown() });

/** The body's module, checked: 1002 naming the first failing field (`definition.fields.0.name`). */
function checkedDefinition(input: unknown): ModuleDef {
  const parsed = moduleSchema.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error.issues.map((i) => ({ path: ['definition', ...i.path] })), { definition: input });
  return parsed.data;
}
const removeBody = z.object({ id: z.coerce.number().int().positive(), confirm: z.string().max(64) });

/** The admins' rules, or the defaults (and a note) when the param is missing or not a rule list. */
async function fieldRules(ctx: AppContext): Promise<{ rules: FieldRules; invalid: boolean }> {
  const text = await getParam(ctx.db, EPS_FIELD_TYPE_KEY);
  if (text === undefined || text === null || text === '') return { rules: DEFAULT_FIELD_RULES, invalid: false };
  try {
    const parsed = fieldRulesSchema.safeParse(JSON.parse(text));
    return parsed.success ? { rules: parsed.data, invalid: false } : { rules: DEFAULT_FIELD_RULES, invalid: true };
  } catch {
    return { rules: DEFAULT_FIELD_RULES, invalid: true };
  }
}

const ACTIONS = new Set(['add', 'delete', 'update', 'info', 'list', 'page']);
const notFound = () => new ApiError(Code.fail, 'notFound', 404);

export function helperModule(ctx: AppContext) {
  const doc = entryDoc(HELPER);
  const resourceOf = liveResources(ctx);

  async function byRules(c: Context<AppEnv>, sentence: string, fallback?: string): Promise<ParseReply> {
    const { rules, invalid } = await fieldRules(ctx);
    let definition;
    try {
      definition = moduleSchema.parse(parseSentence(sentence, rules));
    } catch {
      throw fail('helperSentence');
    }
    const lang = c.get('lang');
    const notes = [fallback, invalid ? t(lang, 'helperRulesInvalid') : undefined].filter(Boolean);
    return { definition, via: 'rules', ...(notes.length ? { fallback: notes.join(' ') } : {}) };
  }

  return new Hono<AppEnv>()
    .post(`${PREFIX}/parse`, doc('The module one sentence describes ({ sentence, useModel? }): { definition, via: rules|llm, fallback? }'), validate('json', parseBody), async (c) => {
      const { sentence, useModel } = c.req.valid('json');
      const entry = useModel === false ? null : await llmEntry(ctx.db);
      if (!entry) return ok(c, await byRules(c, sentence));
      try {
        return ok(c, { definition: await askModel(entry, sentence), via: 'llm' } satisfies ParseReply);
      } catch (err) {
        const reason = err instanceof Error ? err.message : 'failed';
        ctx.logger.warn(`AI coding: language model entry ${entry.id} failed: ${reason}`);
        return ok(c, await byRules(c, sentence, t(c.get('lang'), 'helperModelFailed', { reason })));
      }
    })
    .post(`${PREFIX}/list`, doc('The live modules'), async (c) => {
      const rows = await ctx.db.selectFrom('helper_module').select(['id', 'name', 'tableName', 'label', 'definition', 'version', 'createTime']).orderBy('id').execute();
      const list: StoredModule[] = rows.flatMap(({ definition, ...row }) => {
        const def = parseStored(definition);
        return def ? [{ ...row, definition: def }] : [];
      });
      return ok(c, list);
    })
    .post(`${PREFIX}/source`, doc('A module checked, and its source ({ definition }): { definition, server, page, files: { server, page } }'), validate('json', definitionBody), (c) => {
      const definition = checkedDefinition(c.req.valid('json').definition);
      return ok(c, { definition, server: serverSource(definition), page: pageSource(definition), files: sourceFiles(definition) });
    })
    .post(`${PREFIX}/create`, doc('Creates a module live ({ definition }): its table, menus and permissions; { id, router, granted }'), validate('json', definitionBody), async (c) => {
      const definition = checkedDefinition(c.req.valid('json').definition);
      const { userId } = authOf(c);
      const created = await createModule(ctx, definition, { userId, holding: await userHolding(ctx.db, userId) });
      return ok(c, { id: created.id, router: `/gen/${definition.name}`, granted: created.granted });
    })
    .post(`${PREFIX}/remove`, doc('Removes a module ({ id, confirm: its name }): its table, menus and permissions'), validate('json', removeBody), async (c) => {
      const { id, confirm } = c.req.valid('json');
      await removeModule(ctx, id, confirm);
      return ok(c, null);
    })
    .on(['GET', 'POST'], '/admin/gen/:name/:action', async (c) => {
      const { name, action } = c.req.param();
      if (!MODULE_NAME.test(name) || !(ACTIONS.has(action) || action === 'meta')) throw notFound();
      const built = await resourceOf(name);
      if (!built) throw fail('dataNotFound');
      if (action === 'meta') {
        if (c.req.method !== 'GET') throw notFound();
        return ok(c, built.def);
      }
      // The resource's own handlers (validator, then the call) run on this request.
      const handlers = built.resource.routes.routes.filter((r) => r.path === `/${action}` && r.method === c.req.method).map((r) => r.handler);
      if (!handlers.length) throw notFound();
      let response: Response | undefined;
      const run = async (i: number): Promise<void> => {
        const handler = handlers[i];
        if (!handler) return;
        const res = await (handler as (c: Context<AppEnv>, next: () => Promise<void>) => Promise<Response | void>)(c, () => run(i + 1));
        if (res instanceof Response) response = res;
      };
      await run(0);
      return response ?? c.res;
    });
}
