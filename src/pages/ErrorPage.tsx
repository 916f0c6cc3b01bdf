/** The error pages 401, 403, 404, 500 and 502 (full window, outside the main layout). */
import { useEffect } from 'react';
import { Link } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';

export type ErrorCode = 401 | 403 | 404 | 500 | 502;

export function ErrorPage({ code }: { code: ErrorCode }) {
  const { t } = useLingui();
  const text: Record<ErrorCode, { title: string; body: string }> = {
    401: { title: t`Unauthorized`, body: t`You are not logged in, or your login has expired.` },
    403: { title: t`Access denied`, body: t`You do not have permission to access this page.` },
    404: { title: t`Page not found`, body: t`The page you are looking for does not exist or has been moved.` },
    500: { title: t`Server error`, body: t`Something went wrong on the server. Please try again later.` },
    502: { title: t`Bad gateway`, body: t`The server cannot be reached at the moment. Please try again later.` },
  };
  const { title, body } = text[code];

  useEffect(() => {
    document.title = `${code} ${title} · Archwright`;
  }, [code, title]);

  return (
    <main className="flex min-h-full items-center justify-center bg-slate-50 px-6 py-16">
      <div className="max-w-md text-center">
        <p className="bg-gradient-to-b from-primary to-primary-light-5 bg-clip-text text-8xl font-bold tracking-tight text-transparent" aria-hidden="true">
          {code}
        </p>
        <h1 className="mt-4 text-2xl font-semibold text-slate-900">{title}</h1>
        <p className="mt-2 text-slate-500">{body}</p>
        <Link to="/" className="aw-btn-primary mt-8">
          {t`Back to home`}
        </Link>
      </div>
    </main>
  );
}
