/** A small count of unread messages; nothing when there are none. */
import { useLingui } from '@lingui/react/macro';

export function UnreadBadge({ count, testId }: { count: number; testId?: string }) {
  const { t } = useLingui();
  if (count <= 0) return null;
  const shown = count > 99 ? '99+' : String(count);
  return (
    <span
      className="inline-flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-red-500 px-1 text-[11px] leading-none font-semibold text-white tabular-nums"
      aria-label={t`${count} unread`}
      data-testid={testId}
      data-count={count}
    >
      {shown}
    </span>
  );
}
