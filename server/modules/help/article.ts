// /admin/base/sys/article: help articles (markdown, draft or published), and the reader's calls
// every logged-in user may make (LOGIN_ONLY_PATHS in core/auth.ts): GET docs (categories and
// published article titles) and GET doc?id= (one published article).
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { ok } from '../../core/envelope.ts';
import { fail, invalidField } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import type { Db } from '../../db/index.ts';

export const ARTICLE_STATUS = { draft: 0, published: 1 } as const;

const articleFields = {
  categoryId: z.coerce.number().int().positive().nullable().optional(),
  title: z.string().trim().min(1).max(255),
  content: z.string().max(500_000).nullable().optional(),
  orderNum: z.coerce.number().int().default(0),
  status: z.coerce.number().int().min(0).max(1).default(0),
};
const articleAddSchema = z.object(articleFields);
const articleUpdateSchema = z
  .object({
    ...articleFields,
    orderNum: z.coerce.number().int().optional(),
    status: z.coerce.number().int().min(0).max(1).optional(),
    id: z.coerce.number().int().positive(),
  })
  .partial({ title: true });

export const articleResource = {
  module: 'base',
  path: 'sys/article',
  name: 'BaseSysArticle',
  table: 'base_sys_article',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    categoryId: { type: 'number', comment: 'Category ID', nullable: true },
    title: { type: 'string', comment: 'Title' },
    content: { type: 'string', comment: 'Content (markdown)', nullable: true },
    orderNum: { type: 'number', comment: 'Order' },
    status: { type: 'number', comment: 'Status: 0 draft, 1 published' },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['title', 'content'],
  sortable: ['id', 'orderNum', 'title', 'status', 'createTime', 'updateTime'],
  filterable: ['categoryId', 'status'],
  defaultOrder: ['orderNum', 'asc'],
  addSchema: articleAddSchema,
  updateSchema: articleUpdateSchema,
  recycle: true,
  extraApi: [
    { method: 'get', path: '/docs', summary: 'Categories and published articles (titles), for every logged-in user' },
    { method: 'get', path: '/doc', summary: 'One published article (?id=), for every logged-in user' },
  ],
} as const satisfies ResourceDef<'base_sys_article', typeof articleAddSchema, typeof articleUpdateSchema>;

async function checkCategory(db: Db, categoryId: number | null | undefined) {
  if (categoryId === null || categoryId === undefined) return;
  if (!(await db.selectFrom('base_sys_article_category').select('id').where('id', '=', categoryId).executeTakeFirst())) {
    throw invalidField('categoryId');
  }
}

export function createArticleResource(ctx: AppContext) {
  const resource = createCrud(ctx, {
    ...articleResource,
    hooks: {
      async beforeAdd(data, { trx }) {
        await checkCategory(trx, data.categoryId);
        return data;
      },
      async beforeUpdate(data, { trx }) {
        await checkCategory(trx, data.categoryId);
        return data;
      },
    },
  });
  // Chained, so that AppType (and the typed client) see the extra calls.
  const routes = resource.routes
    .get('/docs', async (c) => {
      const categories = await ctx.db
        .selectFrom('base_sys_article_category')
        .select(['id', 'name', 'parentId', 'orderNum'])
        .orderBy('orderNum', 'asc')
        .orderBy('id', 'asc')
        .execute();
      const articles = await ctx.db
        .selectFrom('base_sys_article')
        .select(['id', 'categoryId', 'title', 'orderNum', 'updateTime'])
        .where('status', '=', ARTICLE_STATUS.published)
        .orderBy('orderNum', 'asc')
        .orderBy('id', 'asc')
        .execute();
      return ok(c, { categories, articles });
    })
    .get('/doc', validate('query', z.object({ id: z.coerce.number().int().positive() })), async (c) => {
      const article = await ctx.db
        .selectFrom('base_sys_article')
        .select(['id', 'categoryId', 'title', 'content', 'orderNum', 'updateTime'])
        .where('id', '=', c.req.valid('query').id)
        .where('status', '=', ARTICLE_STATUS.published)
        .executeTakeFirst();
      if (!article) throw fail('dataNotFound');
      return ok(c, article);
    });
  return { ...resource, routes };
}
