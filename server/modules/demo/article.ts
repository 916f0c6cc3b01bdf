// /admin/demo/article: texts of the rich text and markdown editor pages, each its author's own.
// What is shown is `html`, made on the server: rich text through the sanitiser's allow-list,
// markdown rendered and then the same; rich text's `content` is stored sanitised as well.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { authOf, seesAll } from '../../core/access.ts';
import { createCrud, type ResourceDef } from '../../core/crud.ts';
import { markdownToSafeHtml, sanitizeRichText } from '../../core/sanitize-html.ts';
import { requirePlugin } from '../../core/plugins.ts';
import { fail } from '../../core/errors.ts';
import type { Db } from '../../db/index.ts';

/** Superadmins and holders of this permission see every author's texts. */
const SEE_ALL_ARTICLES = 'demo:article:all';
const FORMATS = ['html', 'markdown'] as const;

const fields = {
  title: z.string().trim().min(1).max(255),
  format: z.enum(FORMATS),
  content: z.string().max(500_000),
};
const articleAddSchema = z.object(fields);
const articleUpdateSchema = z.object({ ...fields, id: z.coerce.number().int().positive() });

export const demoArticleResource = {
  module: 'demo',
  path: 'article',
  name: 'DemoArticle',
  table: 'demo_article',
  columns: {
    id: { type: 'number', comment: 'ID', readonly: true },
    userId: { type: 'number', comment: 'Author (user ID)', readonly: true },
    title: { type: 'string', comment: 'Title' },
    format: { type: 'string', comment: 'Format: html or markdown' },
    content: { type: 'string', comment: 'Content (rich text sanitised, or markdown)' },
    html: { type: 'string', comment: 'Sanitised HTML shown for the content', readonly: true },
    createTime: { type: 'datetime', comment: 'Created', readonly: true },
    updateTime: { type: 'datetime', comment: 'Updated', readonly: true },
  },
  actions: ['add', 'delete', 'update', 'info', 'list', 'page'],
  keyWordColumns: ['title'],
  sortable: ['id', 'title', 'createTime', 'updateTime'],
  filterable: ['format'],
  defaultOrder: ['id', 'desc'],
  addSchema: articleAddSchema,
  updateSchema: articleUpdateSchema,
} as const satisfies ResourceDef<'demo_article', typeof articleAddSchema, typeof articleUpdateSchema>;

/** The stored content and its HTML. */
export function safeContent(format: (typeof FORMATS)[number], content: string): { content: string; html: string } {
  if (format === 'markdown') return { content, html: markdownToSafeHtml(content) };
  const html = sanitizeRichText(content);
  return { content: html, html };
}

/** Refuses a text while its editor's plugin is disabled, or rich text over the plugin's maxLength. */
async function checkedByPlugin(db: Db, format: (typeof FORMATS)[number], content: string): Promise<void> {
  const settings = await requirePlugin(db, format === 'html' ? 'richText' : 'markdown');
  const max = settings.maxLength;
  if (format === 'html' && typeof max === 'number' && content.length > max) throw fail('textTooLong', { max });
}

export function createDemoArticleResource(ctx: AppContext) {
  return createCrud(ctx, {
    ...demoArticleResource,
    hooks: {
      async scope({ c }) {
        const { userId } = authOf(c);
        return (await seesAll(ctx.db, userId, SEE_ALL_ARTICLES)) ? undefined : { userId };
      },
      async beforeAdd(data, { c, trx }) {
        await checkedByPlugin(trx, data.format, data.content);
        return { userId: authOf(c).userId, title: data.title, format: data.format, ...safeContent(data.format, data.content) };
      },
      async beforeUpdate(data, { trx }) {
        await checkedByPlugin(trx, data.format, data.content);
        return { title: data.title, format: data.format, ...safeContent(data.format, data.content) };
      },
    },
  });
}
