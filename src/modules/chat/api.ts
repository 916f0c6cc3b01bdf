/** The order conversation calls (server/modules/chat), through the session's typed client. */
import { api, unwrap } from '../../api/api.ts';
import type { ChatMessage } from '../../../common/chat.ts';

const chat = (silent = false) => api({ silent }).admin.chat;

export const conversationOf = (orderId: number) => unwrap(chat().session.info.$get({ query: { orderId: String(orderId) } }));
export const unreadCounts = () => unwrap(chat(true).session.unread.$get());
export const markRead = (orderId: number, lastId?: number) => unwrap(chat(true).session.read.$post({ json: { orderId, ...(lastId ? { lastId } : {}) } }));
export const ownFiles = (keyWord: string) => unwrap(chat().session.files.$post({ json: keyWord ? { keyWord } : {} }));
export const messagesOf = (orderId: number, beforeId?: number) =>
  unwrap(chat().message.page.$post({ json: { orderId, ...(beforeId ? { beforeId } : {}) } })) as Promise<{ list: ChatMessage[]; hasMore: boolean }>;
export const sendMessage = (orderId: number, text: string, fileIds: number[]) =>
  unwrap(chat().message.send.$post({ json: { orderId, text, fileIds } })) as Promise<ChatMessage>;

export type Conversation = Awaited<ReturnType<typeof conversationOf>>;
