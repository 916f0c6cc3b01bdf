/** "Conversation" with the order's unread count, opening its conversation drawer (the editor's header). */
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
        className="inline-flex h-8 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 text-xs font-medium whitespace-nowrap text-slate-700 hover:bg-slate-50"
        onClick={() => setOpen(true)}
        aria-expanded={open}
        data-testid="chat-open"
      >
        <Icon name="message" className="size-4" />
        {t`Conversation`}
        <UnreadBadge count={unread} testId="chat-unread" />
      </button>
      <ChatDrawer orderId={open ? orderId : null} onClose={() => setOpen(false)} />
    </>
  );
}
