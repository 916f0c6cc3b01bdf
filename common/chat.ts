// Order conversations (server/modules/chat): the limits both the server and the back office use,
// and the shapes the server answers. The request schemas are chat-request.ts (zod stays out of
// the browser's bundle).

/** Longest message text, in characters after trimming. */
export const CHAT_TEXT_MAX = 2000;
/** Most files one message may refer to. */
export const CHAT_FILES_MAX = 5;
/** Most messages one page of a conversation holds. */
export const CHAT_PAGE_MAX = 100;

export interface ChatFile {
  id: number;
  name: string;
  size: number;
  kind: string;
  url: string;
}

export interface ChatMessage {
  id: number;
  orderId: number;
  senderId: number;
  senderName: string;
  text: string;
  createTime: string;
  files: ChatFile[];
}

export interface ChatUnread {
  total: number;
  orders: { orderId: number; unread: number }[];
}
