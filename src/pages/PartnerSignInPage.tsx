/**
 * /open/redirect?token=: the page of a partner's one-time editor link. It spends the token for a
 * session (whoever was signed in here before is replaced) and opens the editor on the link's
 * order; a used or expired link says so and offers the login page.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { errorMessage } from '../api/client.ts';
import { partnerSignIn } from '../app/auth.ts';
import { Spinner } from '../ui/Spinner.tsx';

export function PartnerSignInPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const search: { token?: unknown } = useSearch({ strict: false });
  const token = typeof search.token === 'string' ? search.token : '';
  const [error, setError] = useState<string | null>(null);
  // The token is good once: spent once, even when an effect runs twice.
  const spent = useRef(false);

  useEffect(() => {
    if (spent.current) return;
    spent.current = true;
    partnerSignIn(token).then(
      (orderId) => void navigate({ href: `/bend?orderId=${orderId}`, replace: true }),
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [navigate, token]);

  return (
    <main role="status" className="flex min-h-full flex-col items-center justify-center gap-3 bg-slate-50 text-sm text-slate-600" data-testid="partner-sign-in">
      {error === null ? (
        <div className="flex items-center gap-3">
          <Spinner />
          {t`Signing in…`}
        </div>
      ) : (
        <>
          <p className="text-red-600">{error}</p>
          <Link to="/login" className="aw-btn-default h-8">
            {t`Go to login`}
          </Link>
        </>
      )}
    </main>
  );
}
