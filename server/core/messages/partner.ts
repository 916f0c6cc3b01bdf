// Messages of the partners' open API (server/modules/open).
import type { Catalog } from './types.ts';

export const partnerMessages = {
  partnerRateLimited: {
    en: 'Too many calls with this key, try again later',
    zh: '此密钥调用过于频繁，请稍后再试',
    de: 'Zu viele Aufrufe mit diesem Schlüssel, bitte später erneut versuchen',
  },
  partnerCallNotAllowed: {
    en: 'This partner may not call {call}',
    zh: '此合作方无权调用 {call}',
    de: 'Dieser Partner darf {call} nicht aufrufen',
  },
  partnerOrderNotFound: {
    en: 'The order does not exist or is not of your department',
    zh: '订单不存在或不属于您的部门',
    de: 'Der Auftrag existiert nicht oder gehört nicht zu Ihrer Abteilung',
  },
  partnerUserNotFound: {
    en: 'The user does not exist, is disabled or is not of your department',
    zh: '用户不存在、已停用或不属于您的部门',
    de: 'Der Benutzer existiert nicht, ist gesperrt oder gehört nicht zu Ihrer Abteilung',
  },
  partnerDeviceNotFound: {
    en: 'The device does not exist or is not of your department',
    zh: '设备不存在或不属于您的部门',
    de: 'Das Gerät existiert nicht oder gehört nicht zu Ihrer Abteilung',
  },
  partnerNoDesigner: {
    en: 'Your department has no active user to design the order',
    zh: '您的部门没有可设计该订单的有效用户',
    de: 'Ihre Abteilung hat keinen aktiven Benutzer, der den Auftrag gestalten kann',
  },
  partnerOrderRef: {
    en: 'Name the order by orderId or partnerOrderNo',
    zh: '请通过 orderId 或 partnerOrderNo 指定订单',
    de: 'Geben Sie den Auftrag mit orderId oder partnerOrderNo an',
  },
  partnerModelTwice: {
    en: 'The {field} model is both uploaded and linked',
    zh: '{field} 模型同时被上传和链接',
    de: 'Das Modell {field} wurde sowohl hochgeladen als auch verlinkt',
  },
  partnerLinkRefused: {
    en: 'The link of the {field} model is refused: {reason}',
    zh: '{field} 模型的链接被拒绝：{reason}',
    de: 'Der Link des Modells {field} wird abgelehnt: {reason}',
  },
  partnerLinkNotHttps: { en: 'only https links are fetched', zh: '只获取 https 链接', de: 'nur https-Links werden abgerufen' },
  partnerLinkPrivate: {
    en: 'it points at a private or local address',
    zh: '它指向私有或本地地址',
    de: 'er zeigt auf eine private oder lokale Adresse',
  },
  partnerLinkRedirects: { en: 'too many redirects', zh: '重定向次数过多', de: 'zu viele Weiterleitungen' },
  partnerLinkStatus: { en: 'the server answered {status}', zh: '服务器返回 {status}', de: 'der Server antwortete {status}' },
  partnerLinkTooLarge: { en: 'the file is larger than {max} MB', zh: '文件大于 {max} MB', de: 'die Datei ist größer als {max} MB' },
  partnerLinkFailed: { en: 'it could not be fetched', zh: '无法获取', de: 'er konnte nicht abgerufen werden' },
  partnerLinkNotStl: { en: 'it is not an STL file ({detail})', zh: '它不是 STL 文件（{detail}）', de: 'es ist keine STL-Datei ({detail})' },
  partnerOrderFinished: {
    en: 'The order is processed and can no longer change',
    zh: '订单已加工，无法再修改',
    de: 'Der Auftrag ist bearbeitet und kann nicht mehr geändert werden',
  },
  partnerDesignStarted: {
    en: 'The design of the order has started: it can no longer be deleted',
    zh: '订单的设计已开始，无法再删除',
    de: 'Das Design des Auftrags hat begonnen: er kann nicht mehr gelöscht werden',
  },
  partnerWireNotFound: {
    en: 'The design of the order has no wire {wireId}',
    zh: '订单的设计中没有钢丝 {wireId}',
    de: 'Das Design des Auftrags hat keinen Draht {wireId}',
  },
  partnerWireProgram: {
    en: 'No bend program can be made for wire {wireId}: {reason}',
    zh: '无法为钢丝 {wireId} 生成弯制程序：{reason}',
    de: 'Für den Draht {wireId} lässt sich kein Biegeprogramm erstellen: {reason}',
  },
  partnerKernelsMissing: {
    en: 'the geometry kernels are not built on the server',
    zh: '服务器未构建几何内核',
    de: 'die Geometrie-Kernel sind auf dem Server nicht gebaut',
  },
  partnerBendKeyReused: {
    en: 'This idempotency key was used for another bend',
    zh: '此幂等键已用于另一次弯制',
    de: 'Dieser Idempotenzschlüssel wurde für eine andere Biegung verwendet',
  },
  partnerBendInProgress: {
    en: 'A bend with this idempotency key is being sent: ask again in a moment',
    zh: '使用此幂等键的弯制正在发送，请稍后再查询',
    de: 'Eine Biegung mit diesem Idempotenzschlüssel wird gerade gesendet: bitte gleich erneut fragen',
  },
} satisfies Catalog;
