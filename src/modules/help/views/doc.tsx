/** Help documents for every user: categories and published articles, the chosen one rendered. */
import { useEffect, useMemo, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { request } from '../../../api/client.ts';
import { Spinner } from '../../../ui/Spinner.tsx';
import { Markdown } from '../markdown.tsx';

interface Category {
  id: number;
  name: string;
  parentId: number | null;
}
interface ArticleTitle {
  id: number;
  categoryId: number | null;
  title: string;
  updateTime: string;
}
interface Article extends ArticleTitle {
  content: string | null;
}

interface Section {
  category: Category | null;
  depth: number;
  articles: ArticleTitle[];
}

/** Categories in tree order (with depth), each with its articles; uncategorised ones last. */
function sections(categories: Category[], articles: ArticleTitle[]): Section[] {
  const ids = new Set(categories.map((c) => c.id));
  const out: Section[] = [];
  const walk = (parent: number | null, depth: number) => {
    for (const c of categories.filter((x) => (x.parentId !== null && ids.has(x.parentId) ? x.parentId : null) === parent)) {
      out.push({ category: c, depth, articles: articles.filter((a) => a.categoryId === c.id) });
      walk(c.id, depth + 1);
    }
  };
  walk(null, 0);
  const loose = articles.filter((a) => a.categoryId === null || !ids.has(a.categoryId));
  if (loose.length) out.push({ category: null, depth: 0, articles: loose });
  return out;
}

export default function HelpDocs() {
  const { t } = useLingui();
  const [docs, setDocs] = useState<{ categories: Category[]; articles: ArticleTitle[] } | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const [article, setArticle] = useState<Article | null>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    request<{ categories: Category[]; articles: ArticleTitle[] }>({ url: '/admin/base/sys/article/docs', onForbidden: 'page' }).then(
      (d) => {
        setDocs(d);
        setOpenId((cur) => cur ?? d.articles[0]?.id ?? null);
      },
      () => setDocs({ categories: [], articles: [] }),
    );
  }, []);

  useEffect(() => {
    if (openId === null) return;
    let live = true;
    setLoading(true);
    request<Article>({ url: '/admin/base/sys/article/doc', params: { id: openId } })
      .then((a) => live && setArticle(a), () => live && setArticle(null))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [openId]);

  const list = useMemo(() => (docs ? sections(docs.categories, docs.articles) : []), [docs]);
  const updated = article?.updateTime ?? '';

  if (!docs) {
    return (
      <div className="flex justify-center p-10">
        <Spinner />
      </div>
    );
  }
  if (docs.articles.length === 0) {
    return <div className="m-4 rounded-lg border border-dashed border-slate-300 p-10 text-center text-sm text-slate-500">{t`No help documents have been published yet.`}</div>;
  }
  return (
    <div className="flex min-h-full flex-col gap-3 p-3 sm:p-4 md:flex-row">
      <nav className="aw-card w-full shrink-0 overflow-auto p-2 md:max-h-[calc(100vh-9rem)] md:w-64 md:self-start" aria-label={t`Help documents`}>
        {list.map((s) => (
          <div key={s.category?.id ?? 'none'} className="mb-1">
            <div className="px-2 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase" style={{ paddingLeft: `${0.5 + s.depth}rem` }}>
              {s.category ? s.category.name : t`Other`}
            </div>
            <ul>
              {s.articles.map((a) => (
                <li key={a.id}>
                  <button
                    type="button"
                    className={`w-full truncate rounded-md py-1.5 pr-2 text-left text-sm ${a.id === openId ? 'bg-primary-light-9 font-medium text-primary' : 'text-slate-700 hover:bg-slate-50'}`}
                    style={{ paddingLeft: `${1 + s.depth}rem` }}
                    aria-current={a.id === openId ? 'page' : undefined}
                    onClick={() => setOpenId(a.id)}
                  >
                    {a.title}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <article className="aw-card min-w-0 flex-1 px-6 py-5" aria-busy={loading}>
        {article ? (
          <>
            <h1 className="text-xl font-semibold text-slate-900">{article.title}</h1>
            <p className="mt-1 text-xs text-slate-400">{t`Updated ${updated}`}</p>
            <Markdown source={article.content} className="mt-4" />
          </>
        ) : loading ? (
          <div className="flex justify-center p-10">
            <Spinner />
          </div>
        ) : (
          <p className="text-sm text-slate-500">{t`Choose a document on the left.`}</p>
        )}
      </article>
    </div>
  );
}
