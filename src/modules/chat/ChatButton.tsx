/** The order's conversation button with its unread count, opening its drawer: an icon in the
 * editor's crowded header (its name as label and tooltip). */
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Icon } from '../../ui/icons.tsx';
import { ChatDrawer } from './ChatDrawer.tsx';
import { useChatUnread } from './live.ts';
import { UnreadBadge } from './UnreadBadge.tsx';

export function ChatButton({ orderId }: { orderId: number }) {
  const { t } = useLingui();
  const unread = useChatUnread().byOrder.get(orderId) ?? 0;
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="relative inline-flex size-8 shrink-0 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-700 hover:bg-slate-50"
        onClick={() => setOpen(true)}
        aria-expanded={open}
        aria-label={t`Conversation`}
        title={t`Conversation`}
        data-testid="chat-open"
      >
        <Icon name="message" className="size-4" />
        <span className="absolute -top-1.5 -right-1.5">
          <UnreadBadge count={unread} testId="chat-unread" />
        </span>
      </button>
      <ChatDrawer orderId={open ? orderId : null} onClose={() => setOpen(false)} />
    </>
  );
}
