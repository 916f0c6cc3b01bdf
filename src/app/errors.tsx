/**
 * Rule 5: a route load error shows once "page has an error: {message}"; a module load failure
 * shows "Module loading exception, please refresh the page again".
 */
import { Component, useEffect, type ReactNode } from 'react';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { toast } from '../ui/toast.tsx';
import { Icon } from '../ui/icons.tsx';
import { isModuleLoadError } from './lazy.ts';

const reported = new WeakSet<object>();

/** Shows the error's message once per error. */
function reportPageError(error: unknown): void {
  if (typeof error === 'object' && error !== null) {
    if (reported.has(error)) return;
    reported.add(error);
  }
  if (isModuleLoadError(error)) {
    toast.error(i18n._(msg`Module loading exception, please refresh the page again`));
  } else {
    const message = error instanceof Error ? error.message : String(error);
    toast.error(i18n._(msg`page has an error: ${message}`));
  }
}

function ErrorPanel({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useLingui();
  const moduleFailed = isModuleLoadError(error);
  return (
    <div className="flex h-full min-h-64 flex-col items-center justify-center gap-4 p-8 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-red-50 text-red-500">
        <Icon name="alert" className="size-6" />
      </div>
      <div>
        <h2 className="text-base font-semibold text-slate-800">{t`This page could not be displayed`}</h2>
        <p className="mt-1 text-sm text-slate-500">
          {moduleFailed ? t`A part of the application failed to load.` : t`An unexpected error occurred.`}
        </p>
      </div>
      <div className="flex gap-2">
        {onRetry && !moduleFailed && (
          <button type="button" className="aw-btn-default" onClick={onRetry}>
            {t`Try again`}
          </button>
        )}
        <button type="button" className="aw-btn-primary" onClick={() => window.location.reload()}>
          {t`Reload page`}
        </button>
      </div>
    </div>
  );
}

/** The router's error component (loader/beforeLoad/render errors of a route). */
export function RouteError({ error, reset }: ErrorComponentProps) {
  useEffect(() => reportPageError(error), [error]);
  return <ErrorPanel error={error} onRetry={reset} />;
}

/** Catches render and lazy-load errors of one page so the shell stays usable. */
export class PageErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown) {
    reportPageError(error);
  }

  override render() {
    if (this.state.error) return <ErrorPanel error={this.state.error} onRetry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
