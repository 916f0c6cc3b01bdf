/**
 * /transfer: a neutral stop that forwards to a local path (or home). Not tracked as a tab.
 * - `?to=/path` forwards there;
 * - `?code=...` (a one-time sign-in link, POST redirect) signs in with the code first, then opens
 *   the path the link names; a used or expired code shows its message and goes to /login.
 */
import { useEffect } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { request, session } from '../api/client.ts';
import type { LoginReply } from '../api/session.ts';
import { safeRedirect } from '../app/pages.ts';
import { markSignedIn, resetApp } from '../app/store.ts';
import { Spinner } from '../ui/Spinner.tsx';

/** One request per code, whatever the effect runs (a code is good once). */
const taken = new Map<string, Promise<LoginReply & { target: string }>>();
function take(code: string) {
  let p = taken.get(code);
  if (!p) {
    p = request<LoginReply & { target: string }>({ url: '/admin/base/open/redirect', method: 'POST', data: { code } });
    taken.set(code, p);
  }
  return p;
}

export function TransferPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const search: { to?: unknown; code?: unknown } = useSearch({ strict: false });
  const code = typeof search.code === 'string' ? search.code : undefined;
  const target = safeRedirect(search.to) ?? '/';

  useEffect(() => {
    if (!code) {
      void navigate({ href: target, replace: true });
      return;
    }
    let live = true;
    void take(code).then(
      (reply) => {
        if (!live) return;
        if (taken.delete(code)) {
          resetApp();
          markSignedIn();
          session.login(reply);
        }
        void navigate({ href: safeRedirect(reply.target) ?? '/', replace: true });
      },
      () => live && void navigate({ href: '/login', replace: true }),
    );
    return () => {
      live = false;
    };
  }, [navigate, target, code]);

  return (
    <main role="status" className="flex min-h-full items-center justify-center gap-3 bg-slate-50 text-sm text-slate-500">
      <Spinner />
      {t`Redirecting…`}
    </main>
  );
}
