// Messages of partners' callbacks (server/modules/callbacks).
import type { Catalog } from './types.ts';

export const callbackMessages = {
  deliveryNotFailed: {
    en: 'Only a failed delivery can be sent again',
    zh: '只有失败的回调可以重新发送',
    de: 'Nur eine fehlgeschlagene Zustellung kann erneut gesendet werden',
  },
} satisfies Catalog;
