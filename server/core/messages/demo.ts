// Messages of the plugin demo pages: addresses, the in-memory demo list.
import type { Catalog } from './types.ts';

export const demoMessages = {
  addressRegionInvalid: {
    en: 'Please choose a province, city and district',
    zh: '请选择省、市、区',
    de: 'Bitte Provinz, Stadt und Bezirk wählen',
  },
  addressNotYours: {
    en: 'The delivery address does not belong to the order\'s creator',
    zh: '收货地址不属于订单创建人',
    de: 'Die Lieferadresse gehört nicht dem Ersteller des Auftrags',
  },
  demoFull: {
    en: 'The demo list is full ({max} records): delete some first',
    zh: '演示列表已满（{max} 条），请先删除一些',
    de: 'Die Demo-Liste ist voll ({max} Einträge): bitte zuerst welche löschen',
  },
} satisfies Catalog;
