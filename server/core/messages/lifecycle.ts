// Messages of the order lifecycle and the editor's order calls (/admin/design/*, /admin/order/info/history).
import type { Catalog } from './types.ts';

export const lifecycleMessages = {
  orderStatusNotWritable: {
    en: 'The status of an order cannot be set directly; submit the design, reopen it, or let the machines finish',
    zh: '订单状态不能直接修改；请提交设计、重新打开或等待设备完成加工',
    de: 'Der Status eines Auftrags kann nicht direkt gesetzt werden; den Entwurf einreichen, wieder öffnen oder die Maschinen fertig arbeiten lassen',
  },
  orderModelsLocked: {
    en: 'The models of a submitted order cannot be changed; reopen the order first',
    zh: '已提交订单的模型不能修改，请先重新打开订单',
    de: 'Die Modelle eines eingereichten Auftrags können nicht geändert werden; den Auftrag zuerst wieder öffnen',
  },
  orderWrongStatus: {
    en: 'Not possible while the order is "{status}"',
    zh: '订单处于“{status}”状态，无法执行此操作',
    de: 'Nicht möglich, solange der Auftrag „{status}“ ist',
  },
  designMissing: {
    en: 'The order has no saved design yet',
    zh: '该订单尚未保存设计',
    de: 'Für den Auftrag ist noch kein Entwurf gespeichert',
  },
  drcMissing: {
    en: 'Run the design rule check on the current design (version {version}) before submitting',
    zh: '提交前请对当前设计（版本 {version}）运行设计规则检查',
    de: 'Vor dem Einreichen die Entwurfsprüfung für den aktuellen Entwurf (Version {version}) ausführen',
  },
  drcFailed: {
    en: 'The design rule check of version {version} found errors; fix them before submitting',
    zh: '版本 {version} 的设计规则检查发现错误，请修正后再提交',
    de: 'Die Entwurfsprüfung von Version {version} hat Fehler gefunden; vor dem Einreichen beheben',
  },
  drcVersionUnknown: {
    en: 'Design version {version} is not the current one (the design is at version {current})',
    zh: '设计版本 {version} 不是当前版本（当前为版本 {current}）',
    de: 'Entwurfsversion {version} ist nicht die aktuelle (der Entwurf ist bei Version {current})',
  },
  designerNotAllowed: {
    en: "Only an orders administrator or the order's creator may change its designer",
    zh: '只有订单管理员或订单创建者可以更改设计师',
    de: 'Nur ein Auftragsadministrator oder der Ersteller des Auftrags darf den Designer ändern',
  },
  modelVersionNotFound: {
    en: 'Model version {version} does not exist',
    zh: '模型版本 {version} 不存在',
    de: 'Modellversion {version} existiert nicht',
  },
  modifyModelOneOf: {
    en: 'Send either a new file (fileId) or the version to restore (restoreVersion)',
    zh: '请提供新文件（fileId）或要恢复的版本（restoreVersion）之一',
    de: 'Entweder eine neue Datei (fileId) oder die wiederherzustellende Version (restoreVersion) senden',
  },
  baseNoFile: {
    en: 'Send the denture base as an STL file',
    zh: '请以 STL 文件发送基托',
    de: 'Die Prothesenbasis als STL-Datei senden',
  },
  baseNotStl: {
    en: 'The denture base is not a readable STL file: {reason}',
    zh: '基托不是可读取的 STL 文件：{reason}',
    de: 'Die Prothesenbasis ist keine lesbare STL-Datei: {reason}',
  },
  copyNotAllowed: {
    en: 'Copying an order needs the permission to add orders',
    zh: '复制订单需要新增订单的权限',
    de: 'Zum Kopieren eines Auftrags ist die Berechtigung zum Anlegen von Aufträgen nötig',
  },
} satisfies Catalog;
