// Messages of params, dictionaries, request log, tasks, versions, help and status config.
import type { Catalog } from './types.ts';

export const opsMessages = {
  paramKeyTaken: { en: 'A param with this key already exists', zh: '参数键已存在', de: 'Ein Parameter mit diesem Schlüssel existiert bereits' },
  paramNotFound: { en: 'No param with the key "{key}"', zh: '参数 "{key}" 不存在', de: 'Kein Parameter mit dem Schlüssel „{key}“' },
  dictKeyTaken: { en: 'A dictionary type with this key already exists', zh: '字典类型键已存在', de: 'Ein Wörterbuchtyp mit diesem Schlüssel existiert bereits' },
  dictParentInvalid: {
    en: 'The parent entry must belong to the same type and must not be the entry itself or one below it',
    zh: '上级条目必须属于同一类型，且不能是自身或其下级',
    de: 'Der übergeordnete Eintrag muss zum selben Typ gehören und darf weder der Eintrag selbst noch einer darunter sein',
  },
  categoryParentInvalid: {
    en: 'The parent category must not be the category itself or one below it',
    zh: '上级分类不能是自身或其下级',
    de: 'Die übergeordnete Kategorie darf weder die Kategorie selbst noch eine darunter sein',
  },
  // The library's own reason is English only; the user gets the rule and an example instead.
  cronInvalid: {
    en: 'The cron expression "{cron}" is invalid: write minute, hour, day of month, month and weekday, e.g. 0 3 * * * (every day at 03:00)',
    zh: 'Cron 表达式“{cron}”不合法：请依次填写 分 时 日 月 周，例如 0 3 * * *（每天 03:00）',
    de: 'Der Cron-Ausdruck „{cron}“ ist ungültig: Minute, Stunde, Tag, Monat und Wochentag angeben, z. B. 0 3 * * * (täglich um 03:00)',
  },
  taskScheduleRequired: {
    en: 'Give a cron expression or an interval (every, at least 1000 ms)',
    zh: '请填写 Cron 表达式或执行间隔（至少 1000 毫秒）',
    de: 'Geben Sie einen Cron-Ausdruck oder ein Intervall an (mindestens 1000 ms)',
  },
  taskServiceUnknown: { en: 'Unknown job "{service}"', zh: '未知的任务 "{service}"', de: 'Unbekannter Job „{service}“' },
  taskNoNextRun: {
    en: 'The task has no run left (end date passed or run limit reached)',
    zh: '任务已没有可执行的时间（已过结束时间或已达执行次数上限）',
    de: 'Der Task hat keine Ausführung mehr (Enddatum vorbei oder Anzahl erreicht)',
  },
  taskSystemDelete: { en: 'System tasks cannot be deleted; stop them instead', zh: '系统任务不能删除，可以停止', de: 'Systemtasks können nicht gelöscht werden; stoppen Sie sie stattdessen' },
  taskDataInvalid: { en: 'Task data must be a JSON object', zh: '任务参数必须是 JSON 对象', de: 'Taskdaten müssen ein JSON-Objekt sein' },
  jobUnavailable: { en: 'The job "{service}" is not available in this version', zh: '此版本不提供任务 "{service}"', de: 'Der Job „{service}“ ist in dieser Version nicht verfügbar' },
  releaseVersionTaken: { en: 'This version already has release notes', zh: '该版本已有版本说明', de: 'Für diese Version gibt es bereits Versionshinweise' },
  // Order statuses (spec section 4), by code in server/modules/order/status.ts.
  orderStatusDesign: { en: 'In design', zh: '设计中', de: 'In Gestaltung' },
  orderStatusPending: { en: 'To be processed', zh: '待加工', de: 'Zu bearbeiten' },
  orderStatusProcessed: { en: 'Processed', zh: '已加工', de: 'Bearbeitet' },
  orderStatusBite: { en: 'Bite registration in progress', zh: '咬合配准中', de: 'Bissregistrierung läuft' },
  aiStatusOff: { en: 'Not enabled', zh: '未启用', de: 'Nicht aktiviert' },
  aiStatusProcessing: { en: 'Processing', zh: '处理中', de: 'In Bearbeitung' },
  aiStatusReady: { en: 'Ready', zh: '已完成', de: 'Fertig' },
  aiStatusFail: { en: 'Failed', zh: '失败', de: 'Fehlgeschlagen' },
  aiStatusSubmitted: { en: 'Submitted', zh: '已提交', de: 'Übermittelt' },
} satisfies Catalog;
