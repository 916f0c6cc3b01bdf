import { useLingui } from '@lingui/react/macro';

export function Spinner({ className = 'size-5' }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={`animate-spin text-primary ${className}`} aria-hidden="true">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** Shown while a page or its module loads. */
export function PageSpinner() {
  const { t } = useLingui();
  return (
    <div role="status" className="flex h-full min-h-40 w-full items-center justify-center gap-3 text-sm text-slate-500">
      <Spinner />
      <span>{t`Loading…`}</span>
    </div>
  );
}
