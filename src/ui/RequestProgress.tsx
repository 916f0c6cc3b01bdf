import { useEffect, useState, useSyncExternalStore } from 'react';
import { useLingui } from '@lingui/react/macro';
import { progress } from '../api/progress.ts';

/** Calls quicker than this never show the bar, so it does not flicker. */
const SHOW_AFTER_MS = 200;

/** A thin bar along the top of the window while API calls are under way. */
export function RequestProgress() {
  const { t } = useLingui();
  const pending = useSyncExternalStore(progress.subscribe, () => progress.pending);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (pending === 0) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [pending > 0]);
  if (!visible) return null;
  return (
    <div role="progressbar" aria-label={t`Loading`} className="pointer-events-none fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-primary-light-8">
      <div className="aw-request-progress h-full w-1/3 bg-primary" />
    </div>
  );
}
