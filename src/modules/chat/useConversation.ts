/** One order's conversation while it is open: its messages (newest last, older pages on demand),
 * new ones from the stream, sending, and the read marker moved as messages are seen. */
import { useCallback, useEffect, useState } from 'react';
import type { ChatMessage } from '../../../common/chat.ts';
import { conversationOf, markRead, messagesOf, sendMessage, type Conversation } from './api.ts';
import { onChatMessage, trackUnread } from './live.ts';

function merge(list: ChatMessage[], more: ChatMessage[]): ChatMessage[] {
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of more) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

export function useConversation(orderId: number | null) {
  const [info, setInfo] = useState<Conversation | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [failed, setFailed] = useState(false);

  const seen = useCallback(
    (lastId: number) => {
      if (orderId !== null) trackUnread(markRead(orderId, lastId));
    },
    [orderId],
  );

  useEffect(() => {
    setInfo(null);
    setMessages([]);
    setHasMore(false);
    setFailed(false);
    if (orderId === null) return;
    let live = true;
    const off = onChatMessage((m) => {
      if (m.orderId !== orderId) return false;
      setMessages((list) => merge(list, [m]));
      seen(m.id);
      return true;
    });
    Promise.all([conversationOf(orderId), messagesOf(orderId)]).then(
      ([conversation, page]) => {
        if (!live) return;
        setInfo(conversation);
        setMessages((list) => merge(page.list, list));
        setHasMore(page.hasMore);
        const last = page.list.at(-1);
        if (last && conversation.canWrite) seen(last.id);
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      off();
    };
  }, [orderId, seen]);

  const loadOlder = useCallback(async () => {
    if (orderId === null || messages.length === 0) return;
    const page = await messagesOf(orderId, messages[0]!.id);
    setMessages((list) => merge(page.list, list));
    setHasMore(page.hasMore);
  }, [orderId, messages]);

  const send = useCallback(
    async (text: string, fileIds: number[]) => {
      if (orderId === null) return;
      const message = await sendMessage(orderId, text, fileIds);
      setMessages((list) => merge(list, [message]));
    },
    [orderId],
  );

  return { info, messages, hasMore, failed, loadOlder, send };
}
