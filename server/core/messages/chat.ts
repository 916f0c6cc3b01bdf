// Order conversations (server/modules/chat).
import type { Catalog } from './types.ts';

export const chatMessages = {
  chatReadOnly: {
    en: "Only the order's creator and designer can write in its conversation",
    zh: '只有订单的创建者和设计师可以在会话中发言',
    de: 'Nur der Ersteller und der Designer des Auftrags können in seiner Unterhaltung schreiben',
  },
  chatTooManyMessages: {
    en: 'Too many messages, please wait a moment',
    zh: '消息发送过于频繁，请稍后再试',
    de: 'Zu viele Nachrichten, bitte einen Moment warten',
  },
  chatTooManyStreams: {
    en: 'Too many open conversation windows, please close some',
    zh: '打开的会话窗口过多，请关闭一些',
    de: 'Zu viele offene Unterhaltungsfenster, bitte einige schließen',
  },
} satisfies Catalog;
