/** The latest texts an editor page saved, as the server stored them: the HTML rendered, and its source. */
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { SafeHtml } from '../help/markdown.tsx';
import { canList, latestArticles, type Article, type ArticleFormat } from './articles.ts';

export function SavedTexts({ format, version }: { format: ArticleFormat; version: number }) {
  const { t } = useLingui();
  const [rows, setRows] = useState<Article[] | null>(null);
  useEffect(() => {
    if (!canList()) return;
    let live = true;
    latestArticles(format).then(
      (list) => live && setRows(list),
      () => live && setRows([]),
    );
    return () => {
      live = false;
    };
  }, [format, version]);
  if (!canList()) return null;
  return (
    <section className="mt-6" aria-label={t`Saved texts`}>
      <h2 className="mb-2 text-sm font-semibold text-slate-700">{t`Saved texts (as stored by the server)`}</h2>
      {rows?.length === 0 && <p className="text-sm text-slate-400">{t`Nothing saved yet.`}</p>}
      <ul className="grid gap-3 lg:grid-cols-2">
        {rows?.map((r) => (
          <li key={r.id} className="rounded-md border border-slate-200 p-3" data-testid="saved-text">
            <div className="mb-2 flex items-baseline justify-between gap-2">
              <h3 className="truncate font-medium text-slate-800">{r.title}</h3>
              <span className="shrink-0 text-xs text-slate-400">{r.updateTime}</span>
            </div>
            <SafeHtml html={r.html} className="max-h-60 overflow-auto" />
            <details className="mt-2 text-xs">
              <summary className="cursor-pointer text-slate-500">{t`Stored source`}</summary>
              <pre className="mt-1 max-h-40 overflow-auto rounded bg-slate-50 p-2 whitespace-pre-wrap" data-testid="saved-source">{r.content}</pre>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
