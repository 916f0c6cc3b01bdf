/** The top bar's count of the user's unread conversation messages: opens the order list. */
import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../../ui/icons.tsx';
import { useChatUnread } from './live.ts';
import { UnreadBadge } from './UnreadBadge.tsx';

export function ChatTotal() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { total } = useChatUnread();
  if (total === 0) return null;
  return (
    <button
      type="button"
      className="aw-btn-icon relative"
      onClick={() => void navigate({ href: '/order/list' })}
      title={t`Unread messages in order conversations`}
      data-testid="chat-total"
    >
      <Icon name="message" className="size-[18px]" />
      <span className="sr-only">{t`Unread messages in order conversations`}</span>
      <span className="absolute -top-0.5 -right-1">
        <UnreadBadge count={total} />
      </span>
    </button>
  );
}
