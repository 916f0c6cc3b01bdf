/** The editor pages' saved texts (/admin/demo/article): sanitised by the server before storing. */
import { request } from '../../api/client.ts';
import { hasPerm } from '../../app/store.ts';
import { createService, permPrefix, readPage, type Row } from '../../kit/index.ts';

export const ARTICLE_PREFIX = '/admin/demo/article';
export type ArticleFormat = 'html' | 'markdown';
const service = createService(ARTICLE_PREFIX);

export interface Article extends Row {
  id: number;
  title: string;
  format: ArticleFormat;
  content: string;
  html: string;
  updateTime: string;
}

export const canSave = () => hasPerm(`${permPrefix(ARTICLE_PREFIX)}:add`);
export const canList = () => hasPerm(`${permPrefix(ARTICLE_PREFIX)}:page`);

export function saveArticle(data: { id?: number | undefined; title: string; format: ArticleFormat; content: string }): Promise<unknown> {
  return data.id ? service.update!(data) : request<{ id: number }>({ url: `${ARTICLE_PREFIX}/add`, method: 'POST', data });
}

export async function latestArticles(format: ArticleFormat, size = 5): Promise<Article[]> {
  return readPage(await service.page({ format, size, page: 1 }), { page: 1, size }).list as Article[];
}
