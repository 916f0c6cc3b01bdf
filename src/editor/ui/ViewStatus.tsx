// "Updating the view…" over the viewport while a change has not reached the screen for a moment
// (a heatmap being drawn, seconds per frame on a software renderer or a 1M-triangle scan).
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { EditorEngine } from '../engine/EditorEngine.ts';
import { useFrameStatus } from './frameAttributes.ts';

/** A pending frame shorter than this shows nothing (an ordinary frame, an orbit). */
const SHOW_AFTER_MS = 400;

export function ViewStatus({ engine }: { engine: EditorEngine }) {
  const { t } = useLingui();
  const { pending } = useFrameStatus(engine);
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (!pending) return setLate(false);
    const timer = setTimeout(() => setLate(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [pending]);
  if (!pending || !late) return null;
  return (
    <p
      className="pointer-events-none absolute bottom-3 right-3 flex items-center gap-2 rounded bg-white/90 px-2 py-1 text-xs text-slate-600 shadow-sm"
      role="status"
      data-testid="view-updating"
    >
      <span className="size-3 animate-spin rounded-full border-2 border-slate-300 border-t-primary" aria-hidden />
      {t`Updating the view…`}
    </p>
  );
}
